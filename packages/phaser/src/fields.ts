/**
 * Which schema fields make an entity's pose on a Phaser game object, and the checks that they fit: the 2D
 * adapters' shared resolver (`steadyframe/adapter`), naming this package in its errors. Given a `table`, a
 * binding checks them against that table's fields alone.
 */
import type { Schema } from 'steadyframe';
import { resolveBindingPose, resolvePoseFields, type BindingPose, type PoseFieldNames, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFieldNames, PoseFields, TableSchema } from 'steadyframe/adapter';

const PREFIX = '@steadyframe/phaser:';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedPoseFields {
  return resolvePoseFields(schema, fields, PREFIX);
}

/**
 * The table called `table` (undefined: none) and `fields` checked against its fields; throws at set-up,
 * naming `what` (the binding) for a table the schema has not, and the field for one the table has not.
 */
export function resolveBinding(schema: Schema, fields: PoseFieldNames, table: string | undefined, what: string): BindingPose {
  return resolveBindingPose(schema, fields, table, PREFIX, what);
}
