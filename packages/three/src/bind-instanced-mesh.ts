/**
 * The CPU path: each frame, the runtime's interpolated fields become an InstancedMesh's instance matrices.
 *
 * ```text
 *   runtime.frame() ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ instanceMatrix[0 .. count)
 *                       or frame.tables[table].fields, its count (given a table)
 * ```
 */
import { DynamicDrawUsage, type InstancedMesh } from 'three';
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { frameSource, readTransform, transformViews, writeMatrix, type TransformViews } from 'steadyframe/adapter';
import { resolveBinding, type BoundSchema, type TableOption, type TransformFields } from './fields.ts';

/** What `bindInstancedMesh` returns. */
export interface InstancedMeshBinding<S extends Schema> {
  readonly mesh: InstancedMesh;
  /**
   * Writes the frame's entities 0 .. count - 1 (the table's, given one) into the mesh's instance matrices, sets `mesh.count` and marks
   * the matrices for upload (only the live range). Call it with each frame `runtime.frame()` returns, or
   * from `draw`. Entities past the mesh's own instance count are left out and counted in `overflow`.
   * Allocates nothing.
   */
  update(frame: Frame<S>): void;
  /** Entities the last frame had beyond what the mesh can hold. */
  readonly overflow: number;
}

/**
 * Binds an InstancedMesh to the runtime's interpolated state: entity i is instance i. Each `update(frame)`
 * composes position, rotation and (optional) scale into the instance matrices. Entities the runtime snapped
 * (spawned, teleported, moved by a despawn) arrive in the frame already snapped.
 *
 * Given `{ table: 'ships' }` (a schema of `defineTables`), it draws that table's entities only: instance i is
 * the table's entity i (`frame.tables.ships`), `fields` name that table's fields, and the mesh needs the
 * table's capacity. One mesh (one material) per table, so a despawn that moves entities within a table never
 * shows one kind's picture on another.
 *
 * Sets `mesh.frustumCulled = false`: three.js bounds an InstancedMesh once, from the matrices it had then,
 * and moving instances would be culled against that stale sphere.
 *
 * ```ts
 * const ships = bindInstancedMesh(runtime, new InstancedMesh(geometry, material, capacity), { position: 'position', rotation: 'rotation' });
 * renderer.setAnimationLoop(() => {
 *   const frame = runtime.frame(); // at the animation frame's time
 *   if (frame === null) return; // a refresh the render interval skips
 *   ships.update(frame);
 *   renderer.render(scene, camera);
 * });
 * ```
 *
 * Throws at set-up if a field does not fit (see `TransformFields`), is not one of the table's, or the table is
 * not one of the schema's.
 */
export function bindInstancedMesh<S extends Schema, N extends TableName<S> = never>(
  runtime: Pick<Runtime<S>, 'schema'>,
  mesh: InstancedMesh,
  fields: TransformFields<BoundSchema<S, N>>,
  options: TableOption<N> = {},
): InstancedMeshBinding<S> {
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields as TransformFields<S>, options.table, 'bindInstancedMesh');
  const matrices = mesh.instanceMatrix;
  matrices.setUsage(DynamicDrawUsage);
  mesh.frustumCulled = false;
  const capacity = matrices.count;
  const views: TransformViews = { position: new Float32Array(0), rotation: null, scale: null };
  let overflow = 0;
  return {
    mesh,
    get overflow() {
      return overflow;
    },
    update(frame) {
      const source = frameSource(frame, table);
      const count = Math.min(source.count, capacity);
      overflow = source.count - count;
      transformViews(resolved, source.fields, views);
      const out = matrices.array as Float32Array;
      for (let i = 0; i < count; i++) writeMatrix(readTransform(resolved, views, i), out, 16 * i);
      mesh.count = count;
      // upload only the live instances; one range, replaced each frame so it never piles up unrendered
      matrices.clearUpdateRanges();
      matrices.addUpdateRange(0, 16 * count);
      matrices.needsUpdate = true;
    },
  };
}
