import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { MOTION_TICK_RATE, motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, sleep, waitFor } from './helpers.ts';

let runtime: Runtime<typeof motionSchema> | undefined;
afterEach(() => runtime?.dispose());

const start = async () => {
  runtime = await createRuntime({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
  return runtime;
};

describe('control over comlink, with a real worker', () => {
  it('pause stops ticks, stepOnce advances exactly one, resume continues', async () => {
    const rt = await start();
    await rt.start();
    await waitFor('three ticks', () => rt.sample().tick >= 3);
    await rt.pause();
    const held = rt.sample().tick;
    const publishes = rt.reader.publishCount();
    await sleep((1000 / MOTION_TICK_RATE) * 6); // six ticks' worth of wall time
    expect(rt.sample().tick).toBe(held);
    expect(rt.reader.publishCount()).toBe(publishes);
    expect((await rt.stats()).worker.status).toBe('paused');

    await rt.stepOnce();
    expect(rt.sample()).toMatchObject({ previousTick: held, tick: held + 1 });
    await rt.stepOnce();
    expect(rt.sample()).toMatchObject({ previousTick: held + 1, tick: held + 2 });
    expect(rt.reader.publishCount()).toBe(publishes + 2);

    await rt.resume();
    await waitFor('ticks after resume', () => rt.sample().tick >= held + 4);
    expect((await rt.stats()).worker.status).toBe('running');
  });

  it('refuses stepOnce while running, with the reason', async () => {
    const rt = await start();
    await rt.start();
    await expect(rt.stepOnce()).rejects.toThrow(/stepOnce\(\) runs one tick of a held simulation; call pause\(\) first/);
  });

  it('time scale changes the tick spacing on the shared clock', async () => {
    const rt = await start();
    const tickMs = 1000 / MOTION_TICK_RATE;
    await rt.pause();
    await rt.stepOnce();
    let f = rt.sample();
    expect(f.currentTime - f.previousTime).toBeCloseTo(tickMs, 9);
    await rt.setTimeScale(2);
    await rt.stepOnce();
    f = rt.sample();
    expect(f.currentTime - f.previousTime).toBeCloseTo(tickMs / 2, 9);

    // running at scale 4: every published tick is a quarter tick apart on the shared clock
    await rt.setTimeScale(4);
    await rt.resume();
    const first = rt.sample();
    const firstTick = first.tick;
    const firstTime = first.currentTime;
    await waitFor('ten ticks at scale 4', () => rt.sample().tick >= firstTick + 10);
    const later = rt.sample();
    expect((later.currentTime - firstTime) / (later.tick - firstTick)).toBeCloseTo(tickMs / 4, 6);
    expect((await rt.stats()).worker.timeScale).toBe(4);
  });

  it('changes the tick rate', async () => {
    const rt = await start();
    await rt.pause();
    await rt.setTickRate(100);
    await rt.stepOnce();
    const f = rt.sample();
    expect(f.currentTime - f.previousTime).toBeCloseTo(10, 9);
    await expect(rt.setTickRate(-1)).rejects.toThrow(/tick rate must be a finite number of Hz above 0/);
  });

  it('refuses a worker with another schema', async () => {
    const worker = fixtureWorker('motion');
    await expect(createRuntime({ worker, schema: schema3d, capacity: 4 })).rejects.toThrow(
      /the main thread's schema "position:linear:3;rotation:quaternion:4" differs from the worker's/,
    );
    worker.terminate();
  });

  it('reports a step that throws, and keeps drawing the last good state', async () => {
    const errors: Error[] = [];
    let framesAfterError = 0;
    const rt = await createRuntime({
      worker: fixtureWorker('faulty'),
      schema: motionSchema,
      capacity: 1,
      onError: (error) => errors.push(error),
      draw: () => {
        if (errors.length > 0) framesAfterError++;
      },
    });
    runtime = rt;
    await rt.start();
    await waitFor('the fault to be reported', () => errors.length > 0);
    expect(errors[0]!.message).toMatch(/the simulation's step threw: the game broke at tick 3/);
    await waitFor('frames after the fault', () => framesAfterError >= 3);
    expect(rt.sample().tick).toBe(2);
    expect(errors).toHaveLength(1);
    await expect(rt.resume()).rejects.toThrow(/faulted \(the game broke at tick 3\)/);
  });

  it("serves the game's own commands, typed, between ticks", async () => {
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
    });
    runtime = rt;
    expect(await rt.commands.double(21)).toBe(42);
    await rt.commands.setCount(3);
    expect(rt.sample().count).toBe(2); // commands do not change the world; the next tick does
    await rt.stepOnce();
    expect(rt.sample().count).toBe(3);
  });

  it('refuses calls after dispose', async () => {
    const rt = await start();
    rt.dispose();
    await expect(rt.start()).rejects.toThrow(/start\(\) on a disposed runtime/);
  });

  it('fails calls still waiting on the worker when disposed, instead of leaving them pending forever', async () => {
    const rt = await start();
    // both are on their way to the worker when it is terminated: it will never answer them
    const stats = rt.stats();
    const paused = rt.pause();
    rt.dispose();
    await expect(stats).rejects.toThrow(/stats\(\) did not finish: the runtime was disposed meanwhile/);
    await expect(paused).rejects.toThrow(/pause\(\) did not finish/);
  });
});
