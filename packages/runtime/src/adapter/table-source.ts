/**
 * Bindings per entity table: a binding given a `table` draws that table's entities (its range of the frame, its
 * count) and checks its fields against that table's alone; given none, the whole frame, as before tables.
 *
 * ```ts
 * const table = bindingTable(runtime.schema, options.table, '@steadyframe/three: bindInstancedMesh');
 * const schema = table?.schema ?? runtime.schema; // resolve the binding's fields against it
 * // each frame: const { fields, count } = frameSource(frame, table);
 * // a binding that reads the raw pairs: createGpuPairMirror({ table, ... }) uploads the table's range, by its counts
 * ```
 */
import type { Frame } from '../contracts/app.ts';
import type { FrameTable } from '../contracts/frames.ts';
import { computeLayout, type TableLayout } from '../core/layout.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import { tablesCapacity } from '../core/tables.ts';

/** A table a binding draws: its layout, and a schema of its fields alone (for the binding's field checks). */
export interface BindingTable {
  readonly layout: TableLayout;
  readonly schema: Schema;
}

/**
 * The table called `name` of `schema`, or null when `name` is undefined (the binding draws every entity). Throws
 * at set-up, naming `what`, for a name that is not one of the schema's tables.
 */
export function bindingTable(schema: Schema, name: string | undefined, what: string): BindingTable | null {
  if (name === undefined) return null;
  const capacity = tablesCapacity(schema);
  const tables = capacity === 0 ? [] : computeLayout(schema, capacity).tables;
  const layout = tables.find((t) => t.name === name);
  if (layout === undefined) {
    throw new TypeError(
      tables.length === 0
        ? `${what}: table ${JSON.stringify(name)}, but the schema has no tables (defineTables makes a schema of tables)`
        : `${what}: table ${JSON.stringify(name)} is not one of the schema's tables (${tables.map((t) => t.name).join(', ')})`,
    );
  }
  const fields = Object.fromEntries(layout.fields.map((f) => [f.name, schema[f.name]!]));
  return { layout, schema: fields };
}

/** What a binding draws of a frame: the table's views and count, or the whole frame's. Allocates nothing. */
export function frameSource<S extends Schema>(frame: Frame<S>, table: BindingTable | null): { readonly fields: FieldViews<S>; readonly count: number } {
  if (table === null) return frame;
  return (frame.tables as unknown as Record<string, FrameTable>)[table.layout.name] as unknown as { fields: FieldViews<S>; count: number };
}
