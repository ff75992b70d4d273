/**
 * Which schema fields make a 2D entity's pose, and the checks that they fit: the 2D adapters' shared resolver
 * (`steadyframe/adapter`), naming this package in its errors. Sprites, particles and the GPU path take the same
 * `PoseFields`; given a `table`, a binding checks them against that table's fields alone.
 */
import type { Schema, TableFieldName } from 'steadyframe';
import { bindingTable, resolvePoseFields, type BindingTable, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFields } from 'steadyframe/adapter';
/** The checked field names, and the scale's width; null where a field is not bound. */
export type ResolvedFields = ResolvedPoseFields;

const PREFIX = '@steadyframe/pixi:';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedFields {
  return resolvePoseFields(schema, fields, PREFIX);
}

/** A binding's field names as its implementation takes them (its public signature checks them against the schema's). */
export interface FieldNames {
  readonly position: string;
  readonly angle?: string;
  readonly scale?: string;
  readonly alpha?: string;
}

/** A binding's table (null: it draws every entity) and its fields, checked against that table's own. */
export interface BindingFields {
  readonly table: BindingTable | null;
  readonly fields: ResolvedFields;
}

/**
 * The table called `table` (undefined: none) and `fields` checked against its fields; throws at set-up,
 * naming `what` (the binding) for a table the schema has not, and the field for one the table has not.
 */
export function resolveBinding(schema: Schema, fields: FieldNames, table: string | undefined, what: string): BindingFields {
  const found = bindingTable(schema, table, `${PREFIX} ${what}`);
  return { table: found, fields: resolvePoseFields(found?.schema ?? schema, fields as PoseFields<Schema>, PREFIX) };
}

/** Table `N`'s fields of schema `S`, as a schema of their own: what a binding given `table: N` names. */
export type TableSchema<S extends Schema, N extends string> = Pick<S, TableFieldName<S, N> & keyof S>;
