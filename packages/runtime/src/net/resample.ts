/**
 * The state at a render time, from the snapshots around it (ARCHITECTURE.md, "Multiplayer"): what the network
 * client's step writes into its world each tick, so the page blends two of these like any two ticks.
 *
 * ```text
 *  between two snapshots A, B    each kind's blend at alpha = (time − A) / (B − A); Hermite for a linear or
 *                                angle field with a velocity field (the curve through both with both slopes:
 *                                a lost snapshot's corner is not cut); B's values at once for an entity whose
 *                                generation differs (a server snap) or that A lacks (spawned)
 *  past the newest (none newer   the newest moved on by its velocity field for at most `maxExtrapolateMs`,
 *  arrived yet)                  then held; a field without a velocity held
 *  before the oldest kept        the oldest, held
 *  game fields (`scope: 'game'`) as the page blends them (interpolateGame): `none` by the discrete rule (B's
 *                                value once alpha is above 0), `linear`, `angle`; held past the newest
 * ```
 *
 * An entity whose source generation changed since the tick before is marked to snap (`world.snap`), so the
 * page does not blend across a server's teleport, spawn or swap-remove. Allocates nothing per call.
 */
import { interpolateField, extrapolateField, interpolateGame, wrapAngle } from '../core/interpolate.ts';
import type { FieldLayout, Layout } from '../core/layout.ts';
import type { EntityField, Schema } from '../core/schema.ts';
import type { World } from '../worker/world.ts';
import type { KeptSnapshot, PairAt } from './snapshot-buffer.ts';

/** How a tick's state was made: counted by the network client. */
export const RESAMPLED = { INTERPOLATED: 0, EXTRAPOLATED: 1, HELD: 2, BEFORE: 3 } as const;
export type Resampled = (typeof RESAMPLED)[keyof typeof RESAMPLED];

interface FieldRun {
  readonly field: FieldLayout;
  /** The float offset of the run in a block. */
  readonly start: number;
  /** Its velocity field's run start, or -1. */
  readonly velocity: number;
}

export class Resampler {
  readonly #runs: FieldRun[];
  /** Some field has a velocity field: past the newest snapshot, something moves on. */
  readonly #anyVelocity: boolean;
  readonly #lastGeneration: Uint32Array;
  #lastCount = 0;
  readonly #game: Layout['game'];
  /** Every live entity snaps on the next write (a server that started over). */
  #snapAll = true;

  constructor(
    layout: Layout,
    schema: Schema,
    /** Ms past the newest snapshot its velocities carry it on, at most. */
    private readonly maxExtrapolateMs: number,
    /** Hermite between snapshots where a field has a velocity (else each kind's blend). */
    private readonly hermite: boolean,
  ) {
    const start = (name: string | undefined): number => {
      const f = name === undefined ? undefined : layout.fields.find((g) => g.name === name);
      return f === undefined ? -1 : f.offset / 4;
    };
    this.#runs = layout.fields.map((field) => {
      const spec = schema[field.name]!;
      return { field, start: field.offset / 4, velocity: start('velocity' in spec ? spec.velocity : undefined) };
    });
    this.#anyVelocity = this.#runs.some((r) => r.velocity >= 0);
    this.#lastGeneration = new Uint32Array(layout.capacity);
    this.#game = layout.game;
  }

  /** The next write snaps every entity: what was drawn before has nothing to do with what comes. */
  reset(): void {
    this.#snapAll = true;
  }

  /** Writes the state at server time `time` into `world` from `pair` (the buffer's pair around it). */
  write<S extends Schema>(world: World<S>, pair: PairAt, time: number): Resampled {
    const { previous, current } = pair;
    const count = current.count;
    world.count = count;
    let how: Resampled;
    if (pair.before) {
      this.#copy(world, previous, 0, count);
      how = RESAMPLED.BEFORE;
    } else if (pair.after || previous === current) {
      const ms = Math.min(time - current.time, this.maxExtrapolateMs);
      how = ms > 0 && this.#extrapolate(world, current, ms / 1000) ? RESAMPLED.EXTRAPOLATED : RESAMPLED.HELD;
      if (how === RESAMPLED.HELD) this.#copy(world, current, 0, count);
    } else {
      this.#blend(world, previous, current, pair.alpha);
      how = RESAMPLED.INTERPOLATED;
    }
    this.#snaps(world, previous, current, count);
    if (this.#game.length > 0) {
      const state = world.state as Record<string, number>;
      if (how === RESAMPLED.INTERPOLATED) interpolateGame(this.#game, previous.game, current.game, pair.alpha, state);
      else interpolateGame(this.#game, how === RESAMPLED.BEFORE ? previous.game : current.game, how === RESAMPLED.BEFORE ? previous.game : current.game, 1, state);
    }
    return how;
  }

  #blend<S extends Schema>(world: World<S>, a: KeptSnapshot, b: KeptSnapshot, alpha: number): void {
    const both = Math.min(a.count, b.count);
    const seconds = (b.time - a.time) / 1000;
    for (const { field, start, velocity } of this.#runs) {
      const out = world.fields[field.name as EntityField<S>]!;
      const n = both * field.width;
      const from = a.block.subarray(start, start + n);
      const to = b.block.subarray(start, start + n);
      if (this.hermite && velocity >= 0 && (field.kind === 'linear' || field.kind === 'angle')) {
        hermite(from, to, a.block, b.block, velocity, out, n, alpha, seconds, field.kind === 'angle');
      } else {
        interpolateField(field.kind, field.width, from, to, out, both, alpha);
      }
    }
    // spawned since A (A had fewer): B's values at once
    if (b.count > both) this.#copy(world, b, both, b.count);
    // a server snap between A and B (a teleport, a despawn's swap): B's values at once
    for (let i = 0; i < both; i++) if (a.generation[i] !== b.generation[i]) this.#copy(world, b, i, i + 1);
  }

  /** The newest moved on by its velocities; false (nothing written) when no field has one. */
  #extrapolate<S extends Schema>(world: World<S>, s: KeptSnapshot, seconds: number): boolean {
    if (!this.#anyVelocity) return false;
    for (const { field, start, velocity } of this.#runs) {
      const n = s.count * field.width;
      const base = s.block.subarray(start, start + n);
      const v = velocity < 0 ? null : s.block.subarray(velocity, velocity + s.count * (field.kind === 'quaternion' ? 3 : field.width));
      extrapolateField(field.kind, field.width, base, v, world.fields[field.name as EntityField<S>]!, s.count, seconds);
    }
    return true;
  }

  /** Entities `from` to `to` − 1 of every field, as `s` has them. */
  #copy<S extends Schema>(world: World<S>, s: KeptSnapshot, from: number, to: number): void {
    for (const { field, start } of this.#runs) {
      const w = field.width;
      world.fields[field.name as EntityField<S>]!.set(s.block.subarray(start + from * w, start + to * w), from * w);
    }
  }

  /** Marks the entities whose source changed generation (or all, after a reset) to snap this tick. */
  #snaps<S extends Schema>(world: World<S>, a: KeptSnapshot, b: KeptSnapshot, count: number): void {
    const last = this.#lastGeneration;
    const known = this.#snapAll ? 0 : Math.min(this.#lastCount, count);
    for (let i = 0; i < count; i++) {
      // the generation whose values were written: B's (A's equals it wherever A's values were blended)
      const generation = i < b.count ? b.generation[i]! : a.generation[i]!;
      if (i >= known || last[i] !== generation) world.snap(i);
      last[i] = generation;
    }
    this.#lastCount = count;
    this.#snapAll = false;
  }
}

/**
 * Cubic Hermite from `from` to `to` with the slopes of the velocity runs (at `velocity` in blocks `a` and `b`,
 * units per second) over `seconds`: p = h00·p0 + h10·Δ·v0 + h01·p1 + h11·Δ·v1. For angles, along the shorter arc
 * and wrapped into [−π, π).
 */
function hermite(
  from: Float32Array,
  to: Float32Array,
  a: Float32Array,
  b: Float32Array,
  velocity: number,
  out: Float32Array,
  n: number,
  s: number,
  seconds: number,
  angle: boolean,
): void {
  const s2 = s * s;
  const s3 = s2 * s;
  const h10 = (s3 - 2 * s2 + s) * seconds;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = (s3 - s2) * seconds;
  for (let i = 0; i < n; i++) {
    const p0 = from[i]!;
    const d = angle ? wrapAngle(to[i]! - p0) : to[i]! - p0;
    // h00·p0 + h01·p1 = p0 + h01·(p1 − p0): exact at both ends
    const p = p0 + h01 * d + h10 * a[velocity + i]! + h11 * b[velocity + i]!;
    out[i] = angle ? wrapAngle(p) : p;
  }
}
