/**
 * Timing behaviour with a real worker on the real clock: input to the right tick, hidden tabs, render delay, the
 * render interval. What is asserted holds whatever the machine's load: orders, counts, and bounds that load can
 * only make easier. The exact timings (the ticks after a hidden spell, the interval's growth and recovery) are
 * proven on a manual clock in `test/node/hidden.test.ts` and `test/node/pacing.test.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, manualVisibility, type Runtime } from 'steadyframe';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { MOTION_TICK_RATE, motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, sleep, waitFor } from './helpers.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => runtime?.dispose());

describe('timing with a real worker', () => {
  it('hands every input event to the tick it falls in, once, in order; late ones to the next tick, flagged', async () => {
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({ worker: fixtureWorker('motion'), schema: motionSchema, capacity: 4 });
    runtime = rt;
    await rt.start();
    const SENT = 300;
    for (let i = 0; i < SENT; i++) {
      expect(rt.sendInput(1 + (i % 2), i)).toBe(true); // presses and releases, many inside one 50 ms tick
      if (i % 10 === 9) await sleep(5);
    }
    await waitFor('every event to be taken', () => rt.input!.space() === rt.input!.layout.capacity);
    const seen = await rt.commands.inputs();
    expect(seen.map((e) => e[3])).toEqual(Array.from({ length: SENT }, (_, i) => i)); // all, once, in order
    let late = 0;
    for (const [, time, code, payload, isLate, previousAt, at] of seen) {
      expect(code).toBe(1 + (payload % 2));
      if (isLate) {
        late++;
        expect(time).toBeLessThanOrEqual(previousAt); // it belonged to an earlier tick, already made
      } else {
        expect(time).toBeGreaterThan(previousAt);
        expect(time).toBeLessThanOrEqual(at);
      }
    }
    // ticks that share events: presses and releases inside one tick both arrive
    const perTick = new Map<number, number>();
    for (const [tick] of seen) perTick.set(tick, (perTick.get(tick) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBeGreaterThan(1);
    const stats = await rt.stats();
    expect(stats.worker).toMatchObject({ inputs: SENT, lateInputs: late });
    expect(stats.inputRejected).toBe(0);
  });

  it('sleeps while the page is hidden and comes back without a catch-up burst', async () => {
    const visibility = manualVisibility(false);
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      visibility,
    });
    runtime = rt;
    const hiddenEvents: boolean[] = [];
    rt.on('visibility', (e) => hiddenEvents.push(e.hidden));
    await rt.start();
    await waitFor('ticks', () => rt.sample().tick >= 2);
    visibility.set(true);
    // the worker has it once it answers a call sent after it (comlink keeps their order): its loop has ended,
    // and nothing it publishes after that
    const hidden = await rt.stats();
    expect(hidden.worker.hidden).toBe(true);
    const publishes = rt.reader.publishCount();
    await sleep(20 * (1000 / MOTION_TICK_RATE)); // twenty ticks' worth hidden
    expect(rt.reader.publishCount()).toBe(publishes); // no CPU spent ticking while hidden
    const held = await rt.stats();
    expect(held.worker).toMatchObject({ hidden: true, tick: hidden.worker.tick, simSeconds: hidden.worker.simSeconds });
    const shownAt = rt.now();
    visibility.set(false);
    await waitFor('ticking again', () => rt.sample().tick >= held.worker.tick + 3, 30_000);
    const after = await rt.stats();
    const elapsed = rt.now() - shownAt;
    // no burst: the time simulated since the page showed is at most the time that passed since, and the lead
    // (two ticks) past it; a catch-up of the hidden time would be twenty ticks more. (A loaded machine only
    // simulates less: the exact ticks are test/node/hidden.test.ts's.)
    const simulated = (after.worker.simSeconds - held.worker.simSeconds) * 1000;
    expect(simulated).toBeLessThanOrEqual(elapsed + 3 * (1000 / MOTION_TICK_RATE));
    expect(after.worker.hiddenMs).toBeGreaterThan(0);
    expect(hiddenEvents).toEqual([true, false]);
  });

  it('draws smoothly a tick in the past with a render delay, and can switch modes live', async () => {
    const frames: Array<{ alpha: number; tick: number; previousTick: number; x: number; time: number; fresh: boolean }> = [];
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      interpolation: { renderDelay: 1 },
      draw: (f) => frames.push({ alpha: f.alpha, tick: f.tick, previousTick: f.previousTick, x: f.fields.position[0]!, time: f.time, fresh: f.fresh }),
    });
    runtime = rt;
    await rt.start();
    await waitFor('40 frames', () => frames.length >= 40);
    const later = frames.slice(10);
    for (const f of later) {
      // x = tick number, blended: the shown x is the fractional tick
      expect(f.x).toBeCloseTo(f.previousTick + f.alpha * (f.tick - f.previousTick), 3);
    }
    // shown about a tick behind the frame's own time
    expect(rt.interpolation.renderDelay).toBe(1);
    rt.setInterpolation({ mode: 'latest' });
    const count = frames.length;
    // (a frame whose lock acquire gave up is the last good frame again: one sampled in latest mode)
    await waitFor('frames in latest mode', () => frames.slice(count).filter((f) => f.fresh).length >= 5);
    expect(frames.findLast((f) => f.fresh)!.alpha).toBe(1);
    expect(() => rt.setInterpolation({ renderDelay: 5 })).toThrow(/renderDelay/);
  });

  it('grows the render interval when frames overrun it, and says so', async () => {
    const changes: Array<{ reason: string; toMultiple: number }> = [];
    let drawn = 0;
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      draw: () => {
        drawn++;
        // a frame that costs 30 ms: more than one refresh at 60 Hz
        const until = performance.now() + 30;
        while (performance.now() < until);
      },
    });
    runtime = rt;
    rt.on('interval', (change) => changes.push({ reason: change.reason, toMultiple: change.toMultiple }));
    await rt.start();
    // every frame costs 30 ms, more than the first interval (a refresh) can hold, whatever the machine's load;
    // the growth and the recovery, exact: test/node/pacing.test.ts
    await waitFor('an overrun', () => changes.some((c) => c.reason === 'overrun'), 30_000);
    const stats = await rt.stats();
    expect(stats.pacing.multiple).toBeGreaterThanOrEqual(2);
    expect(stats.pacing.grows).toBeGreaterThanOrEqual(1);
    expect(changes.find((c) => c.reason === 'overrun')!.toMultiple).toBeGreaterThanOrEqual(2);
    expect(drawn).toBeGreaterThan(0);
  });
});
