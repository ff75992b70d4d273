/**
 * Turns published states into the render buffer for one frame, by the chosen interpolation mode:
 *
 * | mode          | shows                                                                                  |
 * |---------------|----------------------------------------------------------------------------------------|
 * | `interpolate` | the blend of the two states around the frame's time (default); with `renderDelay`,     |
 * |               | around the frame's time minus that many ticks, from a short history of states          |
 * | `extrapolate` | the newest state at or before the frame's time, moved on by its velocity fields        |
 * |               | (worse: it mispredicts every change of course; ARCHITECTURE.md, Source notes:          |
 * |               | "Extrapolation vs interpolation"); entities that snap this tick show their current     |
 * |               | state                                                                                  |
 * | `latest`      | the newest state as it is: no interpolation at all                                     |
 *
 * When the frame's time is past the newest state (the worker is late: alpha would pass 1), `whenLate`
 * decides: `hold` shows the newest state, `extrapolate` carries the last tick's motion on, at most
 * `maxPrediction` ticks. Either way the frame is counted late. Entities the simulation marked (spawn,
 * despawn, teleport), or that moved further than `snapDistance` in one tick, snap instead of blending.
 * Where a frame falls against its pair, and so its alpha, is one pure decision: core/frame-placement.ts; what
 * the frame's fields become is render-writer.ts's work; the options and their checks are interpolation-options.ts.
 *
 * An *overtaken* frame (its time before the front slot's previous state: the worker published past it) is
 * blended from the history when overtaken-watch.ts kept copies for it (counted `recovered`). What the history
 * cannot serve is flagged and counted `overtaken` again: a time before every state kept, or a pair the main
 * thread never read whole (the worker published the tick after the last frame's read and then moved on: with
 * ticks shorter than frames, often); the frame then shows the nearest blend it has (across the gap, or the
 * oldest state).
 */
import { createPlacement, placeFrame, type InterpolationMode, type LatePolicy } from '../core/frame-placement.ts';
import { interpolateGame } from '../core/interpolate.ts';
import { META, type Layout, type StatePair } from '../core/layout.ts';
import { tableCount } from '../core/tables.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import { HISTORY_DEPTH, StateHistory } from './history.ts';
import { validateInterpolation, type InterpolationOptions } from './interpolation-options.ts';
import { OvertakenWatch } from './overtaken-watch.ts';
import { RenderWriter, type SimdBlend } from './render-writer.ts';

/** Kept for the importers of this path (index.ts, main/runtime-options.ts, test/node/sampler.test.ts). */
export type { InterpolationMode, LatePolicy } from '../core/frame-placement.ts';
export { validateInterpolation, type InterpolationOptions } from './interpolation-options.ts';
export { OVERTAKEN_MISSES_TO_STOP, OVERTAKEN_WATCH_MIN_MS, OVERTAKEN_WATCH_MS, overtakenWatch } from './overtaken-watch.ts';

import type { SampleStats } from '../contracts/frames.ts';

export type { SampleStats } from '../contracts/frames.ts';

/** What one sample found; the runtime copies it into its Frame. */
export interface SampleResult {
  alpha: number;
  time: number;
  previousTick: number;
  tick: number;
  previousTime: number;
  currentTime: number;
  count: number;
  simSeconds: number;
  late: boolean;
  overtaken: boolean;
  snapped: number;
  /** The game fields at the frame's time, by kind (the sampler writes them in place). */
  readonly state: Record<string, number>;
}

/** The render delay in ms moves toward its target by at most this fraction of the frame time: no jumps. */
const DELAY_SLEW = 0.25;

export class Sampler<S extends Schema> {
  readonly stats: SampleStats = { late: 0, extrapolated: 0, gaps: 0, snapped: 0, overtaken: 0, recovered: 0, keptCopies: 0, keptBytes: 0 };
  /** Writes the render buffer: blends, predictions, copies, snaps. */
  readonly #writer: RenderWriter<S>;
  readonly #layout: Layout;
  /** What `placeFrame` reads: mode, whenLate, maxPrediction. */
  readonly #policy: { mode: InterpolationMode; whenLate: LatePolicy; maxPrediction: number } = { mode: 'interpolate', whenLate: 'hold', maxPrediction: 1 };
  /** The decision for the frame being sampled (filled in place: nothing allocated per frame). */
  readonly #place = createPlacement();
  #renderDelay = 0;
  #options: Required<InterpolationOptions<S>> | null = null;
  /**
   * Recent states copied at each acquire: made when a render delay is first asked for, or after an overtaken
   * frame; dropped once neither needs it (the delay has eased back to 0, the watch after the last overtaken
   * frame is over).
   */
  #history: StateHistory<S> | null = null;
  /** A render delay is in effect (or easing out): frames are drawn from the history at their time minus it. */
  #delaying = false;
  /** When the history is kept for overtaken frames (and the ticks read, which say whether it could serve them). */
  readonly #watch = new OvertakenWatch();
  /** What `read` left to `finish`: 'history' (blend an overtaken frame's pair), 'watch' (make the history). */
  #pending: 'none' | 'history' | 'watch' = 'none';
  #delayMs = 0;
  #lastTime = Number.NaN;
  #tickLength = 0;
  /** The time scale (simulated per shared-clock ms) of the newest state read, for predictions from the history. */
  #scale = 1;
  /**
   * A schema of tables: each table's live entities in the state read, `[start, end)` pairs (`#rangeCount` of
   * them), so that a frame blends those alone, not the dead between tables; null for a plain schema.
   */
  readonly #ranges: Int32Array | null;
  #rangeCount = 0;

  constructor(
    readonly schema: S,
    layout: Layout,
    render: FieldViews<S>,
    simd: SimdBlend<S> | null = null,
  ) {
    this.#layout = layout;
    this.#writer = new RenderWriter(schema, layout, render, simd);
    this.#ranges = layout.tables.length === 0 ? null : new Int32Array(2 * layout.tables.length);
  }

  /** `#ranges` from the table words of a state's game run (adjacent ranges joined). */
  #tableRanges(game: Float64Array): void {
    const ranges = this.#ranges!;
    let n = 0;
    for (const table of this.#layout.tables) {
      const count = tableCount(game[table.countIndex]!);
      if (count === 0) continue;
      if (n > 0 && ranges[2 * n - 1] === table.base) {
        ranges[2 * n - 1] = table.base + count;
        continue;
      }
      ranges[2 * n] = table.base;
      ranges[2 * n + 1] = table.base + count;
      n++;
    }
    this.#rangeCount = n;
  }

  /** Changes some options; the others keep their values. Throws for bad values (set-up, not per frame). */
  configure(options: InterpolationOptions<S>): void {
    validateInterpolation(this.schema, options);
    this.#options = null;
    const policy = this.#policy;
    const modeBefore = policy.mode;
    if (options.mode !== undefined) policy.mode = options.mode;
    if (options.renderDelay !== undefined) this.#renderDelay = options.renderDelay;
    if (options.whenLate !== undefined) policy.whenLate = options.whenLate;
    if (options.maxPrediction !== undefined) policy.maxPrediction = options.maxPrediction;
    if (options.snapDistance !== undefined) this.#writer.setSnapDistance(options.snapDistance);
    if (policy.mode !== modeBefore) {
      // another mode takes over at once, with nothing kept; only a change of delay within interpolation eases
      this.#history = null;
      this.#delaying = false;
      this.#watch.reset();
      this.#pending = 'none';
      this.#delayMs = 0;
      this.#lastTime = Number.NaN;
    }
    if (policy.mode === 'interpolate' && this.#renderDelay > 0) {
      this.#delaying = true;
      this.#history ??= this.#createHistory();
    }
  }

  /** The options in effect: one frozen object, made anew only by `configure` (read it every frame if you like). */
  get options(): Required<InterpolationOptions<S>> {
    const policy = this.#policy;
    const writer = this.#writer;
    return (this.#options ??= Object.freeze({
      mode: policy.mode,
      renderDelay: this.#renderDelay,
      whenLate: policy.whenLate,
      maxPrediction: policy.maxPrediction,
      snapDistance: writer.snapField === null ? null : { field: writer.snapField.name as keyof S & string, distance: writer.snapDistance },
    }));
  }

  /** The render delay in effect, in ms (it eases toward `renderDelay` ticks). */
  get delayMs(): number {
    return this.#delayMs;
  }

  /**
   * Under the lock: reads the front slot. Normally this writes the render buffer; with a render delay, or for
   * an overtaken frame while the history is kept, it only records the slot's states, and `finish` (after
   * release) blends from the history.
   */
  read(slot: StatePair<S>, time: number, out: SampleResult): void {
    const meta = slot.metaWords;
    const previousTime = meta[META.PREV_TIME]!;
    const currentTime = meta[META.CUR_TIME]!;
    if (currentTime > previousTime) this.#tickLength = currentTime - previousTime;
    this.#scale = meta[META.SCALE]!;
    const history = this.#history;
    const watch = this.#watch;
    watch.noteRead(meta[META.PREV_TICK]!, previousTime, meta[META.CUR_TICK]!, currentTime);
    const count = meta[META.COUNT]!;
    const previousCount = meta[META.PREV_COUNT]!;
    // the slot's word on its pair: nothing marked (a teleport, a despawn moving an entity) and nothing new, so
    // the snap pass has nothing to find but snapDistance's jumps
    const snapFree = meta[META.SNAPS]! === 0 && count <= previousCount;
    if (history !== null) {
      // copies of the two states' live parts, only if new (a memcpy per tick): the slot is ours until release;
      // the slot's word holds for the two entries if they are adjacent there
      history.record(meta[META.PREV_TICK]!, previousTime, previousCount, slot.previousBlock);
      history.record(meta[META.CUR_TICK]!, currentTime, count, slot.currentBlock, snapFree, meta[META.PREV_TICK]!, previousCount);
    }
    out.simSeconds = meta[META.SIM_TIME]! / 1000; // the meta word is simulated ms
    if (this.#delaying) return;
    this.#lastTime = time; // so a render delay switched on later eases in from here
    out.time = time;
    out.previousTick = meta[META.PREV_TICK]!;
    out.tick = meta[META.CUR_TICK]!;
    out.previousTime = previousTime;
    out.currentTime = currentTime;
    out.count = count;
    out.snapped = 0;
    out.overtaken = false;
    const place = placeFrame(time, previousTime, currentTime, this.#tickLength, this.#policy, this.#place);
    out.late = place.late;
    out.alpha = place.alpha;
    if (place.late) this.stats.late++;
    if (place.overtaken) {
      watch.overtaken(time, previousTime);
      if (history !== null) {
        // the pair around this frame's time may be among the states kept: `finish` blends it from there
        this.#pending = 'history';
        return;
      }
      // nothing kept yet: this frame shows the oldest state at hand; keep states from the next frame on, if
      // they could have served it
      if (watch.covers(time)) this.#pending = 'watch';
      out.overtaken = true;
      this.stats.overtaken++;
    }
    const mode = this.#policy.mode;
    const game = this.#layout.game;
    if (mode === 'latest') {
      // the newest state as published, bit for bit (NaNs, unnormalised quaternions, unwrapped angles)
      this.#writer.copy(slot.current, count);
      if (game.length > 0) interpolateGame(game, slot.previousGame, slot.currentGame, 1, out.state);
      return;
    }
    if (game.length > 0) interpolateGame(game, slot.previousGame, slot.currentGame, place.alpha, out.state);
    if (mode === 'extrapolate') {
      this.#writer.extrapolate(place.alpha === 1 ? slot.current : slot.previous, count, place.ahead * this.#scale);
      // entities new this tick, or marked (a despawn moved another entity into the slot, a teleport), have no
      // previous state of their own to extrapolate from: show them as they are
      if (place.alpha === 0 && !snapFree) {
        out.snapped = this.#writer.snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount);
      }
      this.stats.snapped += out.snapped;
      return;
    }
    if (place.extrapolated) this.stats.extrapolated++;
    const ranges = this.#ranges;
    if (ranges !== null) this.#tableRanges(slot.currentGame);
    this.#writer.blend(slot.previous, slot.current, count, place.alpha, ranges, this.#rangeCount);
    if (!snapFree || this.#writer.snapField !== null) {
      out.snapped = this.#writer.snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount, ranges, this.#rangeCount);
      this.stats.snapped += out.snapped;
    }
  }

  /** After the lock is released: blends from the history (a render delay, an overtaken frame), drops it when unused. */
  finish(time: number, out: SampleResult): void {
    const pending = this.#pending;
    this.#pending = 'none';
    if (pending === 'history') {
      if (this.#drawFromHistory(time, out, true)) this.stats.recovered++;
    } else if (pending === 'watch') {
      this.#history ??= this.#createHistory();
    } else if (this.#delaying) {
      // ease the delay toward its target so that changing it, or the tick length, never jumps the picture
      const target = this.#renderDelay * this.#tickLength;
      const step = Number.isNaN(this.#lastTime) ? Number.POSITIVE_INFINITY : Math.max(0, time - this.#lastTime) * DELAY_SLEW;
      this.#lastTime = time;
      this.#delayMs = target > this.#delayMs ? Math.min(target, this.#delayMs + step) : Math.max(target, this.#delayMs - step);
      this.#drawFromHistory(time - this.#delayMs, out, false);
      // eased out, and asked to (not a tick length still unknown: tick 0's two states stand for one time)
      if (this.#delayMs === 0 && this.#renderDelay === 0) {
        this.#delaying = false; // the delay has eased out: back to reading the slot directly
        this.#lastTime = Number.NaN;
      }
    }
    const history = this.#history;
    if (history !== null) {
      this.stats.keptCopies += history.copies;
      this.stats.keptBytes += history.copiedBytes;
      history.copies = 0;
      history.copiedBytes = 0;
      if (!this.#delaying && !this.#watch.covers(time)) this.#history = null;
    }
  }

  /**
   * Draws the frame at `shown` from the pair of kept states around it, by the mode (interpolate or extrapolate).
   * Returns whether that was its pair: false, and the frame flagged `overtaken`, when `shown` is before every
   * state kept (it shows the oldest), or, with `exact`, when the pair kept skips a tick the main thread never
   * read (a frame the worker overtook; it is blended across the gap, the nearest we have).
   */
  #drawFromHistory(shown: number, out: SampleResult, exact: boolean): boolean {
    const history = this.#history!;
    const i = history.pairAt(shown);
    const a = history.at(i);
    const b = history.at(Math.min(i + 1, history.size - 1));
    out.time = shown;
    out.previousTick = a.tick;
    out.tick = b.tick;
    out.previousTime = a.time;
    out.currentTime = b.time;
    out.count = b.count;
    const place = placeFrame(shown, a.time, b.time, this.#tickLength, this.#policy, this.#place);
    const gap = b.tick - a.tick > 1;
    const served = !place.overtaken && !(exact && gap);
    out.late = place.late;
    out.overtaken = !served;
    out.alpha = place.alpha;
    if (place.late) this.stats.late++;
    if (!served) this.stats.overtaken++;
    if (gap) this.stats.gaps++;
    out.snapped = 0;
    const game = this.#layout.game;
    if (game.length > 0) interpolateGame(game, a.game, b.game, place.alpha, out.state);
    if (this.#policy.mode === 'extrapolate') {
      this.#writer.extrapolate(place.alpha === 1 ? b.fields : a.fields, b.count, place.ahead * this.#scale);
      if (place.alpha === 1) return served;
    } else {
      if (place.extrapolated) this.stats.extrapolated++;
      this.#writer.blend(a.fields, b.fields, b.count, place.alpha);
    }
    // the pass, unless the slot that brought b said nothing was marked or spawned since a (and no snapDistance);
    // entities past the fewest any tick between had snap (they despawned and came back)
    out.snapped =
      b === a || (b.snapFree && this.#writer.snapField === null)
        ? 0
        : this.#writer.snapPass(a.fields, b.fields, a.generation, b.generation, b.count, Math.min(a.count, b.previousCount));
    this.stats.snapped += out.snapped;
    return served;
  }

  #createHistory(): StateHistory<S> {
    return new StateHistory<S>(this.#layout, HISTORY_DEPTH, this.#writer.historyStorage());
  }
}
