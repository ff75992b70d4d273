/**
 * The GPU pair tracker: what a renderer that blends on the GPU must know between frames (the GPU pair mirror's,
 * `gpu-pair-mirror.ts`, on which `@steadyframe/three`, `@steadyframe/pixi` and `@steadyframe/phaser` draw).
 * Which publish is on the GPU, so a new pair costs one state's upload when it is one publish on; and where each
 * frame falls against that pair, by the sampler's own decision (`placeFrame`, core/frame-placement.ts), late
 * and overtaken frames included. Pure logic over a `StatePair`: no GPU, no clock.
 *
 * ```text
 *   each frame, under the lock:
 *     reader.read((pair, n) => tracker.track(pair, n))   and upload as it answers:
 *       n is on the GPU already                → 'none'  upload nothing
 *       n is one publish on (mod 2^32)         → 'swap'  the GPU's current state becomes its previous one;
 *                                                         upload the current state
 *       anything else (the first, skipped ones) → 'full'  upload the previous and the current state
 *   after the release:
 *     alpha uniform = tracker.place(time, runtime.interpolation)
 *
 *                previousTime                currentTime
 *   ───────────────────┼───────────────────────────┼──────────────────▶ frame time (shared-clock ms)
 *      overtaken: the  │ alpha (t - p) / (c - p)    │ late: held at 1 (whenLate 'hold'), or carried on to at
 *      previous state  │ in [0, 1]                  │ most 1 + maxPrediction (whenLate 'extrapolate'); counted
 *      (alpha 0);      │                            │
 *      counted         │                            │
 * ```
 *
 * A swap relies on the slot discipline: the previous state of publish n is, byte for byte, the current state of
 * publish n - 1. A GPU that lost what it held (buffers grown or unloaded, a lost context) calls `forget`.
 *
 * Why `whenLate: 'extrapolate'` is honest here: the GPU paths' shaders blend with the arithmetic of the
 * runtime's `interpolateField` kernels (lerp, nlerp with the sign fixed, the short-arc angle; in float32),
 * unclamped, so an alpha past 1 carries the last tick's motion on as the sampler's late frames do, and entities
 * that snap show their current state either way. The sampler's other options are not read: `mode`
 * 'extrapolate' needs velocity fields the GPU does not hold, 'latest' a copy bit for bit (a blend at alpha 1
 * renormalises quaternions), `renderDelay` older states, `snapDistance` a test per entity. An overtaken
 * frame's own pair is gone from the GPU (the sampler may still hold it in its history): it is drawn at the
 * previous state, the nearest at hand.
 */
import { createPlacement, placeFrame, type InterpolationMode, type LatePolicy } from '../core/frame-placement.ts';
import { countOf, currentTimeOf, previousCountOf, previousTickOf, previousTimeOf, snapsOf, tickOf, type PairMeta } from './pair-words.ts';
import type { StatePair, TableLayout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { tableCount } from '../core/tables.ts';

/** What `track` asks the caller to upload for the pair it was given. */
export type PairUpload = 'none' | 'swap' | 'full';

/** Counters of the frames `place` found off their pair; an adapter's own stats can be this very object. */
export interface GpuFrameStats {
  /** Frames whose time was past the newest state on the GPU (the worker was late): held, or carried on. */
  late: number;
  /** Late frames carried on past the newest state (`whenLate: 'extrapolate'`). */
  extrapolated: number;
  /** Frames whose time was before the previous state on the GPU (the worker had published past it): drawn at it. */
  overtaken: number;
}

/**
 * What a late frame shows: the runtime's interpolation options (`runtime.interpolation` fits), of which only
 * these two are read. Defaults: `'hold'`, 1 tick.
 */
export interface LateOptions {
  readonly whenLate?: LatePolicy;
  /** Most ticks past the newest state a late frame is carried on (`whenLate: 'extrapolate'`). */
  readonly maxPrediction?: number;
}

export interface GpuPairTracker {
  /**
   * Inside `reader.read`: notes `pair` (a `StatePair`; its ticks, times and counts, read every time: a restamp moves the times
   * without a publish) and answers what to upload: 'none' (this publish is on the GPU), 'swap' (one publish
   * on: the GPU's current state becomes the previous one, upload the current state only) or 'full' (upload
   * both). From then on the tracker takes `publishCount` to be on the GPU: a caller that uploads both where
   * 'swap' was answered (its buffers had to grow) may. Allocates nothing.
   */
  track(pair: TrackedPair, publishCount: number): PairUpload;
  /** The GPU lost what it held (buffers grown, unloaded, a lost context): the next `track` answers 'full'. */
  forget(): void;
  /**
   * Places a frame at shared-clock `time` (ms) against the pair last tracked, as the sampler would in
   * 'interpolate' mode without a render delay, and returns its alpha: in [0, 1], or up to 1 + `maxPrediction`
   * for a late frame under `whenLate: 'extrapolate'`. Counts late, extrapolated and overtaken frames (once a
   * call: call it once per frame drawn). Before any pair was tracked: 1, nothing counted. Allocates nothing.
   */
  place(time: number, options?: LateOptions): number;
  /** The publish count of the pair on the GPU (mod 2^32), or -1 for none (nothing tracked yet, or forgotten). */
  readonly publishCount: number;
  /** The pair last tracked: as of the last `track`, which may be older than the newest publish (a missed lock). */
  readonly previousTick: number;
  readonly tick: number;
  readonly previousTime: number;
  readonly currentTime: number;
  /** Live entities in the pair's current and previous state: the table's, for a tracker of one table. */
  readonly count: number;
  readonly previousCount: number;
  readonly snaps: number;
  /** The last `place`'s answers. */
  readonly alpha: number;
  readonly late: boolean;
  readonly extrapolated: boolean;
  readonly overtaken: boolean;
  readonly stats: Readonly<GpuFrameStats>;
}

/** What `track` reads of a pair: its meta words, and its game runs for a tracker of one table (a `StatePair` has both). */
export type TrackedPair = PairMeta & Partial<Pick<StatePair<Schema>, 'previousGame' | 'currentGame'>>;

const NONE = -1;

/**
 * Creates a tracker with nothing on the GPU. `stats`: the object to count into (an adapter passes its own
 * stats, which then carry `late`, `extrapolated` and `overtaken`); default a new one. `table`: a table of a
 * schema of tables (`bindingTable(...).layout`) whose counts `count` and `previousCount` are (read from the
 * table's word in each state's game run), for a binding that draws that table alone; null (default): every
 * entity's.
 */
export function createGpuPairTracker(stats: GpuFrameStats = { late: 0, extrapolated: 0, overtaken: 0 }, table: TableLayout | null = null): GpuPairTracker {
  let uploaded = NONE;
  let tracked = false;
  let previousTick = 0;
  let tick = 0;
  let previousTime = 0;
  let currentTime = 0;
  let count = 0;
  let previousCount = 0;
  let snaps = 0;
  let alpha = 1;
  // the placement and the policy are filled in place: nothing allocated per frame
  const place = createPlacement();
  const policy: { mode: InterpolationMode; whenLate: LatePolicy; maxPrediction: number } = { mode: 'interpolate', whenLate: 'hold', maxPrediction: 1 };
  return {
    track(pair, publishCount) {
      tracked = true;
      previousTick = previousTickOf(pair);
      tick = tickOf(pair);
      previousTime = previousTimeOf(pair);
      currentTime = currentTimeOf(pair);
      if (table === null) {
        count = countOf(pair);
        previousCount = previousCountOf(pair);
      } else {
        if (pair.currentGame === undefined || pair.previousGame === undefined) {
          throw new TypeError('steadyframe: a GPU pair tracker of a table tracks whole pairs (a StatePair: the table counts are in its game runs)');
        }
        count = tableCount(pair.currentGame[table.countIndex]!);
        previousCount = tableCount(pair.previousGame[table.countIndex]!);
      }
      snaps = snapsOf(pair);
      if (publishCount === uploaded) return 'none';
      // one publish on, modulo 2^32 (the count wraps): its previous state is the current state on the GPU
      const upload = uploaded !== NONE && ((publishCount - uploaded) >>> 0) === 1 ? 'swap' : 'full';
      uploaded = publishCount;
      return upload;
    },
    forget() {
      uploaded = NONE;
    },
    place(time, options) {
      if (!tracked) {
        place.late = place.overtaken = place.extrapolated = false;
        return (alpha = 1);
      }
      policy.whenLate = options?.whenLate ?? 'hold';
      policy.maxPrediction = options?.maxPrediction ?? 1;
      // 'interpolate' mode reads no tick length (only 'extrapolate' mode's prediction does)
      placeFrame(time, previousTime, currentTime, currentTime - previousTime, policy, place);
      if (place.late) stats.late++;
      if (place.extrapolated) stats.extrapolated++;
      if (place.overtaken) stats.overtaken++;
      return (alpha = place.alpha);
    },
    get publishCount() {
      return uploaded;
    },
    get previousTick() {
      return previousTick;
    },
    get tick() {
      return tick;
    },
    get previousTime() {
      return previousTime;
    },
    get currentTime() {
      return currentTime;
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
    get alpha() {
      return alpha;
    },
    get late() {
      return place.late;
    },
    get extrapolated() {
      return place.extrapolated;
    },
    get overtaken() {
      return place.overtaken;
    },
    stats,
  };
}
