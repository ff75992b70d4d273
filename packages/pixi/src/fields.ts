/**
 * Which schema fields make a 2D entity's pose, and the checks that they fit: the 2D adapters' shared resolver
 * (`steadyframe/adapter`), naming this package in its errors. Sprites, particles and the GPU path take the same
 * `PoseFields`; given a `table`, a binding checks them against that table's fields alone.
 */
import type { Schema } from 'steadyframe';
import { resolveBindingPose, resolvePoseFields, type BindingPose, type PoseFieldNames, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFieldNames, PoseFields, TableSchema } from 'steadyframe/adapter';
/** The checked field names, and the scale's width; null where a field is not bound. */
export type ResolvedFields = ResolvedPoseFields;

const PREFIX = '@steadyframe/pixi:';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedFields {
  return resolvePoseFields(schema, fields, PREFIX);
}

/**
 * The table called `table` (undefined: none) and `fields` checked against its fields; throws at set-up,
 * naming `what` (the binding) for a table the schema has not, and the field for one the table has not.
 */
export function resolveBinding(schema: Schema, fields: PoseFieldNames, table: string | undefined, what: string): BindingPose {
  return resolveBindingPose(schema, fields, table, PREFIX, what);
}
