/**
 * A frame's entity tables (`frame.tables.ships`): each table's range of the frame's render buffer as zero-based
 * views, its count in the state drawn, and its entities' handles (core/tables.ts). Made once per runtime; the
 * views are the render buffer's, so read them during the draw, like `frame.fields`.
 */
import { HandleIndex } from '../core/handle-index.ts';
import type { Layout, TableLayout } from '../core/layout.ts';
import { TABLE_HANDLE, type FieldViews, type Schema } from '../core/schema.ts';
import { tableCount } from '../core/tables.ts';
import type { FrameTable, FrameTables } from '../contracts/frames.ts';

export type { FrameTable, FrameTables } from '../contracts/frames.ts';

class ShownTable implements FrameTable {
  readonly name: string;
  readonly fields: Readonly<Record<string, Float32Array>>;
  readonly capacity: number;
  readonly base: number;
  readonly #word: string;
  readonly #state: Readonly<Record<string, number>>;
  readonly #handles: Float32Array;
  readonly #frameIndex: () => number;
  readonly #index: HandleIndex;
  /** The frame whose handles `#index` holds (-1: none yet). */
  #indexed = -1;

  constructor(table: TableLayout, render: Readonly<Record<string, Float32Array>>, state: Readonly<Record<string, number>>, frameIndex: () => number) {
    const { base, capacity } = table;
    this.name = table.name;
    this.capacity = capacity;
    this.base = base;
    this.fields = Object.freeze(Object.fromEntries(table.fields.map((f) => [f.name, render[f.name]!.subarray(base * f.width, (base + capacity) * f.width)])));
    this.#handles = render[TABLE_HANDLE]!.subarray(base, base + capacity);
    this.#word = `$${table.name}`;
    this.#state = state;
    this.#frameIndex = frameIndex;
    this.#index = new HandleIndex(capacity);
  }

  get count(): number {
    return tableCount(this.#state[this.#word]!);
  }

  handle(index: number): number {
    return this.#handles[index]!;
  }

  indexOf(handle: number): number {
    const frame = this.#frameIndex();
    if (this.#indexed !== frame) {
      this.#indexed = frame;
      const index = this.#index;
      const handles = this.#handles;
      index.clear();
      for (let i = 0, n = this.count; i < n; i++) index.set(handles[i]!, i);
    }
    return this.#index.get(handle);
  }
}

/**
 * The tables over a frame's render buffer and game state (`render` and `state` are the frame's own objects,
 * written in place each frame); `frameIndex` says which frame is current. Allocates; call once per runtime.
 */
export function createFrameTables<S extends Schema>(layout: Layout, render: FieldViews<S>, state: Readonly<Record<string, number>>, frameIndex: () => number): FrameTables<S> {
  const views = render as Readonly<Record<string, Float32Array>>;
  return Object.freeze(Object.fromEntries(layout.tables.map((t) => [t.name, new ShownTable(t, views, state, frameIndex)]))) as unknown as FrameTables<S>;
}
