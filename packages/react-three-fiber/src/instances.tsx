/**
 * `<InterpolatedInstances>`: `@steadyframe/three`'s GPU path as a component. The previous and current states
 * go to the GPU as instanced attributes and the vertex shader blends them; the page copies bytes once per tick
 * and sets one uniform a frame, whatever the number of entities.
 */
import { useFrame, useThree } from '@react-three/fiber';
import { createInterpolatedInstancedMesh, type BoundSchema, type InterpolatedInstancedMesh, type TransformFields } from '@steadyframe/three';
import { useImperativeHandle, useLayoutEffect, useState, type ReactNode, type Ref } from 'react';
import type { Schema, TableName } from 'steadyframe';
import type { BufferGeometry, Material } from 'three';
import { UPDATE_PRIORITY, useSteadyframeContext } from './provider.tsx';

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
  const { runtime, paced } = useSteadyframeContext<S>();
  const gl = useThree((state) => state.gl); // the renderer: each tick's state goes straight from the shared memory
  const key = `${table ?? ''}|${fields.position}|${fields.rotation ?? ''}|${fields.scale ?? ''}`;
  const [instances, setInstances] = useState<InterpolatedInstancedMesh<M> | null>(null);
  // made in an effect and disposed in its cleanup, never in render: making one patches the material, and StrictMode
  // calls a render's useMemo twice, keeping one (the other mesh would hold the material). Before paint: a layout effect
  useLayoutEffect(() => {
    const made = createInterpolatedInstancedMesh<S, M, N>(runtime, geometry, material, fields, table === undefined ? { renderer: gl } : { renderer: gl, table });
    setInstances(made);
    return () => made.dispose(); // the material's own hooks back: free for the next mesh
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime, gl, geometry, material, key]);
  useImperativeHandle(ref, () => instances!, [instances]);
  useFrame(() => {
    if (instances !== null && paced()) instances.update();
  }, UPDATE_PRIORITY);
  return instances === null ? null : <primitive object={instances.mesh} castShadow={castShadow} receiveShadow={receiveShadow} />;
}
