/**
 * The 3D adapters' pose arithmetic on the CPU: one entity's transform read from a frame's interpolated fields
 * (`readTransform`: a position, a rotation quaternion, a scale) and written as a column-major 4x4 matrix
 * (`writeMatrix`: three.js's `Matrix4.elements` order, translation in 12..14), for an engine's instance matrices
 * or its objects' position, quaternion and scale. Plain arithmetic on typed arrays: nothing is allocated.
 *
 * ```text
 *   views (once a frame)   entity i                       matrix at out[o .. o + 15]
 *   position [3i ..] ───▶  px py pz   (width 2: pz = 0)   │ R·sx  R·sy  R·sz  p │   R: the quaternion's
 *   rotation [4i ..] ───▶  qx qy qz qw (angle a: about +z, │                     │   rotation matrix,
 *                          q = (0, 0, sin a/2, cos a/2))  │  0     0     0    1 │   columns scaled
 *   scale    [3i ..] ───▶  sx sy sz   (width 1: uniform)
 * ```
 */
import type { ResolvedTransformFields } from './pose-3d.ts';

/** The field views an entity's transform is read from, resolved once per frame. */
export interface TransformViews {
  position: Float32Array;
  rotation: Float32Array | null;
  scale: Float32Array | null;
}

/** Points `out` at the frame's views for the resolved fields. */
export function transformViews(fields: ResolvedTransformFields, views: { readonly [name: string]: Float32Array }, out: TransformViews): TransformViews {
  out.position = views[fields.position.name]!;
  out.rotation = fields.rotation === null ? null : views[fields.rotation.name]!;
  out.scale = fields.scale === null ? null : views[fields.scale.name]!;
  return out;
}

/**
 * One entity's position, rotation quaternion and scale, unpacked by `readTransform`. A module-level scratch
 * record (one per realm, not re-entrant), so the per-entity loop allocates nothing.
 */
export const scratch = { px: 0, py: 0, pz: 0, qx: 0, qy: 0, qz: 0, qw: 1, sx: 1, sy: 1, sz: 1 };

/** Unpacks entity `i` into `scratch`. An `angle` rotation becomes a quaternion about +z. */
export function readTransform(fields: ResolvedTransformFields, views: TransformViews, i: number): typeof scratch {
  const t = scratch;
  const p = views.position;
  if (fields.position.width === 3) {
    t.px = p[3 * i]!;
    t.py = p[3 * i + 1]!;
    t.pz = p[3 * i + 2]!;
  } else {
    t.px = p[2 * i]!;
    t.py = p[2 * i + 1]!;
    t.pz = 0;
  }
  const r = views.rotation;
  if (r === null) {
    t.qx = t.qy = t.qz = 0;
    t.qw = 1;
  } else if (fields.rotation!.kind === 'quaternion') {
    t.qx = r[4 * i]!;
    t.qy = r[4 * i + 1]!;
    t.qz = r[4 * i + 2]!;
    t.qw = r[4 * i + 3]!;
  } else {
    const half = r[i]! / 2;
    t.qx = t.qy = 0;
    t.qz = Math.sin(half);
    t.qw = Math.cos(half);
  }
  const s = views.scale;
  if (s === null) {
    t.sx = t.sy = t.sz = 1;
  } else if (fields.scale!.width === 3) {
    t.sx = s[3 * i]!;
    t.sy = s[3 * i + 1]!;
    t.sz = s[3 * i + 2]!;
  } else {
    t.sx = t.sy = t.sz = s[i]!;
  }
  return t;
}

/** Writes the matrix of `t` (translate * rotate * scale, as `Matrix4.compose`) at `out[o .. o + 15]`. */
export function writeMatrix(t: typeof scratch, out: Float32Array, o: number): void {
  const { qx: x, qy: y, qz: z, qw: w, sx, sy, sz } = t;
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = t.px;
  out[o + 13] = t.py;
  out[o + 14] = t.pz;
  out[o + 15] = 1;
}
