/**
 * A uniform grid over the rocks, rebuilt every tick by a counting sort (no allocation after creation), so a
 * bullet or the ship only looks at the rocks in the 3 x 3 cells around it.
 */
import { HALF_H, HALF_W } from './schema.ts';

export const CELL = 4;
const COLS = Math.ceil((2 * HALF_W) / CELL);
const ROWS = Math.ceil((2 * HALF_H) / CELL);

function cellOf(x: number, y: number): number {
  const c = Math.min(COLS - 1, Math.max(0, Math.floor((x + HALF_W) / CELL)));
  const r = Math.min(ROWS - 1, Math.max(0, Math.floor((y + HALF_H) / CELL)));
  return r * COLS + c;
}

export class RockGrid {
  readonly #start = new Int32Array(COLS * ROWS + 1);
  readonly #items: Int32Array;
  readonly #cells: Int32Array;

  constructor(capacity: number) {
    this.#items = new Int32Array(capacity);
    this.#cells = new Int32Array(capacity);
  }

  /** Files entities `i < count` (a table's: the rocks') by their position. */
  build(position: Float32Array, count: number): void {
    const start = this.#start;
    start.fill(0);
    for (let i = 0; i < count; i++) {
      const cell = cellOf(position[2 * i]!, position[2 * i + 1]!);
      this.#cells[i] = cell;
      start[cell + 1]!++;
    }
    for (let c = 0; c < COLS * ROWS; c++) start[c + 1]! += start[c]!;
    const fill = this.#cells; // reuse: after this loop #cells is only read through start/items
    const next = start.slice(0, COLS * ROWS); // one small copy per tick
    for (let i = 0; i < count; i++) {
      this.#items[next[fill[i]!]!++] = i;
    }
  }

  /** Calls `visit(i)` for every filed entity in the 3 x 3 cells around (x, y); stops when it returns true. */
  near(x: number, y: number, visit: (i: number) => boolean): void {
    const cell = cellOf(x, y);
    const c0 = cell % COLS;
    const r0 = (cell - c0) / COLS;
    for (let r = Math.max(0, r0 - 1); r <= Math.min(ROWS - 1, r0 + 1); r++) {
      for (let c = Math.max(0, c0 - 1); c <= Math.min(COLS - 1, c0 + 1); c++) {
        const k = r * COLS + c;
        for (let j = this.#start[k]!; j < this.#start[k + 1]!; j++) if (visit(this.#items[j]!)) return;
      }
    }
  }
}
