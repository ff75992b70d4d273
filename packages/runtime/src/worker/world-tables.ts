/**
 * The worker's entity tables (`world.tables.ships`): spawn, despawn and handles within one table's range of the
 * world (core/tables.ts has the layout). A table's count and its handle counter are its game-run word, its
 * handles the `$handle` field, so whatever carries the world (a publish, `restart('last')`, `restore`, a
 * recording) carries the tables, and a replay gives the same handles; the handle index is rebuilt from them
 * (`rebuild`), never kept anywhere else.
 */
import { HandleIndex } from '../core/handle-index.ts';
import type { Layout, TableLayout } from '../core/layout.ts';
import { TABLE_HANDLE, type Schema } from '../core/schema.ts';
import { COUNT_SPAN, HANDLE_LIMIT, rangeViews, tableCount, type TableName, type TableViews } from '../core/tables.ts';

/**
 * One entity table in the worker: its fields as zero-based views (entity i of the table is `fields.x[i * w]`),
 * its live count, and spawn and despawn within it. Indices are the table's own (0 .. count - 1).
 */
export interface WorldTable<F extends Readonly<Record<string, Float32Array>> = Readonly<Record<string, Float32Array>>> {
  readonly name: string;
  /** One view per field of the table, over its own range: stable, may be cached. */
  readonly fields: F;
  /** One view per private field (`privateFields`), over this table's range. */
  readonly private: Readonly<Record<string, Float32Array>>;
  readonly capacity: number;
  /** The world index of the table's entity 0: its entity i is the world's entity `base + i` (`world.fields`, `world.snap`). */
  readonly base: number;
  /**
   * Live entities: 0 .. count - 1. Setting it (0 to capacity) keeps the handles of the entities kept, gives the
   * ones it brings in new handles, and snaps them.
   */
  count: number;
  /** Adds an entity at index `count` with a new handle; returns its index, or -1 when the table is full. It snaps this tick. */
  spawn(): number;
  /**
   * Removes entity `index`, moving the table's last entity into its place (fields, private fields, handle), and
   * returns the index that moved (the old `count - 1`), or -1 if `index` was the last one or out of range. The
   * moved entity snaps this tick.
   */
  despawn(index: number): number;
  /** Marks entity `index` not to be blended this tick (a teleport). False for an index outside the capacity. */
  snap(index: number): boolean;
  /** The handle of entity `index` (a live one): stable for the entity's life, whatever despawns move it. */
  handle(index: number): number;
  /** The index of the live entity whose handle is `handle`, or -1 (despawned, or never one of this table's). */
  indexOf(handle: number): number;
  /** Removes the entity whose handle is `handle`; returns the index that moved into its place, or -1. */
  despawnHandle(handle: number): number;
}

/** A schema's tables, by name, in the worker. */
export type WorldTables<S extends Schema> = { readonly [N in TableName<S>]: WorldTable<TableViews<S, N>> };

/** What a table needs of the world around it. */
export interface TableHost {
  readonly layout: Layout;
  readonly fields: Readonly<Record<string, Float32Array>>;
  readonly privateViews: readonly { readonly name: string; readonly view: Float32Array; readonly width: number }[];
  /** The world's game run: the tables' counts live there. */
  readonly game: Float64Array;
  /** Entity `to` <- entity `from`, every field and private field (flat indices). */
  move(to: number, from: number): void;
  /** Marks flat entity `index` to snap. */
  snap(index: number): void;
  /** A table's count changed: the world's extent follows. */
  resized(): void;
}

/** The tables, and what the world does with them. */
export interface TablesInternals<S extends Schema> {
  readonly tables: WorldTables<S>;
  /** Entities up to the end of the last table's live ones: the count a publish copies. */
  extent(): number;
  /** After a restore, a load or a clear: the handle indices and counters from the counts and handles now there. */
  rebuild(): void;
}

class Table implements WorldTable {
  readonly name: string;
  readonly fields: Readonly<Record<string, Float32Array>>;
  readonly private: Readonly<Record<string, Float32Array>>;
  readonly capacity: number;
  readonly #base: number;
  readonly #countIndex: number;
  readonly #host: TableHost;
  readonly #handles: Float32Array;
  readonly #index: HandleIndex;

  constructor(table: TableLayout, host: TableHost) {
    const { base, capacity } = table;
    this.name = table.name;
    this.capacity = capacity;
    this.#base = base;
    this.#countIndex = table.countIndex;
    this.#host = host;
    this.fields = rangeViews(table.fields, host.fields, base, capacity);
    this.private = rangeViews(host.privateViews, Object.fromEntries(host.privateViews.map((p) => [p.name, p.view])), base, capacity);
    this.#handles = host.fields[TABLE_HANDLE]!.subarray(base, base + capacity);
    this.#index = new HandleIndex(capacity);
  }

  get base(): number {
    return this.#base;
  }

  get count(): number {
    return tableCount(this.#host.game[this.#countIndex]!);
  }

  /** The next handle to give (the word's upper part: the table's spawns so far, mod HANDLE_LIMIT). */
  get #next(): number {
    return Math.floor(this.#host.game[this.#countIndex]! / COUNT_SPAN);
  }

  set count(n: number) {
    const capacity = this.capacity;
    if (!Number.isInteger(n) || n < 0 || n > capacity) {
      throw new RangeError(`steadyframe: world.tables.${this.name}.count must be a whole number from 0 to the table's capacity ${capacity}; got ${String(n)}`);
    }
    const count = this.count;
    for (let i = n; i < count; i++) this.#index.delete(this.#handles[i]!);
    for (let i = count; i < n; i++) this.#born(i);
    this.#setCount(n);
  }

  spawn(): number {
    const count = this.count;
    if (count >= this.capacity) return -1;
    this.#born(count);
    this.#setCount(count + 1);
    return count;
  }

  despawn(index: number): number {
    const count = this.count;
    if (!Number.isInteger(index) || index < 0 || index >= count) return -1;
    const handles = this.#handles;
    const last = count - 1;
    this.#index.delete(handles[index]!);
    if (index !== last) {
      this.#host.move(this.#base + index, this.#base + last);
      this.#index.set(handles[index]!, index);
      this.#host.snap(this.#base + index);
    }
    this.#setCount(last);
    return index === last ? -1 : last;
  }

  despawnHandle(handle: number): number {
    const index = this.indexOf(handle);
    return index < 0 ? -1 : this.despawn(index);
  }

  snap(index: number): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= this.capacity) return false;
    this.#host.snap(this.#base + index);
    return true;
  }

  handle(index: number): number {
    return this.#handles[index]!;
  }

  indexOf(handle: number): number {
    return this.#index.get(handle);
  }

  rebuild(): void {
    this.#index.index(this.#handles, this.count);
  }

  /** Entity `i` (about to be live): a new handle, not a live one's (the counter wraps after 2^24 spawns), and a snap. */
  #born(i: number): void {
    let h = this.#next;
    while (this.#index.get(h) >= 0) h = (h + 1) % HANDLE_LIMIT;
    this.#write((h + 1) % HANDLE_LIMIT, this.count);
    this.#handles[i] = h;
    this.#index.set(h, i);
    this.#host.snap(this.#base + i);
  }

  #setCount(n: number): void {
    this.#write(this.#next, n);
    this.#host.resized();
  }

  /** The table's word: the handle counter above COUNT_SPAN, the count below (core/tables.ts). */
  #write(next: number, count: number): void {
    this.#host.game[this.#countIndex] = next * COUNT_SPAN + count;
  }
}

export function createWorldTables<S extends Schema>(host: TableHost): TablesInternals<S> {
  const list = host.layout.tables.map((t) => new Table(t, host));
  const tables = Object.freeze(Object.fromEntries(list.map((t) => [t.name, t]))) as unknown as WorldTables<S>;
  const ends = host.layout.tables.map((t) => t.base);
  return {
    tables,
    extent() {
      let extent = 0;
      for (let t = 0; t < list.length; t++) {
        const n = list[t]!.count;
        if (n > 0) extent = ends[t]! + n;
      }
      return extent;
    },
    rebuild() {
      for (const table of list) table.rebuild();
    },
  };
}
