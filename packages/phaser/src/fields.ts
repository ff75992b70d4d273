/**
 * Which schema fields make an entity's pose on a Phaser game object, and the checks that they fit: the 2D
 * adapters' shared resolver (`steadyframe/adapter`), naming this package in its errors.
 */
import type { Schema } from 'steadyframe';
import { resolvePoseFields, type PoseFields, type ResolvedPoseFields } from 'steadyframe/adapter';

export { NO_VIEW, viewOf } from 'steadyframe/adapter';
export type { FieldOf, PoseFields } from 'steadyframe/adapter';

/** Checks `fields` against the schema; throws at set-up, naming the field and what would fit. */
export function resolveFields<S extends Schema>(schema: S, fields: PoseFields<S>): ResolvedPoseFields {
  return resolvePoseFields(schema, fields, '@steadyframe/phaser:');
}
