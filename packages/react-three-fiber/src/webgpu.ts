/**
 * @steadyframe/react-three-fiber/webgpu: `<InterpolatedInstances>` under three.js's WebGPURenderer, on
 * `@steadyframe/three/webgpu`'s mesh (the blend as a TSL node, the pair in storage buffers). The same component
 * as the main entry's in every prop, but for the material: a node material (`three/webgpu`). The rest of the
 * bindings (`<Steadyframe>`, `useEntity`, the table hooks) come from `@steadyframe/react-three-fiber` and work
 * on any renderer. A separate entry so that an app on WebGLRenderer never loads `three/webgpu`.
 *
 * ```tsx
 * import { MeshStandardNodeMaterial, WebGPURenderer } from 'three/webgpu';
 * import { InterpolatedInstances } from '@steadyframe/react-three-fiber/webgpu';
 * <Canvas gl={async (props) => { const gl = new WebGPURenderer(props as never); await gl.init(); return gl; }}>
 *   <Steadyframe create={create}>
 *     <InterpolatedInstances geometry={box} material={material} fields={{ position: 'position', rotation: 'rotation' }} />
 *   </Steadyframe>
 * </Canvas>
 * ```
 *
 * On WebGPURenderer's WebGL 2 fallback (no adapter, or `forceWebGL`) the node reads instanced attributes instead
 * of storage buffers, and draws the same (docs/webgpu.md).
 */
import { createInterpolatedInstancedMesh, type InterpolatedNodeMesh } from '@steadyframe/three/webgpu';
import type { BoundSchema, TransformFields } from '@steadyframe/three';
import type { ReactNode, Ref } from 'react';
import type { Schema, TableName } from 'steadyframe';
import type { BufferGeometry } from 'three';
import type { NodeMaterial } from 'three/webgpu';
import { isWebGpuRenderer, useInterpolatedMesh } from './interpolated-mesh.tsx';

/** The error another renderer given to this component throws (at set-up, to the boundary around `<Canvas>`). */
export const NOT_WEBGPU_RENDERER =
  "@steadyframe/react-three-fiber/webgpu: <InterpolatedInstances> from '/webgpu' draws with node materials under three.js's WebGPURenderer (give <Canvas> a gl factory that makes one); on WebGLRenderer import it from '@steadyframe/react-three-fiber'";

export interface InterpolatedInstancesProps<S extends Schema, M extends NodeMaterial, N extends TableName<S> = TableName<S>> {
  /** The shape of one instance (its attributes and index are shared, not copied). */
  readonly geometry: BufferGeometry;
  /** A node material (`MeshStandardNodeMaterial`, `MeshBasicNodeMaterial`...): its positionNode becomes the blend; one material, one mesh. */
  readonly material: M;
  /** The schema fields that place each entity: `position`, optional `rotation` and `scale`; the table's, given one. */
  readonly fields: TransformFields<BoundSchema<S, N>>;
  /** The entity table to draw (a schema of `defineTables`); without it, every entity. */
  readonly table?: N;
  readonly castShadow?: boolean;
  readonly receiveShadow?: boolean;
  /** The mesh's handle: `mesh`, `count`, `alpha`, `stats`. */
  readonly ref?: Ref<InterpolatedNodeMesh<M>>;
}

/**
 * Every live entity of the provider's runtime (of `table`, given one) as one instanced mesh, blended on the GPU
 * by WebGPURenderer at each drawn frame's time (`runtime.frameTime`). As the main entry's component: a new
 * geometry, material, fields or table makes a new mesh (the material's own positionNode given back); the first
 * render draws nothing, `ref` is set from the next. Throws at set-up when r3f's renderer is not a WebGPURenderer.
 */
export function InterpolatedInstances<S extends Schema, M extends NodeMaterial, N extends TableName<S> = TableName<S>>({
  geometry,
  material,
  fields,
  table,
  castShadow = false,
  receiveShadow = false,
  ref,
}: InterpolatedInstancesProps<S, M, N>): ReactNode {
  const key = `${table ?? ''}|${fields.position}|${fields.rotation ?? ''}|${fields.scale ?? ''}`;
  return useInterpolatedMesh<S, InterpolatedNodeMesh<M>>(
    (gl) => (isWebGpuRenderer(gl) ? null : NOT_WEBGPU_RENDERER),
    (runtime) => createInterpolatedInstancedMesh<S, M, N>(runtime, geometry, material, fields, table === undefined ? {} : { table }),
    [geometry, material, key],
    ref,
    { castShadow, receiveShadow },
  );
}
