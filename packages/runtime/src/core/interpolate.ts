/**
 * Interpolation kernels. Pure: arrays and alpha in, values out; no allocation, no globals.
 *
 * Every kernel reads `count` entities of a field from `previous` and `current` and writes the blend at
 * `alpha` (0 = previous, 1 = current) into `out`. `out` may be a different buffer of the same layout.
 * Blends are computed in float64 from float32 inputs, so alpha 0 and 1 give the inputs back unchanged.
 */
import type { InterpolationKind } from './schema.ts';

const PI = Math.PI;
const TAU = 2 * Math.PI;

/** Wraps an angle in radians into [-PI, PI). */
export function wrapAngle(radians: number): number {
  return radians - TAU * Math.floor((radians + PI) / TAU);
}

/** Writes (x, y, z, w) scaled to unit length at `out[o..o+3]`; a zero quaternion stays zero rather than NaN. */
function writeNormalised(out: Float32Array, o: number, x: number, y: number, z: number, w: number): void {
  const lengthSquared = x * x + y * y + z * z + w * w;
  const inverse = lengthSquared > 0 ? 1 / Math.sqrt(lengthSquared) : 0;
  out[o] = x * inverse;
  out[o + 1] = y * inverse;
  out[o + 2] = z * inverse;
  out[o + 3] = w * inverse;
}

/** Component-wise lerp over `elements` elements (from element `from`: a range of the run). */
export function lerpField(
  previous: Float32Array,
  current: Float32Array,
  out: Float32Array,
  elements: number,
  alpha: number,
  from = 0,
): void {
  for (let i = from, end = from + elements; i < end; i++) {
    const a = previous[i]!;
    out[i] = a + (current[i]! - a) * alpha;
  }
}

/** Angles (width 1, radians) along the shorter arc, entities `from .. from + count - 1`; wrapped into [-PI, PI). */
export function angleField(previous: Float32Array, current: Float32Array, out: Float32Array, count: number, alpha: number, from = 0): void {
  for (let i = from, end = from + count; i < end; i++) {
    const a = previous[i]!;
    const d = current[i]! - a;
    // the signed difference, wrapped into [-PI, PI): the short way round
    const shortest = d - TAU * Math.floor((d + PI) / TAU);
    const v = a + shortest * alpha;
    out[i] = v - TAU * Math.floor((v + PI) / TAU);
  }
}

/**
 * Quaternions (width 4, x y z w) by nlerp: if the two are more than 90 degrees apart as 4-vectors, the
 * current one is negated (q and -q are the same rotation) so the blend takes the shorter path, then the
 * result is normalised. Over one tick the rotation is small, where nlerp and slerp agree closely.
 */
export function quaternionField(
  previous: Float32Array,
  current: Float32Array,
  out: Float32Array,
  count: number,
  alpha: number,
  from = 0,
): void {
  for (let i = 0, o = 4 * from; i < count; i++, o += 4) {
    const ax = previous[o]!;
    const ay = previous[o + 1]!;
    const az = previous[o + 2]!;
    const aw = previous[o + 3]!;
    let bx = current[o]!;
    let by = current[o + 1]!;
    let bz = current[o + 2]!;
    let bw = current[o + 3]!;
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx;
      by = -by;
      bz = -bz;
      bw = -bw;
    }
    const x = ax + (bx - ax) * alpha;
    const y = ay + (by - ay) * alpha;
    const z = az + (bz - az) * alpha;
    const w = aw + (bw - aw) * alpha;
    writeNormalised(out, o, x, y, z, w);
  }
}

/**
 * The discrete rule, for everything that does not blend (`none` fields, `none` game fields, and which events a
 * frame presents): a frame shows the current state's value once it has left the previous state (alpha above 0),
 * the previous one at alpha 0. A change the step made (a walk cycle chosen with the step that starts the walk, a
 * score with the hit) so comes with the first frame that moves toward it, together with the motion it goes with
 * (ARCHITECTURE.md, "Events and the frame that shows them").
 */
export function showsCurrent(alpha: number): boolean {
  return alpha > 0;
}

/** No blending: the discrete rule (`showsCurrent`): the previous value at alpha 0, the current one after. */
export function snapField(previous: Float32Array, current: Float32Array, out: Float32Array, elements: number, alpha: number, from = 0): void {
  const source = showsCurrent(alpha) ? current : previous;
  for (let i = from, end = from + elements; i < end; i++) out[i] = source[i]!;
}

/** A game field as the renderer sees it: its name, its kind, where it lies in a block's game run. */
export interface GameFieldBlend {
  readonly name: string;
  readonly kind: InterpolationKind;
  readonly index: number;
  /** A table's count: the current state's, always (the entities a frame draws are the current state's). */
  readonly current?: boolean;
}

/**
 * The game fields (one float64 each) of two states blended at `alpha` into `out`, a property per field: `none` by
 * the discrete rule, `linear` by lerp, `angle` along the shorter arc; a table's count is the current state's.
 * Allocates nothing.
 */
export function interpolateGame(fields: readonly GameFieldBlend[], previous: Float64Array, current: Float64Array, alpha: number, out: Record<string, number>): void {
  for (let f = 0; f < fields.length; f++) {
    const { name, kind, index, current: asIs } = fields[f]!;
    const a = previous[index]!;
    const b = current[index]!;
    if (asIs === true) {
      out[name] = b;
    } else if (kind === 'linear') {
      out[name] = a + (b - a) * alpha;
    } else if (kind === 'angle') {
      const d = b - a;
      out[name] = wrapAngle(a + (d - TAU * Math.floor((d + PI) / TAU)) * alpha);
    } else {
      out[name] = showsCurrent(alpha) ? b : a;
    }
  }
}

/** Blends `count` entities of one field by its kind, from entity `from` (a range of the run; default 0). */
export function interpolateField(
  kind: InterpolationKind,
  width: number,
  previous: Float32Array,
  current: Float32Array,
  out: Float32Array,
  count: number,
  alpha: number,
  from = 0,
): void {
  switch (kind) {
    case 'linear':
      lerpField(previous, current, out, count * width, alpha, from * width);
      return;
    case 'angle':
      angleField(previous, current, out, count, alpha, from);
      return;
    case 'quaternion':
      quaternionField(previous, current, out, count, alpha, from);
      return;
    case 'none':
      snapField(previous, current, out, count * width, alpha, from * width);
      return;
  }
}

/**
 * Moves `base` on by its `velocity` for `seconds` of simulated time: `linear` and `angle` by v * t (angles
 * wrapped), `quaternion` by rotating it about the world-axis angular velocity (width 3, rad/s), `none` or a
 * field without a velocity (`velocity` null) not at all.
 */
export function extrapolateField(
  kind: InterpolationKind,
  width: number,
  base: Float32Array,
  velocity: Float32Array | null,
  out: Float32Array,
  count: number,
  seconds: number,
): void {
  if (velocity === null || kind === 'none') {
    for (let i = 0, n = count * width; i < n; i++) out[i] = base[i]!;
    return;
  }
  if (kind === 'linear') {
    for (let i = 0, n = count * width; i < n; i++) out[i] = base[i]! + velocity[i]! * seconds;
    return;
  }
  if (kind === 'angle') {
    for (let i = 0; i < count; i++) {
      const v = base[i]! + velocity[i]! * seconds;
      out[i] = v - TAU * Math.floor((v + PI) / TAU);
    }
    return;
  }
  for (let i = 0, o = 0, w = 0; i < count; i++, o += 4, w += 3) {
    const ox = velocity[w]!;
    const oy = velocity[w + 1]!;
    const oz = velocity[w + 2]!;
    const rate = Math.sqrt(ox * ox + oy * oy + oz * oz);
    const qx = base[o]!;
    const qy = base[o + 1]!;
    const qz = base[o + 2]!;
    const qw = base[o + 3]!;
    if (rate * seconds < 1e-9) {
      out[o] = qx;
      out[o + 1] = qy;
      out[o + 2] = qz;
      out[o + 3] = qw;
      continue;
    }
    // the turn d = (axis * sin(angle / 2), cos(angle / 2)), applied in world axes: d * q
    const half = (rate * seconds) / 2;
    const s = Math.sin(half) / rate;
    const dx = ox * s;
    const dy = oy * s;
    const dz = oz * s;
    const dw = Math.cos(half);
    const x = dw * qx + dx * qw + dy * qz - dz * qy;
    const y = dw * qy - dx * qz + dy * qw + dz * qx;
    const z = dw * qz + dx * qy - dy * qx + dz * qw;
    writeNormalised(out, o, x, y, z, dw * qw - dx * qx - dy * qy - dz * qz);
  }
}
