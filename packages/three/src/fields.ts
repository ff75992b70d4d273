/**
 * Which schema fields make an entity's transform, and the checks that they fit. Both paths (CPU and GPU) take
 * the same `TransformFields`.
 */
import type { InterpolationKind, Schema } from 'steadyframe';
import { schemaField } from 'steadyframe/adapter';

/** Names of the schema's fields whose kind is one of `K`. */
export type FieldOfKind<S extends Schema, K extends InterpolationKind> = {
  [N in keyof S & string]: S[N] extends { readonly scope: 'game' } ? never : S[N] extends { readonly kind: K } ? N : never;
}[keyof S & string];

/**
 * The fields an entity's transform is read from.
 *
 * - `position`: a `linear` field of width 3 (x, y, z), or 2 (x, y; z is 0).
 * - `rotation` (optional): a `quaternion` field (x, y, z, w), or an `angle` field (radians about +z, for 2D
 *   games drawn with three.js). Without it, entities are not rotated.
 * - `scale` (optional): a `linear` field of width 1 (uniform) or 3 (x, y, z). Without it, the scale is 1.
 */
export interface TransformFields<S extends Schema> {
  readonly position: FieldOfKind<S, 'linear'>;
  readonly rotation?: FieldOfKind<S, 'quaternion' | 'angle'>;
  readonly scale?: FieldOfKind<S, 'linear'>;
}

/** The checked fields, with what each path needs to know about them. */
export interface ResolvedFields {
  readonly position: { readonly name: string; readonly width: 2 | 3 };
  readonly rotation: { readonly name: string; readonly kind: 'quaternion' | 'angle' } | null;
  readonly scale: { readonly name: string; readonly width: 1 | 3 } | null;
}

const PREFIX = '@steadyframe/three:';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: TransformFields<S>): ResolvedFields {
  if (typeof fields !== 'object' || fields === null) {
    throw new TypeError(`${PREFIX} fields must be an object such as { position: 'position', rotation: 'rotation' }`);
  }
  const spec = (role: string, name: unknown) => schemaField(schema, name, `${PREFIX} fields.${role}`);
  const position = spec('position', fields.position);
  if (position.kind !== 'linear' || (position.width !== 2 && position.width !== 3)) {
    throw new TypeError(`${PREFIX} fields.position "${fields.position}" must be a linear field of width 2 or 3; it is ${position.kind} of width ${position.width}`);
  }
  let rotation: ResolvedFields['rotation'] = null;
  if (fields.rotation !== undefined) {
    const r = spec('rotation', fields.rotation);
    if (r.kind !== 'quaternion' && r.kind !== 'angle') {
      throw new TypeError(`${PREFIX} fields.rotation "${fields.rotation}" must be a quaternion or angle field; it is ${r.kind}`);
    }
    rotation = { name: fields.rotation, kind: r.kind };
  }
  let scale: ResolvedFields['scale'] = null;
  if (fields.scale !== undefined) {
    const s = spec('scale', fields.scale);
    if (s.kind !== 'linear' || (s.width !== 1 && s.width !== 3)) {
      throw new TypeError(`${PREFIX} fields.scale "${fields.scale}" must be a linear field of width 1 or 3; it is ${s.kind} of width ${s.width}`);
    }
    scale = { name: fields.scale, width: s.width };
  }
  return { position: { name: fields.position, width: position.width }, rotation, scale };
}
