/**
 * @steadyframe/babylon: draws a steadyframe runtime's entities with Babylon.js.
 *
 * Two paths, same fields (`TransformFields`: a position, an optional quaternion or angle rotation, an optional
 * scale):
 *
 * - GPU: `createInterpolatedThinInstances` makes a mesh's thin instances the entities: the previous and current
 *   state are uploaded as per-instance attributes (through steadyframe/adapter's GPU pair mirror) and blended in
 *   the vertex shader, GLSL on Babylon's WebGL 2 engine and WGSL on its WebGPU engine, by a material plugin that
 *   keeps the mesh's own material working. The main thread only copies bytes. It is the 'interpolate' mode
 *   without a render delay, late and overtaken frames placed as the runtime places them.
 * - CPU: `bindMeshes` moves one node per entity from the runtime's own Frame (every interpolation option).
 *
 * ```ts
 * import { createInterpolatedThinInstances } from '@steadyframe/babylon';
 * const ships = createInterpolatedThinInstances(runtime, box, { position: 'position', rotation: 'rotation' });
 * engine.runRenderLoop(() => {
 *   if (runtime.pace()) { ships.update(); scene.render(); }
 * });
 * ```
 */
export { createInterpolatedThinInstances } from './interpolated-thin-instances.ts';
export type { BlendSource, InterpolatedThinInstances, InterpolatedThinInstanceStats } from './interpolated-thin-instances.ts';
export { bindMeshes } from './bind-meshes.ts';
export type { HandleMeshesBinding, MeshesBinding, MeshesOptions, PerHandleMeshes } from './bind-meshes.ts';
export type { BoundSchema, FieldOfKind, TableOption, TransformFields } from './fields.ts';
