/**
 * The manual clock (ARCHITECTURE.md, "The manual clock"), across real threads: the browser fixtures in
 * `worker_threads`, time moved by hand. After each `advance` the worker has run every tick due and sleeps
 * again, so these tests assert exact tick numbers and exact counts of waits and events: nothing here depends on
 * how loaded the machine is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime, RuntimeEvents } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';
import { waitFor } from './support/worker-modules.ts';

afterEach(disposeRuntimes);

const TICK_MS = 1000 / MOTION_TICK_RATE; // 50

async function manual(options: { heartbeatTimeout?: number; fixture?: 'motion' | 'faulty'; onError?: (error: Error) => void } = {}): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock }> {
  return onManualClock({
    capacity: 4,
    ...(options.fixture === undefined ? {} : { fixture: options.fixture }),
    ...(options.heartbeatTimeout === undefined ? {} : { heartbeatTimeout: options.heartbeatTimeout }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
}

describe('the manual clock', () => {
  it('runs exactly the ticks due by each move, and none before', async () => {
    const { rt, clock } = await manual();
    await rt.start();
    // tick 0 stands at the start; nothing is due until the clock passes it
    expect(rt.sample().tick).toBe(0);
    await clock.advance(0);
    expect(rt.sample().tick).toBe(0);
    for (let step = 1; step <= 40; step++) {
      await clock.advance(TICK_MS);
      // with no frames the newest state keeps to now: tick `step` stands at START + 50 * step
      const f = rt.sample();
      expect(f.tick).toBe(step);
      expect(f.currentTime).toBe(START + step * TICK_MS);
      expect(f.fields.position[0]).toBe(motionAt(0, step).x);
    }
    const stats = await rt.stats();
    expect(stats.worker.overloads).toBe(0);
    expect(stats.worker.simSeconds).toBeCloseTo(40 * TICK_MS / 1000, 12);
  });

  it('a jump longer than the catch-up allows is caught up or dropped, never lost: simulated + dropped = elapsed', async () => {
    const { rt, clock } = await manual();
    await rt.start();
    await clock.advance(10_000);
    const { worker } = await rt.stats();
    expect(worker.overloads).toBeGreaterThan(0);
    const simulated = worker.simSeconds * 1000;
    // the newest state reaches now, by less than a tick past it
    expect(simulated + worker.droppedMs).toBeGreaterThanOrEqual(10_000);
    expect(simulated + worker.droppedMs).toBeLessThan(10_000 + TICK_MS);
    // ... and what the policy kept was caught up, in ticks of the game's dt
    expect(worker.tick * TICK_MS).toBeCloseTo(simulated, 9);
  });

  it('pause holds the tick whatever time passes; resume goes on from it without a burst', async () => {
    const { rt, clock } = await manual();
    await rt.start();
    await clock.advance(5 * TICK_MS);
    await rt.pause();
    await clock.advance(60_000);
    expect(rt.sample().tick).toBe(5);
    await rt.resume();
    await clock.advance(2 * TICK_MS);
    const { worker } = await rt.stats();
    expect(worker.tick).toBe(7);
    expect(worker.overloads).toBe(0);
  });

  it('a frame that comes a refresh later than announced rings the worker and waits: drawn from its own pair', async () => {
    const { rt, clock } = await manual();
    await rt.setTickRate(120);
    await rt.start();
    // a steady 60 Hz: each frame announces the next a refresh later, and the worker simulates just past it
    for (let i = 0; i < 30; i++) {
      await clock.advance(1000 / 60);
      clock.animationFrame(() => rt.frame());
    }
    const before = (await rt.stats()).frameClock;
    expect(before.waits).toBe(0);
    // a stall: a vsync passes without a callback, and the next comes a refresh later than announced
    await clock.advance(2000 / 60);
    let late = true;
    clock.animationFrame(() => {
      const f = rt.frame()!;
      late = f.late;
      expect(f.time).toBe(clock.now());
      expect(f.currentTime).toBeGreaterThanOrEqual(f.time);
    });
    expect(late).toBe(false);
    const after = (await rt.stats()).frameClock;
    // it waited (here, the manual clock's settle: no time passes), and the wait reached the worker's states
    expect(after.waits - before.waits).toBe(1);
    expect(after.timeouts).toBe(0);
    expect(after.unannounced - before.unannounced).toBe(1);
  });
});

describe('the watch over the worker, with or without frames', () => {
  it('a step that throws is reported although no frame runs (onError, the fault event)', async () => {
    const errors: Error[] = [];
    const { rt, clock } = await manual({ fixture: 'faulty', onError: (error) => errors.push(error) });
    const faults: Error[] = [];
    rt.on('fault', (error) => faults.push(error));
    await rt.start();
    // the faulty fixture throws at tick 3 (100 Hz ticks); no frame is ever drawn, so the page's watch on the
    // clock's timers looks (every IDLE_WATCH_MS, 250)
    for (let i = 0; i < 30; i++) await clock.advance(10);
    await waitFor('the fault to reach the page', () => faults.length > 0);
    expect(faults[0]!.message).toMatch(/the simulation's step threw: the game broke at tick 3/);
    expect(errors).toEqual(faults);
    expect((await rt.stats()).worker.status).toBe('faulted');
  });

  it('a worker that stops beating is unresponsive after heartbeatTimeout of the clock, frames or not; responsive again', async () => {
    const { rt, clock } = await manual({ heartbeatTimeout: 1000 });
    const events: Array<[keyof RuntimeEvents, number]> = [];
    rt.on('unresponsive', (e) => events.push(['unresponsive', e.silentMs]));
    rt.on('responsive', (e) => events.push(['responsive', e.silentMs]));
    await rt.start();
    // beating: time passes, no event
    for (let i = 0; i < 20; i++) await clock.advance(250);
    expect(events).toEqual([]);
    // the worker's heartbeat timer and loop stop (what a hung step or a dead worker looks like from the page)
    await rt.remote.detach();
    for (let i = 0; i < 6; i++) await clock.advance(250);
    expect(events.map(([type]) => type)).toEqual(['unresponsive']);
    expect(events[0]![1]).toBeGreaterThan(1000);
    expect(events[0]![1]).toBeLessThanOrEqual(1250);
    // a beat again (a tick): responsive
    await rt.stepOnce().catch(() => {});
    await rt.pause();
    await rt.stepOnce();
    await clock.advance(250);
    expect(events.map(([type]) => type)).toEqual(['unresponsive', 'responsive']);
  });
});
