/**
 * A short history of published states on the main thread, for a render delay: drawing the world a tick or two
 * in the past needs states older than the double buffer's two. Each acquire records the front slot's previous
 * and current state if they are new; lookups find the two states around a time.
 *
 * Ticks are recorded in increasing order. A tick seen again with a new time (the worker re-pinned it on
 * resume or after dropping backlog) takes the new time, so the delayed view moves on without a jump.
 */
import { fieldViews, generationView, type Layout } from '../core/layout.ts';
import type { FieldViews, Schema } from '../core/schema.ts';

export interface HistoryEntry<S extends Schema> {
  tick: number;
  time: number;
  count: number;
  readonly block: Float32Array;
  readonly fields: FieldViews<S>;
  readonly generation: Uint32Array;
}

/** Enough for a 2-tick delay with a burst of publishes between two frames. */
export const HISTORY_DEPTH = 6;

export class StateHistory<S extends Schema> {
  /** Oldest first; `size` of them are in use. */
  readonly #entries: HistoryEntry<S>[];
  #size = 0;

  constructor(layout: Layout, depth = HISTORY_DEPTH) {
    this.#entries = Array.from({ length: depth }, () => {
      const block = new Float32Array(layout.blockBytes / 4);
      return { tick: -1, time: 0, count: 0, block, fields: fieldViews<S>(block.buffer, 0, layout), generation: generationView(block.buffer, 0, layout) };
    });
  }

  get size(): number {
    return this.#size;
  }

  /** The `i`-th oldest entry. */
  at(i: number): HistoryEntry<S> {
    return this.#entries[i]!;
  }

  /** Records a state unless its tick is already here (then only its time is updated). Allocates nothing. */
  record(tick: number, time: number, count: number, block: Float32Array): void {
    const entries = this.#entries;
    const newest = this.#size > 0 ? entries[this.#size - 1]! : null;
    if (newest !== null && tick <= newest.tick) {
      for (let i = this.#size - 1; i >= 0; i--) {
        const entry = entries[i]!;
        if (entry.tick === tick) {
          entry.time = time;
          return;
        }
        if (entry.tick < tick) return; // older than what we keep, or a tick we never saw: skip it
      }
      return;
    }
    if (this.#size === entries.length) {
      // full: the oldest entry's storage becomes the newest
      const oldest = entries.shift()!;
      entries.push(oldest);
      this.#size--;
    }
    const entry = entries[this.#size]!;
    entry.tick = tick;
    entry.time = time;
    entry.count = count;
    entry.block.set(block);
    this.#size++;
  }

  clear(): void {
    this.#size = 0;
  }

  /**
   * Index of the newest entry at or before `time` (-1 if `time` is before them all). The pair to blend is that
   * entry and the next one.
   */
  indexAt(time: number): number {
    for (let i = this.#size - 1; i >= 0; i--) {
      if (this.#entries[i]!.time <= time) return i;
    }
    return -1;
  }
}
