/**
 * Suite three-webgpu (the report's section 18), three.js on WebGPURenderer against WebGLRenderer: the same scene (the 3D simulation at 30 ticks/s, a
 * 60 fps frame loop, one small triangle per entity) drawn by @steadyframe/three's GPU path two ways, side by side
 * in one run at 10k and 100k entities, in mirrored order:
 *
 * | design   | renderer                 | the blend                                   | a new tick reaches the GPU          |
 * |----------|--------------------------|---------------------------------------------|-------------------------------------|
 * | `webgl`  | WebGLRenderer            | `@steadyframe/three` (onBeforeCompile GLSL) | `gl.bufferSubData` of the shared     |
 * |          |                          |                                             | memory under the lock (`renderer`)   |
 * | `webgpu` | WebGPURenderer (WebGPU)  | `@steadyframe/three/webgpu` (TSL node)      | copied into the storage attributes, |
 * |          |                          |                                             | `queue.writeBuffer` at render        |
 *
 * Both draw into a 320×240 render target, not the canvas: a presented WebGPU canvas loses its device in this
 * headless Chromium (docs/webgpu.md), and the WebGL design draws the same way so the two differ in the renderer
 * alone. The browser runs with `--enable-unsafe-webgpu`: Dawn's SwiftShader adapter, a software GPU (as WebGL is
 * SwiftShader too). Per 1 s window: frames, the page's timing of `mesh.update` and `renderer.render` per frame,
 * their sum, the page main thread's CPU per frame (/proc).
 */
import { BufferGeometry, Float32BufferAttribute, MeshBasicMaterial, OrthographicCamera, RenderTarget, Scene, WebGLRenderer, WebGLRenderTarget } from 'three';
import { MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { createInterpolatedInstancedMesh as createNodeMesh } from '@steadyframe/three/webgpu';
import { createSide } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

export type RendererDesign = 'webgl' | 'webgpu';
export const WEBGPU_SIZES = [10_000, 100_000];
const TICK_RATE = 30;
const WIDTH = 320;
const HEIGHT = 240;

export interface RendererWindow {
  readonly frames: number;
  readonly updatePerFrame: number;
  readonly renderPerFrame: number;
  readonly workPerFrame: number;
  readonly mainCpuPerFrame: number;
}

export interface RendererRow {
  readonly design: RendererDesign;
  readonly count: number;
  readonly windows: readonly RendererWindow[];
  readonly summary: Record<keyof RendererWindow, Spread>;
}

function triangle(): BufferGeometry {
  return new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0, 0.02, 0, 0, 0, 0.02, 0], 3));
}

/** The design's renderer, its mesh over `runtime`, and a render into a target. */
async function stage(design: RendererDesign, runtime: Runtime<typeof schema3d>, canvas: HTMLCanvasElement) {
  const scene = new Scene();
  const camera = new OrthographicCamera(-110, 110, 80, -80, -200, 200);
  const fields = { position: 'position', rotation: 'rotation' } as const;
  if (design === 'webgl') {
    const renderer = new WebGLRenderer({ canvas, antialias: false });
    const target = new WebGLRenderTarget(WIDTH, HEIGHT);
    const mesh = createInterpolatedInstancedMesh(runtime, triangle(), new MeshBasicMaterial({ color: 0xffffff }), fields, { renderer });
    scene.add(mesh.mesh);
    renderer.setRenderTarget(target);
    // WebGL's driver holds the page back itself when the GPU is behind (a call blocks)
    return { mesh, busy: () => false, render: () => renderer.render(scene, camera), dispose: () => (mesh.dispose(), target.dispose(), renderer.dispose()) };
  }
  const renderer = new WebGPURenderer({ canvas, antialias: false });
  await renderer.init();
  if ((renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend !== true) throw new Error('three-webgpu: WebGPURenderer fell back to WebGL 2 (no WebGPU adapter: is the browser run with --enable-unsafe-webgpu?)');
  const target = new RenderTarget(WIDTH, HEIGHT);
  const mesh = createNodeMesh(runtime, triangle(), new MeshBasicNodeMaterial({ color: 0xffffff }), fields);
  scene.add(mesh.mesh);
  renderer.setRenderTarget(target);
  // WebGPU queues without limit: a frame's work that the (software) GPU has not done by the next frame piled up
  // until the page stalled (a 100k run hung). At most one frame in flight, as a swap chain would hold it: a frame
  // whose last submit is not done is skipped (not drawn, not counted)
  const device = (renderer.backend as unknown as { device: GPUDevice }).device;
  let inFlight = false;
  const render = (): void => {
    renderer.render(scene, camera);
    inFlight = true;
    void device.queue.onSubmittedWorkDone().then(() => void (inFlight = false));
  };
  return { mesh, busy: () => inFlight, render, dispose: () => (mesh.dispose(), target.dispose(), renderer.dispose()) };
}

async function measure(design: RendererDesign, count: number, windows: number, windowMs: number): Promise<RendererRow> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count, tickRate: TICK_RATE, side: createSide() }),
    schema: schema3d,
    capacity: count,
    visibility: null,
    pacing: { adaptive: false },
  });
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  document.body.append(canvas);
  const s = await stage(design, runtime, canvas);
  await runtime.start();
  let updateMs = 0;
  let renderMs = 0;
  let frames = 0;
  let running = true;
  const loop = (ts: number): void => {
    if (!running) return;
    requestAnimationFrame(loop);
    if (!runtime.pace(ts) || s.busy()) return;
    const a = performance.now();
    s.mesh.update(ts);
    const b = performance.now();
    s.render();
    const c = performance.now();
    updateMs += b - a;
    renderMs += c - b;
    frames++;
  };
  requestAnimationFrame(loop);
  await sleep(2000); // warm-up: pipelines compiled, the first full upload, the JIT
  const results: RendererWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    updateMs = renderMs = 0;
    frames = 0;
    await sleep(windowMs);
    const cpu = await meter.stop();
    const n = Math.max(1, frames);
    results.push({ frames, updatePerFrame: updateMs / n, renderPerFrame: renderMs / n, workPerFrame: (updateMs + renderMs) / n, mainCpuPerFrame: cpu.main / n });
  }
  running = false;
  await nextFrame();
  s.dispose();
  canvas.remove();
  runtime.dispose();
  const keys = Object.keys(results[0]!) as (keyof RendererWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof RendererWindow, Spread>;
  return { design, count, windows: results, summary };
}

export async function threeWebgpu(quick: boolean, sizes = WEBGPU_SIZES): Promise<{ rows: RendererRow[]; adapter: string }> {
  const adapter = await navigator.gpu?.requestAdapter();
  const info = (adapter as (GPUAdapter & { info?: GPUAdapterInfo }) | null | undefined)?.info;
  const described = info === undefined ? 'none' : `${info.vendor} / ${info.architecture}${(info as { isFallbackAdapter?: boolean }).isFallbackAdapter ? ' (fallback adapter: software)' : ''}`;
  log(`three-webgpu adapter: ${described}`);
  const windows = quick ? 2 : 5;
  const rows: RendererRow[] = [];
  for (const count of sizes) {
    for (const design of ['webgl', 'webgpu', 'webgpu', 'webgl'] as const) {
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const row = await measure(design, count, windows, 1000);
      const m = row.summary;
      log(
        `three-webgpu ${design} ${count}: ${m.frames.median.toFixed(0)} frames/s, update ${m.updatePerFrame.median.toFixed(3)} ms, ` +
          `render ${m.renderPerFrame.median.toFixed(3)} ms, work ${m.workPerFrame.median.toFixed(3)} ms, main CPU ${m.mainCpuPerFrame.median.toFixed(2)} ms a frame`,
      );
      rows.push(row);
    }
  }
  return { rows, adapter: described };
}
