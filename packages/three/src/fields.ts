/**
 * Which schema fields make an entity's transform, and the checks that they fit: the 3D adapters' shared resolver
 * (`steadyframe/adapter`'s `resolveTransformFields`), naming this package in its errors. Both paths (CPU and GPU)
 * take the same `TransformFields`; a binding given a `table` names that table's fields only.
 */
import type { Schema } from 'steadyframe';
import { resolveBindingTransform, resolveTransformFields, type BindingTable, type BindingTransform, type ResolvedTransformFields, type TableSchema, type TransformFields } from 'steadyframe/adapter';

export type { FieldOfKind, TransformFields } from 'steadyframe/adapter';
/** The checked fields, with what each path needs to know about them. */
export type ResolvedFields = ResolvedTransformFields;

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

const PREFIX = '@steadyframe/three:';

/**
 * Checks `fields` against the schema, or against `table`'s fields alone when given (`resolveBinding` finds the
 * table); throws at set-up, naming the field, the table and what would fit.
 */
export function resolveFields<S extends Schema>(schema: S, fields: TransformFields<S>, table: BindingTable | null = null): ResolvedFields {
  return resolveTransformFields(schema, fields, table, PREFIX);
}

/**
 * A binding's set-up: the table it draws (null: every entity; throws for a name that is not one of the schema's
 * tables, naming `what`) and its fields checked against that table's.
 */
export function resolveBinding<S extends Schema>(schema: S, fields: TransformFields<S>, table: string | undefined, what: string): BindingTransform {
  return resolveBindingTransform(schema, fields, table, PREFIX, what);
}
