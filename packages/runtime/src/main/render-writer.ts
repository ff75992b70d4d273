/**
 * Writes one frame's fields into the render buffer from a pair of states, by what the sampler (sampler.ts) decided:
 * a blend at alpha (`blend`), a prediction along the velocity fields (`extrapolate`), the newest state as published
 * (`copy`), then the snap pass (`snapPass`: entities marked, new, or moved past `snapDistance` take their current
 * state). A blend runs on the WebAssembly SIMD kernels where the states lie in their memory (straight into the
 * render memory on multi-memory engines, else through the scratch block), on the render-delay history's own kernel
 * set where they lie in the history's memory, and on the JS kernels otherwise. Allocates nothing per frame (views
 * are remade only when the count changes).
 */
import { extrapolateField, interpolateField } from '../core/interpolate.ts';
import { createBlendKernels, type BlendKernels } from '../core/simd-kernel.ts';
import type { Layout } from '../core/layout.ts';
import type { EntityField, FieldViews, InterpolationKind, Schema } from '../core/schema.ts';
import { HISTORY_DEPTH } from './history.ts';

/** A schema field as the writer walks it: its run's name, kind and width, and its velocity field's name. */
export interface FieldInfo {
  readonly name: string;
  readonly kind: InterpolationKind;
  readonly width: number;
  readonly velocity: string | null;
}

/** The WebAssembly SIMD kernels and a scratch block (one run per field) in their memory. */
export interface SimdBlend<S extends Schema> {
  readonly kernels: BlendKernels;
  readonly scratch: FieldViews<S>;
}

export class RenderWriter<S extends Schema> {
  /** The schema's fields, in the layout's order. */
  readonly fields: readonly FieldInfo[];
  readonly #render: FieldViews<S>;
  readonly #layout: Layout;
  /** `snapDistance`'s field (null: none) and its distance squared. */
  #snapField: FieldInfo | null = null;
  #snapDistanceSquared = 0;
  /**
   * The WebAssembly SIMD kernels and a scratch block in their memory: linear, quaternion and angle fields whose
   * states lie in that memory (the shared buffer) are blended straight into the render buffer when it lies in
   * the kernels' render memory (multi-memory engines), else into the scratch block and copied out.
   */
  readonly #simd: SimdBlend<S> | null;
  /**
   * Kernels reading the render-delay history's own wasm memory and writing the same render memory, made with
   * the first history (where the main kernels have a render memory); null until then, or without them.
   */
  #historyKernels: BlendKernels | null = null;
  /** Per field, the first `count * width` floats of the scratch run, rebuilt only when the count changes. */
  #scratchCount = -1;
  readonly #scratchLive: Float32Array[] = [];
  /** `latest` mode: per field, views of the live part of the last two source runs it copied (see `copy`). */
  readonly #liveViews: Float32Array[][] = [];
  #liveCount = -1;

  constructor(schema: S, layout: Layout, render: FieldViews<S>, simd: SimdBlend<S> | null) {
    this.#layout = layout;
    this.#render = render;
    this.#simd = simd;
    this.fields = layout.fields.map((f) => {
      const spec = schema[f.name]!;
      return { name: f.name, kind: f.kind, width: f.width, velocity: 'velocity' in spec && spec.velocity !== undefined ? spec.velocity : null };
    });
  }

  /** `snapDistance`'s field, or null without one. */
  get snapField(): FieldInfo | null {
    return this.#snapField;
  }

  /** `snapDistance`'s distance (0 without one). */
  get snapDistance(): number {
    return Math.sqrt(this.#snapDistanceSquared);
  }

  /** Sets `snapDistance` (a checked option: a linear field of the schema, a distance above 0), or none. */
  setSnapDistance(snap: { readonly field: string; readonly distance: number } | null): void {
    this.#snapField = snap === null ? null : this.fields.find((f) => f.name === snap.field)!;
    this.#snapDistanceSquared = snap === null ? 0 : snap.distance ** 2;
  }

  /** `extrapolate` mode: `base` moved on by its velocity fields for `aheadGameMs` of simulated time. */
  extrapolate(base: FieldViews<S>, count: number, aheadGameMs: number): void {
    const seconds = aheadGameMs / 1000;
    for (const field of this.fields) {
      const name = field.name as EntityField<S>;
      const velocity = field.velocity === null ? null : base[field.velocity as EntityField<S>];
      extrapolateField(field.kind, field.width, base[name], velocity, this.#render[name], count, seconds);
    }
  }

  /**
   * `latest` mode: the first `count` entities of the state's fields into the render buffer, bit for bit (a
   * typed-array copy keeps NaN bits), nothing of the dead capacity. The views of the live parts are kept per
   * source run (the two slots', so the usual frame allocates nothing) and made anew when the count changes.
   */
  copy(state: FieldViews<S>, count: number): void {
    if (count !== this.#liveCount) {
      this.#liveCount = count;
      for (const views of this.#liveViews) views.length = 0;
    }
    for (let i = 0; i < this.fields.length; i++) {
      const field = this.fields[i]!;
      const source = state[field.name as EntityField<S>];
      const views = (this.#liveViews[i] ??= []);
      let live = views[0]!;
      if (views.length === 0 || live.buffer !== source.buffer || live.byteOffset !== source.byteOffset) {
        live = views[1] !== undefined && views[1].buffer === source.buffer && views[1].byteOffset === source.byteOffset ? views[1] : source.subarray(0, count * field.width);
        views[1] = views[0] ?? live;
        views[0] = live;
      }
      this.#render[field.name as EntityField<S>].set(live);
    }
  }

  /**
   * The history's storage: a wasm memory the SIMD kernels read (beside the render memory they write), where the
   * main kernels write a render memory; else null (plain buffers, the JS kernels). Made once, kept.
   */
  historyStorage(): ArrayBuffer | null {
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

  /**
   * `interpolate` mode: the first `count` entities of each field blended at `alpha` (1 past it extrapolates);
   * with `ranges` (a schema of tables: `[start, end)` entity pairs, `rangeCount` of them, within `count`), only
   * those entities: each table's live ones, not the dead between.
   */
  blend(previous: FieldViews<S>, current: FieldViews<S>, count: number, alpha: number, ranges: Int32Array | null = null, rangeCount = 0): void {
    const simd = this.#simd;
    const memory = simd?.kernels.memory?.buffer;
    const history = this.#historyKernels;
    const parts = ranges === null ? 1 : rangeCount;
    for (let i = 0; i < this.fields.length; i++) {
      const field = this.fields[i]!;
      const name = field.name as EntityField<S>;
      const a = previous[name];
      const b = current[name];
      const blendable = simd !== null && a.buffer === memory && field.kind !== 'none';
      // the kernels cannot write the render buffer (no multi-memory): into the scratch block, then copied out
      const viaScratch = blendable && this.#render[name].buffer !== simd.kernels.renderMemory?.buffer;
      for (let r = 0; r < parts; r++) {
        const from = ranges === null ? 0 : ranges[2 * r]!;
        const n = ranges === null ? count : ranges[2 * r + 1]! - from;
        if (blendable && !viaScratch) {
          // the kernels read the shared states and write the render buffer (a plain memory of theirs): no copy
          this.#kernel(simd.kernels, field, a, b, this.#render[name], n, alpha, from);
        } else if (history !== null && field.kind !== 'none' && a.buffer === history.memory!.buffer) {
          // from the render-delay history: its own kernels read its memory and write the same render memory
          this.#kernel(history, field, a, b, this.#render[name], n, alpha, from);
        } else if (blendable) {
          this.#kernel(simd.kernels, field, a, b, simd.scratch[name], n, alpha, from);
        } else {
          interpolateField(field.kind, field.width, a, b, this.#render[name], n, alpha, from);
        }
      }
      if (viaScratch) {
        if (count !== this.#scratchCount) {
          // views of the live part of each scratch run: allocated when the count changes, not every frame
          this.#scratchCount = count;
          this.fields.forEach((f, j) => (this.#scratchLive[j] = simd.scratch[f.name as EntityField<S>].subarray(0, count * f.width)));
        }
        // out of shared memory: the render buffer stays a plain one (some APIs refuse views of shared memory);
        // with ranges, the dead between them go along, unread
        this.#render[name].set(this.#scratchLive[i]!);
      }
    }
  }

  /** The wasm kernel for a linear, quaternion or angle field (width 1: angles are one float each). */
  #kernel(kernels: BlendKernels, field: FieldInfo, a: Float32Array, b: Float32Array, out: Float32Array, count: number, alpha: number, from: number): void {
    if (field.kind === 'linear') kernels.lerp(a, b, out, count * field.width, alpha, from * field.width);
    else if (field.kind === 'quaternion') kernels.nlerp(a, b, out, count, alpha, from);
    else kernels.angle(a, b, out, count, alpha, from);
  }

  /**
   * Over the blend just written: entities at or past `previousCount` (new), whose generation changed (marked) or,
   * with `snapDistance`, that moved further than it take their current state; with `ranges`, of those entities
   * only (as `blend`). Returns how many snapped.
   */
  snapPass(
    previous: FieldViews<S>,
    current: FieldViews<S>,
    previousGeneration: Uint32Array,
    currentGeneration: Uint32Array,
    count: number,
    previousCount: number,
    ranges: Int32Array | null = null,
    rangeCount = 0,
  ): number {
    const snapField = this.#snapField;
    const limit = this.#snapDistanceSquared;
    let snapped = 0;
    const parts = ranges === null ? 1 : rangeCount;
    for (let r = 0; r < parts; r++) {
      const from = ranges === null ? 0 : ranges[2 * r]!;
      const to = ranges === null ? count : ranges[2 * r + 1]!;
      for (let i = from; i < to; i++) {
        let snap = i >= previousCount || previousGeneration[i] !== currentGeneration[i];
        if (!snap && snapField !== null) {
          const a = previous[snapField.name as EntityField<S>];
          const b = current[snapField.name as EntityField<S>];
          let d2 = 0;
          for (let c = i * snapField.width, end = c + snapField.width; c < end; c++) d2 += (b[c]! - a[c]!) ** 2;
          snap = d2 > limit;
        }
        if (snap) {
          this.#copyEntity(current, i);
          snapped++;
        }
      }
    }
    return snapped;
  }

  /** Entity `i`'s current state, every field, into the render buffer. */
  #copyEntity(current: FieldViews<S>, i: number): void {
    for (const field of this.fields) {
      const name = field.name as EntityField<S>;
      const from = current[name];
      const to = this.#render[name];
      for (let c = i * field.width, end = c + field.width; c < end; c++) to[c] = from[c]!;
    }
  }
}
