/** Set-up data: `createRuntime({ setup })` reaches the worker's `init(world, setup)`, typed, once per init. */
import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Runtime } from 'steadyframe';
import type { MotionCommands, MotionSetup } from './fixtures/motion.worker.ts';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker } from './helpers.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => runtime?.dispose());

it.each(['shared', 'message'] as const)('init gets the setup given to createRuntime, and again on restart from scratch (%s transport)', async (transport) => {
  const setup: MotionSetup = { count: 5, label: 'five' };
  runtime = await createRuntime<typeof motionSchema, MotionCommands, MotionSetup>({
    worker: fixtureWorker('motion'),
    schema: motionSchema,
    capacity: 8,
    transport,
    setup,
  });
  // tick 0, the state init made from the setup
  expect(runtime.sample().count).toBe(5);
  await runtime.restart('scratch');
  expect(await runtime.commands.setups()).toEqual([setup, setup]);
});

it('init gets undefined without a setup', async () => {
  runtime = await createRuntime<typeof motionSchema, MotionCommands>({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 8 });
  expect(runtime.sample().count).toBe(2);
  expect(await runtime.commands.setups()).toEqual([undefined]);
});

it('refuses a setup that cannot be structured-cloned, at set-up, naming the fix', async () => {
  const worker = fixtureWorker('motion');
  await expect(createRuntime({ worker, schema: motionSchema, capacity: 8, setup: { onHit: () => 1 } })).rejects.toThrow(
    /steadyframe: setup must be structured-cloneable/,
  );
  worker.terminate();
});
