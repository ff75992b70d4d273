/**
 * PixiJS v8 in the render worker (its WebWorkerAdapter, WebGL on the OffscreenCanvas): sprites bound by
 * @steadyframe/pixi follow the frames, and the rendered pixels are really there.
 */
import { afterEach, expect, it } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, sleep } from './helpers.ts';

let runtime: RenderWorkerRuntime<typeof motionSchema> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

it('draws with PixiJS in the render worker', async () => {
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
  const ask = () =>
    new Promise<{ drawn: number; lit: number; mismatches: number; crossOriginIsolated: boolean }>((resolve) => {
      channel.onmessage = (event: MessageEvent) => resolve(event.data);
      channel.postMessage('counters');
    });
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
