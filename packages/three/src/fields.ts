/**
 * Which schema fields make an entity's transform, and the checks that they fit. Both paths (CPU and GPU) take
 * the same `TransformFields`; a binding given a `table` names that table's fields only.
 */
import type { InterpolationKind, Schema } from 'steadyframe';
import { bindingTable, schemaField, type BindingTable, type TableSchema } from 'steadyframe/adapter';

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

/**
 * The schema a binding names its fields from: the whole schema, or table `N`'s fields alone (a binding given
 * `{ table: N }`), so that a field of another table is a type error too.
 */
export type BoundSchema<S extends Schema, N extends string> = [N] extends [never] ? S : TableSchema<S, N>;

/** The options every binding takes. */
export interface TableOption<N extends string> {
  /**
   * The entity table (`defineTables`) to draw: its entities only (its range of the entities, its live count),
   * its fields only. Without it, every entity of the runtime (a plain schema's way).
   */
  readonly table?: N;
}

/** The checked fields, with what each path needs to know about them. */
export interface ResolvedFields {
  readonly position: { readonly name: string; readonly width: 2 | 3 };
  readonly rotation: { readonly name: string; readonly kind: 'quaternion' | 'angle' } | null;
  readonly scale: { readonly name: string; readonly width: 1 | 3 } | null;
}

const PREFIX = '@steadyframe/three:';

/**
 * Checks `fields` against the schema, or against `table`'s fields alone when given (`resolveBinding` finds the
 * table); throws at set-up, naming the field, the table and what would fit.
 */
export function resolveFields<S extends Schema>(schema: S, fields: TransformFields<S>, table: BindingTable | null = null): ResolvedFields {
  if (typeof fields !== 'object' || fields === null) {
    throw new TypeError(`${PREFIX} fields must be an object such as { position: 'position', rotation: 'rotation' }`);
  }
  const spec = (role: string, name: unknown) => {
    if (table === null) return schemaField(schema, name, `${PREFIX} fields.${role}`);
    const own = table.layout.fields.map((f) => f.name).filter((n) => !n.startsWith('$'));
    if (typeof name === 'string' && !Object.hasOwn(table.schema, name) && Object.hasOwn(schema, name)) {
      throw new TypeError(`${PREFIX} fields.${role} names ${JSON.stringify(name)}, which is not a field of table "${table.layout.name}" (another table has it); table "${table.layout.name}" has ${own.join(', ')}`);
    }
    return schemaField(table.schema, name, `${PREFIX} table "${table.layout.name}": fields.${role}`);
  };
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

/**
 * A binding's set-up: the table it draws (null: every entity; throws for a name that is not one of the schema's
 * tables, naming `what`) and its fields checked against that table's.
 */
export function resolveBinding<S extends Schema>(
  schema: S,
  fields: TransformFields<S>,
  table: string | undefined,
  what: string,
): { readonly table: BindingTable | null; readonly fields: ResolvedFields } {
  const found = bindingTable(schema, table, `${PREFIX} ${what}`);
  return { table: found, fields: resolveFields(schema, fields, found) };
}
