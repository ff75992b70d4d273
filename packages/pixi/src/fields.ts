/**
 * Which schema fields make a 2D entity's pose, and the checks that they fit: the 2D adapters' shared resolver
 * (`steadyframe/adapter`), naming this package in its errors. Sprites, particles and the GPU path take the same
 * `PoseFields`.
 */
import type { Schema } from 'steadyframe';
import { resolvePoseFields, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFields } from 'steadyframe/adapter';
/** The checked field names, and the scale's width; null where a field is not bound. */
export type ResolvedFields = ResolvedPoseFields;

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedFields {
  return resolvePoseFields(schema, fields, '@steadyframe/pixi:');
}
