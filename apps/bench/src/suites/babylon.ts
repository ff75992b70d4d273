/**
 * Suite 17, Babylon.js thin instances: the same 3D bodies (the frame suite's 3D world: each drifts at its own
 * velocity and turns, 30 ticks/s) moved as one mesh's thin instances in a 60 fps loop, two ways, side by side in
 * one run at 10k and 100k:
 *
 * | design   | the main thread, each frame                                                                      |
 * |----------|--------------------------------------------------------------------------------------------------|
 * | `plain`  | plain Babylon: the simulation steps on the page (a fixed 30 Hz step, catching up), then the      |
 * |          | thin-instance matrix buffer is rewritten from the newest state (compose position and quaternion, |
 * |          | `thinInstanceBufferUpdated('matrix')`: 64 bytes an instance uploaded) and the scene rendered     |
 * | `gpu`    | @steadyframe/babylon: the simulation steps in a worker; `update()` uploads each new state once    |
 * |          | (32 bytes an instance, straight from the shared memory) and sets the frame's alpha; the vertex   |
 * |          | shader blends; the scene rendered                                                               |
 *
 * Both draw one small plane per body (StandardMaterial, unlit) in a 320×240 canvas on Babylon's WebGL 2 engine.
 * Per 1 s window: frames, the page's timing per frame of the design's work before the render (plain: steps and
 * matrices; gpu: `update`), of `scene.render`, their sum (main-thread work a frame), and the main thread's CPU per
 * frame (/proc). The goal: the GPU blend costs the main thread less than plain Babylon at both sizes.
 */
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreatePlane } from '@babylonjs/core/Meshes/Builders/planeBuilder.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { createInterpolatedThinInstances } from '@steadyframe/babylon';
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { readTransform, transformViews, writeMatrix, type ResolvedTransformFields, type TransformViews } from 'steadyframe/adapter';
import { BenchWorld, createSide } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

export type BabylonDesign = 'plain' | 'gpu';
export const BABYLON_SIZES = [10_000, 100_000];
const TICK_RATE = 30;

export interface BabylonWindow {
  readonly frames: number;
  /** ms per frame before the render: plain, the page's simulation steps and the matrix rewrite; gpu, `update()`. */
  readonly movePerFrame: number;
  /** ms per frame in `scene.render`. */
  readonly renderPerFrame: number;
  /** The two: the main thread's work a frame. */
  readonly workPerFrame: number;
  /** /proc CPU ms of the page's main thread per frame. */
  readonly mainCpuPerFrame: number;
}

export interface BabylonRow {
  readonly design: BabylonDesign;
  readonly count: number;
  readonly windows: readonly BabylonWindow[];
  readonly summary: Record<keyof BabylonWindow, Spread>;
}

const FIELDS: ResolvedTransformFields = { position: { name: 'position', width: 3 }, rotation: { name: 'rotation', kind: 'quaternion' }, scale: null };

/** Babylon's WebGL 2 engine on a 320×240 canvas, a camera on the frame suite's 200-unit box, one small plane mesh. */
function stage() {
  const canvas = document.createElement('canvas');
  canvas.width = Number(new URLSearchParams(location.search).get('px') ?? 320);
  canvas.height = Math.round((canvas.width * 3) / 4);
  document.body.append(canvas);
  const engine = new Engine(canvas, false, { antialias: false, stencil: false });
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0, 0, 0, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -300), scene);
  camera.setTarget(Vector3.Zero());
  const mesh = CreatePlane('bodies', { size: 0.6 }, scene);
  const material = new StandardMaterial('bodies', scene);
  material.disableLighting = true;
  material.emissiveColor = new Color3(1, 1, 1);
  mesh.material = material;
  mesh.doNotSyncBoundingInfo = true;
  mesh.alwaysSelectAsActiveMesh = true;
  return {
    engine,
    scene,
    mesh,
    dispose() {
      scene.dispose();
      engine.dispose();
      canvas.remove();
    },
  };
}

/** The plain way: the simulation on the page at a fixed 30 Hz, the matrices rewritten from its newest state each frame. */
function plainMover(mesh: ReturnType<typeof stage>['mesh'], count: number): (now: number) => void {
  const world = new BenchWorld('3d', count);
  const position = new Float32Array(3 * count);
  const rotation = new Float32Array(4 * count);
  world.init(position, rotation, count);
  const matrices = new Float32Array(16 * count);
  mesh.thinInstanceSetBuffer('matrix', matrices, 16, false);
  const views: TransformViews = transformViews(FIELDS, { position, rotation }, { position, rotation: null, scale: null });
  const step = 1000 / TICK_RATE;
  let last = -1;
  let owed = 0;
  return (now) => {
    if (last >= 0) owed += now - last;
    last = now;
    // catch up, at most 4 steps a frame (a slow frame does not spiral)
    for (let k = 0; owed >= step && k < 4; k++, owed -= step) world.step(position, rotation, count, 1 / TICK_RATE);
    owed = Math.min(owed, step);
    for (let i = 0; i < count; i++) writeMatrix(readTransform(FIELDS, views, i), matrices, 16 * i);
    mesh.thinInstanceBufferUpdated('matrix');
  };
}

async function measure(design: BabylonDesign, count: number, windows: number, windowMs: number): Promise<BabylonRow> {
  const s = stage();
  let runtime: Runtime<typeof schema3d> | null = null;
  let move: (now: number) => void;
  if (design === 'gpu') {
    runtime = await createRuntime({
      worker: simWorker({ kind: '3d', count, tickRate: TICK_RATE, side: createSide() }),
      schema: schema3d,
      capacity: count,
      visibility: null,
      pacing: { adaptive: false },
    });
    const blended = createInterpolatedThinInstances(runtime, s.mesh, { position: 'position', rotation: 'rotation' });
    await runtime.start();
    move = (now) => void blended.update(now);
  } else {
    move = plainMover(s.mesh, count);
  }
  await s.scene.whenReadyAsync();
  let moveMs = 0;
  let renderMs = 0;
  let frames = 0;
  let running = true;
  const loop = (ts: number): void => {
    if (!running) return;
    requestAnimationFrame(loop);
    if (runtime !== null && !runtime.pace(ts)) return;
    const a = performance.now();
    move(ts);
    const b = performance.now();
    s.scene.render();
    const c = performance.now();
    moveMs += b - a;
    renderMs += c - b;
    frames++;
  };
  requestAnimationFrame(loop);
  await sleep(1500); // warm-up: the first upload, shader compiles, the JIT
  const results: BabylonWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    moveMs = renderMs = 0;
    frames = 0;
    await sleep(windowMs);
    const cpu = await meter.stop();
    const n = Math.max(1, frames);
    results.push({ frames, movePerFrame: moveMs / n, renderPerFrame: renderMs / n, workPerFrame: (moveMs + renderMs) / n, mainCpuPerFrame: cpu.main / n });
  }
  running = false;
  await nextFrame();
  s.dispose();
  runtime?.dispose();
  const keys = Object.keys(results[0]!) as (keyof BabylonWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof BabylonWindow, Spread>;
  return { design, count, windows: results, summary };
}

export async function babylon(quick: boolean, sizes = BABYLON_SIZES): Promise<{ rows: BabylonRow[] }> {
  const windows = quick ? 2 : 5;
  const rows: BabylonRow[] = [];
  for (const count of sizes) {
    // mirrored order, each run its own row: the machine drifts over a run
    for (const design of ['plain', 'gpu', 'gpu', 'plain'] as const) {
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const row = await measure(design, count, windows, 1000);
      const m = row.summary;
      log(
        `babylon ${design} ${count}: ${m.frames.median.toFixed(0)} frames/s, move ${m.movePerFrame.median.toFixed(3)} ms, ` +
          `render ${m.renderPerFrame.median.toFixed(3)} ms, work ${m.workPerFrame.median.toFixed(3)} ms, main CPU ${m.mainCpuPerFrame.median.toFixed(2)} ms a frame`,
      );
      rows.push(row);
    }
  }
  return { rows };
}
