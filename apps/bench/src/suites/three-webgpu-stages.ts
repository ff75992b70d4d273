/**
 * The three-webgpu suite's two designs behind one interface: the renderer, the mesh over the runtime, a render
 * into a 320×240 target, and a way to know when the GPU has finished what was submitted.
 *
 * Both keep at most one frame in flight: a frame whose GPU work is not done is skipped (not drawn, not counted),
 * as a swap chain holds a page back. Neither renderer does it by itself when it draws into a render target that
 * nobody reads: nothing is presented, so nothing throttles the page, and the page submits 60 frames a second
 * whatever the (software) GPU can draw. With WebGL that was the 100k "stall": the page reported 61 frames a
 * second while ANGLE's queue grew by minutes of SwiftShader work, which the WebGPU measurement after it then
 * waited behind in the same GPU process (docs/webgpu.md, "The bench").
 *
 * ```text
 *  WebGL:   render, track: gl.fenceSync ─▶ gl.flush    busy() while getSyncParameter(fence) is not SIGNALED
 *  WebGPU:  render, track: queue.onSubmittedWorkDone() busy() until that promise resolves
 * ```
 */
import { BufferGeometry, Float32BufferAttribute, MeshBasicMaterial, OrthographicCamera, RenderTarget, Scene, WebGLRenderer, WebGLRenderTarget } from 'three';
import { MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
import type { Runtime, schema3d } from 'steadyframe';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { createInterpolatedInstancedMesh as createNodeMesh } from '@steadyframe/three/webgpu';
import { sleep } from '../page.ts';

export type RendererDesign = 'webgl' | 'webgpu';
export const TARGET_WIDTH = 320;
export const TARGET_HEIGHT = 240;
/** GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST (0x80 | 0x08): the constants are not in this TypeScript's DOM lib. */
const STORAGE_COPY_DST = 0x80 | 0x08;

export interface RendererStage {
  readonly mesh: { update(time?: number): boolean };
  /** Draws a frame into the target (what the suite times). */
  render(): void;
  /** Marks the frame just rendered in flight until the GPU has done it (a fence, flushed; or a promise). */
  track(): void;
  /** True while the last frame's GPU work is not done. */
  busy(): boolean;
  /** Resolves once the GPU has done everything submitted so far. */
  done(): Promise<void>;
  /** The renderer's `compileAsync(scene, camera)`: the programs or pipelines, before any frame. */
  compile(): Promise<void>;
  /** Uploads `bytes` bytes into a scratch buffer (`bufferSubData`, `queue.writeBuffer`); resolves once the GPU has them. */
  upload(bytes: number): Promise<void>;
  dispose(): void;
}

function triangle(): BufferGeometry {
  return new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0, 0.02, 0, 0, 0, 0.02, 0], 3));
}

/** The design's renderer on `canvas`, and its mesh over `runtime`'s position and rotation. */
export async function createStage(design: RendererDesign, runtime: Runtime<typeof schema3d>, canvas: HTMLCanvasElement): Promise<RendererStage> {
  const scene = new Scene();
  const camera = new OrthographicCamera(-110, 110, 80, -80, -200, 200);
  const fields = { position: 'position', rotation: 'rotation' } as const;
  return design === 'webgl' ? webglStage(runtime, canvas, scene, camera, fields) : webgpuStage(runtime, canvas, scene, camera, fields);
}

function webglStage(runtime: Runtime<typeof schema3d>, canvas: HTMLCanvasElement, scene: Scene, camera: OrthographicCamera, fields: { position: 'position'; rotation: 'rotation' }): RendererStage {
  const renderer = new WebGLRenderer({ canvas, antialias: false });
  const gl = renderer.getContext() as WebGL2RenderingContext;
  const target = new WebGLRenderTarget(TARGET_WIDTH, TARGET_HEIGHT);
  const mesh = createInterpolatedInstancedMesh(runtime, triangle(), new MeshBasicMaterial({ color: 0xffffff }), fields, { renderer });
  scene.add(mesh.mesh);
  renderer.setRenderTarget(target);
  let fence: WebGLSync | null = null;
  /** A fence after everything submitted so far, flushed so that the GPU reaches it. */
  const mark = (): WebGLSync => {
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)!;
    gl.flush();
    return sync;
  };
  const signalled = (sync: WebGLSync): boolean => gl.getSyncParameter(sync, gl.SYNC_STATUS) === gl.SIGNALED;
  // polled, never waited on: clientWaitSync would block the page (and Chromium caps its timeout at 0)
  const waitFor = async (sync: WebGLSync): Promise<void> => {
    while (!signalled(sync)) await sleep(2);
    gl.deleteSync(sync);
  };
  return {
    mesh,
    render: () => renderer.render(scene, camera),
    track() {
      fence = mark();
    },
    busy() {
      if (fence === null) return false;
      if (!signalled(fence)) return true;
      gl.deleteSync(fence);
      fence = null;
      return false;
    },
    done: () => waitFor(mark()),
    compile: async () => void (await renderer.compileAsync(scene, camera)),
    async upload(bytes) {
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, buffer);
      gl.bufferData(gl.COPY_WRITE_BUFFER, bytes, gl.STREAM_DRAW);
      gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, new Uint8Array(bytes));
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
      await waitFor(mark());
      gl.deleteBuffer(buffer);
    },
    dispose() {
      if (fence !== null) gl.deleteSync(fence);
      mesh.dispose();
      target.dispose();
      renderer.dispose();
    },
  };
}

async function webgpuStage(runtime: Runtime<typeof schema3d>, canvas: HTMLCanvasElement, scene: Scene, camera: OrthographicCamera, fields: { position: 'position'; rotation: 'rotation' }): Promise<RendererStage> {
  const renderer = new WebGPURenderer({ canvas, antialias: false });
  await renderer.init();
  if ((renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend !== true) throw new Error('three-webgpu: WebGPURenderer fell back to WebGL 2 (no WebGPU adapter: is the browser run with --enable-unsafe-webgpu?)');
  const device = (renderer.backend as unknown as { device: GPUDevice }).device;
  const target = new RenderTarget(TARGET_WIDTH, TARGET_HEIGHT);
  const mesh = createNodeMesh(runtime, triangle(), new MeshBasicNodeMaterial({ color: 0xffffff }), fields);
  scene.add(mesh.mesh);
  renderer.setRenderTarget(target);
  let inFlight = false;
  return {
    mesh,
    render: () => renderer.render(scene, camera),
    track() {
      inFlight = true;
      void device.queue.onSubmittedWorkDone().then(() => void (inFlight = false));
    },
    busy: () => inFlight,
    done: () => device.queue.onSubmittedWorkDone(),
    compile: async () => void (await renderer.compileAsync(scene, camera)),
    async upload(bytes) {
      const buffer = device.createBuffer({ size: bytes, usage: STORAGE_COPY_DST });
      device.queue.writeBuffer(buffer, 0, new Uint8Array(bytes));
      await device.queue.onSubmittedWorkDone();
      buffer.destroy();
    },
    dispose() {
      mesh.dispose();
      target.dispose();
      renderer.dispose();
    },
  };
}
