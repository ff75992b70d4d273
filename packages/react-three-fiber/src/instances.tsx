/**
 * `<InterpolatedInstances>`: `@steadyframe/three`'s GPU path as a component. The previous and current states
 * go to the GPU as instanced attributes and the vertex shader blends them; the page copies bytes once per tick
 * and sets one uniform a frame, whatever the number of entities. On WebGLRenderer (r3f's default); under a
 * WebGPURenderer, the same component from `@steadyframe/react-three-fiber/webgpu` (`webgpu.ts`).
 */
import { createInterpolatedInstancedMesh, type BoundSchema, type InterpolatedInstancedMesh, type TransformFields } from '@steadyframe/three';
import type { ReactNode, Ref } from 'react';
import type { Schema, TableName } from 'steadyframe';
import type { BufferGeometry, Material } from 'three';
import { isWebGpuRenderer, useInterpolatedMesh } from './interpolated-mesh.tsx';

/** The error a WebGPURenderer given to this component throws (at set-up, to the boundary around `<Canvas>`). */
export const WEBGPU_RENDERER =
  "@steadyframe/react-three-fiber: <InterpolatedInstances> from '@steadyframe/react-three-fiber' patches WebGLRenderer's shaders; under a WebGPURenderer import it from '@steadyframe/react-three-fiber/webgpu' and give it a node material (three/webgpu)";

export interface InterpolatedInstancesProps<S extends Schema, M extends Material, N extends TableName<S> = TableName<S>> {
  /** The shape of one instance (its attributes and index are shared, not copied). */
  readonly geometry: BufferGeometry;
  /** Any built-in material, lit ones and shadows included; one material patches one mesh. */
  readonly material: M;
  /** The schema fields that place each entity: `position`, optional `rotation` and `scale` (`TransformFields`); the table's, given one. */
  readonly fields: TransformFields<BoundSchema<S, N>>;
  /**
   * The entity table to draw (a schema of `defineTables`): its entities only, its range of each state uploaded.
   * One `<InterpolatedInstances>` (one material) per table. Without it, every entity.
   */
  readonly table?: N;
  readonly castShadow?: boolean;
  readonly receiveShadow?: boolean;
  /** The mesh's handle: `mesh`, `count`, `alpha`, `stats`. */
  readonly ref?: Ref<InterpolatedInstancedMesh<M>>;
}

/**
 * Every live entity of the provider's runtime (of `table`, given one) as one instanced mesh, blended on the GPU at
 * each drawn frame's time (`runtime.frameTime`). A new geometry, material, fields or table makes a new mesh (the old one's buffers are
 * freed, its material's own hooks given back); keep them stable (useMemo) across renders. The mesh is made in a
 * layout effect: the component's first render draws nothing, its handle (`ref`) is set from the next.
 */
export function InterpolatedInstances<S extends Schema, M extends Material, N extends TableName<S> = TableName<S>>({
  geometry,
  material,
  fields,
  table,
  castShadow = false,
  receiveShadow = false,
  ref,
}: InterpolatedInstancesProps<S, M, N>): ReactNode {
  const key = `${table ?? ''}|${fields.position}|${fields.rotation ?? ''}|${fields.scale ?? ''}`;
  return useInterpolatedMesh<S, InterpolatedInstancedMesh<M>>(
    (gl) => (isWebGpuRenderer(gl) ? WEBGPU_RENDERER : null),
    (runtime, gl) => createInterpolatedInstancedMesh<S, M, N>(runtime, geometry, material, fields, table === undefined ? { renderer: gl } : { renderer: gl, table }),
    [geometry, material, key],
    ref,
    { castShadow, receiveShadow },
  );
}
