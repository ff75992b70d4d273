/**
 * A page served WITHOUT the isolation headers: there is no SharedArrayBuffer for a render worker to read, so
 * `createRenderWorkerRuntime` draws on the main thread with the `fallback` setup (over the message transport),
 * says why in the console, `renderFallback` and `stats().render`, and without `fallback` rejects naming the reason.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import { createScene } from '../browser/fixtures/scene.ts';
import { motionSchema } from '../browser/fixtures/schema.ts';

let runtime: RenderWorkerRuntime<typeof motionSchema> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const options = () => {
  const canvas = document.createElement('canvas');
  document.body.append(canvas);
  return {
    worker: new Worker(new URL('../browser/fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    renderWorker: new Worker(new URL('../browser/fixtures/scene.render.ts', import.meta.url), { type: 'module', name: 'cpu-plain' }),
    canvas,
    schema: motionSchema,
    capacity: 8,
  };
};

it('draws on the main thread with the fallback setup, and says why', async () => {
  expect(globalThis.crossOriginIsolated).toBe(false);
  const warn = vi.spyOn(console, 'warn');
  const scene = createScene(false);
  runtime = await createRenderWorkerRuntime({ ...options(), fallback: scene.setup });
  expect(runtime.renderer).toBe('main');
  expect(runtime.transport).toBe('message');
  expect(runtime.renderFallback).toContain('not cross-origin isolated');
  const lines = warn.mock.calls.map((call) => String(call[0]));
  expect(lines).toContain(`steadyframe: drawing on the main thread, not in the render worker: ${runtime.renderFallback}`);
  warn.mockRestore();
  await runtime.start();
  for (let i = 0; i < 400 && scene.counters.drawn < 10; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(scene.counters.drawn).toBeGreaterThanOrEqual(10);
  expect(scene.counters.bad, scene.counters.firstBad).toBe(0);
  const stats = await runtime.stats();
  expect(stats.render).toMatchObject({ thread: 'main', fallback: runtime.renderFallback, crossOriginIsolated: false });
  expect(stats.render.drawn).toBeGreaterThanOrEqual(10);
});

it('without a fallback, rejects naming the reason and the fix', async () => {
  await expect(createRenderWorkerRuntime(options())).rejects.toThrow(/render worker cannot be used: the page is not cross-origin isolated.*pass fallback/);
});
