/**
 * PixiJS v8 in the render worker (its WebWorkerAdapter, WebGL on the OffscreenCanvas), both paths of
 * @steadyframe/pixi: sprites bound to the frames (CPU), and the GPU path's mesh blending in its shader, whose
 * pixels are read back at the places the analytic motion gives for the alpha drawn. Where the engine has no WebGL
 * on a worker's OffscreenCanvas (WebKitGTK 2.50: only 2D there), PixiJS cannot run in a worker: skipped.
 */
import { afterEach, expect, it } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { askUntilAnswered } from 'steadyframe/testing';
import { fixtureWorker, sleep } from './helpers.ts';
import { workerCanvasSupport } from '../shared/engine.ts';

const workerWebGL = (await workerCanvasSupport()).webgl;

let runtime: RenderWorkerRuntime<typeof motionSchema> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

it.runIf(workerWebGL)('draws with PixiJS in the render worker', async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 120;
  canvas.height = 80;
  runtime = await createRenderWorkerRuntime({
    worker: fixtureWorker('motion'),
    renderWorker: new Worker(new URL('./fixtures/pixi.render.ts', import.meta.url), { type: 'module', name: 'pixi-render' }),
    canvas,
    schema: motionSchema,
    capacity: 4,
    renderIn: 'worker',
  });
  await runtime.start();
  const channel = new BroadcastChannel('pixi-render');
  const ask = () => askUntilAnswered<{ drawn: number; lit: number; mismatches: number; crossOriginIsolated: boolean }>(channel, 'counters', 'the pixi render worker');
  let counters = await ask();
  for (let i = 0; i < 400 && counters.drawn < 20; i++) {
    await sleep(25);
    counters = await ask();
  }
  channel.close();
  expect(counters.drawn).toBeGreaterThanOrEqual(20);
  expect(counters.lit).toBe(counters.drawn);
  expect(counters.mismatches).toBe(0);
  expect(counters.crossOriginIsolated).toBe(true);
  expect((await runtime.stats()).render.thread).toBe('worker');
});

it.runIf(workerWebGL)("draws with @steadyframe/pixi's GPU path in the render worker: each square where the motion puts it, the alpha moving", async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 192;
  canvas.height = 128;
  runtime = await createRenderWorkerRuntime({
    worker: fixtureWorker('motion'),
    renderWorker: new Worker(new URL('./fixtures/pixi-gpu.render.ts', import.meta.url), { type: 'module', name: 'pixi-gpu-render' }),
    canvas,
    schema: motionSchema,
    capacity: 8,
    renderIn: 'worker',
  });
  await runtime.start();
  const channel = new BroadcastChannel('pixi-gpu-render');
  type Counters = { drawn: number; checked: number; bad: number; firstBad: string; alphas: number[]; count: number; uploads: number; crossOriginIsolated: boolean };
  const ask = () => askUntilAnswered<Counters>(channel, 'counters', 'the pixi GPU-path render worker');
  let counters = await ask();
  for (let i = 0; i < 400 && counters.checked < 30; i++) {
    await sleep(25);
    counters = await ask();
  }
  channel.close();
  expect(counters.checked).toBeGreaterThanOrEqual(30);
  expect(counters.drawn).toBeGreaterThanOrEqual(counters.checked);
  expect(counters.bad, counters.firstBad).toBe(0);
  expect(counters.count).toBe(2);
  // several publishes uploaded, and the alpha moving between them (20 Hz ticks, frames in between)
  expect(counters.uploads).toBeGreaterThan(3);
  // (60 Hz frames over 20 Hz ticks fall at about the same three places in each tick)
  const places = new Set(counters.alphas.map((a) => a.toFixed(1)));
  expect(places.size, `alphas: ${counters.alphas.slice(0, 40).join(' ')}`).toBeGreaterThanOrEqual(3);
  expect(counters.alphas.some((a) => a > 0.1 && a < 0.9)).toBe(true);
  expect(counters.crossOriginIsolated).toBe(true);
  const stats = await runtime.stats();
  expect(stats.render.thread).toBe('worker');
  expect(stats.render.drawn).toBeGreaterThanOrEqual(counters.drawn);
});
