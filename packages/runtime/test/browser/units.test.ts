/** One unit for simulated time (seconds) and one for clock times (shared-clock ms), on both sides. */
import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Runtime } from 'steadyframe';
import { MOTION_TICK_RATE, motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker } from './helpers.ts';

let runtime: Runtime<typeof motionSchema> | undefined;
afterEach(() => runtime?.dispose());

it('frame.simSeconds and stats().worker.simSeconds are simulated seconds; frame times are clock ms', async () => {
  runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 8 });
  expect(runtime.sample().simSeconds).toBe(0);
  for (let i = 0; i < 3; i++) await runtime.stepOnce();
  const frame = runtime.sample(Number.POSITIVE_INFINITY);
  expect(frame.tick).toBe(3);
  expect(frame.simSeconds).toBeCloseTo(3 / MOTION_TICK_RATE, 6); // 0.15 s, not 150
  expect((await runtime.stats()).worker.simSeconds).toBeCloseTo(3 / MOTION_TICK_RATE, 6);
  // clock times: ms on this thread's performance.now() timeline
  expect(Math.abs(frame.currentTime - performance.now())).toBeLessThan(60_000);
});
