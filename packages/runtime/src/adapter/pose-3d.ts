/**
 * Which schema fields make a 3D entity's transform, and the checks that they fit: the 3D adapters' shared
 * resolver (`@steadyframe/three` names itself in its errors; a binding given a `table` checks them against that
 * table's fields alone), and the GPU channels a transform blends through (`GpuPairMirror`).
 *
 * ```text
 *   role      field                                   GPU channel (float32 per entity)
 *   position  linear, width 3 (x, y, z) or 2 (z = 0)   2 or 3
 *   rotation  quaternion (x, y, z, w)                  4      (blended: nlerp, the shorter way)
 *             or angle (radians about +z)               1      (blended: the short arc)
 *   scale     linear, width 1 (uniform) or 3           1 or 3
 *   (always)  the generations                          GENERATIONS (uint32)
 * ```
 */
import type { InterpolationKind, Schema } from '../core/schema.ts';
import { schemaField } from '../core/schema.ts';
import { GENERATIONS, type MirrorChannel } from './gpu-pair-mirror.ts';
import { bindingTable, type BindingTable } from './table-source.ts';

/** Names of the schema's entity fields whose kind is one of `K`. */
export type FieldOfKind<S extends Schema, K extends InterpolationKind> = {
  [N in keyof S & string]: S[N] extends { readonly scope: 'game' } ? never : S[N] extends { readonly kind: K } ? N : never;
}[keyof S & string];

/**
 * The fields an entity's transform is read from.
 *
 * - `position`: a `linear` field of width 3 (x, y, z), or 2 (x, y; z is 0).
 * - `rotation` (optional): a `quaternion` field (x, y, z, w), or an `angle` field (radians about +z, for 2D
 *   games drawn in 3D). Without it, entities are not rotated.
 * - `scale` (optional): a `linear` field of width 1 (uniform) or 3 (x, y, z). Without it, the scale is 1.
 */
export interface TransformFields<S extends Schema> {
  readonly position: FieldOfKind<S, 'linear'>;
  readonly rotation?: FieldOfKind<S, 'quaternion' | 'angle'>;
  readonly scale?: FieldOfKind<S, 'linear'>;
}

/** The checked fields, with what each path needs to know about them. */
export interface ResolvedTransformFields {
  readonly position: { readonly name: string; readonly width: 2 | 3 };
  readonly rotation: { readonly name: string; readonly kind: 'quaternion' | 'angle' } | null;
  readonly scale: { readonly name: string; readonly width: 1 | 3 } | null;
}

/**
 * Checks `fields` against the schema, or against `table`'s fields alone when given; throws at set-up, naming the
 * field, the table and what would fit. `prefix` starts every message (the adapter's name and a colon).
 */
export function resolveTransformFields<S extends Schema>(schema: S, fields: TransformFields<S>, table: BindingTable | null, prefix: string): ResolvedTransformFields {
  if (typeof fields !== 'object' || fields === null) {
    throw new TypeError(`${prefix} fields must be an object such as { position: 'position', rotation: 'rotation' }`);
  }
  const spec = (role: string, name: unknown) => {
    if (table === null) return schemaField(schema, name, `${prefix} fields.${role}`);
    const own = table.layout.fields.map((f) => f.name).filter((n) => !n.startsWith('$'));
    if (typeof name === 'string' && !Object.hasOwn(table.schema, name) && Object.hasOwn(schema, name)) {
      throw new TypeError(`${prefix} fields.${role} names ${JSON.stringify(name)}, which is not a field of table "${table.layout.name}" (another table has it); table "${table.layout.name}" has ${own.join(', ')}`);
    }
    return schemaField(table.schema, name, `${prefix} table "${table.layout.name}": fields.${role}`);
  };
  const position = spec('position', fields.position);
  if (position.kind !== 'linear' || (position.width !== 2 && position.width !== 3)) {
    throw new TypeError(`${prefix} fields.position "${fields.position}" must be a linear field of width 2 or 3; it is ${position.kind} of width ${position.width}`);
  }
  let rotation: ResolvedTransformFields['rotation'] = null;
  if (fields.rotation !== undefined) {
    const r = spec('rotation', fields.rotation);
    if (r.kind !== 'quaternion' && r.kind !== 'angle') {
      throw new TypeError(`${prefix} fields.rotation "${fields.rotation}" must be a quaternion or angle field; it is ${r.kind}`);
    }
    rotation = { name: fields.rotation, kind: r.kind };
  }
  let scale: ResolvedTransformFields['scale'] = null;
  if (fields.scale !== undefined) {
    const s = spec('scale', fields.scale);
    if (s.kind !== 'linear' || (s.width !== 1 && s.width !== 3)) {
      throw new TypeError(`${prefix} fields.scale "${fields.scale}" must be a linear field of width 1 or 3; it is ${s.kind} of width ${s.width}`);
    }
    scale = { name: fields.scale, width: s.width };
  }
  return { position: { name: fields.position, width: position.width }, rotation, scale };
}

/** A binding's table (null: it draws every entity) and its transform fields, checked against that table's own. */
export interface BindingTransform {
  readonly table: BindingTable | null;
  readonly fields: ResolvedTransformFields;
}

/**
 * The table called `table` (undefined: none; `bindingTable`) and `fields` checked against its fields. Throws at
 * set-up: `prefix` starts every message, `what` names the binding for a table the schema has not.
 */
export function resolveBindingTransform<S extends Schema>(schema: S, fields: TransformFields<S>, table: string | undefined, prefix: string, what: string): BindingTransform {
  const found = bindingTable(schema, table, `${prefix} ${what}`);
  return { table: found, fields: resolveTransformFields(schema, fields, found, prefix) };
}

/** A GPU channel of a transform, with its role (a backend names its attributes by it). */
export interface TransformChannel extends MirrorChannel {
  readonly role: 'position' | 'rotation' | 'scale' | 'generation';
}

/** The channels a GPU path blends a transform through, in the table's order above; the generations last. */
export function transformChannels(fields: ResolvedTransformFields): TransformChannel[] {
  const list: TransformChannel[] = [{ role: 'position', field: fields.position.name, width: fields.position.width }];
  if (fields.rotation !== null) list.push({ role: 'rotation', field: fields.rotation.name, width: fields.rotation.kind === 'quaternion' ? 4 : 1 });
  if (fields.scale !== null) list.push({ role: 'scale', field: fields.scale.name, width: fields.scale.width });
  list.push({ role: 'generation', ...GENERATIONS });
  return list;
}
