/**
 * attachToTicker on a real Application: frames are sampled at the ticker's own frame time, and the stage is
 * rendered on the refreshes the pacer presents and on no other. The ticker is stepped by hand
 * (`ticker.update(ts)` runs its listeners as a rAF would), so the refreshes are exact and nothing depends on
 * this machine's timing except the one deliberately slow frame.
 */
import { afterEach, expect, it } from 'vitest';
import { Application } from 'pixi.js';
import { createRuntime } from 'steadyframe';
import { attachToTicker, tickerTime } from '@steadyframe/pixi';
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

const PERIOD = 1000 / 60;

async function setUp(adaptive: boolean) {
  runtime = await createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity: 8,
    pacing: { adaptive },
  });
  app = new Application();
  await app.init({ width: 64, height: 64, preference: 'webgl', autoStart: false });
  // count the app's renders where they land: Application.render draws through its renderer
  let renders = 0;
  const render = app.renderer.render.bind(app.renderer);
  app.renderer.render = ((...args: Parameters<typeof render>) => {
    renders++;
    return render(...args);
  }) as typeof app.renderer.render;
  return { runtime, app, renders: () => renders };
}

/** Runs one refresh at `ts` as the ticker's rAF would, then lets the frame's task end (its cost is measured then). */
async function refresh(application: Application, ts: number): Promise<void> {
  application.ticker.update(ts);
  await Promise.resolve();
}

it('samples each frame at the ticker frame time, and renders once per drawn frame', async () => {
  const { runtime: rt, app: application, renders } = await setUp(false);
  const times: number[] = [];
  const frameTimes: number[] = [];
  const seen: number[] = [];
  application.ticker.add((t) => seen.push(tickerTime(t))); // a game's own listener sees the same time
  const loop = attachToTicker(application, rt, (frame, time) => {
    times.push(time);
    frameTimes.push(frame.time);
  });
  const start = performance.now() + 1000; // later than any performance.now() read below: a stale read would show
  const ts = Array.from({ length: 10 }, (_, i) => start + i * PERIOD);
  for (const t of ts) await refresh(application, t);
  expect(times).toEqual(ts);
  expect(frameTimes).toEqual(ts); // the frame is the world at the rAF timestamp, not at a fresh clock read
  expect(seen).toEqual(ts);
  expect(renders()).toBe(10);
  expect(loop.rendered).toBe(10);
  expect(loop.skipped).toBe(0);
});

it('skips app.render on the refreshes the pacer skips, and detach gives the app its render back', async () => {
  const { runtime: rt, app: application, renders } = await setUp(true);
  let drawn = 0;
  const loop = attachToTicker(application, rt, () => {
    drawn++;
    if (drawn === 1) {
      // one slow frame: 30 ms grows the render interval to n = 3 (30 * 1.2 / 16.7 = 2.2), or more on a loaded
      // machine (the frame's cost is wall time): the counts below follow the n it grew to
      const until = performance.now() + 30;
      while (performance.now() < until);
    }
  });
  const start = performance.now();
  for (let i = 0; i < 12; i++) await refresh(application, start + i * PERIOD);
  const stats = await rt.stats();
  expect(stats.pacing.multiple).toBeGreaterThanOrEqual(3);
  // the first refresh drew, then every n-th (n can move on with a loaded machine's frame costs, which are wall
  // time: so count what the pacer decided rather than predict it)
  const drawnFrames = drawn;
  expect(drawnFrames).toBeGreaterThanOrEqual(2);
  expect(drawnFrames).toBeLessThan(12); // some refreshes were skipped
  expect(loop.rendered).toBe(drawnFrames);
  expect(loop.skipped).toBe(12 - drawnFrames);
  expect(renders()).toBe(drawnFrames); // no redraw of the unchanged stage on a skipped refresh
  expect(stats.pacing.skippedVsyncs).toBe(12 - drawnFrames);
  expect(stats.pacing.renderedFrames).toBe(drawnFrames);

  loop.detach();
  const before = renders();
  for (let i = 12; i < 15; i++) await refresh(application, start + i * PERIOD);
  expect(drawn).toBe(drawnFrames);
  expect(renders() - before).toBe(3); // the app's own render listener again, every refresh
});

it('paces a GPU-path drawable without sampling, handing it the ticker frame time', async () => {
  const { runtime: rt, app: application, renders } = await setUp(false);
  const times: number[] = [];
  const loop = attachToTicker(application, rt, [{ update: (t: number) => times.push(t) }, { update: (t: number) => times.push(-t) }]);
  const start = performance.now() + 1000;
  for (let i = 0; i < 3; i++) await refresh(application, start + i * PERIOD);
  expect(times).toEqual([start, -start, start + PERIOD, -(start + PERIOD), start + 2 * PERIOD, -(start + 2 * PERIOD)]);
  expect(renders()).toBe(3);
  const stats = await rt.stats();
  expect(stats.frames).toBe(0); // pace() samples nothing on the CPU
  expect(stats.pacing.renderedFrames).toBe(3);
  expect(loop.rendered).toBe(3);
  expect(() => attachToTicker(application, rt, { draw: () => {} } as never)).toThrow(/update\(time\)/);
});
