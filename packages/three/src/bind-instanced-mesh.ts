/**
 * The CPU path: each frame, the runtime's interpolated fields become an InstancedMesh's instance matrices.
 *
 * ```text
 *   runtime.frame() ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ instanceMatrix[0 .. count)
 * ```
 */
import { DynamicDrawUsage, type InstancedMesh } from 'three';
import type { Frame, Runtime, Schema } from 'steadyframe';
import { readTransform, transformViews, writeMatrix, type TransformViews } from './compose.ts';
import { resolveFields, type TransformFields } from './fields.ts';

/** What `bindInstancedMesh` returns. */
export interface InstancedMeshBinding<S extends Schema> {
  readonly mesh: InstancedMesh;
  /**
   * Writes the frame's entities 0 .. count - 1 into the mesh's instance matrices, sets `mesh.count` and marks
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
 * (spawned, teleported) arrive in the frame already snapped.
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
 * Throws at set-up if a field does not fit (see `TransformFields`).
 */
export function bindInstancedMesh<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema'>,
  mesh: InstancedMesh,
  fields: TransformFields<S>,
): InstancedMeshBinding<S> {
  const resolved = resolveFields(runtime.schema, fields);
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
      const count = Math.min(frame.count, capacity);
      overflow = frame.count - count;
      transformViews(resolved, frame.fields, views);
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
