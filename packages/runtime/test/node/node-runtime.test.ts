/**
 * steadyframe/node on the real clock: the browser tests' fixture modules, unchanged, in `worker_threads`, over
 * the shared transport, with frames made by the test (a server loop). What is asserted holds on a loaded
 * machine: values the simulation published, and time that is either simulated or counted as dropped, never
 * lost; how late ticks start (jitter) is reported, not asserted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import { createNodeRuntime } from 'steadyframe/node';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import type { Setup as NeedsSetup } from './fixtures/needs-setup.worker.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

describe('steadyframe/node, real clock', () => {
  it('runs the browser worker module unchanged in worker_threads, on the shared transport', async () => {
    const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({
      worker: await nodeFixture('motion'),
      schema: motionSchema,
      capacity: 8,
      setup: { count: 3, label: 'node' },
    }));
    expect(rt.transport).toBe('shared');
    expect(rt.info).toMatchObject({ tickRate: MOTION_TICK_RATE, transport: 'shared', crossOriginIsolated: false });
    // the set-up data reached init, the commands answer over comlink
    expect(await rt.commands.setups()).toEqual([{ count: 3, label: 'node' }]);
    expect(await rt.commands.double(21)).toBe(42);
    await rt.start();
    await waitFor('ticks', () => rt.sample().tick >= 4);
    // a server loop's frame: drawn at now, blended between two consecutive ticks the fixture wrote
    const frame = rt.frame()!;
    expect(frame.count).toBe(3);
    expect(frame.tick - frame.previousTick).toBe(1);
    const k = frame.previousTick + frame.alpha;
    for (let i = 0; i < 3; i++) {
      expect(frame.fields.position[2 * i]).toBeCloseTo(motionAt(i, k).x, 4);
      expect(frame.fields.position[2 * i + 1]).toBeCloseTo(motionAt(i, k).y, 4);
    }
    expect(frame.time).toBe(rt.frameTime);
  });

  it('keeps its tick rate in real time: every ms is simulated or counted as dropped (tick lateness reported)', async () => {
    const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: 2 }));
    await rt.setTickRate(60);
    await rt.start();
    const from = (await rt.stats()).worker;
    const started = rt.now();
    // a server loop at 30 Hz for 1.5 s: frames announce themselves to the worker as a page's would
    const times: number[] = [];
    await new Promise<void>((resolve) => {
      const loop = setInterval(() => {
        const f = rt.frame();
        if (f !== null) times.push(f.time);
        if (rt.now() - started > 1500) {
          clearInterval(loop);
          resolve();
        }
      }, 1000 / 30);
    });
    const stats = await rt.stats();
    const elapsed = rt.now() - started;
    const simulated = (stats.worker.simSeconds - from.simSeconds) * 1000;
    const dropped = stats.worker.droppedMs - from.droppedMs;
    console.log(
      `node real time, 60 Hz for ${elapsed.toFixed(0)} ms: ${stats.worker.tick - from.tick} ticks (${simulated.toFixed(1)} ms simulated, ` +
        `${dropped.toFixed(1)} dropped in ${stats.worker.overloads} overloads); timed wakes more than 1 ms late: ${stats.worker.lateWakes}, ` +
        `the latest ${stats.worker.maxWakeLateMs.toFixed(2)} ms; ${stats.worker.sleeps} sleeps, ${stats.worker.spunMs.toFixed(1)} ms spun`,
    );
    // time conservation: the newest state stands at most the lead (2 ticks) ahead of now, and behind it by at
    // most the backlog the catch-up policy keeps (250 ms) plus a tick in progress; the rest was dropped, counted
    expect(simulated + dropped).toBeGreaterThan(elapsed - 250 - 2 * (1000 / 60));
    expect(simulated + dropped).toBeLessThan(elapsed + 3 * (1000 / 60));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);
  });

  it('a server (no frames) publishes no state ahead of now: its ticks start at their time', async () => {
    const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: 2 }));
    await rt.setTickRate(60);
    await rt.start();
    // the newest state's time, read before now: never past it, but for what the clocks' alignment cannot tell
    // apart (half its shortest probe's round trip). The lead pages have put it a tick ahead: 16.7 ms
    const slack = rt.clock.uncertainty;
    let reads = 0;
    while (rt.sample().tick < 30) {
      const newest = rt.sample().currentTime;
      expect(newest).toBeLessThanOrEqual(rt.now() + slack);
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(reads).toBeGreaterThan(10);
    // the lead for frames is still there for a loop that makes them (frame(), frameAt())
    expect(rt.info.maxLeadTicks).toBe(2);
  });

  it('rejects, naming the cause, when the module cannot be loaded, and for a wrong worker option', async () => {
    await expect(createNodeRuntime({ worker: '/no/such/sim.worker.js', schema: motionSchema, capacity: 2 })).rejects.toThrow(
      /the worker failed before it attached: .*no\/such\/sim\.worker\.js/,
    );
    await expect(createNodeRuntime({ worker: 42 as unknown as string, schema: motionSchema, capacity: 2 })).rejects.toThrow(
      /options.worker must be the simulation's module, as a URL or a path .*; got 42/,
    );
    // a module that loads and never calls exposeSimulation: nothing keeps a Node thread alive, so it ends at once
    await expect(createNodeRuntime({ worker: await nodeFixture('silent'), schema: motionSchema, capacity: 2 })).rejects.toThrow(
      /the worker failed before it attached: its module ran to its end without serving a simulation .*exposeSimulation\(\)/,
    );
    // draw needs animation frames, which Node has none of
    await expect(createNodeRuntime({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: 2, draw: () => {} })).rejects.toThrow(
      /draw needs animation frames, and this host \(node\) has none/,
    );
  });

  it('a forgotten setup is named: the init that read it failed, and why (types: setup is required for such a Setup)', async () => {
    // the Setup type of the worker module makes setup required on this side: leaving it out is a type error
    // @ts-expect-error: setup is missing
    const made = createNodeRuntime<typeof motionSchema, Record<never, never>, NeedsSetup>({ worker: await nodeFixture('needs-setup'), schema: motionSchema, capacity: 2 });
    await expect(made).rejects.toThrow(
      /steadyframe: the simulation's init threw: .*'count'.*; its init\(world, setup\) takes set-up data, and createRuntime\(\) was given none: pass setup/,
    );
    // with it, it attaches
    runtime = (await createNodeRuntime<typeof motionSchema, MotionCommands, NeedsSetup>({
      worker: await nodeFixture('needs-setup'),
      schema: motionSchema,
      capacity: 4,
      setup: { count: 3 },
    })) as Runtime<typeof motionSchema, MotionCommands>;
    expect(runtime.sample().count).toBe(3);
  });

  it('dispose terminates the worker: calls waiting on it reject instead of hanging', async () => {
    const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: 2 }));
    await rt.start();
    const pending = rt.stats();
    rt.dispose();
    await expect(pending).rejects.toThrow(/stats\(\) did not finish: the runtime was disposed meanwhile/);
    expect(() => rt.frameAt(rt.now())).toThrow(/frameAt\(\) on a disposed runtime/);
  });
});

