/**
 * Handle -> index for one entity table, without allocation: open addressing with linear probing over a
 * power-of-two table at most half full (a table's live entities are at most its capacity), deletion by
 * backward shift (no tombstones, so probes stay short however many spawns and despawns go by). The worker
 * keeps one per table up to date; the page fills one per table from a frame's handles when asked.
 */

const EMPTY = -1;
/** Knuth's multiplicative hash: handles are consecutive numbers, which this spreads over the table. */
const GOLDEN = 0x9e3779b1;

export class HandleIndex {
  readonly #keys: Int32Array;
  readonly #values: Int32Array;
  readonly #mask: number;
  readonly #shift: number;

  /** For up to `capacity` handles at once. Allocates; make one at set-up. */
  constructor(capacity: number) {
    let size = 8;
    while (size < 2 * capacity) size *= 2;
    this.#keys = new Int32Array(size).fill(EMPTY);
    this.#values = new Int32Array(size);
    this.#mask = size - 1;
    this.#shift = 32 - Math.log2(size);
  }

  #home(handle: number): number {
    return Math.imul(handle, GOLDEN) >>> this.#shift;
  }

  /** The index of `handle`, or -1. */
  get(handle: number): number {
    const keys = this.#keys;
    const mask = this.#mask;
    for (let i = this.#home(handle); ; i = (i + 1) & mask) {
      const key = keys[i]!;
      if (key === handle) return this.#values[i]!;
      if (key === EMPTY) return -1;
    }
  }

  /** Maps `handle` (a whole number from 0 to 2^31 - 1) to `index`, adding or replacing. */
  set(handle: number, index: number): void {
    const keys = this.#keys;
    const mask = this.#mask;
    let i = this.#home(handle);
    while (keys[i] !== EMPTY && keys[i] !== handle) i = (i + 1) & mask;
    keys[i] = handle;
    this.#values[i] = index;
  }

  /** Removes `handle` if present; returns whether it was. */
  delete(handle: number): boolean {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    let i = this.#home(handle);
    for (; ; i = (i + 1) & mask) {
      const key = keys[i]!;
      if (key === EMPTY) return false;
      if (key === handle) break;
    }
    // backward shift: pull each later key of the run into the hole when its home does not lie between the
    // hole and it (cyclically), so that every key stays reachable from its home without tombstones
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const key = keys[j]!;
      if (key === EMPTY) break;
      const home = this.#home(key);
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      keys[i] = key;
      values[i] = values[j]!;
      i = j;
    }
    keys[i] = EMPTY;
    return true;
  }

  /** Removes every handle. */
  clear(): void {
    this.#keys.fill(EMPTY);
  }

  /** Holds exactly the first `count` of `handles`, each at its index (a table's live entities). */
  index(handles: ArrayLike<number>, count: number): void {
    this.clear();
    for (let i = 0; i < count; i++) this.set(handles[i]!, i);
  }
}
