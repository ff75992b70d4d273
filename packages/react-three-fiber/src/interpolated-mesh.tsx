/**
 * What `<InterpolatedInstances>` does on either renderer, once: make the GPU path's mesh in a layout effect (never
 * in render: making one takes the material, and StrictMode calls a render's useMemo twice), dispose it in the
 * effect's cleanup, hand it to `ref`, update it on the frames the pacer keeps, and put it in the scene. The two
 * components (`instances.tsx` on WebGLRenderer, `webgpu.ts` on WebGPURenderer) differ only in how they make it.
 *
 * ```text
 *   layout effect ── make(runtime, gl) ──▶ the mesh (set as state: the next render adds it to the scene)
 *        └ cleanup: mesh.dispose()          (the material's own hooks or positionNode back)
 *   useFrame(UPDATE_PRIORITY): paced() ? mesh.update() : nothing
 * ```
 */
import { useFrame, useThree, type RootState } from '@react-three/fiber';
import { useImperativeHandle, useLayoutEffect, useState, type ReactNode, type Ref } from 'react';
import type { Runtime, Schema } from 'steadyframe';
import type { Object3D } from 'three';
import { UPDATE_PRIORITY, useSteadyframeContext } from './provider.tsx';

/** What both GPU paths' meshes have (`@steadyframe/three`'s and `@steadyframe/three/webgpu`'s). */
export interface GpuMesh {
  readonly mesh: Object3D;
  update(): boolean;
  dispose(): void;
}

/**
 * The mesh `make` builds for the provider's runtime and r3f's renderer, made again when the runtime, the
 * renderer or any of `deps` changes; null until the layout effect has run (the component's first render).
 * `refuse(gl)`: an error message for a renderer the mesh cannot draw with, thrown in render (to the error
 * boundary around `<Canvas>`), or null.
 */
export function useInterpolatedMesh<S extends Schema, H extends GpuMesh>(
  refuse: (gl: RootState['gl']) => string | null,
  make: (runtime: Runtime<S>, gl: RootState['gl']) => H,
  deps: readonly unknown[],
  ref: Ref<H> | undefined,
  shadows: { readonly castShadow: boolean; readonly receiveShadow: boolean },
): ReactNode {
  const { runtime, paced } = useSteadyframeContext<S>();
  const gl = useThree((state) => state.gl); // the renderer: each tick's state goes straight from the shared memory
  const [instances, setInstances] = useState<H | null>(null);
  const refused = refuse(gl);
  if (refused !== null) throw new Error(refused);
  useLayoutEffect(() => {
    const made = make(runtime, gl);
    setInstances(made);
    return () => made.dispose(); // the material's own hooks back: free for the next mesh
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime, gl, ...deps]);
  useImperativeHandle(ref, () => instances!, [instances]);
  useFrame(() => {
    if (instances !== null && paced()) instances.update();
  }, UPDATE_PRIORITY);
  return instances === null ? null : <primitive object={instances.mesh} castShadow={shadows.castShadow} receiveShadow={shadows.receiveShadow} />;
}

/** r3f's renderer is three.js's WebGPURenderer (on either of its backends). */
export function isWebGpuRenderer(gl: RootState['gl']): boolean {
  return (gl as { isWebGPURenderer?: boolean }).isWebGPURenderer === true;
}
