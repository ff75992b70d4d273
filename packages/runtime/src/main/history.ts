/**
 * A short history of published states on the main thread, for a render delay: drawing the world a tick or two
 * in the past needs states older than the double buffer's two. Each acquire records the front slot's previous
 * and current state if they are new; lookups find the two states around a time.
 *
 * Ticks are recorded in increasing order. A tick seen again with a later time (the worker re-pinned it on
 * resume or after dropping backlog: the world was held at that state meanwhile) gets a second entry at the new
 * time, so the delayed view holds that state across the pause instead of stretching the tick before it over
 * the pause (which would move it backwards). A tick seen again with an earlier time (a faster time scale
 * brought it forward) simply takes the new time.
 */
import { fieldViews, gameView, generationView, type Layout } from '../core/layout.ts';
import { blockRuns, type BlockRuns } from '../core/publish-copy.ts';
import type { FieldViews, Schema } from '../core/schema.ts';

export interface HistoryEntry<S extends Schema> {
  tick: number;
  time: number;
  count: number;
  /**
   * Known to need no snap pass against the entry before it (but snapDistance's): no entity marked between the
   * two states and the count not above the fewest any tick between had (the front slot said so for that very
   * pair), or the same state held again. False when unknown.
   */
  snapFree: boolean;
  /**
   * The count the snap pass takes as the entry before's: its count, or fewer where the slot that brought this
   * one said so (PREV_COUNT: after publishes skipped for a stalled page, the fewest entities any tick between
   * had; entities past it despawned and came back, and snap).
   */
  previousCount: number;
  readonly block: Float32Array;
  readonly fields: FieldViews<S>;
  readonly generation: Uint32Array;
  /** The state's game fields (`layout.game` order). */
  readonly game: Float64Array;
}

/** Enough for a 2-tick delay with a burst of publishes between two frames. */
export const HISTORY_DEPTH = 6;

/** Source blocks whose live runs are cached (the four slot blocks, and a history block re-recorded). */
const RUN_CACHE = 6;

/** Views of one source block's live part (each field's first `count * width` floats, the generations). */
interface LiveRuns {
  block: Float32Array | null;
  count: number;
  /** Per run: the view of the source, and its float offset in a block. */
  readonly views: Float32Array[];
  readonly starts: number[];
}

export class StateHistory<S extends Schema> {
  /** Oldest first; `size` of them are in use. */
  readonly #entries: HistoryEntry<S>[];
  #size = 0;
  readonly #layout: Layout;
  /** The block's runs (publish-copy.ts): where each field's and the generations' entities lie. */
  readonly #blockRuns: BlockRuns;
  readonly #runs: LiveRuns[] = Array.from({ length: RUN_CACHE }, () => ({ block: null, count: -1, views: [], starts: [] }));
  #nextRuns = 0;
  /** States copied in so far (each the live part of a block). */
  copies = 0;
  /** Bytes copied in so far. */
  copiedBytes = 0;

  /**
   * `storage`, if given, holds the entries' blocks one after another from byte 0 (at least `depth` blocks; the
   * sampler passes a wasm memory, so the SIMD kernels blend from the history too); else each is its own buffer.
   */
  constructor(layout: Layout, depth = HISTORY_DEPTH, storage: ArrayBuffer | null = null) {
    if (storage !== null && storage.byteLength < depth * layout.blockBytes) {
      throw new RangeError(`steadyframe: history storage of ${storage.byteLength} bytes is under ${depth} blocks of ${layout.blockBytes}`);
    }
    this.#layout = layout;
    this.#blockRuns = blockRuns(layout);
    this.#entries = Array.from({ length: depth }, (_, i) => {
      const buffer = storage ?? new ArrayBuffer(layout.blockBytes);
      const offset = storage === null ? 0 : i * layout.blockBytes;
      const block = new Float32Array(buffer, offset, layout.blockBytes / 4);
      return { tick: -1, time: 0, count: 0, snapFree: false, previousCount: 0, block, fields: fieldViews<S>(buffer, offset, layout), generation: generationView(buffer, offset, layout), game: gameView(buffer, offset, layout) };
    });
  }

  get size(): number {
    return this.#size;
  }

  /** The `i`-th oldest entry. */
  at(i: number): HistoryEntry<S> {
    return this.#entries[i]!;
  }

  /**
   * Records a state unless its tick is already here (then see the class comment). What the slot that brought
   * it says of the pair from tick `after` (its PREV) to it, which holds for the entry only if the newest one now
   * is tick `after`: `snapFree`, nothing marked and no count above `afterCount` (SNAPS 0, COUNT <= PREV_COUNT);
   * `afterCount`, the fewest entities any tick between had (PREV_COUNT). Allocates nothing.
   */
  record(tick: number, time: number, count: number, block: Float32Array, snapFree = false, after = -1, afterCount = Number.POSITIVE_INFINITY): void {
    const entries = this.#entries;
    const newest = this.#size > 0 ? entries[this.#size - 1]! : null;
    if (newest !== null && tick <= newest.tick) {
      if (tick !== newest.tick || time === newest.time) return; // older than the newest: nothing new
      if (time < newest.time) {
        newest.time = Math.max(time, this.#size > 1 ? entries[this.#size - 2]!.time : time);
        return;
      }
      // held since newest.time: the same state again, at the time the worker has it now
      this.#push(tick, time, newest.count, newest.block, true, newest.count);
      return;
    }
    const adjacent = newest !== null && newest.tick === after;
    const newestCount = newest === null ? count : newest.count;
    this.#push(tick, time, count, block, snapFree && adjacent, adjacent ? Math.min(newestCount, afterCount) : newestCount);
  }

  #push(tick: number, time: number, count: number, block: Float32Array, snapFree: boolean, previousCount: number): void {
    const entries = this.#entries;
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
    entry.snapFree = snapFree;
    entry.previousCount = previousCount;
    this.#copyLive(block, entry.block, count);
    this.#size++;
  }

  /**
   * Copies only the live part of `from` (each field's first `count` entities, their generations) into `to`: at a
   * quarter full, a quarter of the bytes. The views of a source's live runs are cached per source block and
   * count, so the usual copy allocates nothing (a new count or source makes them once).
   */
  #copyLive(from: Float32Array, to: Float32Array, count: number): void {
    const layout = this.#layout;
    if (count >= layout.capacity) {
      to.set(from);
      this.copies++;
      this.copiedBytes += from.byteLength;
      return;
    }
    let runs: LiveRuns | undefined;
    for (const r of this.#runs) {
      if (r.block === from) {
        runs = r;
        break;
      }
    }
    if (runs === undefined) {
      runs = this.#runs[this.#nextRuns]!;
      this.#nextRuns = (this.#nextRuns + 1) % RUN_CACHE;
      runs.block = from;
      runs.count = -1;
    }
    if (runs.count !== count) {
      runs.count = count;
      runs.views.length = 0;
      runs.starts.length = 0;
      // each run as a publish sees it (the fields, then the generations: uint32, copied as float32 bit patterns,
      // which a same-type set copies byte for byte, NaN bits too); not merged: only live entities are kept
      const { offsets, widths, gameOffset, gameFloats } = this.#blockRuns;
      for (let i = 0; i < offsets.length; i++) {
        const start = offsets[i]!;
        runs.views.push(from.subarray(start, start + count * widths[i]!));
        runs.starts.push(start);
      }
      // and the game fields, whole
      if (gameFloats > 0) {
        runs.views.push(from.subarray(gameOffset, gameOffset + gameFloats));
        runs.starts.push(gameOffset);
      }
    }
    let bytes = 0;
    for (let i = 0; i < runs.views.length; i++) {
      const view = runs.views[i]!;
      to.set(view, runs.starts[i]!);
      bytes += view.byteLength;
    }
    this.copies++;
    this.copiedBytes += bytes;
  }

  clear(): void {
    this.#size = 0;
  }

  /**
   * Index of the newest entry at or before `time` (-1 if `time` is before them all). The pair to blend is that
   * entry and the next one (see `pairAt`).
   */
  indexAt(time: number): number {
    for (let i = this.#size - 1; i >= 0; i--) {
      if (this.#entries[i]!.time <= time) return i;
    }
    return -1;
  }

  /**
   * Index of the older state of the pair to blend for `time`: the newest entry at or before it, but at most the
   * second newest (a time past them all blends the newest two, and is late) and at least 0 (a time before them
   * all gets the oldest two; it is before both: alpha 0). The newer state is the next entry, or the same one
   * when only one is kept. Call with at least one entry.
   */
  pairAt(time: number): number {
    return Math.max(0, Math.min(this.indexAt(time), this.#size - 2));
  }
}
