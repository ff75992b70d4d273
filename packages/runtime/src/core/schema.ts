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
 * | `none`       | any   | no blending: the previous value until alpha reaches 1, then current   |
 *
 * A `linear` or `angle` field may name a `velocity` field of the same width (units per simulated second), and
 * a `quaternion` field a width-3 angular velocity (radians per simulated second, world axes). Extrapolation
 * uses them; interpolation does not need them.
 */

export const INTERPOLATION_KINDS = ['linear', 'angle', 'quaternion', 'none'] as const;
export type InterpolationKind = (typeof INTERPOLATION_KINDS)[number];

/** Most components a single field may have (a 4x4 matrix is 16). */
export const MAX_FIELD_WIDTH = 16;

export type FieldSpec =
  | { readonly kind: 'linear'; readonly width: number; readonly velocity?: string }
  | { readonly kind: 'none'; readonly width: number }
  | { readonly kind: 'angle'; readonly width: 1; readonly velocity?: string }
  | { readonly kind: 'quaternion'; readonly width: 4; readonly velocity?: string };

export type Schema = { readonly [name: string]: FieldSpec };

/** One typed view per field: entity `i`, component `c` of a field of width `w` is at `view[i * w + c]`. */
export type FieldViews<S extends Schema> = { readonly [K in keyof S]: Float32Array };

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
  if (names.length === 0) {
    throw new TypeError('steadyframe: the schema has no fields; declare at least one, e.g. { x: { width: 1, kind: "linear" } }');
  }
  for (const name of names) {
    if (!FIELD_NAME.test(name)) {
      throw new TypeError(`steadyframe: schema field "${name}" is not a valid name; use letters, digits, _ or $, not starting with a digit`);
    }
    const spec = (schema as Record<string, unknown>)[name];
    if (typeof spec !== 'object' || spec === null) {
      throw new TypeError(`steadyframe: schema field "${name}" must be an object { width, kind }`);
    }
    const { width, kind } = spec as { width?: unknown; kind?: unknown };
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
  }
  // velocities last: they refer to other fields, which are all known good by now
  for (const name of names) {
    const spec = (schema as Record<string, { kind: string; width: number; velocity?: unknown }>)[name]!;
    const velocity = spec.velocity;
    if (velocity === undefined) continue;
    if (spec.kind === 'none') {
      throw new TypeError(`steadyframe: schema field "${name}" snaps (kind "none") and cannot have a velocity`);
    }
    if (typeof velocity !== 'string' || velocity === name || !Object.hasOwn(schema, velocity)) {
      throw new TypeError(`steadyframe: schema field "${name}" names velocity ${JSON.stringify(velocity)}, which is not another field of the schema`);
    }
    const other = (schema as Schema)[velocity]!;
    const wanted = spec.kind === 'quaternion' ? 3 : spec.width;
    if (other.kind !== 'linear' || other.width !== wanted) {
      throw new TypeError(
        `steadyframe: schema field "${name}" needs its velocity "${velocity}" to be a linear field of width ${wanted}` +
          (spec.kind === 'quaternion' ? ' (angular velocity x, y, z in radians per second)' : ''),
      );
    }
  }
}

/**
 * The spec of the field called `name`, for code that takes field names from its caller (adapters binding
 * fields to a renderer's objects). Throws at set-up when there is no such field, naming `what` (e.g.
 * `"@steadyframe/three: fields.position"`) and the fields there are.
 */
export function schemaField(schema: Schema, name: unknown, what: string): FieldSpec {
  const found = typeof name === 'string' && Object.hasOwn(schema, name) ? schema[name] : undefined;
  if (found === undefined) {
    throw new TypeError(`${what} names ${JSON.stringify(name)}, which is not a field of the schema (${Object.keys(schema).join(', ')})`);
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
