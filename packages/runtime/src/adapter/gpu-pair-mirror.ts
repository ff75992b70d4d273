/**
 * The GPU pair mirror: the upload state machine every GPU path runs (`@steadyframe/three`'s instanced mesh,
 * `@steadyframe/pixi`'s and `@steadyframe/phaser`'s sprites), once. It keeps two buffers per channel (a field's
 * run, or the generations) on the GPU in step with the published pair, through a backend that owns the buffers
 * and knows its graphics API; the mirror decides what to copy where and counts it. A renderer is a backend plus
 * its shader.
 *
 * ```text
 *   mirror.read(reader): under the lock, once a frame                          buffer flip  buffer 1 - flip
 *     tracker.track(pair, published) ─▶ 'none'  upload nothing                 ┌─────────┐  ┌─────────┐
 *                                       'swap'  flip = 1 - flip: the buffers   │previous │  │current  │ per channel
 *                                               that held the current state    └─────────┘  └─────────┘
 *                                               now hold the previous one
 *                                       'full'  copy the previous state into buffer flip
 *     more entities than the buffers hold? backend.allocate(doubled, at most the capacity), then 'full'
 *     each field channel: copy the current state into buffer 1 - flip
 *     the tick marked snaps (SNAPS > 0)? the generations of both states, each buffer's only if it does not
 *       already hold them (the previous state of publish p is the current state of publish (p - 1) >>> 0)
 *   mirror.place(time, interpolation): the alpha uniform (late, overtaken: counted by the tracker)
 *
 *   a copy: backend.copy(channel, buffer, view, offset, elements)
 *     the runtime's own view of the field in the shared memory; `offset` is the first entity's (a table's
 *     base) times the width; `elements` the live entities' values. Straight to the GPU (bufferSubData under the
 *     lock) or into an array the engine uploads later: the backend's choice (`direct` says which, for stats)
 * ```
 *
 * The copies happen under the lock (inside `reader.read`): after the release the worker may publish twice and
 * write into the slot these views show. A GPU that lost what it held (a lost context restored, an engine that
 * unloaded the buffers) calls `forget`, or `reallocate` when the buffers themselves are gone.
 */
import type { StateReader } from '../contracts/frames.ts';
import type { StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { createGpuPairTracker, type GpuFrameStats, type LateOptions } from './gpu-pair-tracker.ts';
import type { BindingTable } from './table-source.ts';

/** One pair of GPU buffers: a field's values (`width` float32 per entity), or the generations (null: uint32, width 1). */
export interface MirrorChannel {
  readonly field: string | null;
  readonly width: number;
}

/** The generations' channel: every mirror has one (the shader compares them when a tick marked snaps). */
export const GENERATIONS: MirrorChannel = { field: null, width: 1 };

/** Which of a channel's two buffers (the mirror's `flip` holds the previous state, `1 - flip` the current one). */
export type MirrorBuffer = 0 | 1;

/** What a renderer does with its buffers; the mirror decides when. Each method is called under the lock. */
export interface GpuMirrorBackend {
  /**
   * Makes both buffers of every channel hold `entities` entities; what they held is gone (the mirror uploads
   * both states next). Called when the buffers grow and by `reallocate`; the backend makes its first buffers at
   * the mirror's `initialCapacity` itself.
   */
  allocate(entities: number): void;
  /**
   * Copies `elements` values of `from`, from index `offset` on, into buffer `buffer` of channel `channel` (an
   * index into the mirror's channels), from the buffer's start; and marks them for the engine to upload, where
   * the engine uploads. `from` is a view of the shared memory: read it now, never keep it.
   */
  copy(channel: number, buffer: MirrorBuffer, from: Float32Array | Uint32Array, offset: number, elements: number): void;
  /** After a swap: buffer `previous` of each channel now holds the previous state (re-point attributes, or a flip uniform). */
  flipped?(previous: MirrorBuffer): void;
  /** Whether the copies go straight to the GPU now (read after each upload, for `stats.directUploads`). */
  readonly direct?: boolean;
}

/**
 * What a mirror counts, into the adapter's own stats object. `grows` and `directUploads` are counted where that
 * object has them (a mirror that starts at its capacity never grows; a backend that always uploads straight
 * need not say so).
 */
export interface GpuMirrorStats extends GpuFrameStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /** States whose generations were uploaded (only a pair whose tick marked snaps needs them). */
  generationUploads: number;
  /** Reads whose acquire gave up (the lock stayed busy): the GPU kept the last pair. */
  misses: number;
  grows?: number;
  directUploads?: number;
}

export interface GpuPairMirrorOptions {
  /** The channels, in the backend's order: the fields', and the generations' once (`GENERATIONS`). */
  readonly channels: readonly MirrorChannel[];
  /** The table the mirror draws (`bindingTable`): its range of each state and its counts; null: every entity. */
  readonly table: BindingTable | null;
  /** The runtime's capacity (the table's is used, given one): the most entities the buffers ever hold. */
  readonly capacity: number;
  /** Entities the backend's first buffers hold (at most the capacity); default the capacity (never grows). */
  readonly initialCapacity?: number;
  /** The adapter's stats, counted into (see `GpuMirrorStats`). */
  readonly stats: GpuMirrorStats;
}

export interface GpuPairMirror {
  /**
   * Takes the runtime's lock once (`reader.read`) and uploads what was published since the last upload.
   * Returns false when the lock stayed busy (counted in `stats.misses`): the GPU keeps the last pair.
   * Allocates nothing, except through the backend when the buffers grow.
   */
  read(reader: Pick<StateReader<Schema>, 'read'>): boolean;
  /** The frame's alpha at shared-clock `time` against the pair on the GPU (`GpuPairTracker.place`). */
  place(time: number, options?: LateOptions): number;
  /** The GPU lost what the buffers held (an engine unloaded them, a context was restored): both states next. */
  forget(): void;
  /** The buffers themselves are gone (a new context): `backend.allocate(bufferCapacity)`, then both states next. */
  reallocate(): void;
  /** Which buffer of each channel holds the previous state (the other one: the current state). */
  readonly flip: MirrorBuffer;
  /** Live entities (the table's, given one) in the current and previous state of the pair last read. */
  readonly count: number;
  readonly previousCount: number;
  /** Whether the tick of the pair on the GPU marked snaps: its generations are on the GPU, to be compared. */
  readonly snaps: boolean;
  /** Entities the buffers hold now. */
  readonly bufferCapacity: number;
  /** The last `place`'s alpha. */
  readonly alpha: number;
}

const NONE = -1;

/**
 * Creates a mirror with nothing on the GPU over `backend`'s buffers. Throws at set-up unless the channels hold
 * one generations channel and the initial capacity is a whole number of at least 1.
 */
export function createGpuPairMirror(options: GpuPairMirrorOptions, backend: GpuMirrorBackend): GpuPairMirror {
  const { channels, table, stats } = options;
  const generations = channels.findIndex((c) => c.field === null);
  if (generations < 0 || channels.findLastIndex((c) => c.field === null) !== generations || channels[generations]!.width !== 1) {
    throw new TypeError('steadyframe: a GPU pair mirror needs one generations channel ({ field: null, width: 1 }: GENERATIONS) among its channels');
  }
  // a table's range of each state (entities base .. base + capacity - 1), or every entity
  const base = table?.layout.base ?? 0;
  const capacity = table?.layout.capacity ?? options.capacity;
  let bufferCapacity = Math.min(options.initialCapacity ?? capacity, capacity);
  if (!Number.isInteger(bufferCapacity) || bufferCapacity < 1) {
    throw new RangeError(`steadyframe: a GPU pair mirror's initial capacity must be a whole number of at least 1; got ${String(options.initialCapacity)}`);
  }
  const tracker = createGpuPairTracker(stats, table?.layout ?? null);
  let flip: MirrorBuffer = 0;
  let count = 0;
  let previousCount = 0;
  let snaps = false;
  // the publish whose current state's generations each generation buffer holds (NONE: none known)
  const generationsOf = [NONE, NONE];

  const copy = (k: number, buffer: MirrorBuffer, from: Float32Array | Uint32Array, entities: number): void => {
    if (entities === 0) return;
    const width = channels[k]!.width;
    backend.copy(k, buffer, from, base * width, entities * width);
  };

  const forget = (): void => {
    tracker.forget();
    generationsOf[0] = generationsOf[1] = NONE;
  };

  /** Under the lock (`reader.read` releases it after): uploads a new pair; the tracker notes its times and counts. */
  const upload = (pair: StatePair<Schema>, published: number): true => {
    const what = tracker.track(pair, published);
    // checked by the reader (whole, within the capacity) or, for a table, its word in the game run (within
    // the table's capacity, by the worker): the bound keeps a bad word from growing the buffers forever
    count = Math.min(tracker.count, capacity);
    previousCount = Math.min(tracker.previousCount, capacity);
    if (what === 'none') return true;
    let full = what === 'full';
    const needed = Math.max(count, previousCount);
    if (needed > bufferCapacity) {
      // both buffers of every channel grow together, and hold nothing after
      while (bufferCapacity < needed) bufferCapacity = Math.min(bufferCapacity * 2, capacity);
      backend.allocate(bufferCapacity);
      generationsOf[0] = generationsOf[1] = NONE;
      if (stats.grows !== undefined) stats.grows++;
      full = true;
    }
    if (full) {
      for (let k = 0; k < channels.length; k++) {
        const field = channels[k]!.field;
        if (field !== null) copy(k, flip, pair.previous[field]!, previousCount);
      }
      stats.fullUploads++;
    } else {
      // one publish on: its previous state is, byte for byte, the current state uploaded last time
      flip = flip === 0 ? 1 : 0;
      backend.flipped?.(flip);
      stats.swaps++;
    }
    const current: MirrorBuffer = flip === 0 ? 1 : 0;
    for (let k = 0; k < channels.length; k++) {
      const field = channels[k]!.field;
      if (field !== null) copy(k, current, pair.current[field]!, count);
    }
    snaps = tracker.snaps > 0;
    if (snaps) {
      // the shader compares the pair's generations: both must be on the GPU
      const before = (published - 1) >>> 0;
      if (generationsOf[flip] !== before) {
        copy(generations, flip, pair.previousGeneration, previousCount);
        generationsOf[flip] = before;
        stats.generationUploads++;
      }
      copy(generations, current, pair.currentGeneration, count);
      generationsOf[current] = published;
      stats.generationUploads++;
    } else {
      // a tick without marked snaps leaves the generations home (the shader does not compare them): the
      // current buffer's are an older state's, or nothing; forgotten, so the next tick with snaps uploads both
      generationsOf[current] = NONE;
    }
    if (backend.direct === true && stats.directUploads !== undefined) stats.directUploads++;
    return true;
  };

  return {
    read(reader) {
      const fresh = reader.read(upload) === true;
      if (!fresh) stats.misses++;
      return fresh;
    },
    place(time, late) {
      return tracker.place(time, late);
    },
    forget,
    reallocate() {
      backend.allocate(bufferCapacity);
      forget();
    },
    get flip() {
      return flip;
    },
    get count() {
      return count;
    },
    get previousCount() {
      return previousCount;
    },
    get snaps() {
      return snaps;
    },
    get bufferCapacity() {
      return bufferCapacity;
    },
    get alpha() {
      return tracker.alpha;
    },
  };
}
