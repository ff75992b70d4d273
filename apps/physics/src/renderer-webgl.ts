/**
 * The pile on WebGLRenderer: `@steadyframe/three`'s GPU path, the blend in GLSL (`onBeforeCompile`), each
 * published state uploaded straight from the shared memory (`{ renderer }`). The example's default.
 */
import { MeshStandardMaterial, WebGLRenderer } from 'three';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { glRenderer } from './gl-renderer.ts';
import type { PileRenderer } from './renderers.ts';

/** WebGLRenderer on `canvas`; `fellBack`: why it draws where WebGPU was asked for (null: WebGL was asked for). */
export function createWebGlRenderer(canvas: HTMLCanvasElement, fellBack: string | null): PileRenderer {
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  return {
    api: 'WebGL',
    renderer,
    device: glRenderer(renderer.getContext()),
    fellBack,
    lost: null,
    mesh: (runtime, geometry, look, fields) =>
      createInterpolatedInstancedMesh(runtime, geometry, new MeshStandardMaterial(look), fields, { renderer }),
  };
}
