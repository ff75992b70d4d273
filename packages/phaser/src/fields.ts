/**
 * Which schema fields make an entity's pose on a Phaser game object, and the checks that they fit: the 2D
 * adapters' shared resolver (`steadyframe/adapter`), naming this package in its errors. Given a `table`, a
 * binding checks them against that table's fields alone.
 */
import type { Schema, TableFieldName } from 'steadyframe';
import { bindingTable, resolvePoseFields, type BindingTable, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFields } from 'steadyframe/adapter';

const PREFIX = '@steadyframe/phaser:';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedPoseFields {
  return resolvePoseFields(schema, fields, PREFIX);
}

/** Table `N`'s fields of schema `S`, as a schema of their own: what a binding given `table: N` names. */
export type TableSchema<S extends Schema, N extends string> = Pick<S, TableFieldName<S, N> & keyof S>;

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
  readonly fields: ResolvedPoseFields;
}

/**
 * The table called `table` (undefined: none) and `fields` checked against its fields; throws at set-up,
 * naming `what` (the binding) for a table the schema has not, and the field for one the table has not.
 */
export function resolveBinding(schema: Schema, fields: FieldNames, table: string | undefined, what: string): BindingFields {
  const found = bindingTable(schema, table, `${PREFIX} ${what}`);
  return { table: found, fields: resolvePoseFields(found?.schema ?? schema, fields as PoseFields<Schema>, PREFIX) };
}
