/**
 * A frame's entity tables (`frame.tables.ships`): each table's range of the frame's render buffer as zero-based
 * views, its count in the state drawn, and its entities' handles (core/tables.ts). Made once per runtime; the
 * views are the render buffer's, so read them during the draw, like `frame.fields`.
 */
import { HandleIndex } from '../core/handle-index.ts';
import type { Layout, TableLayout } from '../core/layout.ts';
import { TABLE_HANDLE, type FieldViews, type Schema } from '../core/schema.ts';
import { rangeViews, tableCount } from '../core/tables.ts';
import type { FrameTable, FrameTables } from '../contracts/frames.ts';

export type { FrameTable, FrameTables } from '../contracts/frames.ts';

class ShownTable implements FrameTable {
  readonly name: string;
  readonly fields: Readonly<Record<string, Float32Array>>;
  readonly capacity: number;
  readonly base: number;
  readonly #words: Float64Array;
  readonly #number: number;
  readonly #handles: Float32Array;
  readonly #frameIndex: () => number;
  readonly #index: HandleIndex;
  /** The frame whose handles `#index` holds (-1: none yet). */
  #indexed = -1;

  constructor(table: TableLayout, number: number, render: Readonly<Record<string, Float32Array>>, words: Float64Array, frameIndex: () => number) {
    const { base, capacity } = table;
    this.name = table.name;
    this.capacity = capacity;
    this.base = base;
    this.fields = rangeViews(table.fields, render, base, capacity);
    this.#handles = render[TABLE_HANDLE]!.subarray(base, base + capacity);
    this.#words = words;
    this.#number = number;
    this.#frameIndex = frameIndex;
    this.#index = new HandleIndex(capacity);
  }

  get count(): number {
    return tableCount(this.#words[this.#number]!);
  }

  handle(index: number): number {
    return this.#handles[index]!;
  }

  indexOf(handle: number): number {
    const frame = this.#frameIndex();
    if (this.#indexed !== frame) {
      this.#indexed = frame;
      this.#index.index(this.#handles, this.count);
    }
    return this.#index.get(handle);
  }
}

/**
 * The tables over a frame's render buffer (`render`, the frame's own views, written in place by each sample) and
 * `words`, each table's word (in `layout.tables` order) as the sample that wrote the render buffer blended it: the
 * frame loop copies them there after each sample that took the lock (`copyTableWords`), so that a frame's counts
 * always go with its entities, whatever `pace()` wrote into `frame.state` since. `frameIndex` says which frame is
 * current. Allocates; call once per runtime.
 */
export function createFrameTables<S extends Schema>(layout: Layout, render: FieldViews<S>, words: Float64Array, frameIndex: () => number): FrameTables<S> {
  const views = render as Readonly<Record<string, Float32Array>>;
  return Object.freeze(Object.fromEntries(layout.tables.map((t, number) => [t.name, new ShownTable(t, number, views, words, frameIndex)]))) as unknown as FrameTables<S>;
}

/** The names of the tables' words in a frame's `state`, in `layout.tables` order (for `copyTableWords`). */
export const tableWordNames = (layout: Layout): readonly string[] => layout.tables.map((t) => layout.game[t.countIndex]!.name);

/** Copies each table's word (named by `names`) from a sampled frame's `state` into `words`. Allocates nothing. */
export function copyTableWords(names: readonly string[], state: Readonly<Record<string, number>>, words: Float64Array): void {
  for (let t = 0; t < names.length; t++) words[t] = state[names[t]!]!;
}
