/**
 * The pile on three.js's WebGPURenderer: `@steadyframe/three/webgpu`'s node (the blend in TSL, each channel a
 * storage buffer holding both states) as the `positionNode` of a `MeshStandardNodeMaterial`, lit by the same
 * lights. Loaded (with three/webgpu) only when `?renderer=webgpu` found a device (renderers.ts).
 */
import { MeshStandardNodeMaterial, WebGPURenderer } from 'three/webgpu';
import { createInterpolatedInstancedMesh } from '@steadyframe/three/webgpu';
import { webgpuAdapter } from './gl-renderer.ts';
import type { PileRenderer } from './renderers.ts';

/** WebGPURenderer on `canvas`, drawing with `device` (made from the adapter `info` describes). */
export async function createWebGpuRenderer(canvas: HTMLCanvasElement, info: GPUAdapterInfo, device: GPUDevice): Promise<PileRenderer> {
  // our device: three.js's backend uses it, so it never falls back to its WebGL 2 backend (renderers.ts: without
  // WebGPU the page draws with WebGLRenderer, the lighter path on WebGL)
  const renderer = new WebGPURenderer({ canvas, antialias: true, device });
  await renderer.init();
  let lost: string | null = null;
  void device.lost.then((why) => {
    // destroyed: renderer.dispose(), which this page never calls
    if (why.reason === 'destroyed') return;
    lost = why.message === '' ? 'device lost' : why.message;
    console.error(`physics: the WebGPU device was lost, the picture stops: ${lost}`);
  });
  return {
    api: 'WebGPU',
    renderer,
    device: webgpuAdapter(info),
    fellBack: null,
    get lost() {
      return lost;
    },
    mesh: (runtime, geometry, look, fields) => createInterpolatedInstancedMesh(runtime, geometry, new MeshStandardNodeMaterial(look), fields),
  };
}
