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
   * Sets `objects[i]`'s position, quaternion (and scale, if bound) from the frame's entity i, and
   * `visible = i < frame.count`, so objects without a live entity hide. Allocates nothing.
   */
  update(frame: Frame<S>): void;
}

/**
 * Binds `objects[i]` to entity i of the runtime's interpolated state. Meant for a few entities: each object
 * is a draw call of its own; use `bindInstancedMesh` or `createInterpolatedInstancedMesh` for many.
 * Throws at set-up if a field does not fit (see `TransformFields`).
 */
export function bindObjects<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  objects: readonly Object3D[],
  fields: TransformFields<S>,
): ObjectsBinding<S> {
  const resolved = resolveFields(runtime.schema, fields);
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  const withScale = resolved.scale !== null;
  return {
    objects,
    update(frame) {
      transformViews(resolved, frame.fields, views);
      for (let i = 0; i < objects.length; i++) {
        const object = objects[i]!;
        object.visible = i < frame.count;
        if (!object.visible) continue;
        const t = readTransform(resolved, views, i);
        object.position.set(t.px, t.py, t.pz);
        object.quaternion.set(t.qx, t.qy, t.qz, t.qw);
        if (withScale) object.scale.set(t.sx, t.sy, t.sz);
      }
    },
  };
}
