/**
 * The WebGPU tests' stage: three.js's WebGPURenderer on a WebGPU device (its WebGPU backend, never its WebGL 2
 * fallback unless asked: `createWebGpuStage` throws when it fell back), drawing a fixed orthographic window into a render
 * target that is read back. The same window and marker finding as the WebGL tests' stage (../browser/helpers.ts).
 */
import { OrthographicCamera, RenderTarget, Scene, type Object3D } from 'three';
import { WebGPURenderer } from 'three/webgpu';
import { markersIn, VIEW, type Marker, type View } from '../browser/helpers.ts';

/** What the adapter said about itself, for the test's log. */
export interface AdapterInfo {
  readonly vendor: string;
  readonly architecture: string;
  readonly fallback: boolean | null;
}

/** The backend's device and adapter, which three.js keeps on `renderer.backend` (WebGPU backend only). */
interface WebGpuBackend {
  readonly isWebGPUBackend?: boolean;
  readonly device?: GPUDevice;
}

/**
 * A WebGPURenderer on its WebGPU backend, drawing `view` into a render target; throws if there is no WebGPU.
 * `{ forceWebGL: true }`: on its WebGL 2 backend instead, on purpose.
 */
export async function createWebGpuStage(view: View = VIEW, { forceWebGL = false } = {}) {
  const width = (view.right - view.left) * view.scale;
  const height = (view.top - view.bottom) * view.scale;
  const renderer = new WebGPURenderer({ antialias: false, forceWebGL });
  await renderer.init();
  const backend = renderer.backend as unknown as WebGpuBackend;
  if (!forceWebGL && (backend.isWebGPUBackend !== true || backend.device === undefined)) {
    throw new Error('WebGPURenderer fell back to WebGL 2: this browser has no WebGPU adapter (see scripts/probe-webgpu.mjs)');
  }
  const device = backend.device ?? null;
  const errors: string[] = [];
  device?.addEventListener('uncapturederror', (event) => errors.push((event as GPUUncapturedErrorEvent).error.message));
  void device?.lost.then((info) => errors.push(`device lost: ${info.message}`));
  const target = new RenderTarget(width, height);
  const camera = new OrthographicCamera(view.left, view.right, view.top, view.bottom, 0.1, 100);
  camera.position.z = 10;
  const scene = new Scene();
  const flipped = new Uint8Array(width * height * 4);

  /** Renders the scene into the target and reads it back: RGBA pixels, bottom row first (as WebGL reads them). */
  async function render(): Promise<Uint8Array> {
    renderer.setRenderTarget(target);
    renderer.setClearColor(0x000000, 1);
    renderer.render(scene, camera);
    const read = (await renderer.readRenderTargetPixelsAsync(target, 0, 0, width, height)) as Uint8Array;
    renderer.setRenderTarget(null);
    if (errors.length > 0) throw new Error(`WebGPU errors: ${errors.join('\n')}`);
    // a WebGPU texture's first row is its top one; WebGL 2's readPixels gives the bottom one first
    if (backend.isWebGPUBackend !== true) return read;
    const row = width * 4;
    for (let y = 0; y < height; y++) flipped.set(read.subarray((height - 1 - y) * row, (height - y) * row), y * row);
    return flipped;
  }

  return {
    renderer,
    /** Which backend draws: WebGPU, or WebGL 2 (`forceWebGL`). */
    backend: backend.isWebGPUBackend === true ? ('webgpu' as const) : ('webgl2' as const),
    scene,
    camera,
    render,
    /** Renders and finds each row's marker (`markersIn`). */
    async markers(rows: number): Promise<Array<Marker | null>> {
      return markersIn(await render(), view, rows);
    },
    add(object: Object3D) {
      scene.add(object);
    },
    /** The adapter three.js's backend runs on. */
    adapter(): AdapterInfo {
      const info = (device as (GPUDevice & { adapterInfo?: GPUAdapterInfo }) | null)?.adapterInfo;
      return { vendor: info?.vendor ?? '', architecture: info?.architecture ?? '', fallback: (info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter ?? null };
    },
    dispose() {
      target.dispose();
      renderer.dispose();
    },
  };
}
