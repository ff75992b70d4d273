/**
 * The CPU path for entities drawn as their own Object3Ds: a handful bound by index (a player, a boss, a camera
 * rig), a few by handle, or one made for each entity of a table and released with it (a name label, a health
 * bar), kept by handle through the despawns that move entities within the table.
 *
 * ```text
 *   bindObjects(runtime, objects, fields, entities?)            objects[i] ◀── entity entities[i] (i)
 *   bindObjects(runtime, objects, fields, { table, handles })   objects[i] ◀── the table's entity with handle handles[i]
 *   bindObjects(runtime, { table, create, parent }, fields)     one object per live entity of the table, by handle:
 *                                                                 spawned: create(handle) (added to parent)
 *                                                                 live:    moved to its entity, wherever it is now
 *                                                                 gone:    removed from parent, release(object)
 * ```
 */
import type { Object3D } from 'three';
import type { Frame, FrameTable, Runtime, Schema, TableName } from 'steadyframe';
import { createTableObjects, frameSource, readTransform, transformViews, type BindingTable, type TransformViews } from 'steadyframe/adapter';
import { resolveBinding, type BoundSchema, type ResolvedFields, type TableOption, type TransformFields } from './fields.ts';

const PREFIX = '@steadyframe/three:';

/** What `bindObjects` returns for a list of objects. */
export interface ObjectsBinding<S extends Schema> {
  readonly objects: readonly Object3D[];
  /**
   * Sets `objects[i]`'s position, quaternion (and scale, if bound) from the frame's entity `entities[i]` (i by
   * default; the table's entity, given a table), or the table's entity whose handle is `handles[i]`; and
   * `visible` to whether that entity is live, so objects without a live entity hide. `entities` and `handles`
   * are read at every update: change them in place to rebind. Allocates nothing.
   */
  update(frame: Frame<S>): void;
}

/** Options of `bindObjects` for a list of objects. */
export interface ObjectsOptions<N extends string> extends TableOption<N> {
  /** `objects[i]` shows entity `entities[i]` (the table's entity, given a table); i by default. */
  readonly entities?: readonly number[];
  /**
   * `objects[i]` follows the table's entity whose handle is `handles[i]` (`world.tables.x.handle(i)` in the
   * worker), wherever despawns move it, and hides while no live entity has that handle. Needs `table`.
   */
  readonly handles?: readonly number[];
}

/** Options of `bindObjects` for one object per entity of a table. */
export interface PerHandleOptions<N extends string, T extends Object3D> {
  /** The table whose entities get an object each. */
  readonly table: N;
  /** Makes the object of a new entity (handle `handle`, now at the table's index `index`). */
  create(handle: number, index: number): T;
  /** Where `create`'s objects are added, and removed from when their entity is gone. Without it, add them yourself. */
  readonly parent?: Object3D;
  /** The entity is gone: after its object left `parent`, dispose of it (or keep it for a later `create`). */
  release?(object: T, handle: number): void;
}

/** What `bindObjects` returns for one object per entity of a table. */
export interface HandleObjectsBinding<S extends Schema, T extends Object3D> {
  /**
   * Follows the frame's table: objects for the entities gone are removed and released, new entities get one
   * (`create`), and every live entity's object is moved to it (position, quaternion, scale if bound). Returns how
   * many objects it holds. Allocates only what `create` does.
   */
  update(frame: Frame<S>): number;
  /** The object of the entity with `handle`, as of the last `update`; undefined for none. */
  get(handle: number): T | undefined;
  /** Objects held: the table's live entities as of the last `update`. */
  readonly size: number;
  /** Removes and releases every object (an `update` after makes them again). */
  clear(): void;
}

/**
 * Binds Object3Ds to entities of the runtime's interpolated state, moving them each `update(frame)`:
 *
 * - `bindObjects(runtime, objects, fields, entities?)`: `objects[i]` shows entity `entities[i]` (entity i when
 *   `entities` is left out). Meant for a few entities: each object is a draw call of its own; use
 *   `bindInstancedMesh` or `createInterpolatedInstancedMesh` for many.
 * - `bindObjects(runtime, objects, fields, { table, entities?, handles? })`: the same within one table (entity i is
 *   the table's own), or by handle: `objects[i]` follows the entity whose handle is `handles[i]`.
 * - `bindObjects(runtime, { table, create, parent?, release? }, fields)`: one object per live entity of the table,
 *   kept by handle (`createHandlePool`): made by `create` when the entity first shows, moved with it however
 *   despawns reorder the table, removed from `parent` and released when it is gone (`steadyframe/adapter`'s
 *   `createTableObjects`, as the 2D adapters' sprites per entity).
 *
 * ```ts
 * const labels = bindObjects(runtime, { table: 'ships', create: (handle) => makeLabel(handle), parent: scene, release: (label) => label.geometry.dispose() }, { position: 'position' });
 * // each frame: labels.update(frame)
 * ```
 *
 * Throws at set-up if a field does not fit (see `TransformFields`) or is not one of the table's, the table is not
 * one of the schema's, an entity is not a whole number from 0, or `entities` (or `handles`) and `objects` differ
 * in length.
 */
export function bindObjects<S extends Schema, N extends TableName<S>, T extends Object3D>(
  runtime: Pick<Runtime<S>, 'schema'>,
  perHandle: PerHandleOptions<N, T>,
  fields: TransformFields<BoundSchema<S, N>>,
): HandleObjectsBinding<S, T>;
export function bindObjects<S extends Schema, N extends TableName<S> = never>(
  runtime: Pick<Runtime<S>, 'schema'>,
  objects: readonly Object3D[],
  fields: TransformFields<BoundSchema<S, N>>,
  options?: readonly number[] | ObjectsOptions<N>,
): ObjectsBinding<S>;
export function bindObjects<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  what: readonly Object3D[] | PerHandleOptions<string, Object3D>,
  fields: TransformFields<S>,
  options?: readonly number[] | ObjectsOptions<string>,
): ObjectsBinding<S> | HandleObjectsBinding<S, Object3D> {
  if (!Array.isArray(what)) return perHandle(runtime.schema, what as PerHandleOptions<string, Object3D>, fields);
  const objects = what as readonly Object3D[];
  const { table: name, entities, handles } = Array.isArray(options) ? { table: undefined, entities: options as readonly number[], handles: undefined } : ((options ?? {}) as ObjectsOptions<string>);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, name, 'bindObjects');
  if (entities !== undefined && handles !== undefined) throw new TypeError(`${PREFIX} bindObjects takes entities or handles, not both`);
  if (handles !== undefined && table === null) throw new TypeError(`${PREFIX} bindObjects by handles needs the table they are handles of: { table, handles }`);
  const list = entities ?? handles;
  if (list !== undefined) {
    const kind = entities !== undefined ? 'entities' : 'handles';
    if (list.length !== objects.length) throw new RangeError(`${PREFIX} bindObjects got ${objects.length} objects and ${list.length} ${kind}; give one per object`);
    const bad = list.find((e) => !Number.isInteger(e) || e < 0);
    if (bad !== undefined) {
      throw new RangeError(`${PREFIX} ${kind === 'entities' ? 'an entity is a whole number from 0 (its index in the world, or in its table)' : 'a handle is a whole number from 0'}; got ${bad}`);
    }
  }
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  return {
    objects,
    update(frame) {
      const source = frameSource(frame, table);
      transformViews(resolved, source.fields, views);
      const shown = handles === undefined ? null : frameTable(frame, table!);
      for (let i = 0; i < objects.length; i++) {
        const object = objects[i]!;
        // by handle: where the entity is in this frame (-1: not live); by index: the index itself
        const entity = shown !== null ? shown.indexOf(handles![i]!) : entities === undefined ? i : entities[i]!;
        object.visible = entity >= 0 && entity < source.count;
        if (object.visible) place(object, resolved, views, entity);
      }
    },
  };
}

/** One object per live entity of a table, kept by handle. */
function perHandle<S extends Schema>(schema: S, options: PerHandleOptions<string, Object3D>, fields: TransformFields<S>): HandleObjectsBinding<S, Object3D> {
  if (typeof options !== 'object' || options === null || typeof options.create !== 'function' || typeof options.table !== 'string') {
    throw new TypeError(`${PREFIX} bindObjects takes a list of objects, or { table, create(handle) } for one object per entity of a table`);
  }
  const { table, fields: resolved } = resolveBinding(schema, fields, options.table, 'bindObjects');
  const { create, parent, release } = options;
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  const objects = createTableObjects<S, Object3D>(table!, {
    read(shown) {
      transformViews(resolved, shown.fields, views);
    },
    create(handle, index) {
      const object = create(handle, index);
      parent?.add(object);
      return object;
    },
    update(object, index) {
      place(object, resolved, views, index);
    },
    release(object, handle) {
      parent?.remove(object);
      release?.(object, handle);
    },
  });
  return {
    update(frame) {
      objects.update(frame);
      return objects.size;
    },
    get: (handle) => objects.get(handle),
    get size() {
      return objects.size;
    },
    clear: () => objects.clear(),
  };
}

/** The frame's own view of `table` (its handles, `indexOf`). */
function frameTable<S extends Schema>(frame: Frame<S>, table: BindingTable): FrameTable {
  return (frame.tables as unknown as Readonly<Record<string, FrameTable>>)[table.layout.name]!;
}

/** Moves `object` to entity `i` of `views`: position, quaternion, and scale when one is bound. */
function place(object: Object3D, fields: ResolvedFields, views: TransformViews, i: number): void {
  const t = readTransform(fields, views, i);
  object.position.set(t.px, t.py, t.pz);
  object.quaternion.set(t.qx, t.qy, t.qz, t.qw);
  if (fields.scale !== null) object.scale.set(t.sx, t.sy, t.sz);
}
