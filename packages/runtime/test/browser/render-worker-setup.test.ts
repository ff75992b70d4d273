/**
 * Setting up a render worker that cannot draw: each fails with a message naming the cause instead of hanging, and
 * leaves nothing running.
 */
import { expect, it } from 'vitest';
import { createRenderWorkerRuntime } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker } from './helpers.ts';

/**
 * `attachTimeout`: 1500 ms where the timeout is what the test checks; elsewhere 30 s, a hang guard only, since
 * a module's own error arrives once it has loaded, and a loaded machine can take more than 1.5 s to load it
 * (Firefox did, in a CI run with three engines at once).
 */
const options = (renderWorker: Worker, attachTimeout = 30_000) => ({
  worker: fixtureWorker('motion'),
  renderWorker,
  canvas: document.createElement('canvas'),
  schema: motionSchema,
  capacity: 4,
  attachTimeout,
});

it('rejects for a render worker that never calls exposeRenderer', async () => {
  const silent = new Worker(new URL('./fixtures/silent.worker.ts', import.meta.url), { type: 'module' });
  await expect(createRenderWorkerRuntime(options(silent, 1500))).rejects.toThrow('steadyframe: the render worker did not answer within 1500 ms: its module must call exposeRenderer()');
});

it('rejects for a render worker whose module throws', async () => {
  const throwing = new Worker(new URL('./fixtures/broken.render.ts', import.meta.url), { type: 'module', name: 'throws' });
  await expect(createRenderWorkerRuntime(options(throwing))).rejects.toThrow('steadyframe: the render worker failed');
});

it("rejects with the setup's own error when the renderer cannot be built", async () => {
  const broken = new Worker(new URL('./fixtures/broken.render.ts', import.meta.url), { type: 'module', name: 'setup-throws' });
  await expect(createRenderWorkerRuntime(options(broken))).rejects.toThrow('the scene could not be built');
});
