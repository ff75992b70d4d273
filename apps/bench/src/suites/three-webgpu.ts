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
 * alone. Both keep one frame in flight (three-webgpu-stages.ts): the GPU is software here (SwiftShader for both),
 * and takes from a tenth of a second to seconds a frame, so frames a second are the GPU's rate, not the page's.
 *
 * ```text
 *  per design and size:  first-frame probe (compile, upload, first frame, draw: three-webgpu-first-frame.ts)
 *                        warm-up: WARM_FRAMES drawn (or WARM_CAP_MS)
 *                        windows: each until MIN_FRAMES drawn and WINDOW_MS passed, or WINDOW_CAP_MS
 * ```
 *
 * Per window: frames drawn, its seconds, ms a drawn frame (the GPU's frame time, one in flight), the page's
 * timing of `mesh.update` and `renderer.render` per frame, their sum, the page main thread's CPU per frame (/proc).
 */
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { createSide } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';
import { probeFirstFrame, type FirstFrame } from './three-webgpu-first-frame.ts';
import { createStage, TARGET_HEIGHT, TARGET_WIDTH, type RendererDesign } from './three-webgpu-stages.ts';

export type { RendererDesign } from './three-webgpu-stages.ts';
export const WEBGPU_SIZES = [10_000, 100_000];
const TICK_RATE = 30;
/** Frames a window needs (a software GPU at 100k draws about one a second), and its least length. */
const MIN_FRAMES = 3;
const WINDOW_MS = 1000;
/** A window ends here whatever it drew: a GPU slower than a frame in WINDOW_CAP_MS / MIN_FRAMES reports fewer. */
const WINDOW_CAP_MS = 15_000;
const WARM_FRAMES = 2;
const WARM_CAP_MS = 30_000;

export interface RendererWindow {
  readonly frames: number;
  readonly seconds: number;
  /** Wall ms a drawn frame: with one frame in flight, the GPU's time a frame where it is the bottleneck. */
  readonly msPerFrame: number;
  readonly updatePerFrame: number;
  readonly renderPerFrame: number;
  readonly workPerFrame: number;
  readonly mainCpuPerFrame: number;
}

export interface RendererRow {
  readonly design: RendererDesign;
  readonly count: number;
  readonly firstFrame: FirstFrame;
  readonly windows: readonly RendererWindow[];
  readonly summary: Record<keyof RendererWindow, Spread>;
}

/** Waits until `ready()` or `capMs`, polling. */
async function until(ready: () => boolean, capMs: number): Promise<void> {
  const t = performance.now();
  while (!ready() && performance.now() - t < capMs) await sleep(20);
}

async function measure(design: RendererDesign, count: number, windows: number): Promise<RendererRow> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count, tickRate: TICK_RATE, side: createSide() }),
    schema: schema3d,
    capacity: count,
    visibility: null,
    pacing: { adaptive: false },
  });
  const canvas = document.createElement('canvas');
  canvas.width = TARGET_WIDTH;
  canvas.height = TARGET_HEIGHT;
  document.body.append(canvas);
  const s = await createStage(design, runtime, canvas);
  await runtime.start();
  await until(() => runtime.reader.publishCount() > 0, 10_000);
  const firstFrame = await probeFirstFrame(s, count, `${design} ${count}`);
  let updateMs = 0;
  let renderMs = 0;
  let frames = 0;
  let running = firstFrame.stalled === null;
  const loop = (ts: number): void => {
    if (!running) return;
    requestAnimationFrame(loop);
    if (!runtime.pace(ts) || s.busy()) return;
    const a = performance.now();
    s.mesh.update(ts);
    const b = performance.now();
    s.render();
    const c = performance.now();
    s.track(); // not timed: a page that presents has the compositor flush for it
    updateMs += b - a;
    renderMs += c - b;
    frames++;
  };
  const results: RendererWindow[] = [];
  if (running) {
    requestAnimationFrame(loop);
    await until(() => frames >= WARM_FRAMES, WARM_CAP_MS);
    for (let w = 0; w < windows; w++) {
      const meter = cpuMeter();
      await meter.start();
      const t = performance.now();
      updateMs = renderMs = 0;
      frames = 0;
      await sleep(WINDOW_MS);
      await until(() => frames >= MIN_FRAMES, WINDOW_CAP_MS - WINDOW_MS);
      const seconds = (performance.now() - t) / 1000;
      const cpu = await meter.stop();
      const n = Math.max(1, frames);
      results.push({
        frames,
        seconds,
        msPerFrame: frames === 0 ? Number.NaN : (1000 * seconds) / frames,
        updatePerFrame: updateMs / n,
        renderPerFrame: renderMs / n,
        workPerFrame: (updateMs + renderMs) / n,
        mainCpuPerFrame: cpu.main / n,
      });
    }
  }
  running = false;
  await nextFrame();
  // the last frame done before the renderer goes, so that nothing of this design is left in the GPU process's queue
  await Promise.race([s.done(), sleep(WINDOW_CAP_MS)]);
  s.dispose();
  canvas.remove();
  runtime.dispose();
  const keys: (keyof RendererWindow)[] = ['frames', 'seconds', 'msPerFrame', 'updatePerFrame', 'renderPerFrame', 'workPerFrame', 'mainCpuPerFrame'];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof RendererWindow, Spread>;
  return { design, count, firstFrame, windows: results, summary };
}

export async function threeWebgpu(quick: boolean, sizes = WEBGPU_SIZES, designs: readonly RendererDesign[] = ['webgl', 'webgpu']): Promise<{ rows: RendererRow[]; adapter: string }> {
  const adapter = await navigator.gpu?.requestAdapter();
  const info = (adapter as (GPUAdapter & { info?: GPUAdapterInfo }) | null | undefined)?.info;
  const described = info === undefined ? 'none' : `${info.vendor} / ${info.architecture}${(info as { isFallbackAdapter?: boolean }).isFallbackAdapter ? ' (fallback adapter: software)' : ''}`;
  log(`three-webgpu adapter: ${described}`);
  const windows = quick ? 2 : 5;
  const rows: RendererRow[] = [];
  for (const count of sizes) {
    for (const design of ['webgl', 'webgpu', 'webgpu', 'webgl'] as const) {
      if (!designs.includes(design)) continue;
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const started = performance.now();
      const row = await measure(design, count, windows);
      const m = row.summary;
      log(
        `three-webgpu ${design} ${count}: ${m.frames.median.toFixed(0)} frames a window (${m.seconds.median.toFixed(1)} s), ${m.msPerFrame.median.toFixed(0)} ms a frame, update ${m.updatePerFrame.median.toFixed(3)} ms, ` +
          `render ${m.renderPerFrame.median.toFixed(3)} ms, work ${m.workPerFrame.median.toFixed(3)} ms, main CPU ${m.mainCpuPerFrame.median.toFixed(2)} ms a frame (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
      rows.push(row);
    }
  }
  return { rows, adapter: described };
}
