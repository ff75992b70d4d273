/**
 * @steadyframe/three: draws a steadyframe runtime's entities with three.js.
 *
 * Two paths, same fields (`TransformFields`: a position, an optional quaternion or angle rotation, an optional
 * scale):
 *
 * - CPU: `bindInstancedMesh` writes the frame's interpolated entities into an InstancedMesh's instance
 *   matrices; `bindObjects` moves a handful of Object3Ds. They follow every interpolation option of the
 *   runtime (render delay, extrapolation, snapDistance), since they draw the runtime's own Frame.
 * - GPU: `createInterpolatedInstancedMesh` uploads the previous and current state as instanced attributes
 *   and blends them in the vertex shader from an alpha uniform; the main thread only copies bytes. It is the
 *   'interpolate' mode without a render delay, late and overtaken frames placed as the runtime places them.
 *
 * With a schema of entity tables (`defineTables`), every binding takes `{ table }`: it draws that table alone,
 * named by that table's fields. `bindObjects(runtime, { table, create, parent }, fields)` keeps an Object3D per
 * entity by handle.
 *
 * ```ts
 * import { createInterpolatedInstancedMesh } from '@steadyframe/three';
 * const ships = createInterpolatedInstancedMesh(runtime, geometry, new MeshStandardMaterial(), { position: 'position', rotation: 'rotation' });
 * scene.add(ships.mesh);
 * renderer.setAnimationLoop(() => {
 *   if (runtime.pace()) { ships.update(); renderer.render(scene, camera); }
 * });
 * ```
 *
 * @module @steadyframe/three
 */
export { bindInstancedMesh } from './bind-instanced-mesh.ts';
export type { InstancedMeshBinding } from './bind-instanced-mesh.ts';
export { bindObjects } from './bind-objects.ts';
export type { HandleObjectsBinding, ObjectsBinding, ObjectsOptions, PerHandleOptions } from './bind-objects.ts';
export { createInterpolatedInstancedMesh } from './interpolated-instanced-mesh.ts';
export type { InterpolatedInstancedMesh, InterpolatedMeshOptions, InterpolatedMeshStats, UploadRenderer } from './interpolated-instanced-mesh.ts';
export { resolveFields } from './fields.ts';
export type { BoundSchema, FieldOfKind, ResolvedFields, TableOption, TransformFields } from './fields.ts';
