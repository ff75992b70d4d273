/**
 * Which schema fields make a 2D entity's pose, and the checks that they fit: the 2D adapters (`@steadyframe/pixi`,
 * `@steadyframe/phaser`) take the same `PoseFields`, each naming itself in its errors; given a table, checked
 * against that table's fields. And the frame's views of them, which each adapter copies onto its objects.
 */
import { schemaField, type InterpolationKind, type Schema } from '../core/schema.ts';
import { bindingTable, type BindingTable } from './table-source.ts';

/**
 * Names of the schema's fields whose kind is one of `K` and whose width is one of `W`. A schema whose widths
 * are plain `number`s (not literals) passes the width test here and is checked at set-up instead.
 */
export type FieldOf<S extends Schema, K extends InterpolationKind, W extends number> = {
  [N in keyof S & string]: S[N] extends { readonly kind: K; readonly width: infer X }
    ? number extends X
      ? N
      : X extends W
        ? N
        : never
    : never;
}[keyof S & string];

/**
 * The fields a 2D entity's pose is read from.
 *
 * - `position`: a `linear` field of width 2 (x, y) → `x`, `y`.
 * - `angle` (optional): an `angle` field (radians, blended the short way round) or a `linear` field of width 1
 *   → `rotation`. Screen y points down in both PixiJS and Phaser, so a positive angle turns clockwise on screen.
 *   Without it, the rotation is left alone.
 * - `scale` (optional): a `linear` field of width 1 (uniform) or 2 (x, y). Without it, the scale is left alone.
 * - `alpha` (optional): a `linear` or `none` field of width 1 → `alpha`. Without it, the alpha is left alone.
 */
export interface PoseFields<S extends Schema> {
  readonly position: FieldOf<S, 'linear', 2>;
  readonly angle?: FieldOf<S, 'angle', 1> | FieldOf<S, 'linear', 1>;
  readonly scale?: FieldOf<S, 'linear', 1 | 2>;
  readonly alpha?: FieldOf<S, 'linear' | 'none', 1>;
}

/** The checked field names, and the scale's width; null where a field is not bound. */
export interface ResolvedPoseFields {
  readonly position: string;
  readonly angle: string | null;
  readonly scale: { readonly name: string; readonly width: 1 | 2 } | null;
  readonly alpha: string | null;
}

/**
 * Checks `fields` against the schema; throws at set-up, naming the field and what would fit. `prefix` starts
 * every message (the adapter's name and a colon, such as `'@steadyframe/pixi:'`).
 */
export function resolvePoseFields<S extends Schema>(schema: S, fields: PoseFields<S>, prefix: string): ResolvedPoseFields {
  if (typeof fields !== 'object' || fields === null) {
    throw new TypeError(`${prefix} fields must be an object such as { position: 'position', angle: 'angle' }`);
  }
  const spec = (role: string, name: unknown) => schemaField(schema, name, `${prefix} fields.${role}`);
  const position = spec('position', fields.position);
  if (position.kind !== 'linear' || position.width !== 2) {
    throw new TypeError(`${prefix} fields.position "${fields.position}" must be a linear field of width 2; it is ${position.kind} of width ${position.width}`);
  }
  let angle: string | null = null;
  if (fields.angle !== undefined) {
    const a = spec('angle', fields.angle);
    if ((a.kind !== 'angle' && a.kind !== 'linear') || a.width !== 1) {
      throw new TypeError(`${prefix} fields.angle "${fields.angle}" must be an angle field, or a linear field of width 1; it is ${a.kind} of width ${a.width}`);
    }
    angle = fields.angle;
  }
  let scale: ResolvedPoseFields['scale'] = null;
  if (fields.scale !== undefined) {
    const s = spec('scale', fields.scale);
    if (s.kind !== 'linear' || (s.width !== 1 && s.width !== 2)) {
      throw new TypeError(`${prefix} fields.scale "${fields.scale}" must be a linear field of width 1 or 2; it is ${s.kind} of width ${s.width}`);
    }
    scale = { name: fields.scale, width: s.width };
  }
  let alpha: string | null = null;
  if (fields.alpha !== undefined) {
    const a = spec('alpha', fields.alpha);
    if ((a.kind !== 'linear' && a.kind !== 'none') || a.width !== 1) {
      throw new TypeError(`${prefix} fields.alpha "${fields.alpha}" must be a linear or none field of width 1; it is ${a.kind} of width ${a.width}`);
    }
    alpha = fields.alpha;
  }
  return { position: fields.position, angle, scale, alpha };
}

/** Empty view for fields that are not bound, so the hot loops read no nulls. */
export const NO_VIEW = new Float32Array(0);

/** The frame's view of a bound field, or `NO_VIEW`. A property read: allocates nothing. */
export function viewOf(views: { readonly [name: string]: Float32Array }, name: string | null): Float32Array {
  return name === null ? NO_VIEW : (views[name] ?? NO_VIEW);
}

/**
 * A binding's field names as its implementation takes them, before the check (its public signature names them
 * with `PoseFields` of the schema, or of a table's fields).
 */
export interface PoseFieldNames {
  readonly position: string;
  readonly angle?: string;
  readonly scale?: string;
  readonly alpha?: string;
}

/** A binding's table (null: it draws every entity) and its pose fields, checked against that table's own. */
export interface BindingPose {
  readonly table: BindingTable | null;
  readonly fields: ResolvedPoseFields;
}

/**
 * The table called `table` (undefined: none; `bindingTable`) and `fields` checked against its fields (or the
 * whole schema's). Throws at set-up: `prefix` starts every message (the adapter's name and a colon), `what`
 * names the binding for a table the schema has not.
 */
export function resolveBindingPose(schema: Schema, fields: PoseFieldNames, table: string | undefined, prefix: string, what: string): BindingPose {
  const found = bindingTable(schema, table, `${prefix} ${what}`);
  return { table: found, fields: resolvePoseFields(found?.schema ?? schema, fields as PoseFields<Schema>, prefix) };
}

/**
 * The bound pose fields' views of one frame, for an adapter's copy from entity i onto its objects (x, y from
 * `position[2i]`, `position[2i + 1]`; rotation `angle[i]`; scale `scale[i]` or `scale[2i]`, `scale[2i + 1]` by
 * `scaleWidth`; alpha `alpha[i]`). `read` once a frame; unbound fields read `NO_VIEW`. Allocates nothing.
 */
export class PoseViews {
  readonly fields: ResolvedPoseFields;
  /** 0: no scale bound; else its width. */
  readonly scaleWidth: 0 | 1 | 2;
  position: Float32Array = NO_VIEW;
  angle: Float32Array = NO_VIEW;
  scale: Float32Array = NO_VIEW;
  alpha: Float32Array = NO_VIEW;

  constructor(fields: ResolvedPoseFields) {
    this.fields = fields;
    this.scaleWidth = fields.scale?.width ?? 0;
  }

  /** Takes a frame's views (`frame.fields`, or a table's zero-based `fields`). */
  read(views: { readonly [name: string]: Float32Array }): void {
    const f = this.fields;
    this.position = viewOf(views, f.position);
    this.angle = viewOf(views, f.angle);
    this.scale = viewOf(views, f.scale?.name ?? null);
    this.alpha = viewOf(views, f.alpha);
  }
}
