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
 */
import { alphaAt } from '../core/fixed-step.ts';
import { extrapolateField, interpolateField } from '../core/interpolate.ts';
import { createBlendKernels, type BlendKernels } from '../core/simd-kernel.ts';
import { META, type Layout, type StatePair } from '../core/layout.ts';
import type { FieldViews, InterpolationKind, Schema } from '../core/schema.ts';
import { HISTORY_DEPTH, StateHistory } from './history.ts';

export type InterpolationMode = 'interpolate' | 'extrapolate' | 'latest';
export type LatePolicy = 'hold' | 'extrapolate';

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
  simTime: number;
  late: boolean;
  snapped: number;
}

const MAX_RENDER_DELAY = 2;
/** The render delay in ms moves toward its target by at most this fraction of the frame time: no jumps. */
const DELAY_SLEW = 0.25;

interface FieldInfo {
  readonly name: string;
  readonly kind: InterpolationKind;
  readonly width: number;
  readonly velocity: string | null;
}

export function validateInterpolation<S extends Schema>(schema: S, options: InterpolationOptions<S>): void {
  const { mode, renderDelay, whenLate, maxPrediction, snapDistance } = options;
  if (mode !== undefined && mode !== 'interpolate' && mode !== 'extrapolate' && mode !== 'latest') {
    throw new RangeError(`steadyframe: interpolation mode must be 'interpolate', 'extrapolate' or 'latest'; got ${JSON.stringify(mode)}`);
  }
  if (renderDelay !== undefined && !(renderDelay >= 0 && renderDelay <= MAX_RENDER_DELAY)) {
    throw new RangeError(`steadyframe: renderDelay is in ticks, from 0 to ${MAX_RENDER_DELAY}; got ${String(renderDelay)}`);
  }
  if (whenLate !== undefined && whenLate !== 'hold' && whenLate !== 'extrapolate') {
    throw new RangeError(`steadyframe: whenLate must be 'hold' or 'extrapolate'; got ${JSON.stringify(whenLate)}`);
  }
  if (maxPrediction !== undefined && !(maxPrediction >= 0 && Number.isFinite(maxPrediction))) {
    throw new RangeError(`steadyframe: maxPrediction is a finite number of ticks, at least 0; got ${String(maxPrediction)}`);
  }
  if (snapDistance !== undefined && snapDistance !== null) {
    const field = schema[snapDistance.field];
    if (field === undefined || field.kind !== 'linear') {
      throw new RangeError(`steadyframe: snapDistance.field must name a linear field of the schema; got ${JSON.stringify(snapDistance.field)}`);
    }
    if (!(snapDistance.distance > 0 && Number.isFinite(snapDistance.distance))) {
      throw new RangeError(`steadyframe: snapDistance.distance must be a finite number above 0; got ${String(snapDistance.distance)}`);
    }
  }
}

export class Sampler<S extends Schema> {
  readonly stats: SampleStats = { late: 0, extrapolated: 0, gaps: 0, snapped: 0 };
  readonly #fields: readonly FieldInfo[];
  readonly #render: FieldViews<S>;
  readonly #layout: Layout;
  #mode: InterpolationMode = 'interpolate';
  #renderDelay = 0;
  #whenLate: LatePolicy = 'hold';
  #maxPrediction = 1;
  #snapField: FieldInfo | null = null;
  #snapDistanceSquared = 0;
  #options: Required<InterpolationOptions<S>> | null = null;
  /** Created when a render delay is first asked for; dropped once the delay has eased back to 0. */
  #history: StateHistory<S> | null = null;
  #delayMs = 0;
  #lastTime = Number.NaN;
  #tickLength = 0;

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
    if (options.mode !== undefined) this.#mode = options.mode;
    if (options.renderDelay !== undefined) this.#renderDelay = options.renderDelay;
    if (options.whenLate !== undefined) this.#whenLate = options.whenLate;
    if (options.maxPrediction !== undefined) this.#maxPrediction = options.maxPrediction;
    if (options.snapDistance !== undefined) {
      this.#snapField = options.snapDistance === null ? null : this.#fields.find((f) => f.name === options.snapDistance!.field)!;
      this.#snapDistanceSquared = options.snapDistance === null ? 0 : options.snapDistance.distance ** 2;
    }
    if (this.#mode !== 'interpolate') {
      // another mode takes over at once; only a change of delay within interpolation eases
      this.#history = null;
      this.#delayMs = 0;
      this.#lastTime = Number.NaN;
    } else if (this.#renderDelay > 0 && this.#history === null) {
      this.#history = new StateHistory<S>(this.#layout, HISTORY_DEPTH, this.#historyStorage());
    }
  }

  /** The options in effect: one frozen object, made anew only by `configure` (read it every frame if you like). */
  get options(): Required<InterpolationOptions<S>> {
    return (this.#options ??= Object.freeze({
      mode: this.#mode,
      renderDelay: this.#renderDelay,
      whenLate: this.#whenLate,
      maxPrediction: this.#maxPrediction,
      snapDistance: this.#snapField === null ? null : { field: this.#snapField.name as keyof S & string, distance: Math.sqrt(this.#snapDistanceSquared) },
    }));
  }

  /** The render delay in effect, in ms (it eases toward `renderDelay` ticks). */
  get delayMs(): number {
    return this.#delayMs;
  }

  /**
   * Under the lock: reads the front slot. Without a render delay this writes the render buffer; with one it
   * only records the slot's states, and `finish` (after release) blends from the history.
   */
  read(slot: StatePair<S>, time: number, out: SampleResult): void {
    const meta = slot.metaWords;
    const previousTime = meta[META.PREV_TIME]!;
    const currentTime = meta[META.CUR_TIME]!;
    if (currentTime > previousTime) this.#tickLength = currentTime - previousTime;
    const history = this.#history;
    if (history === null) this.#lastTime = time; // so a render delay switched on later eases in from here
    if (history !== null) {
      history.record(meta[META.PREV_TICK]!, previousTime, meta[META.PREV_COUNT]!, slot.previousBlock);
      history.record(meta[META.CUR_TICK]!, currentTime, meta[META.COUNT]!, slot.currentBlock);
      out.simTime = meta[META.SIM_TIME]!;
      return;
    }
    const count = meta[META.COUNT]!;
    const previousCount = meta[META.PREV_COUNT]!;
    out.time = time;
    out.previousTick = meta[META.PREV_TICK]!;
    out.tick = meta[META.CUR_TICK]!;
    out.previousTime = previousTime;
    out.currentTime = currentTime;
    out.count = count;
    out.simTime = meta[META.SIM_TIME]!;
    out.late = currentTime > previousTime && time > currentTime;
    out.snapped = 0;
    if (out.late) this.stats.late++;
    if (this.#mode === 'latest') {
      out.alpha = 1;
      this.#blend(slot.previous, slot.current, count, 1);
      return;
    }
    if (this.#mode === 'extrapolate') {
      const fromCurrent = time >= currentTime;
      const base = fromCurrent ? slot.current : slot.previous;
      const baseTime = fromCurrent ? currentTime : previousTime;
      const ahead = Math.min(Math.max(0, time - baseTime), this.#maxPrediction * this.#tickLength);
      const seconds = (ahead * meta[META.SCALE]!) / 1000;
      for (const field of this.#fields) {
        const name = field.name as keyof S;
        const velocity = field.velocity === null ? null : base[field.velocity as keyof S];
        extrapolateField(field.kind, field.width, base[name], velocity, this.#render[name], count, seconds);
      }
      out.alpha = fromCurrent ? 1 : 0;
      // entities new this tick, or marked (a despawn moved another entity into the slot, a teleport), have no
      // previous state of their own to extrapolate from: show them as they are
      if (!fromCurrent && (count > previousCount || meta[META.SNAPS]! > 0)) {
        out.snapped = this.#snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount);
      }
      this.stats.snapped += out.snapped;
      return;
    }
    let alpha = alphaAt(time, previousTime, currentTime);
    if (out.late && this.#whenLate === 'extrapolate') {
      alpha = Math.min((time - previousTime) / (currentTime - previousTime), 1 + this.#maxPrediction);
      this.stats.extrapolated++;
    }
    out.alpha = alpha;
    this.#blend(slot.previous, slot.current, count, alpha);
    if (meta[META.SNAPS]! > 0 || count > previousCount || this.#snapField !== null) {
      out.snapped = this.#snapPass(slot.previous, slot.current, slot.previousGeneration, slot.currentGeneration, count, previousCount);
      this.stats.snapped += out.snapped;
    }
  }

  /** After the lock is released: blends from the history when a render delay is in effect. */
  finish(time: number, out: SampleResult): void {
    const history = this.#history;
    if (history === null) return;
    // ease the delay toward its target so that changing it, or the tick length, never jumps the picture
    const target = this.#renderDelay * this.#tickLength;
    const step = Number.isNaN(this.#lastTime) ? Number.POSITIVE_INFINITY : Math.max(0, time - this.#lastTime) * DELAY_SLEW;
    this.#lastTime = time;
    this.#delayMs = target > this.#delayMs ? Math.min(target, this.#delayMs + step) : Math.max(target, this.#delayMs - step);
    const shown = time - this.#delayMs;
    const newest = history.size - 1;
    let i = history.indexAt(shown);
    if (i < 0) i = 0; // before the oldest state we have: show it
    const a = history.at(Math.min(i, Math.max(0, newest - 1)));
    const b = history.at(Math.min(i + 1, newest));
    out.time = shown;
    out.previousTick = a.tick;
    out.tick = b.tick;
    out.previousTime = a.time;
    out.currentTime = b.time;
    out.count = b.count;
    out.late = shown > history.at(newest).time && b.time > a.time;
    out.snapped = 0;
    if (out.late) this.stats.late++;
    if (b.tick - a.tick > 1) this.stats.gaps++;
    let alpha = alphaAt(shown, a.time, b.time);
    if (out.late && this.#whenLate === 'extrapolate') {
      alpha = Math.min((shown - a.time) / (b.time - a.time), 1 + this.#maxPrediction);
      this.stats.extrapolated++;
    }
    out.alpha = alpha;
    this.#blend(a.fields, b.fields, b.count, alpha);
    out.snapped = this.#snapPass(a.fields, b.fields, a.generation, b.generation, b.count, a.count);
    this.stats.snapped += out.snapped;
    if (this.#delayMs === 0 && target === 0) {
      this.#history = null; // the delay has eased out: back to reading the slot directly
      this.#lastTime = Number.NaN;
    }
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
