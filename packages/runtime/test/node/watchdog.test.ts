/**
 * The page's watch over the worker's heartbeat (ARCHITECTURE.md, "Faults"), on a manual clock: what
 * `test/browser/reliability.test.ts` guards with real workers dying on the real clock, exact. A silence on
 * HEARTBEAT longer than `heartbeatTimeout` is `unresponsive` (once, with how long it lasted), a beat after it
 * `responsive`; a shorter one is nothing; the page looks each frame, or every IDLE_WATCH_MS when no frame runs.
 * A worker that died holding the lock costs frames no more spins once it is unresponsive; a worker that keeps
 * beating through an overload is never unresponsive.
 *
 * The worker's silence is made exactly: it is paused and detached (its heartbeat timer and loop stop), and
 * each `stepOnce` is one beat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import { I32, LOCK } from '../../src/core/layout.ts';
import { IDLE_WATCH_MS } from '../../src/main/frame-loop.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { REFRESH } from './support/display.ts';
import { disposeRuntimes, onManualClock } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);


async function watched(heartbeatTimeout: number): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock; events: Array<[string, number]> }> {
  const { rt, clock } = await onManualClock({ capacity: 4, heartbeatTimeout });
  const events: Array<[string, number]> = [];
  rt.on('unresponsive', (e) => events.push(['unresponsive', e.silentMs]));
  rt.on('responsive', (e) => events.push(['responsive', e.silentMs]));
  await rt.start();
  return { rt, clock, events };
}

type Observer = 'frames' | 'idle';

/** Lets `ms` pass as the observer does: animation frames at 60 Hz each drawing a frame, or none (the idle watch). */
async function pass(rt: Runtime<typeof motionSchema>, clock: ManualClock, observer: Observer, ms: number): Promise<void> {
  const step = observer === 'frames' ? REFRESH : 50;
  for (let t = 0; t + step <= ms + 1e-9; t += step) {
    await clock.advance(step);
    if (observer === 'frames') clock.animationFrame(() => rt.frame());
  }
}

describe('heartbeat silence against heartbeatTimeout', () => {
  // how late, at most, the page notices: a frame's refresh, or the idle watch's period
  const interval = { frames: REFRESH, idle: IDLE_WATCH_MS } as const;
  const rows = ([500, 1000, 2000] as const).flatMap((timeout) =>
    (['frames', 'idle'] as const).flatMap((observer) => [
      [timeout, observer, timeout - interval[observer] - 50] as const,
      // the page saw the last beat up to a look after it, and looks again up to a look after the timeout
      [timeout, observer, timeout + 2 * interval[observer] + 50] as const,
      [timeout, observer, 3 * timeout] as const,
    ]),
  );
  it.each(rows)('timeout %i ms, %s: a silence of %i ms', async (timeout, observer, silence) => {
    const { rt, clock, events } = await watched(timeout);
    await pass(rt, clock, observer, 1000);
    expect(events).toEqual([]);
    // the worker stops beating: held, its heartbeat timer and loop gone; one last beat, seen at once
    await rt.pause();
    await rt.remote.detach();
    await rt.stepOnce();
    await pass(rt, clock, observer, interval[observer]);
    await pass(rt, clock, observer, silence - interval[observer]);
    const during = [...events];
    // a beat again
    await rt.stepOnce();
    await pass(rt, clock, observer, interval[observer]);
    if (silence < timeout) {
      expect(events).toEqual([]);
      return;
    }
    // once, past the timeout by at most the time between two looks; then its end, over the whole silence
    expect(during.map(([type]) => type)).toEqual(['unresponsive']);
    expect(during[0]![1]).toBeGreaterThan(timeout);
    expect(during[0]![1]).toBeLessThanOrEqual(timeout + interval[observer] + 1e-6);
    expect(events.map(([type]) => type)).toEqual(['unresponsive', 'responsive']);
    expect(events[1]![1]).toBeGreaterThanOrEqual(silence - interval[observer]);
    expect(events[1]![1]).toBeLessThanOrEqual(silence + 2 * interval[observer] + 1e-6);
  });
});

describe('a worker that died holding the lock', () => {
  it('costs frames a bounded spin each until it is unresponsive, then none: frames go on with the last good state', async () => {
    const { rt, clock, events } = await watched(400);
    await pass(rt, clock, 'frames', 500);
    const good = rt.frameTime;
    // as if it died in the middle of a flip: its loop and beat stop, and the lock is the writer's forever
    await rt.remote.detach();
    Atomics.store(rt.views!.i32, I32.LOCK, LOCK.WRITER);
    const misses: number[] = [];
    const fresh: boolean[] = [];
    for (let k = 0; k < 60; k++) {
      await clock.advance(REFRESH);
      clock.animationFrame(() => {
        const f = rt.frame()!;
        fresh.push(f.fresh);
      });
      misses.push(rt.reader.stats.misses);
    }
    // misses every frame (each acquire gave up after maxSpins: the frame's, and its catch-up's look at the
    // front slot) until the silence passed 400 ms, then none at all
    const at = Math.floor(400 / REFRESH);
    expect(events.map(([type]) => type)).toEqual(['unresponsive']);
    for (let k = 1; k < at - 1; k++) expect(misses[k]!).toBeGreaterThan(misses[k - 1]!);
    expect(misses.at(-1)).toBe(misses[at + 2]);
    // every frame after the death repeats the last good one
    expect(fresh.every((f) => !f)).toBe(true);
    expect(rt.frameTime).toBeGreaterThan(good);
  });
});

describe('a worker that keeps beating', () => {
  it('through an overload (each move past its catch-up, ticks dropped) is never unresponsive', async () => {
    const { rt, clock, events } = await watched(500);
    // moves of 700 ms, longer than the timeout and than what the worker catches up (a quarter second): it
    // drops backlog on each, and beats on each; the page looks once per move (the idle watch)
    for (let k = 0; k < 20; k++) await clock.advance(700);
    const { worker } = await rt.stats();
    expect(worker.overloads).toBeGreaterThan(0);
    expect(events).toEqual([]);
  });

  it('while idle or paused is never unresponsive: the heartbeat timer beats without ticks', async () => {
    const { rt, clock, events } = await watched(500);
    await rt.pause();
    await pass(rt, clock, 'idle', 5000);
    await rt.stop();
    await pass(rt, clock, 'frames', 2000);
    expect(events).toEqual([]);
  });
});
