/**
 * Entity tables: a schema of several kinds of things (ships, rocks, bullets), each with its own fields and
 * capacity, published together.
 *
 * `defineTables` makes a plain schema (schema.ts) of them, so that everything that carries a schema (the slots,
 * the message transport, the history, recordings, snapshots, the network wire) carries tables as they are:
 *
 * ```text
 *   entity index   0 ........ 7 │ 8 ............. 71 │ 72 ................ 327
 *   table          ships (8)    │ rocks (64)         │ bullets (256)
 *   live           0 .. count-1 │ 8 .. 8 + count - 1 │ 72 .. 72 + count - 1
 *
 *   fields         the union of the tables' fields, a run each over all 328 entities (a table reads only its
 *                  own; a field two tables share must be declared alike in both)
 *   $handle        a per-entity field (kind 'none'): the entity's handle, which moves with it on a despawn
 *   $ships ...     a game field per table (the current state's always): its word, a float64 holding two whole
 *                  numbers: count + COUNT_SPAN * (the next handle to give), so a replay gives the same handles
 * ```
 *
 * One `state_index` flip publishes every table at once, so a frame's tables always come from the same ticks.
 * The world's `count` is the *extent* (up to the end of the last table's live entities); a publish copies,
 * and a frame blends, each table's live entities alone (publish-copy.ts `tableSpans`, the sampler's ranges).
 * Memory is the union's, as in bitECS (each component's array spans every entity): a field only one table has
 * still takes a run over all of them; tables with few fields in common cost more memory.
 *
 * A handle is a whole number below 2^24 (exact in the float32 field), the table's spawn count at its spawn,
 * wrapping; it never names two live entities of one table. A despawn moves the table's last entity into the
 * freed place, handle and all, so `indexOf(handle)` follows it; the page finds the same handle in the frames.
 */
import { TABLE_HANDLE, MAX_TABLE_CAPACITY, validateSchema, type EntityFieldSpec, type GameFieldSpec, type Schema, type TableCountSpec } from './schema.ts';

/** One table: its capacity and its per-entity fields (as in a plain schema; no game fields). */
export type TableSpec = { readonly capacity: number; readonly fields: { readonly [name: string]: EntityFieldSpec } };
export type TableSpecs = { readonly [table: string]: TableSpec };
/** The game fields that go with the tables (each `scope: 'game'`). */
export type GameSpecs = { readonly [name: string]: GameFieldSpec };

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The plain schema `defineTables` makes: the tables' fields, `$handle`, a count per table, the game fields. */
export type TablesSchema<T extends TableSpecs, G extends GameSpecs = Record<never, never>> = Flat<
  UnionToIntersection<{ [N in keyof T]: T[N]['fields'] }[keyof T]> & { readonly $handle: { readonly kind: 'none'; readonly width: 1 } } & {
    readonly [N in keyof T & string as `$${N}`]: TableCountSpec<keyof T[N]['fields'] & string>;
  } & G
>;

/** The names of a schema's tables (none for a plain schema). */
export type TableName<S extends Schema> = {
  [K in keyof S & string]: S[K] extends { readonly table: object } ? (K extends `$${infer N}` ? N : never) : never;
}[keyof S & string];

/** The names of table `N`'s fields. */
export type TableFieldName<S extends Schema, N extends string> = S[`$${N}`] extends TableCountSpec<infer F> ? F : never;

/** One view per field of table `N`: its entity i, component c of a field of width w at `view[i * w + c]`. */
export type TableViews<S extends Schema, N extends string> = { readonly [K in TableFieldName<S, N>]: Float32Array };

/** Handles are below 2^24: a float32 holds them exactly. */
export const HANDLE_LIMIT = 2 ** 24;
/** A table's word (its game field) is count + COUNT_SPAN * next handle: counts are below it (MAX_TABLE_CAPACITY). */
export const COUNT_SPAN = 2 ** 23;

/** The live count in a table's word (its game field's value, as `frame.state` holds it). */
export const tableCount = (word: number): number => word % COUNT_SPAN;

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Declares a schema of entity tables, and the game fields that go with them. Pass the result as the schema, and
 * `tablesCapacity(schema)` as the capacity. Throws at set-up, naming the table and the fix.
 *
 * ```ts
 * const schema = defineTables({
 *   ships: { capacity: 4, fields: { position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } } },
 *   rocks: { capacity: 64, fields: { position: { width: 2, kind: 'linear' }, radius: { width: 1, kind: 'none' } } },
 * }, { score: { kind: 'none', scope: 'game' } });
 * ```
 */
export function defineTables<const T extends TableSpecs, const G extends GameSpecs = Record<never, never>>(tables: T, game?: G): TablesSchema<T, G> {
  if (typeof tables !== 'object' || tables === null || Array.isArray(tables) || Object.keys(tables).length === 0) {
    throw new TypeError('steadyframe: defineTables takes an object of tables, e.g. { ships: { capacity: 8, fields: { position: { width: 2, kind: "linear" } } } }');
  }
  const entity: Record<string, EntityFieldSpec> = {};
  const owner: Record<string, string> = {};
  const counts: Record<string, TableCountSpec> = {};
  for (const [name, table] of Object.entries(tables)) {
    if (!TABLE_NAME.test(name)) throw new TypeError(`steadyframe: table "${name}" is not a valid name; use letters, digits and _, not starting with a digit`);
    const { capacity, fields } = (table ?? {}) as { capacity?: unknown; fields?: unknown };
    if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1 || capacity > MAX_TABLE_CAPACITY) {
      throw new RangeError(`steadyframe: table "${name}" has capacity ${String(capacity)}; a table's capacity is a whole number from 1 to ${MAX_TABLE_CAPACITY}`);
    }
    if (typeof fields !== 'object' || fields === null || Object.keys(fields).length === 0) {
      throw new TypeError(`steadyframe: table "${name}" has no fields; give it at least one, e.g. { position: { width: 2, kind: "linear" } }`);
    }
    for (const [field, spec] of Object.entries(fields as Record<string, EntityFieldSpec>)) {
      if (field.startsWith('$')) throw new TypeError(`steadyframe: table "${name}" has a field "${field}"; names starting with $ are the runtime's`);
      if ((spec as { scope?: unknown }).scope !== undefined) {
        throw new TypeError(`steadyframe: table "${name}" field "${field}" is a game field; pass game fields as defineTables' second argument`);
      }
      const velocity = (spec as { velocity?: unknown }).velocity;
      if (typeof velocity === 'string' && !Object.hasOwn(fields, velocity)) {
        throw new TypeError(`steadyframe: table "${name}" field "${field}" names velocity "${velocity}", which is not a field of that table`);
      }
      const seen = entity[field];
      if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(spec)) {
        throw new TypeError(
          `steadyframe: field "${field}" of table "${name}" differs from table "${owner[field]}"'s (${JSON.stringify(spec)} vs ${JSON.stringify(seen)}); a field two tables share is declared alike, or give one another name`,
        );
      }
      entity[field] = spec;
      owner[field] ??= name;
    }
    counts[`$${name}`] = { kind: 'none', scope: 'game', table: { capacity, fields: Object.keys(fields) } };
  }
  for (const [name, spec] of Object.entries(game ?? {})) {
    if (name.startsWith('$')) throw new TypeError(`steadyframe: game field "${name}": names starting with $ are the runtime's`);
    if ((spec as { scope?: unknown })?.scope !== 'game') {
      throw new TypeError(`steadyframe: defineTables' second argument is the game fields, each { kind, scope: 'game' }; "${name}" has no scope 'game' (per-entity fields go in a table)`);
    }
    if (Object.hasOwn(entity, name)) throw new TypeError(`steadyframe: game field "${name}" has the name of a table's field; rename one`);
  }
  const schema = { ...entity, [TABLE_HANDLE]: { kind: 'none', width: 1 }, ...counts, ...(game ?? {}) };
  validateSchema(schema);
  return schema as unknown as TablesSchema<T, G>;
}

/** The capacity a schema of tables needs: its tables' capacities added up (0 for a plain schema). */
export function tablesCapacity(schema: Schema): number {
  let capacity = 0;
  for (const spec of Object.values(schema)) {
    const table = (spec as { table?: { capacity: number } }).table;
    if (table !== undefined) capacity += table.capacity;
  }
  return capacity;
}

/**
 * Zero-based views of entities `base .. base + capacity - 1` of each run (a table's range): `views[name]`, a run of
 * `width` floats per entity, for each of `runs`. The worker's and the page's tables are made of them. Allocates.
 */
export function rangeViews(
  runs: readonly { readonly name: string; readonly width: number }[],
  views: Readonly<Record<string, Float32Array>>,
  base: number,
  capacity: number,
): Readonly<Record<string, Float32Array>> {
  return Object.freeze(Object.fromEntries(runs.map(({ name, width }) => [name, views[name]!.subarray(base * width, (base + capacity) * width)])));
}
