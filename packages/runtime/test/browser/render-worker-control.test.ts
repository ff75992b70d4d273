/**
 * With a render worker, the page keeps the simulation's controls: game commands answer, and `sendInput` writes
 * the shared input ring straight from the page (never through the render worker), so the tick it falls in gets it.
 */
import { afterEach, expect, it } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, sleep } from './helpers.ts';

let runtime: RenderWorkerRuntime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

it('commands answer and input from the page reaches the tick it falls in', async () => {
  runtime = await createRenderWorkerRuntime<typeof motionSchema, MotionCommands>({
    worker: fixtureWorker('motion'),
    renderWorker: new Worker(new URL('./fixtures/plain.render.ts', import.meta.url), { type: 'module' }),
    canvas: document.createElement('canvas'),
    schema: motionSchema,
    capacity: 4,
    renderIn: 'worker',
  });
  expect(runtime.renderer).toBe('worker');
  expect(runtime.transport).toBe('shared');
  expect(runtime.input).not.toBeNull();
  await runtime.start();
  expect(await runtime.commands.double(21)).toBe(42);
  const sent = runtime.now();
  expect(runtime.sendInput(7, 42)).toBe(true);
  expect(runtime.sendInput(8, 43)).toBe(true);
  let inputs: Array<[number, number, number, number, boolean, number, number]> = [];
  for (let i = 0; i < 200 && inputs.length < 2; i++) {
    inputs = await runtime.commands.inputs();
    await sleep(10);
  }
  expect(inputs.map(([, , code, p0]) => [code, p0])).toEqual([
    [7, 42],
    [8, 43],
  ]);
  const [tick, time, , , late, previousAt, at] = inputs[0]!;
  expect(tick).toBeGreaterThan(0);
  expect(time).toBeGreaterThanOrEqual(sent); // stamped on the page's clock when sent
  // handed to the tick whose interval holds it, unless it arrived after that tick was made
  if (!late) expect(time > previousAt && time <= at).toBe(true);
  // the render worker draws on its own rAF: on a loaded machine its first frame may come after the inputs
  let stats = await runtime.stats();
  for (let i = 0; i < 500 && stats.frames === 0; i++) {
    await sleep(10);
    stats = await runtime.stats();
  }
  expect(stats.worker.inputs).toBe(2);
  expect(stats.inputRejected).toBe(0);
  expect(stats.render.thread).toBe('worker');
  expect(stats.frames).toBeGreaterThan(0);
});
