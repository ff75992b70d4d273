/** Timing behaviour with a real worker on the real clock: input to the right tick, hidden tabs, render delay. */
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
    expect((await rt.stats()).worker.hidden).toBe(true);
    await sleep(1000 / MOTION_TICK_RATE); // a tick made just before may still be published
    const publishes = rt.reader.publishCount();
    await sleep(10 * (1000 / MOTION_TICK_RATE)); // ten ticks' worth hidden
    expect(rt.reader.publishCount()).toBe(publishes); // no CPU spent ticking while hidden
    expect((await rt.stats()).worker.hidden).toBe(true);
    const tickBefore = rt.sample().tick;
    const shownAt = performance.now();
    visibility.set(false);
    await sleep(20);
    // back: at most the tick that is due now and the one just past it, not the ten that were skipped (and those
    // due since, if this thread's timer came late on a loaded machine)
    const since = Math.floor((performance.now() - shownAt) / (1000 / MOTION_TICK_RATE));
    expect(rt.sample().tick - tickBefore).toBeLessThanOrEqual(2 + since);
    const stats = await rt.stats();
    expect(stats.worker.hiddenMs).toBeGreaterThan(0);
    expect(stats.worker.overloads).toBe(0);
    expect(hiddenEvents).toEqual([true, false]);
    await waitFor('ticking again', () => rt.sample().tick >= tickBefore + 3);
  });

  it('draws smoothly a tick in the past with a render delay, and can switch modes live', async () => {
    const frames: Array<{ alpha: number; tick: number; previousTick: number; x: number; time: number }> = [];
    const rt = await createRuntime<typeof motionSchema, MotionCommands>({
      worker: fixtureWorker('motion'),
      schema: motionSchema,
      capacity: 4,
      interpolation: { renderDelay: 1 },
      draw: (f) => frames.push({ alpha: f.alpha, tick: f.tick, previousTick: f.previousTick, x: f.fields.position[0]!, time: f.time }),
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
    await waitFor('frames in latest mode', () => frames.length >= count + 5);
    expect(frames.at(-1)!.alpha).toBe(1);
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
    await waitFor('an overrun', () => changes.some((c) => c.reason === 'overrun'));
    const stats = await rt.stats();
    expect(stats.pacing.multiple).toBeGreaterThanOrEqual(2);
    expect(stats.pacing.grows).toBeGreaterThanOrEqual(1);
    expect(changes.find((c) => c.reason === 'overrun')!.toMultiple).toBeGreaterThanOrEqual(2);
    expect(drawn).toBeGreaterThan(0);
  });
});
