/**
 * The README's PixiJS loop (`attachToTicker`, default pacing) after main-thread stalls, on a manual clock: what
 * `test/browser/ticker-stall.test.ts` guards with a real Application and real rAF, exact. Pixi's own Ticker is
 * stepped by hand, one `ticker.update(ts)` per animation frame; a game listener (run before the frame, at a
 * higher priority) stalls the page 40 ms on every other tick, so the callback after a stalled one comes a
 * refresh or more later than the pacer announced to the worker (two vsyncs pass during the stall). Every frame is
 * drawn at the ticker's frame time, from the pair around it, never late: each frame that came later than
 * announced rang the worker and waited, and every wait reached its states.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Frame, Runtime } from 'steadyframe';
import { createNodeRuntime } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import { motionAt, motionSchema } from '../browser/fixtures/schema.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { WorkClock } from '../../../runtime/test/node/support/work-clock.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const START = 1000;
const R = 1000 / 60;
const STALL_MS = 40;
const TICKS = 200;

/** pixi.js reads `navigator` when its modules load; Node 20 has none. */
async function loadPixi() {
  (globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };
  const [pixi, adapter] = await Promise.all([import('pixi.js'), import('@steadyframe/pixi')]);
  return { Ticker: pixi.Ticker, UPDATE_PRIORITY: pixi.UPDATE_PRIORITY, attachToTicker: adapter.attachToTicker };
}

it('draws every frame at the ticker frame time, never stale, after stalls in a ticker listener', async () => {
  const { Ticker, UPDATE_PRIORITY, attachToTicker } = await loadPixi();
  const clock = new WorkClock(START);
  const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({
    worker: await buildWorkerModule(fileURLToPath(new URL('../browser/fixtures/motion.worker.ts', import.meta.url))),
    schema: motionSchema,
    capacity: 8,
    clock,
  }));
  await rt.setTickRate(120);
  await rt.start();
  const ticker = new Ticker();
  ticker.autoStart = false;
  let renders = 0;
  const app = { ticker, render: () => void renders++ };
  let ticks = 0;
  // the game's own listener, before the frame (a higher priority runs first): a stall every other tick
  ticker.add(
    () => {
      ticks++;
      if (ticks > 10 && ticks % 2 === 0) clock.work(STALL_MS);
    },
    undefined,
    UPDATE_PRIORITY.INTERACTION,
  );
  let vsync = 0;
  const drawn: Array<{ vsync: number; timestamp: number; frame: Pick<Frame<typeof motionSchema>, 'time' | 'late' | 'fresh' | 'previousTime' | 'currentTime' | 'previousTick' | 'tick' | 'alpha'>; x: number }> = [];
  const loop = attachToTicker(app, rt, (frame, time) => {
    const { late, fresh, previousTime, currentTime, previousTick, tick, alpha } = frame;
    drawn.push({ vsync, timestamp: time, frame: { time: frame.time, late, fresh, previousTime, currentTime, previousTick, tick, alpha }, x: frame.fields.position[0]! });
  });
  let callbacks = 0;
  for (let k = 1; callbacks < TICKS; k++) {
    vsync = START + k * R;
    // vsyncs that passed during a stall bring no callback: the next one after it does
    if (vsync < clock.now()) continue;
    await clock.advanceTo(vsync);
    clock.animationFrame(() => ticker.update(vsync), vsync);
    await Promise.resolve(); // the frame's task ends
    callbacks++;
  }
  loop.detach();
  const { frameClock, sampling, pacing } = await rt.stats();
  // every callback drew (the frames cost nothing here: the interval stays a refresh), and rendered once
  expect(drawn).toHaveLength(TICKS);
  expect(renders).toBe(TICKS);
  expect(loop.rendered).toBe(TICKS);
  expect(pacing.multiple).toBe(1);
  for (const d of drawn) {
    // each frame is the world at the ticker's frame time (the vsync rAF handed it), from the pair around it,
    // blended right
    expect(d.timestamp).toBe(d.vsync);
    expect(d.frame.time).toBe(d.vsync);
    expect(d.frame).toMatchObject({ late: false, fresh: true });
    expect(d.frame.previousTime).toBeLessThanOrEqual(d.frame.time);
    expect(d.frame.currentTime).toBeGreaterThanOrEqual(d.frame.time);
    expect(d.x).toBeCloseTo(motionAt(0, d.frame.previousTick + d.frame.alpha * (d.frame.tick - d.frame.previousTick)).x, 3);
  }
  // the callbacks after the stalled ones (half of those from the 11th on, but the first) came a refresh or more
  // later than announced; each rang the worker and waited, and none gave up
  const afterStall = (TICKS - 10) / 2 - 1;
  expect(frameClock.unannounced).toBe(afterStall);
  expect(frameClock.waits).toBe(afterStall);
  expect({ timeouts: frameClock.timeouts, unwaited: frameClock.unwaited, unheld: frameClock.unheld }).toEqual({ timeouts: 0, unwaited: 0, unheld: 0 });
  expect(sampling.late).toBe(0);
});
