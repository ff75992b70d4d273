import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Runtime } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker } from './helpers.ts';

let runtime: Runtime<typeof motionSchema> | undefined;
afterEach(() => runtime?.dispose());

it('runs cross-origin isolated, on the page and in the worker', async () => {
  expect(globalThis.crossOriginIsolated).toBe(true);
  runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  expect(runtime.info.crossOriginIsolated).toBe(true);
  expect(runtime.transport).toBe('shared');
  expect(runtime.views!.buffer).toBeInstanceOf(SharedArrayBuffer);
});

it('puts both threads on one clock', async () => {
  runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  // tick 0 is stamped with the worker's clock while attach() is in flight: it must fall inside that window here
  const before = runtime.now();
  const again = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  const after = again.now();
  const stamped = again.sample().currentTime;
  again.dispose();
  expect(stamped).toBeGreaterThanOrEqual(before);
  expect(stamped).toBeLessThanOrEqual(after);
});
