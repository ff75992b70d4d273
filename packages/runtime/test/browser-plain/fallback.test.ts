/**
 * A page served WITHOUT the cross-origin isolation headers: no SharedArrayBuffer. The runtime must fall back to
 * the message transport behind the same API: frames interpolate, controls, input, faults and restarts work.
 * Real rAF, real workers, real messages: every wait here is for a state the runtime must reach, with a hang guard
 * (a loaded machine only makes it slower), never a deadline its assertions depend on. The same behaviour with
 * exact ticks, on a manual clock: `test/node/message-transport.test.ts` (and the transport contract,
 * `test/node/transport-contract.test.ts`, state by state).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, ISOLATION_REQUIRED, type Runtime } from 'steadyframe';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { motionAt, motionSchema, stressSchema, varyingCount } from '../browser/fixtures/schemas.ts';
import { fixtureWorker, sleep, waitFor, yieldToPage } from '../browser/helpers.ts';
import { META } from '../../src/core/layout.ts';
import { engine, engineSharesMemory } from '../shared/engine.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => runtime?.dispose());

describe('without cross-origin isolation', () => {
  it('is really not isolated here', () => {
    expect(globalThis.crossOriginIsolated).toBe(false);
    // WebKitGTK started with JSC_useSharedArrayBuffer=1 has the constructor on every page (Safari has it only
    // on isolated ones); it cannot be posted to a worker here, so the runtime goes by crossOriginIsolated
    if (!(engine === 'webkit' && engineSharesMemory)) expect(typeof SharedArrayBuffer).toBe('undefined');
  });

  it('refuses the shared transport when asked for it, naming the headers', async () => {
    const worker = fixtureWorker('motion');
    await expect(createRuntime({ worker, schema: motionSchema, capacity: 4, transport: 'shared' })).rejects.toThrow(ISOLATION_REQUIRED);
    worker.terminate();
  });

  it('falls back to messages and still draws interpolated frames', async () => {
    const frames: Array<{ alpha: number; previousTick: number; tick: number; x: number; late: boolean }> = [];
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      draw: (f) => frames.push({ alpha: f.alpha, previousTick: f.previousTick, tick: f.tick, x: f.fields.position[0]!, late: f.late }),
    });
    runtime = rt;
    expect(rt.transport).toBe('message');
    expect(rt.views).toBeNull();
    expect(rt.info).toMatchObject({ transport: 'message', crossOriginIsolated: false });
    await rt.start();
    // 60 frames, and one of them between two states (a hang guard: on a loaded machine more may be late, held)
    await waitFor('60 frames, one of them interpolated', () => frames.length >= 60 && frames.some((f) => f.tick > 0 && f.alpha > 0 && f.alpha < 1), 30_000);
    for (const f of frames) {
      if (f.tick === 0) continue;
      expect(f.tick - f.previousTick).toBe(1);
      expect(f.x).toBeCloseTo(motionAt(0, f.previousTick + f.alpha).x, 3);
    }
    expect(frames.at(-1)!.tick).toBeGreaterThan(frames[0]!.tick);
  });

  it('pauses, steps, resumes, changes scale, and serves commands', async () => {
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
    runtime = rt;
    await rt.start();
    await waitFor('ticks', () => rt.sample().tick >= 2);
    await rt.pause();
    // the worker's tick when it paused, and its state arrived (a message): nothing comes after it
    const held = (await rt.stats()).worker.tick;
    await waitFor('the paused tick to arrive', () => rt.sample().tick === held, 30_000);
    await sleep(150);
    expect(rt.sample().tick).toBe(held);
    await rt.stepOnce();
    await waitFor('the stepped tick', () => rt.sample().tick === held + 1);
    await rt.setTimeScale(2);
    await rt.stepOnce();
    await waitFor('the next tick', () => rt.sample().tick === held + 2);
    const f = rt.sample();
    expect(f.currentTime - f.previousTime).toBeCloseTo(25, 6);
    expect(await rt.commands.double(4)).toBe(8);
    await rt.resume();
    await waitFor('running again', () => rt.sample().tick >= held + 4);
  });

  it('delivers input events to their ticks, in order, none lost', async () => {
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
    runtime = rt;
    await rt.start();
    for (let i = 0; i < 100; i++) {
      expect(rt.sendInput(1, i)).toBe(true);
      if (i % 10 === 9) await sleep(5);
    }
    // the ticks take them within a few tick lengths (a hang guard: a loaded machine may run them late)
    let seen = await rt.commands.inputs();
    for (const guard = performance.now() + 30_000; seen.length < 100; seen = await rt.commands.inputs()) {
      if (performance.now() > guard) throw new Error(`timed out waiting for the inputs: ${seen.length} of 100 taken`);
      await sleep(20);
    }
    expect(seen.map((e) => e[3])).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const [, time, , , late, previousAt, at] of seen) {
      if (late) expect(time).toBeLessThanOrEqual(previousAt);
      else expect(time).toBeLessThanOrEqual(at);
    }
    expect((await rt.stats()).worker.inputRejected).toBe(0);
  });

  // issue #14 bug 3: 3,000 pushes while paused all returned true, the worker's ring dropped 1,976 and the page
  // counted none. The contract: false when it cannot be delivered, never dropped silently.
  it('refuses (false, counted) the input the worker cannot take yet, and delivers every event it accepted', async () => {
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      input: { capacity: 64 },
    });
    runtime = rt;
    // not started: no tick takes anything
    let accepted = 0;
    for (let i = 0; i < 300; i++) {
      if (rt.sendInput(1, i)) accepted++;
      if (i % 50 === 49) await sleep(5);
    }
    expect(accepted).toBeLessThanOrEqual(64);
    expect(accepted).toBeGreaterThan(0);
    await rt.start();
    // the ticks take them (a hang guard: a loaded machine may run them late)
    let stats = await rt.stats();
    for (const guard = performance.now() + 30_000; stats.worker.inputs < accepted; stats = await rt.stats()) {
      if (performance.now() > guard) throw new Error(`timed out waiting for the inputs: ${stats.worker.inputs} of ${accepted} taken`);
      await sleep(10);
    }
    expect(stats.worker.inputs).toBe(accepted);
    expect(stats.worker.inputRejected).toBe(0);
    expect(stats.inputRejected).toBe(300 - accepted);
    // taken events free the page's ring again
    await waitFor('credit back', () => rt.sendInput(2, 0), 30_000);
  });

  it('reports a fault and restarts', async () => {
    const errors: Error[] = [];
    const rt = await createRuntime({
      worker: fixtureWorker('faulty'),
      schema: motionSchema,
      capacity: 1,
      onError: (e) => errors.push(e),
      draw: () => {},
    });
    runtime = rt as never;
    await rt.start();
    await waitFor('the fault', () => errors.length === 1, 30_000);
    expect(errors[0]!.message).toMatch(/the game broke at tick 3/);
    await rt.restart('last');
    await waitFor('ticks past the fault', () => rt.sample().tick >= 6, 30_000);
  });

  it('posts live entities only: with a count that changes every tick, each state reads whole', async () => {
    // the worker copies each state's first COUNT entities into a pooled buffer (older states past that): the
    // page must read the current state's first COUNT and the previous state's first PREV_COUNT as they were
    const capacity = 512;
    const rt = await createRuntime({ worker: fixtureWorker('stress-varying'), schema: stressSchema, capacity });
    expect(rt.transport).toBe('message');
    await rt.setTickRate(1000);
    await rt.start();
    const seen = new Set<number>();
    let grew = 0;
    let shrank = 0;
    let bad: string | null = null;
    // reads on until it has seen 300 ticks (a hang guard: a loaded machine only makes it slower)
    const guard = performance.now() + 45_000;
    while (seen.size < 300 && bad === null) {
      if (performance.now() > guard) throw new Error(`timed out reading states: ${seen.size} of 300 ticks seen`);
      rt.reader.read((pair) => {
        const meta = pair.metaWords;
        const t = meta[META.CUR_TICK]!;
        const count = meta[META.COUNT]!;
        const previousCount = meta[META.PREV_COUNT]!;
        if (t > 0 && !seen.has(t)) {
          seen.add(t);
          if (count !== varyingCount(t, capacity) || previousCount !== varyingCount(t - 1, capacity)) bad = `tick ${t}: counts ${count}, ${previousCount}`;
          for (let j = 0; j < 3 * count && bad === null; j++) if (pair.current.position[j] !== t) bad = `tick ${t}: current position[${j}] = ${pair.current.position[j]}`;
          for (let j = 0; j < 4 * count && bad === null; j++) if (pair.current.rotation[j] !== t) bad = `tick ${t}: current rotation[${j}] = ${pair.current.rotation[j]}`;
          const p = t === 1 ? 0 : t - 1;
          for (let j = 0; j < 3 * previousCount && bad === null; j++) if (pair.previous.position[j] !== p) bad = `tick ${t}: previous position[${j}] = ${pair.previous.position[j]}`;
          for (let j = 0; j < 4 * previousCount && bad === null; j++) if (pair.previous.rotation[j] !== p) bad = `tick ${t}: previous rotation[${j}] = ${pair.previous.rotation[j]}`;
          if (count > previousCount) grew++;
          if (count < previousCount) shrank++;
        }
      });
      await yieldToPage(); // states arrive as messages
    }
    await rt.pause();
    expect(bad).toBeNull();
    expect(seen.size).toBeGreaterThanOrEqual(300);
    expect(grew).toBeGreaterThan(30);
    expect(shrank).toBeGreaterThan(30);
  }, 60_000);
});
