/**
 * Babylon.js in the render worker (the third thread): its WebGL 2 engine on the OffscreenCanvas the page handed
 * over, the thin instances blended on the GPU from the render worker's own reader, and the pixels it draws read
 * back there at the alpha it blended with (fixtures/scene.ts). Counts only, never timings.
 */
import { afterEach, expect, it } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import { askUntilAnswered } from 'steadyframe/testing';
import { motionSchema } from '../../../three/test/browser/fixtures/schema.ts';
import type { MotionCommands } from '../../../three/test/browser/fixtures/motion.worker.ts';
import type { SceneCounters } from './fixtures/scene.ts';

let runtime: RenderWorkerRuntime<typeof motionSchema, MotionCommands> | undefined;
let canvas: HTMLCanvasElement | undefined;
afterEach(() => {
  runtime?.dispose();
  canvas?.remove();
  runtime = undefined;
});

it('draws the blended thin instances in the render worker, where its pixels sit at the alpha it blended with', async () => {
  const name = 'babylon-render';
  canvas = document.createElement('canvas');
  canvas.style.width = '88px';
  canvas.style.height = '72px';
  document.body.append(canvas);
  runtime = await createRenderWorkerRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('../../../three/test/browser/fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    renderWorker: new Worker(new URL('./fixtures/scene.render.ts', import.meta.url), { type: 'module', name }),
    canvas,
    schema: motionSchema,
    capacity: 8,
    pacing: { adaptive: false },
    renderIn: 'worker',
  });
  expect(runtime.renderer).toBe('worker');
  await runtime.start();
  const channel = new BroadcastChannel(name);
  const counters = () => askUntilAnswered<SceneCounters>(channel, 'counters', name);
  const deadline = performance.now() + 30_000; // a hang guard: a loaded machine only makes it slower
  let seen = await counters();
  while (seen.pixelChecked < 20 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await counters();
  }
  channel.close();
  expect(seen.offscreen).toBe(true);
  expect(seen.pixelChecked).toBeGreaterThanOrEqual(20);
  expect(seen.pixelBad, seen.firstPixelBad).toBe(0);
});
