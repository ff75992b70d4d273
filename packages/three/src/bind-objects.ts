/**
 * The CPU path for a handful of entities drawn as their own Object3Ds (a player, a boss, a camera rig).
 */
import type { Object3D } from 'three';
import type { Frame, Runtime, Schema } from 'steadyframe';
import { readTransform, transformViews, type TransformViews } from './compose.ts';
import { resolveFields, type TransformFields } from './fields.ts';

/** What `bindObjects` returns. */
export interface ObjectsBinding<S extends Schema> {
  readonly objects: readonly Object3D[];
  /**
   * Sets `objects[i]`'s position, quaternion (and scale, if bound) from the frame's entity `entities[i]` (i by
   * default), and `visible` to whether that entity is live (below `frame.count`), so objects without a live
   * entity hide. Allocates nothing.
   */
  update(frame: Frame<S>): void;
}

/**
 * Binds `objects[i]` to entity `entities[i]` of the runtime's interpolated state (entity i when `entities` is
 * left out). Meant for a few entities: each object is a draw call of its own; use `bindInstancedMesh` or
 * `createInterpolatedInstancedMesh` for many. Throws at set-up if a field does not fit (see `TransformFields`)
 * or an entity is not a whole number from 0, or `entities` and `objects` differ in length.
 */
export function bindObjects<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  objects: readonly Object3D[],
  fields: TransformFields<S>,
  entities?: readonly number[],
): ObjectsBinding<S> {
  const resolved = resolveFields(runtime.schema, fields);
  if (entities !== undefined) {
    if (entities.length !== objects.length) throw new RangeError(`@steadyframe/three: bindObjects got ${objects.length} objects and ${entities.length} entities; give one entity per object`);
    const bad = entities.find((e) => !Number.isInteger(e) || e < 0);
    if (bad !== undefined) throw new RangeError(`@steadyframe/three: an entity is a whole number from 0 (its index in the world); got ${bad}`);
  }
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  const withScale = resolved.scale !== null;
  return {
    objects,
    update(frame) {
      transformViews(resolved, frame.fields, views);
      for (let i = 0; i < objects.length; i++) {
        const object = objects[i]!;
        const entity = entities === undefined ? i : entities[i]!;
        object.visible = entity < frame.count;
        if (!object.visible) continue;
        const t = readTransform(resolved, views, entity);
        object.position.set(t.px, t.py, t.pz);
        object.quaternion.set(t.qx, t.qy, t.qz, t.qw);
        if (withScale) object.scale.set(t.sx, t.sy, t.sz);
      }
    },
  };
}
