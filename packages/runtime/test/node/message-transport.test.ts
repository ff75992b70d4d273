/**
 * The message transport (no SharedArrayBuffer on the page: ARCHITECTURE.md, "Without cross-origin isolation")
 * through the runtime, on a manual clock: what `test/browser-plain/fallback.test.ts` guards with deadline loops,
 * without a wall clock. The worker's states come as messages; after each move of the clock the test waits (a hang
 * guard, not a timing) until every state the worker published has arrived, then asserts exact ticks: a pause
 * holds however long, stepOnce makes one tick, a new time scale halves the tick length, frames interpolate
 * between the pair that arrived. Input events travel as messages too, which the clock does not wait for: every
 * one goes to a tick made after it was sent, once, in order, flagged late exactly when it belonged to a tick
 * already made; the page refuses (false, counted) what the worker cannot take yet, and takes events again once
 * the worker's ticks have.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { disposeRuntimes, onManualClock } from './support/manual-runtime.ts';
import { waitFor } from './support/worker-modules.ts';

afterEach(disposeRuntimes);

const TICK_MS = 1000 / MOTION_TICK_RATE; // 50

async function overMessages(input?: { capacity: number }): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock; move: (ms: number) => Promise<void> }> {
  const { rt, clock } = await onManualClock({ capacity: 4, transport: 'message', ...(input === undefined ? {} : { input }) });
  expect(rt.transport).toBe('message');
  expect(rt.views).toBeNull();
  /** Moves the clock and waits until every state the worker published since has arrived as a message. */
  const move = async (ms: number) => {
    await clock.advance(ms);
    await arrived(rt);
  };
  return { rt, clock, move };
}

/** Waits (a hang guard) until the page holds the worker's newest publish. */
async function arrived(rt: Runtime<typeof motionSchema, MotionCommands>): Promise<void> {
  const { publishes } = (await rt.stats()).worker;
  await waitFor(`publish ${publishes} to arrive`, () => rt.reader.publishCount() === publishes);
}

describe('the message transport on a manual clock', () => {
  it('interpolates between the pair that arrived: every frame at its time, blended from consecutive ticks', async () => {
    const { rt, clock, move } = await overMessages();
    await rt.start();
    for (let k = 0; k < 60; k++) {
      await move(TICK_MS / 3);
      // the frame announces itself: the worker runs just past it (a message, like the states)
      const f = rt.frameAt(clock.now(), clock.now() + TICK_MS / 3);
      expect(f.late).toBe(false);
      if (f.tick === 0) continue;
      expect(f.tick - f.previousTick).toBe(1);
      expect(f.previousTime).toBeLessThanOrEqual(f.time);
      expect(f.currentTime).toBeGreaterThanOrEqual(f.time);
      expect(f.fields.position[0]).toBeCloseTo(motionAt(0, f.previousTick + f.alpha).x, 3);
    }
    expect(rt.sample().tick).toBeGreaterThanOrEqual(19);
  });

  it('pause holds the tick however long; stepOnce makes one; a new time scale halves the tick length; resume goes on', async () => {
    const { rt, move } = await overMessages();
    await rt.start();
    await move(4 * TICK_MS);
    await rt.pause();
    await arrived(rt);
    const held = rt.sample().tick;
    expect(held).toBe(4);
    await move(60_000);
    expect(rt.sample().tick).toBe(held);
    await rt.stepOnce();
    await arrived(rt);
    expect(rt.sample().tick).toBe(held + 1);
    await rt.setTimeScale(2);
    await rt.stepOnce();
    await arrived(rt);
    const f = rt.sample();
    expect(f.tick).toBe(held + 2);
    expect(f.currentTime - f.previousTime).toBeCloseTo(TICK_MS / 2, 9);
    expect(await rt.commands.double(4)).toBe(8);
    // resumed where the picture is: the stepped tick is a (new) tick length ahead of now, so two more lengths
    // bring one tick more than that
    await rt.resume();
    await move(2 * (TICK_MS / 2));
    expect(rt.sample().tick).toBe(held + 3);
    expect((await rt.stats()).worker.overloads).toBe(0);
  });

  it('hands every input event to a tick made after it was sent, once, in order; one stamped at or before a tick already made flagged late', async () => {
    const { rt, move } = await overMessages();
    await rt.start();
    const SENT = 100;
    /** The newest tick the page holds when each event is sent: the event goes to a later one. */
    const newestAtSend: number[] = [];
    for (let i = 0; i < SENT; i++) {
      newestAtSend.push(rt.sample(Number.POSITIVE_INFINITY).tick);
      expect(rt.sendInput(1 + (i % 2), i)).toBe(true);
      // four events a tick, at a quarter of a tick apart: presses and releases inside one tick both arrive
      await move(TICK_MS / 4);
    }
    await move(2 * TICK_MS);
    const seen = await rt.commands.inputs();
    expect(seen.map((e) => e[3])).toEqual(Array.from({ length: SENT }, (_, i) => i));
    let late = 0;
    for (const [tick, time, code, payload, isLate, previousAt, at] of seen) {
      expect(code).toBe(1 + (payload % 2));
      expect(tick).toBeGreaterThan(newestAtSend[payload]!);
      // late exactly when it belonged to a tick already made (the worker runs at or ahead of the clock)
      expect(isLate).toBe(time <= previousAt);
      if (isLate) late++;
      else expect(time).toBeLessThanOrEqual(at);
    }
    const perTick = new Map<number, number>();
    for (const [tick] of seen) perTick.set(tick, (perTick.get(tick) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBeGreaterThan(1);
    const stats = await rt.stats();
    expect(stats.worker).toMatchObject({ inputs: SENT, lateInputs: late, inputRejected: 0 });
    expect(stats.inputRejected).toBe(0);
  });

  it('refuses (false, counted) the input the worker cannot take yet, delivers every event it accepted, and takes more once they are read', async () => {
    const { rt, move } = await overMessages({ capacity: 64 });
    // not started: no tick takes anything
    let accepted = 0;
    for (let i = 0; i < 300; i++) if (rt.sendInput(1, i)) accepted++;
    expect(accepted).toBe(64);
    expect((await rt.stats()).inputRejected).toBe(300 - 64);
    expect(rt.sendInput(1, 300)).toBe(false);
    await rt.start();
    // the batch reaches the worker as a message: ticks take it once it has
    for (let k = 0; k < 100 && (await rt.stats()).worker.inputs < 64; k++) await move(TICK_MS);
    const stats = await rt.stats();
    expect(stats.worker.inputs).toBe(64);
    expect(stats.worker.inputRejected).toBe(0);
    expect((await rt.commands.inputs()).map((e) => e[3])).toEqual(Array.from({ length: 64 }, (_, i) => i));
    // the worker's ticks took them, and the page heard (with the next state): the ring takes events again
    expect(rt.sendInput(2, 0)).toBe(true);
  });
});
