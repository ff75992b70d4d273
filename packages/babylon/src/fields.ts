/**
 * Which schema fields make an entity's transform, and the checks that they fit: the 3D adapters' shared resolver
 * (`steadyframe/adapter`'s `resolveTransformFields`), naming this package in its errors. Both paths (the thin
 * instances blended on the GPU, the meshes moved on the CPU) take the same `TransformFields`; a binding given a
 * `table` names that table's fields only.
 */
import type { Schema } from 'steadyframe';
import { resolveBindingTransform, type BindingTransform, type TableSchema, type TransformFields } from 'steadyframe/adapter';

export type { FieldOfKind, TransformFields } from 'steadyframe/adapter';

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

/** Starts every error this package throws. */
export const PREFIX = '@steadyframe/babylon:';

/**
 * A binding's set-up: the table it draws (null: every entity; throws for a name that is not one of the schema's
 * tables, naming `what`) and its fields checked against that table's.
 */
export function resolveBinding<S extends Schema>(schema: S, fields: TransformFields<S>, table: string | undefined, what: string): BindingTransform {
  return resolveBindingTransform(schema, fields, table, PREFIX, what);
}
