/**
 * The entity schema: declared once, shared by the main thread and the worker.
 *
 * A schema names the per-entity fields that cross from the simulation to the renderer. Each field is a run
 * of `width` float32 components per entity and says how to blend two ticks of it:
 *
 * | kind         | width | between previous and current state                                    |
 * |--------------|-------|-----------------------------------------------------------------------|
 * | `linear`     | any   | component-wise lerp                                                   |
 * | `angle`      | 1     | lerp along the shorter arc, in radians (350 deg -> 10 deg passes 0)   |
 * | `quaternion` | 4     | nlerp (x, y, z, w): sign fixed for the shorter path, then normalised  |
 * | `none`       | any   | no blending: the previous value at alpha 0, the current one after     |
 *
 * A `linear` or `angle` field may name a `velocity` field of the same width (units per simulated second), and
 * a `quaternion` field a width-3 angular velocity (radians per simulated second, world axes). Extrapolation
 * uses them; interpolation does not need them.
 *
 * A field with `scope: 'game'` is one number for the whole world, not one per entity: the game's state (a score,
 * lives, a round timer, a phase). It is published in the same slot as the entities, so a frame's game state and
 * its bodies come from the same ticks (`world.state.score` in the worker, `frame.state.score` on the page), and
 * it blends by its kind: `none` (a score: the discrete rule below), `linear` (a timer), `angle`. Stored as a
 * float64.
 *
 * The discrete rule (`none` fields and game state, and the events a frame presents): a frame shows the current
 * state's value once it has left the previous state (alpha above 0), the previous one at alpha 0 (ARCHITECTURE.md,
 * "Events and the frame that shows them"). So a change the step made comes with the first frame that moves toward it.
 */

import { validateQuantize, type BitsQuantize, type RangeQuantize } from './quantize.ts';

export const INTERPOLATION_KINDS = ['linear', 'angle', 'quaternion', 'none'] as const;
export type InterpolationKind = (typeof INTERPOLATION_KINDS)[number];

/** Most components a single field may have (a 4x4 matrix is 16). */
export const MAX_FIELD_WIDTH = 16;

/** The kinds a game field (`scope: 'game'`) may have: it is one number. */
export const GAME_FIELD_KINDS = ['none', 'linear', 'angle'] as const;

/** A field of the game's state: one number for the whole world, blended by its kind. */
export type GameFieldSpec = { readonly kind: (typeof GAME_FIELD_KINDS)[number]; readonly scope: 'game'; readonly table?: undefined };

/**
 * The runtime's own game field for one entity table (tables.ts, `defineTables`): the table's word (its live count
 * and its handle counter, `tableCount(word)` the count), named `$` and the table's name; its spec says the
 * table's capacity and fields. A frame takes the current state's word whatever its alpha (the entities a frame
 * draws are the current state's), never blended. Not in the types of `world.state` and `frame.state`.
 */
export type TableCountSpec<F extends string = string> = {
  readonly kind: 'none';
  readonly scope: 'game';
  readonly table: { readonly capacity: number; readonly fields: readonly F[] };
};

/**
 * A per-entity field. `quantize` says how it travels on the network wire (core/quantize.ts): absent, as its
 * float32 bits.
 */
export type EntityFieldSpec =
  | { readonly kind: 'linear'; readonly width: number; readonly velocity?: string; readonly quantize?: RangeQuantize }
  | { readonly kind: 'none'; readonly width: number; readonly quantize?: RangeQuantize }
  | { readonly kind: 'angle'; readonly width: 1; readonly velocity?: string; readonly quantize?: BitsQuantize }
  | { readonly kind: 'quaternion'; readonly width: 4; readonly velocity?: string; readonly quantize?: BitsQuantize };

export type FieldSpec = EntityFieldSpec | GameFieldSpec | TableCountSpec;

export type Schema = { readonly [name: string]: FieldSpec };

/** The names of a schema's per-entity fields. */
export type EntityField<S extends Schema> = { [K in keyof S & string]: S[K] extends { readonly scope: 'game' } ? never : K }[keyof S & string];
/** The names of a schema's game fields (`scope: 'game'`), the tables' counts left out (`frame.tables.x.count`). */
export type GameField<S extends Schema> = {
  [K in keyof S & string]: S[K] extends { readonly table: object } ? never : S[K] extends { readonly scope: 'game' } ? K : never;
}[keyof S & string];

/** One typed view per entity field: entity `i`, component `c` of a field of width `w` is at `view[i * w + c]`. */
export type FieldViews<S extends Schema> = { readonly [K in EntityField<S>]: Float32Array };

/** The game's state as a frame shows it: one number per game field, blended by its kind. */
export type GameState<S extends Schema> = { readonly [K in GameField<S>]: number };

/** Whether a field spec is a game field (a table's count is one). */
export const isGameField = (spec: FieldSpec): spec is GameFieldSpec | TableCountSpec => (spec as { scope?: unknown }).scope === 'game';

/** Whether a field spec is an entity table's count (tables.ts). */
export const isTableCount = (spec: FieldSpec): spec is TableCountSpec => (spec as { table?: unknown }).table !== undefined;

const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Checks a schema and returns it unchanged, typed precisely. Throws at set-up, naming the field and the fix;
 * types already rule most mistakes out, the checks catch plain-JS callers.
 */
export function defineSchema<const S extends Schema>(schema: S): S {
  validateSchema(schema);
  return schema;
}

export function validateSchema(schema: unknown): asserts schema is Schema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError('steadyframe: a schema is an object of fields, e.g. { position: { width: 3, kind: "linear" } }');
  }
  const names = Object.keys(schema);
  if (names.filter((name) => (schema as Record<string, { scope?: unknown }>)[name]?.scope === undefined).length === 0) {
    throw new TypeError('steadyframe: the schema has no per-entity fields; declare at least one, e.g. { x: { width: 1, kind: "linear" } }');
  }
  for (const name of names) {
    if (!FIELD_NAME.test(name)) {
      throw new TypeError(`steadyframe: schema field "${name}" is not a valid name; use letters, digits, _ or $, not starting with a digit`);
    }
    const spec = (schema as Record<string, unknown>)[name];
    if (typeof spec !== 'object' || spec === null) {
      throw new TypeError(`steadyframe: schema field "${name}" must be an object { width, kind }`);
    }
    const { width, kind, scope } = spec as { width?: unknown; kind?: unknown; scope?: unknown };
    if (scope !== undefined) {
      if (scope !== 'game') {
        throw new TypeError(`steadyframe: schema field "${name}" has scope ${JSON.stringify(scope)}; the one scope is 'game' (one number for the whole world), or leave it out for a per-entity field`);
      }
      if (typeof kind !== 'string' || !(GAME_FIELD_KINDS as readonly string[]).includes(kind)) {
        throw new TypeError(`steadyframe: game field "${name}" has kind ${JSON.stringify(kind)}; a game field is one number: use one of ${GAME_FIELD_KINDS.join(', ')}`);
      }
      if (width !== undefined && width !== 1) {
        throw new TypeError(`steadyframe: game field "${name}" has width ${String(width)}; a game field is one number (declare one field per component)`);
      }
      if ((spec as { velocity?: unknown }).velocity !== undefined) {
        throw new TypeError(`steadyframe: game field "${name}" cannot have a velocity`);
      }
      const table = (spec as { table?: unknown }).table;
      if (table !== undefined) validateTableCount(schema as Schema, name, kind, table);
      continue;
    }
    if (typeof kind !== 'string' || !(INTERPOLATION_KINDS as readonly string[]).includes(kind)) {
      throw new TypeError(
        `steadyframe: schema field "${name}" has unknown interpolation kind ${JSON.stringify(kind)}; use one of ${INTERPOLATION_KINDS.join(', ')}`,
      );
    }
    if (typeof width !== 'number' || !Number.isInteger(width) || width < 1 || width > MAX_FIELD_WIDTH) {
      throw new TypeError(
        `steadyframe: schema field "${name}" has width ${String(width)}; a width is a whole number from 1 to ${MAX_FIELD_WIDTH}`,
      );
    }
    if (kind === 'angle' && width !== 1) {
      throw new TypeError(`steadyframe: schema field "${name}" is an angle and must have width 1, not ${width}`);
    }
    if (kind === 'quaternion' && width !== 4) {
      throw new TypeError(`steadyframe: schema field "${name}" is a quaternion and must have width 4 (x, y, z, w), not ${width}`);
    }
    const quantize = (spec as { quantize?: unknown }).quantize;
    if (quantize !== undefined) validateQuantize(name, kind, quantize);
  }
  // velocities last: they refer to other fields, which are all known good by now
  for (const name of names) {
    const spec = (schema as Record<string, { kind: string; width: number; velocity?: unknown; scope?: unknown }>)[name]!;
    if (spec.scope !== undefined) continue;
    const velocity = spec.velocity;
    if (velocity === undefined) continue;
    if (spec.kind === 'none') {
      throw new TypeError(`steadyframe: schema field "${name}" snaps (kind "none") and cannot have a velocity`);
    }
    if (typeof velocity !== 'string' || velocity === name || !Object.hasOwn(schema, velocity)) {
      throw new TypeError(`steadyframe: schema field "${name}" names velocity ${JSON.stringify(velocity)}, which is not another field of the schema`);
    }
    const other = (schema as Schema)[velocity]!;
    if (isGameField(other)) throw new TypeError(`steadyframe: schema field "${name}" names velocity "${velocity}", a game field; a velocity is a per-entity field`);
    const wanted = spec.kind === 'quaternion' ? 3 : spec.width;
    if (other.kind !== 'linear' || other.width !== wanted) {
      throw new TypeError(
        `steadyframe: schema field "${name}" needs its velocity "${velocity}" to be a linear field of width ${wanted}` +
          (spec.kind === 'quaternion' ? ' (angular velocity x, y, z in radians per second)' : ''),
      );
    }
  }
}

/** Checks a table's count field (made by `defineTables`, tables.ts; a hand-made one is checked the same). */
function validateTableCount(schema: Schema, name: string, kind: string, table: unknown): void {
  const what = `steadyframe: table field "${name}"`;
  if (!name.startsWith('$') || name === TABLE_HANDLE) throw new TypeError(`${what} must be named "$" and the table's name (defineTables makes it)`);
  if (kind !== 'none') throw new TypeError(`${what} has kind ${JSON.stringify(kind)}; a table's count has kind "none"`);
  const { capacity, fields } = table as { capacity?: unknown; fields?: unknown };
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1 || capacity > MAX_TABLE_CAPACITY) {
    throw new RangeError(`${what} has capacity ${String(capacity)}; a table's capacity is a whole number from 1 to ${MAX_TABLE_CAPACITY}`);
  }
  if (!Array.isArray(fields) || fields.length === 0) throw new TypeError(`${what} lists no fields; a table has at least one`);
  for (const field of fields) {
    const spec = typeof field === 'string' && Object.hasOwn(schema, field) ? schema[field] : undefined;
    if (spec === undefined || isGameField(spec)) throw new TypeError(`${what} lists ${JSON.stringify(field)}, which is not a per-entity field of the schema`);
  }
  const handle = schema[TABLE_HANDLE];
  if (handle === undefined || isGameField(handle) || handle.kind !== 'none' || handle.width !== 1) {
    throw new TypeError(`${what} needs the schema's "${TABLE_HANDLE}" field ({ kind: 'none', width: 1 }): make table schemas with defineTables`);
  }
}

/** The per-entity field that holds each entity's handle in a schema of tables (tables.ts). */
export const TABLE_HANDLE = '$handle';
/**
 * Most entities one table may have: a handle is a whole number below 2^24 (a float32 holds it exactly), and a
 * table needs handles to spare for the ones still in flight to the page.
 */
export const MAX_TABLE_CAPACITY = 2 ** 22;

/**
 * The spec of the field called `name`, for code that takes field names from its caller (adapters binding
 * fields to a renderer's objects). Throws at set-up when there is no such field, naming `what` (e.g.
 * `"@steadyframe/three: fields.position"`) and the fields there are.
 */
export function schemaField(schema: Schema, name: unknown, what: string): EntityFieldSpec {
  const found = typeof name === 'string' && Object.hasOwn(schema, name) ? schema[name] : undefined;
  const entityFields = Object.keys(schema).filter((n) => !isGameField(schema[n]!));
  if (found === undefined) {
    throw new TypeError(`${what} names ${JSON.stringify(name)}, which is not a field of the schema (${entityFields.join(', ')})`);
  }
  if (isGameField(found)) {
    throw new TypeError(`${what} names ${JSON.stringify(name)}, a game field (one number for the world, frame.state); bind a per-entity field (${entityFields.join(', ')})`);
  }
  return found;
}

/**
 * A string that is equal for two schemas exactly when their memory layouts are equal. The worker compares it
 * with the main thread's when it attaches, so a stale worker bundle fails loudly instead of reading garbage.
 */
export function schemaSignature(schema: Schema): string {
  return Object.keys(schema)
    .map((name) => {
      const spec = schema[name]!;
      if (isTableCount(spec)) return `${name}:table:${spec.table.capacity}:${spec.table.fields.join(',')}`;
      if (isGameField(spec)) return `${name}:${spec.kind}:game`;
      const velocity = 'velocity' in spec && spec.velocity !== undefined ? `>${spec.velocity}` : '';
      return `${name}:${spec.kind}:${spec.width}${velocity}`;
    })
    .join(';');
}

/** 2D preset: position (x, y) and a rotation angle in radians. */
export const schema2d = defineSchema({
  position: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle' },
});

/** 3D preset: position (x, y, z) and a rotation quaternion (x, y, z, w). */
export const schema3d = defineSchema({
  position: { width: 3, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
});
