/**
 * The README's PixiJS loop (`attachToTicker`, default pacing) on a running Application, with a game listener
 * that stalls the main thread 40 ms before the frame on every other tick: no frame is drawn from a state older
 * than its own time. The callback after a stalled one comes a refresh or more later than the pacer announced
 * to the worker (two vsyncs pass during the stall); it rings the worker and waits for its states
 * (steadyframe's core/frame-catch-up.ts). Real rAF, real worker: counts and flags are asserted, never timings.
 */
import { afterEach, expect, it } from 'vitest';
import { Application, UPDATE_PRIORITY } from 'pixi.js';
import { createRuntime } from 'steadyframe';
import { attachToTicker } from '@steadyframe/pixi';
import { motionSchema } from './fixtures/schema.ts';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import type { MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let app: Application | undefined;
afterEach(() => {
  app?.destroy();
  runtime?.dispose();
  app = undefined;
  runtime = undefined;
});

const STALL_MS = 40;
const FRAMES = 90;

/**
 * One run of the README's loop with the stalls: asserts what the runtime promises whatever the machine did, and
 * returns whether it showed the case guarded (frames a refresh or more later than announced), with what it saw.
 */
async function check(): Promise<{ seen: boolean; log: string }> {
  const rt = (runtime = await createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity: 8,
  }));
  await rt.setTickRate(120);
  const application = (app = new Application());
  await application.init({ width: 64, height: 64, preference: 'webgl' });
  await rt.start();
  let ticks = 0;
  // the game's own listener, before the frame (a higher priority runs first): a stall every other tick
  application.ticker.add(
    () => {
      ticks++;
      if (ticks > 10 && ticks % 2 === 0) {
        const until = performance.now() + STALL_MS;
        while (performance.now() < until);
      }
    },
    undefined,
    UPDATE_PRIORITY.INTERACTION,
  );
  const drawn: Array<{ time: number; late: boolean; fresh: boolean; timestamp: number }> = [];
  const loop = attachToTicker(application, rt, (frame, time) => {
    // late, or the lock stayed busy and the last good frame repeats: drawn from a state older than its time
    if (ticks > 10) drawn.push({ time: frame.time, late: frame.late, fresh: frame.fresh, timestamp: time });
  });
  const deadline = performance.now() + 30_000;
  while (drawn.length < FRAMES && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  loop.detach();
  application.ticker.stop();
  const stats = await rt.stats();
  app.destroy();
  rt.dispose();
  app = undefined;
  runtime = undefined;
  expect(drawn.length).toBeGreaterThanOrEqual(FRAMES);
  // each frame is the world at the ticker's frame time
  for (const d of drawn) expect(d.time).toBe(d.timestamp);
  // none drawn from a state older than its time, except those the runtime gave up on knowingly, and counts:
  // the OS did not run the worker thread within the 4 ms a frame waits (a loaded machine), or the callback came
  // more than the worker's 50 ms hold after the frame's time (it stopped holding for it). A frame whose lock
  // acquire gave up says so itself (`fresh` false)
  const stale = drawn.filter((d) => d.late && d.fresh);
  const { timeouts, unwaited, unheld, waits, unannounced } = stats.frameClock;
  const log = `${drawn.length} frames, ${unannounced} unannounced, ${stale.length} stale; waits ${waits}, ${timeouts} gave up, ${unwaited} unwaited, ${unheld} unheld`;
  console.log(`ticker stall: ${log}`);
  expect(stale.length, log).toBeLessThanOrEqual(timeouts + unwaited + unheld);
  // and, when enough frames waited, most waits succeed (a ring that did not reach the worker would make every
  // one give up; under load average 14 on 2 cores half did)
  if (waits >= 10) expect(timeouts, log).toBeLessThan(0.75 * waits);
  // rAF brought frames a refresh or more after the announced time, and waits for the worker reached it: the
  // case guarded (a ring that never did would give up every wait, and after three in a row waits stop for a
  // second: a run would then have too few for the check above, and stale frames all counted)
  return { seen: unannounced > 10 && waits - timeouts >= 5, log };
}

/** Runs until one shows the case guarded: how rAF schedules frames after stalls depends on the machine's load. */
const ATTEMPTS = 3;

it('draws no frame stale after main-thread stalls in a ticker listener', async () => {
  let result = await check();
  for (let attempt = 1; attempt < ATTEMPTS && !result.seen; attempt++) result = await check();
  expect(result.seen, `the case was not seen in ${ATTEMPTS} runs; the last: ${result.log}`).toBe(true);
}, ATTEMPTS * 40_000);
