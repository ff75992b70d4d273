/**
 * Turns published states into the render buffer for one frame, by the chosen interpolation mode:
 *
 * | mode          | shows                                                                                  |
 * |---------------|----------------------------------------------------------------------------------------|
 * | `interpolate` | the blend of the two states around the frame's time (default); with `renderDelay`,     |
 * |               | around the frame's time minus that many ticks, from a short history of states          |
 * | `extrapolate` | the newest state at or before the frame's time, moved on by its velocity fields        |
 * |               | (source note 002 explains why this is worse: it mispredicts every change of course);   |
 * |               | entities that snap this tick show their current state                                  |
 * | `latest`      | the newest state as it is: no interpolation at all                                     |
 *
 * When the frame's time is past the newest state (the worker is late: alpha would pass 1), `whenLate`
 * decides: `hold` shows the newest state, `extrapolate` carries the last tick's motion on, at most
 * `maxPrediction` ticks. Either way the frame is counted late. Entities the simulation marked (spawn,
 * despawn, teleport), or that moved further than `snapDistance` in one tick, snap instead of blending.
 * Where a frame falls against its pair, and so its alpha, is one pure decision: core/frame-placement.ts.
 *
 * An *overtaken* frame is the opposite of a late one: its time is before the front slot's previous state (its
 * animation-frame callback ran late and the worker, which may run `maxLeadTicks` ahead, already published past it),
 * so the pair around its time is no longer in the slot. The main thread keeps no copies of states while nothing is
 * overtaken (a copy per tick would cost every frame a block's memcpy). The first overtaken frame is drawn at the
 * oldest state at hand (alpha 0) and flagged `overtaken`; if its pair had been read whole (the sampler keeps the
 * numbers and times of the ticks read, read-ticks.ts, so it knows without copying), then for a while after the last
 * such one (`overtakenWatch`: 1 s after a lone one, longer when they recur; or the first ones, below) every acquire
 * also records the live part of the slot's states in the render-delay history, and an overtaken frame is blended
 * from its exact pair there (counted as `recovered`). Overtaken frames whose pair was never read (frames farther
 * apart than ticks: a slow page) are given the benefit of the doubt only where the last few reads before the first
 * of them skipped no tick, and only until `OVERTAKEN_MISSES_TO_STOP` of them in a row: that stops the copies, and
 * from then on only an overtaken frame that could have been served starts them (`keptCopies` counts them). What the
 * history cannot serve is flagged and counted `overtaken` again: a time before every state kept, or a pair the main
 * thread never read whole (the worker published the tick after the last frame's read and then moved on: with ticks
 * shorter than frames, often); the frame then shows the nearest blend it has (across the gap, or the oldest state).
 *
 * ```text
 *   frame F-1 reads (k, k+1) ── F's rAF callback runs late ── worker publishes k+2, k+3 ── F reads (k+2, k+3)
 *   F's time lies in [k, k+1]:  slot alone → alpha clamps to 0: draws k+2, up to 2 ticks off  (before)
 *                               history holds k, k+1 (recorded by F-1) → blends k..k+1 exactly  (watching)
 * ```
 */
import { describeValue } from '../core/describe-value.ts';
import { createPlacement, placeFrame, type InterpolationMode, type LatePolicy } from '../core/frame-placement.ts';
import { extrapolateField, interpolateField } from '../core/interpolate.ts';
import { createBlendKernels, type BlendKernels } from '../core/simd-kernel.ts';
import { META, type Layout, type StatePair } from '../core/layout.ts';
import type { FieldViews, InterpolationKind, Schema } from '../core/schema.ts';
import { HISTORY_DEPTH, StateHistory } from './history.ts';
import { ReadTicks } from './read-ticks.ts';

export type { InterpolationMode, LatePolicy } from '../core/frame-placement.ts';

export interface InterpolationOptions<S extends Schema> {
  /** Default 'interpolate'. */
  readonly mode?: InterpolationMode;
  /** Ticks (0 to 2) to show the world in the past, to absorb a late or uneven worker. Default 0. */
  readonly renderDelay?: number;
  /** What a frame past the newest state shows. Default 'hold'. */
  readonly whenLate?: LatePolicy;
  /** Most ticks past a state that extrapolation predicts. Default 1. */
  readonly maxPrediction?: number;
  /** Entities that move more than `distance` in `field` within one tick snap (a teleport the game did not mark). */
  readonly snapDistance?: { readonly field: keyof S & string; readonly distance: number } | null;
}

/** Counters of what sampling had to do; plain numbers on the main thread. */
export interface SampleStats {
  /** Frames whose time was past the newest state. */
  late: number;
  /** Late frames shown by extrapolating. */
  extrapolated: number;
  /** Frames blended across a tick the main thread never saw (the worker published more than once between frames). */
  gaps: number;
  /** Entity snaps drawn. */
  snapped: number;
  /**
   * Frames the worker had published past (see `recovered`) whose two states around their time the main thread
   * had not kept, and delayed frames older than every state kept: drawn at the nearest state or blend at hand,
   * each flagged `overtaken`.
   */
  overtaken: number;
  /**
   * Frames whose time fell before the front slot's previous state (the worker had published past it: the
   * frame's callback ran late) that were blended from their exact pair all the same, from the states the main
   * thread keeps after an overtaken frame. `overtaken + recovered` is every frame the worker overtook.
   */
  recovered: number;
  /**
   * States copied into the main thread's history (each the live part of a block, `keptBytes` in all): for a
   * render delay, and after an overtaken frame whose pair had been read whole (one copies could recover).
   * Overtakes that no copy could serve (frames farther apart than ticks) start none, and stop those under way.
   */
  keptCopies: number;
  /** Bytes copied into the history (see `keptCopies`). */
  keptBytes: number;
}

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
}

const MAX_RENDER_DELAY = 2;
/**
 * After an overtaken frame, how long (shared-clock ms) the main thread keeps copies of the recent states, so
 * the next overtaken frames blend their exact pair: at most this. Overtakes come in spells (a busy main
 * thread, a GC every few seconds); the copies cost a block's memcpy per tick meanwhile, nothing after.
 */
export const OVERTAKEN_WATCH_MS = 10_000;
/**
 * ...and at least this: after a lone overtaken frame (the first, or one more than OVERTAKEN_WATCH_MS after
 * the last), such as a page's slow first frames. One that follows another within OVERTAKEN_WATCH_MS keeps them
 * 1.5 times that gap (so the next of a recurring kind finds them), between the two bounds; something that
 * recurs less often than that (an autosave every 15 s) pays this much copying each time and is not recovered.
 * A lone one no longer buys 10 s of copies: in the bench's PixiJS scene at 10k sprites the startup's overtaken
 * frames did, 60 µs a frame.
 */
export const OVERTAKEN_WATCH_MIN_MS = 1_000;

/** How long to keep copies after an overtaken frame `gap` ms after the one before (NaN: none before). */
export function overtakenWatch(gap: number): number {
  return gap <= OVERTAKEN_WATCH_MS ? Math.min(OVERTAKEN_WATCH_MS, Math.max(OVERTAKEN_WATCH_MIN_MS, 1.5 * gap)) : OVERTAKEN_WATCH_MIN_MS;
}
/**
 * Overtaken frames in a row that the states read could not have served (their pair never read whole) after
 * which the copies stop at once, and no further such frame starts them (only one that could have been served
 * does): at ~10 fps with 60 Hz ticks every overtake is one of these, and copying every new state then
 * recovered 0 of 14. Fewer in a row start or keep copying: one odd frame in a recovering spell stops nothing.
 */
export const OVERTAKEN_MISSES_TO_STOP = 3;
/** The render delay in ms moves toward its target by at most this fraction of the frame time: no jumps. */
const DELAY_SLEW = 0.25;

interface FieldInfo {
  readonly name: string;
  readonly kind: InterpolationKind;
  readonly width: number;
  readonly velocity: string | null;
}

export function validateInterpolation<S extends Schema>(schema: S, options: InterpolationOptions<S>): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`steadyframe: interpolation options must be an object, e.g. { mode: 'interpolate' }; got ${describeValue(options)}`);
  }
  const { mode, renderDelay, whenLate, maxPrediction, snapDistance } = options;
  if (mode !== undefined && mode !== 'interpolate' && mode !== 'extrapolate' && mode !== 'latest') {
    throw new RangeError(`steadyframe: interpolation mode must be 'interpolate', 'extrapolate' or 'latest'; got ${describeValue(mode)}`);
  }
  if (renderDelay !== undefined && !(typeof renderDelay === 'number' && renderDelay >= 0 && renderDelay <= MAX_RENDER_DELAY)) {
    throw new RangeError(`steadyframe: renderDelay is in ticks, from 0 to ${MAX_RENDER_DELAY}; got ${describeValue(renderDelay)}`);
  }
  if (whenLate !== undefined && whenLate !== 'hold' && whenLate !== 'extrapolate') {
    throw new RangeError(`steadyframe: whenLate must be 'hold' or 'extrapolate'; got ${describeValue(whenLate)}`);
  }
  if (maxPrediction !== undefined && !(typeof maxPrediction === 'number' && maxPrediction >= 0 && Number.isFinite(maxPrediction))) {
    throw new RangeError(`steadyframe: maxPrediction is a finite number of ticks, at least 0; got ${describeValue(maxPrediction)}`);
  }
  if (snapDistance !== undefined && snapDistance !== null) {
    if (typeof snapDistance !== 'object') {
      throw new RangeError(`steadyframe: snapDistance must be { field, distance } or null; got ${describeValue(snapDistance)}`);
    }
    const field = typeof snapDistance.field === 'string' && Object.hasOwn(schema, snapDistance.field) ? schema[snapDistance.field] : undefined;
    if (field === undefined || field.kind !== 'linear') {
      throw new RangeError(`steadyframe: snapDistance.field must name a linear field of the schema; got ${describeValue(snapDistance.field)}`);
    }
    const { distance } = snapDistance;
    if (!(typeof distance === 'number' && distance > 0 && Number.isFinite(distance))) {
      throw new RangeError(`steadyframe: snapDistance.distance must be a finite number above 0; got ${describeValue(distance)}`);
    }
  }
}

export class Sampler<S extends Schema> {
  readonly stats: SampleStats = { late: 0, extrapolated: 0, gaps: 0, snapped: 0, overtaken: 0, recovered: 0, keptCopies: 0, keptBytes: 0 };
  readonly #fields: readonly FieldInfo[];
  readonly #render: FieldViews<S>;
  readonly #layout: Layout;
  /** What `placeFrame` reads: mode, whenLate, maxPrediction. */
  readonly #policy: { mode: InterpolationMode; whenLate: LatePolicy; maxPrediction: number } = { mode: 'interpolate', whenLate: 'hold', maxPrediction: 1 };
  /** The decision for the frame being sampled (filled in place: nothing allocated per frame). */
  readonly #place = createPlacement();
  #renderDelay = 0;
  #snapField: FieldInfo | null = null;
  #snapDistanceSquared = 0;
  #options: Required<InterpolationOptions<S>> | null = null;
  /**
   * Recent states copied at each acquire: made when a render delay is first asked for, or after an overtaken
   * frame; dropped once neither needs it (the delay has eased back to 0, the watch after the last overtaken
   * frame is over).
   */
  #history: StateHistory<S> | null = null;
  /** A render delay is in effect (or easing out): frames are drawn from the history at their time minus it. */
  #delaying = false;
  /** Frame time until which the history is kept for overtaken frames; -Infinity when none was seen. */
  #watchUntil = Number.NEGATIVE_INFINITY;
  /** The frame time of the last overtaken frame; NaN before the first. */
  #lastOvertaken = Number.NaN;
  /** At the first overtaken frame of a spell that copies could not serve: the ticks read before it had no gap. */
  #readEveryTick = true;
  /** The ticks read (numbers and times only): whether copies could have served an overtaken frame. */
  readonly #read = new ReadTicks();
  /** Overtaken frames in a row that no copies could have served (see `OVERTAKEN_MISSES_TO_STOP`). */
  #misses = 0;
  /** What `read` left to `finish`: 'history' (blend an overtaken frame's pair), 'watch' (make the history). */
  #pending: 'none' | 'history' | 'watch' = 'none';
  #delayMs = 0;
  #lastTime = Number.NaN;
  #tickLength = 0;
  /** The time scale (simulated per shared-clock ms) of the newest state read, for predictions from the history. */
  #scale = 1;

  /**
   * The WebAssembly SIMD kernels and a scratch block in their memory: linear, quaternion and angle fields whose
   * states lie in that memory (the shared buffer) are blended straight into the render buffer when it lies in
   * the kernels' render memory (multi-memory engines), else into the scratch block and copied out.
   */
  readonly #simd: { readonly kernels: BlendKernels; readonly scratch: FieldViews<S> } | null;
  /**
   * Kernels reading the render-delay history's own wasm memory and writing the same render memory, made with
   * the first history (where the main kernels have a render memory); null until then, or without them.
   */
  #historyKernels: BlendKernels | null = null;
  /** Per field, the first `count * width` floats of the scratch run, rebuilt only when the count changes. */
  #scratchCount = -1;
  readonly #scratchLive: Float32Array[] = [];
  /** `latest` mode: per field, views of the live part of the last two source runs it copied (see `#copy`). */
  readonly #liveViews: Float32Array[][] = [];
  #liveCount = -1;

  constructor(
    readonly schema: S,
    layout: Layout,
    render: FieldViews<S>,
    simd: { readonly kernels: BlendKernels; readonly scratch: FieldViews<S> } | null = null,
  ) {
    this.#layout = layout;
    this.#render = render;
    this.#simd = simd;
    this.#fields = layout.fields.map((f) => {
      const spec = schema[f.name]!;
      return { name: f.name, kind: f.kind, width: f.width, velocity: 'velocity' in spec && spec.velocity !== undefined ? spec.velocity : null };
    });
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
    if (options.snapDistance !== undefined) {
      this.#snapField = options.snapDistance === null ? null : this.#fields.find((f) => f.name === options.snapDistance!.field)!;
      this.#snapDistanceSquared = options.snapDistance === null ? 0 : options.snapDistance.distance ** 2;
    }
    if (policy.mode !== modeBefore) {
      // another mode takes over at once, with nothing kept; only a change of delay within interpolation eases
      this.#history = null;
      this.#delaying = false;
      this.#watchUntil = Number.NEGATIVE_INFINITY;
      this.#lastOvertaken = Number.NaN;
      this.#misses = 0;
      this.#read.clear();
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
    return (this.#options ??= Object.freeze({
      mode: policy.mode,
      renderDelay: this.#renderDelay,
      whenLate: policy.whenLate,
      maxPrediction: policy.maxPrediction,
      snapDistance: this.#snapField === null ? null : { field: this.#snapField.name as keyof S & string, distance: Math.sqrt(this.#snapDistanceSquared) },
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
    const read = this.#read;
    // the ticks read before this frame's: did frames come once a tick? (asked only if this one is overtaken)
    const readBefore = read.newestTick;
    read.record(meta[META.PREV_TICK]!, previousTime);
    read.record(meta[META.CUR_TICK]!, currentTime);
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
      // the watch runs from the newer of the frame's time and the slot's previous state: a callback a second
      // late would otherwise be past its own watch already
      const watchUntil = Math.max(time, previousTime) + overtakenWatch(time - this.#lastOvertaken);
      this.#lastOvertaken = time;
      // copies pay only if they could serve frames like this one: its pair read whole (by earlier frames, or
      // with this one). With frames farther apart than ticks it never is: when the ticks read before this
      // frame already skip some (a slow page), or after a few such frames in a row, stop the copies and start
      // none until one that could have been served (the first ones of a page that read every tick get the
      // benefit of the doubt: a one-off stall's frame is unservable, the spell it begins may not be)
      // (a later frame of the same spell never shortens the watch its first one set)
      if (read.couldServe(time)) {
        this.#misses = 0;
        this.#watchUntil = Math.max(this.#watchUntil, watchUntil);
      } else {
        // whether frames came once a tick is asked at a spell's first miss: its own read skips ticks, so
        // asking again at the next would stop the copies at the second miss rather than the third
        if (this.#misses === 0) this.#readEveryTick = read.everyTickUpTo(readBefore);
        if (++this.#misses >= OVERTAKEN_MISSES_TO_STOP || !this.#readEveryTick) {
          this.#watchUntil = Number.NEGATIVE_INFINITY;
        } else if (!(time <= this.#watchUntil)) {
          this.#watchUntil = watchUntil;
        }
      }
      if (history !== null) {
        // the pair around this frame's time may be among the states kept: `finish` blends it from there
        this.#pending = 'history';
        return;
      }
      // nothing kept yet: this frame shows the oldest state at hand; keep states from the next frame on, if
      // they could have served it
      if (time <= this.#watchUntil) this.#pending = 'watch';
      out.overtaken = true;
      this.stats.overtaken++;
    }
    const mode = this.#policy.mode;
    if (mode === 'latest') {
      // the newest state as published, bit for bit (NaNs, unnormalised quaternions, unwrapped angles)
      this.#copy(slot.current, count);
      return;
    }
    if (mode === 'extrapolate') {
      this.#extrapolate(place.alpha === 1 ? slot.current : slot.previous, count, place.ahead * this.#scale);
      // entities new this tick, or marked (a despawn moved another entity into the slot, a teleport), have no
      // previous state of their own to extrapolate from: show them as they are
      if (place.alpha === 0 && !snapFree) {
        out.snapped = this.#snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount);
      }
      this.stats.snapped += out.snapped;
      return;
    }
    if (place.extrapolated) this.stats.extrapolated++;
    this.#blend(slot.previous, slot.current, count, place.alpha);
    if (!snapFree || this.#snapField !== null) {
      out.snapped = this.#snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount);
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
      if (!this.#delaying && !(time <= this.#watchUntil)) this.#history = null;
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
    if (this.#policy.mode === 'extrapolate') {
      this.#extrapolate(place.alpha === 1 ? b.fields : a.fields, b.count, place.ahead * this.#scale);
      if (place.alpha === 1) return served;
    } else {
      if (place.extrapolated) this.stats.extrapolated++;
      this.#blend(a.fields, b.fields, b.count, place.alpha);
    }
    // the pass, unless the slot that brought b said nothing was marked or spawned since a (and no snapDistance);
    // entities past the fewest any tick between had snap (they despawned and came back)
    out.snapped =
      b === a || (b.snapFree && this.#snapField === null)
        ? 0
        : this.#snapPass(a.fields, b.fields, a.generation, b.generation, b.count, Math.min(a.count, b.previousCount));
    this.stats.snapped += out.snapped;
    return served;
  }

  /** `extrapolate` mode: `base` moved on by its velocity fields for `aheadGameMs` of simulated time. */
  #extrapolate(base: FieldViews<S>, count: number, aheadGameMs: number): void {
    const seconds = aheadGameMs / 1000;
    for (const field of this.#fields) {
      const name = field.name as keyof S;
      const velocity = field.velocity === null ? null : base[field.velocity as keyof S];
      extrapolateField(field.kind, field.width, base[name], velocity, this.#render[name], count, seconds);
    }
  }

  /**
   * `latest` mode: the first `count` entities of the state's fields into the render buffer, bit for bit (a
   * typed-array copy keeps NaN bits), nothing of the dead capacity. The views of the live parts are kept per
   * source run (the two slots', so the usual frame allocates nothing) and made anew when the count changes.
   */
  #copy(state: FieldViews<S>, count: number): void {
    if (count !== this.#liveCount) {
      this.#liveCount = count;
      for (const views of this.#liveViews) views.length = 0;
    }
    for (let i = 0; i < this.#fields.length; i++) {
      const field = this.#fields[i]!;
      const source = state[field.name as keyof S];
      const views = (this.#liveViews[i] ??= []);
      let live = views[0]!;
      if (views.length === 0 || live.buffer !== source.buffer || live.byteOffset !== source.byteOffset) {
        live = views[1] !== undefined && views[1].buffer === source.buffer && views[1].byteOffset === source.byteOffset ? views[1] : source.subarray(0, count * field.width);
        views[1] = views[0] ?? live;
        views[0] = live;
      }
      this.#render[field.name as keyof S].set(live);
    }
  }

  #createHistory(): StateHistory<S> {
    return new StateHistory<S>(this.#layout, HISTORY_DEPTH, this.#historyStorage());
  }

  /**
   * The history's storage: a wasm memory the SIMD kernels read (beside the render memory they write), where the
   * main kernels write a render memory; else null (plain buffers, the JS kernels). Made once, kept.
   */
  #historyStorage(): ArrayBuffer | null {
    const renderMemory = this.#simd?.kernels.renderMemory ?? null;
    if (renderMemory === null) return null;
    if (this.#historyKernels === null) {
      const pages = Math.ceil((HISTORY_DEPTH * this.#layout.blockBytes) / 65_536);
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
      const kernels = createBlendKernels({ memory, renderMemory, relaxedSimd: this.#simd!.kernels.relaxedSimd });
      if (kernels.renderMemory !== renderMemory) return null;
      this.#historyKernels = kernels;
    }
    return this.#historyKernels.memory!.buffer as ArrayBuffer;
  }

  #blend(previous: FieldViews<S>, current: FieldViews<S>, count: number, alpha: number): void {
    const simd = this.#simd;
    const memory = simd?.kernels.memory?.buffer;
    const history = this.#historyKernels;
    for (let i = 0; i < this.#fields.length; i++) {
      const field = this.#fields[i]!;
      const name = field.name as keyof S;
      const a = previous[name];
      const b = current[name];
      const blendable = simd !== null && a.buffer === memory && field.kind !== 'none';
      if (blendable && this.#render[name].buffer === simd.kernels.renderMemory?.buffer) {
        // the kernels read the shared states and write the render buffer (a plain memory of theirs): no copy
        this.#kernel(simd.kernels, field, a, b, this.#render[name], count, alpha);
      } else if (history !== null && field.kind !== 'none' && a.buffer === history.memory!.buffer) {
        // from the render-delay history: its own kernels read its memory and write the same render memory
        this.#kernel(history, field, a, b, this.#render[name], count, alpha);
      } else if (blendable) {
        if (count !== this.#scratchCount) {
          // views of the live part of each scratch run: allocated when the count changes, not every frame
          this.#scratchCount = count;
          this.#fields.forEach((f, j) => (this.#scratchLive[j] = simd.scratch[f.name as keyof S].subarray(0, count * f.width)));
        }
        this.#kernel(simd.kernels, field, a, b, simd.scratch[name], count, alpha);
        // out of shared memory: the render buffer stays a plain one (some APIs refuse views of shared memory)
        this.#render[name].set(this.#scratchLive[i]!);
      } else {
        interpolateField(field.kind, field.width, a, b, this.#render[name], count, alpha);
      }
    }
  }

  /** The wasm kernel for a linear, quaternion or angle field (width 1: angles are one float each). */
  #kernel(kernels: BlendKernels, field: FieldInfo, a: Float32Array, b: Float32Array, out: Float32Array, count: number, alpha: number): void {
    if (field.kind === 'linear') kernels.lerp(a, b, out, count * field.width, alpha);
    else if (field.kind === 'quaternion') kernels.nlerp(a, b, out, count, alpha);
    else kernels.angle(a, b, out, count, alpha);
  }

  #snapPass(
    previous: FieldViews<S>,
    current: FieldViews<S>,
    previousGeneration: Uint32Array,
    currentGeneration: Uint32Array,
    count: number,
    previousCount: number,
  ): number {
    const snapField = this.#snapField;
    const limit = this.#snapDistanceSquared;
    let snapped = 0;
    for (let i = 0; i < count; i++) {
      let snap = i >= previousCount || previousGeneration[i] !== currentGeneration[i];
      if (!snap && snapField !== null) {
        const a = previous[snapField.name as keyof S];
        const b = current[snapField.name as keyof S];
        let d2 = 0;
        for (let c = i * snapField.width, end = c + snapField.width; c < end; c++) d2 += (b[c]! - a[c]!) ** 2;
        snap = d2 > limit;
      }
      if (snap) {
        this.#copyEntity(current, i);
        snapped++;
      }
    }
    return snapped;
  }

  #copyEntity(current: FieldViews<S>, i: number): void {
    for (const field of this.#fields) {
      const name = field.name as keyof S;
      const from = current[name];
      const to = this.#render[name];
      for (let c = i * field.width, end = c + field.width; c < end; c++) to[c] = from[c]!;
    }
  }
}
