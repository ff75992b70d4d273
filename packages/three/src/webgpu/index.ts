/**
 * @steadyframe/three/webgpu: the GPU path on three.js's WebGPURenderer. `createInterpolatedInstancedMesh` takes
 * a node material (`three/webgpu`) and blends the pair in a TSL node; the rest (`bindInstancedMesh`,
 * `bindObjects`: the CPU path, which any renderer draws) comes from `@steadyframe/three`.
 *
 * ```ts
 * import { MeshStandardNodeMaterial, WebGPURenderer } from 'three/webgpu';
 * import { createInterpolatedInstancedMesh } from '@steadyframe/three/webgpu';
 * const ships = createInterpolatedInstancedMesh(runtime, geometry, new MeshStandardNodeMaterial(), { position: 'position', rotation: 'rotation' });
 * scene.add(ships.mesh);
 * ```
 *
 * @module @steadyframe/three/webgpu
 */
export { createInterpolatedInstancedMesh } from './interpolated-instanced-mesh.ts';
export type { InterpolatedNodeMesh } from './interpolated-instanced-mesh.ts';
export { createInstanceNode } from './instance-node.ts';
export type { InstanceNodeUniforms, NodeChannel } from './instance-node.ts';
export { missingTsl, TSL_FLOOR } from './tsl-floor.ts';
