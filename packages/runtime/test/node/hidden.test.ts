/**
 * A hidden page on a manual clock (ARCHITECTURE.md, "The loop", hidden tabs): what the hidden-tab bound of
 * `test/browser/timing.test.ts` guards, exact. With `whenHidden: 'pause'` (the motion fixture's default) the
 * worker's loop ends while the page is hidden: no tick, no publish, no sleep however long it lasts; shown again,
 * it re-pins from now and goes on at its rate, with no catch-up burst for the hidden time, which it counts in
 * `hiddenMs`. Frames made while hidden (a game's own timer loop) do not wait for the sleeping worker, and the
 * watch over the worker raises nothing.
 *
 * The runtime is the one `createNodeRuntime` makes (the composition root on the manual clock's page host), here
 * given a visibility hook the test drives, as `createRuntime` is on a page.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualVisibility, type Runtime } from 'steadyframe';
import { createManualClock, type ManualClock } from 'steadyframe/node';
import { composeRuntime } from '../../src/compose/runtime.ts';
import { nodePageHost } from '../../src/node/page-host.ts';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { REFRESH } from './support/display.ts';
import { nodeFixture } from './support/worker-modules.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const START = 1000;
const TICK_MS = 1000 / MOTION_TICK_RATE; // 50

async function withVisibility(): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock; visibility: ReturnType<typeof manualVisibility>; events: string[] }> {
  const clock = createManualClock(START);
  const visibility = manualVisibility(false);
  const rt = (runtime = await composeRuntime<typeof motionSchema, MotionCommands>(
    nodePageHost(clock),
    { worker: await nodeFixture('motion'), schema: motionSchema, capacity: 4, visibility, heartbeatTimeout: 1000 },
    { clock: clock.config },
  ));
  const events: string[] = [];
  rt.on('visibility', ({ hidden }) => events.push(hidden ? 'hidden' : 'shown'));
  rt.on('unresponsive', () => events.push('unresponsive'));
  await rt.start();
  return { rt, clock, visibility, events };
}

/** Lets `ms` pass, with a game's timer loop drawing a frame every 60th of a second, or without frames. */
async function pass(rt: Runtime<typeof motionSchema>, clock: ManualClock, ms: number, frames: boolean): Promise<void> {
  const step = frames ? REFRESH : Math.min(250, ms);
  for (let t = 0; t + step <= ms + 1e-9; t += step) {
    await clock.advance(step);
    if (frames) rt.frame();
  }
}

describe("hidden with whenHidden: 'pause'", () => {
  const rows = [500, 10_000, 60_000].flatMap((hiddenMs) => [[hiddenMs, false] as const, [hiddenMs, true] as const]);
  it.each(rows)('hidden for %i ms (frames while hidden: %s): no tick while hidden, none caught up after', async (hiddenMs, frames) => {
    const { rt, clock, visibility, events } = await withVisibility();
    await clock.advance(10 * TICK_MS);
    expect(rt.sample().tick).toBe(10);

    visibility.set(true);
    const hiddenAt = clock.now();
    // the worker has it once a call sent after it is answered (comlink keeps their order)
    expect((await rt.stats()).worker.hidden).toBe(true);
    const publishes = rt.reader.publishCount();
    const { sleeps } = (await rt.stats()).worker;
    const clockBefore = (await rt.stats()).frameClock;
    await pass(rt, clock, hiddenMs, frames);
    const hidden = await rt.stats();
    // no tick, no publish, no sleep (the loop ended): nothing runs while hidden
    expect(rt.reader.publishCount()).toBe(publishes);
    expect(hidden.worker.tick).toBe(10);
    expect(hidden.worker.sleeps).toBe(sleeps);
    expect(hidden.worker.hiddenMs).toBe(clock.now() - hiddenAt);
    // frames made while hidden draw the held state and do not wait for a worker that makes none
    expect(hidden.frameClock.waits).toBe(clockBefore.waits);
    expect(hidden.frameClock.timeouts).toBe(clockBefore.timeouts);
    if (frames) expect(hidden.sampling.late).toBeGreaterThan(0);

    visibility.set(false);
    const shownAt = clock.now();
    await clock.settle();
    const shown = await rt.stats();
    expect(shown.worker.hidden).toBe(false);
    expect(shown.worker.hiddenMs).toBe(shownAt - hiddenAt);
    // the held tick is shown from now: nothing of the hidden time is caught up. (A game drawing while hidden
    // announced its next frame, a refresh from now: the worker runs the one tick just past it at once.)
    const ahead = frames ? 1 : 0;
    expect(shown.worker.tick).toBe(10 + ahead);
    const atShow = rt.sample(shownAt);
    expect(atShow.tick === 10 ? atShow.currentTime : atShow.previousTime).toBe(shownAt);
    // and it goes on at its rate from there: exactly the ticks due since it was shown (and, with frames, the
    // one just past the next frame)
    for (let k = 1; k <= 8; k++) {
      await pass(rt, clock, TICK_MS, frames);
      await clock.settle(); // the worker has run to the frame the last one announced
      const f = rt.sample(Number.POSITIVE_INFINITY); // the newest state, held
      expect(f.tick).toBe(10 + k + ahead);
      expect(f.currentTime).toBe(shownAt + (k + ahead) * TICK_MS);
      expect(f.fields.position[0]).toBe(motionAt(0, f.tick).x);
    }
    const after = await rt.stats();
    expect(after.worker).toMatchObject({ overloads: 0, droppedMs: 0, hiddenMs: shownAt - hiddenAt });
    expect(after.worker.simSeconds * 1000).toBeCloseTo((18 + ahead) * TICK_MS, 9);
    // the heartbeat timer beats on while the loop sleeps: a hidden page is no silence
    expect(events).toEqual(['hidden', 'shown']);
  });

  it('hidden and shown again within a tick: the tick due is not skipped, and none is run twice', async () => {
    const { rt, clock, visibility } = await withVisibility();
    await clock.advance(3 * TICK_MS);
    visibility.set(true);
    await rt.stats();
    await clock.advance(10);
    visibility.set(false);
    await rt.stats();
    await clock.advance(TICK_MS);
    expect(rt.sample().tick).toBe(4);
    const { worker } = await rt.stats();
    expect(worker.hiddenMs).toBe(10);
    expect(worker.publishes).toBe(1 + 4); // tick 0 at attach, then one publish per tick
  });
});
