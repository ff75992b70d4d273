/**
 * The adaptive render interval as the runtime runs it (ARCHITECTURE.md, "Frames: pacing and sampling"), on a
 * manual clock whose frames take time (`WorkClock.work`): what the browser timing test's "grows the render
 * interval" guards with a real 30 ms draw, exact. A frame that costs more than the interval grows n at once to
 * ceil(cost * 1.2 / period) and says so (`interval`, reason 'overrun'); frames are then drawn on every n-th
 * vsync, each announced to the worker (none comes later than announced, none late); a quarter second of frames
 * that fit a smaller interval brings n straight back ('spare'). The pacer's rule alone is table-tested in
 * frame-pacer.test.ts; this is the runtime measuring the cost (its draw included) and telling the worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PacerChange, Runtime } from 'steadyframe';
import { createNodeRuntime } from 'steadyframe/node';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { REFRESH as R } from './support/display.ts';
import { WorkClock } from './support/work-clock.ts';
import { nodeFixture } from './support/worker-modules.ts';

let runtime: Runtime<typeof motionSchema, MotionCommands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const START = 1000;
/** What an ordinary frame costs. */
const CHEAP = 5;
const SPARE_MS = 250;

type Loop = 'draw' | 'frame';

/**
 * A runtime drawing at 60 Hz on a work clock, its draws costing `cost(vsync)`: through the runtime's own draw
 * loop (`draw`), or a game's rAF loop calling `runtime.frame()`. Returns what was drawn at which vsync.
 */
async function paced(loop: Loop, cost: (vsync: number) => number, vsyncs: number) {
  const clock = new WorkClock(START);
  const drawnAt: number[] = [];
  const late: number[] = [];
  const draw = (f: { time: number; late: boolean }) => {
    drawnAt.push(f.time);
    if (f.late) late.push(f.time);
    clock.work(cost(f.time));
  };
  const rt = (runtime = await createNodeRuntime<typeof motionSchema, MotionCommands>({
    worker: await nodeFixture('motion'),
    schema: motionSchema,
    capacity: 2,
    clock,
    ...(loop === 'draw' ? { draw } : {}),
  }));
  const changes: PacerChange[] = [];
  rt.on('interval', (change) => changes.push(change));
  await rt.setTickRate(120);
  await rt.start();
  let skipped = 0;
  for (let k = 1; k <= vsyncs; k++) {
    // a vsync that passed while the page was busy (a slow frame) brings no callback
    if (START + k * R < clock.now()) continue;
    await clock.advanceTo(START + k * R);
    clock.animationFrame(() => {
      if (loop === 'draw') return;
      const f = rt.frame();
      if (f !== null) draw(f);
    });
    // the frame's task ends: the runtime measures its cost, and may tell the worker of a new interval
    await Promise.resolve();
    if (rt.frameTime !== drawnAt.at(-1)) skipped++;
  }
  return { rt, changes, drawnAt, late, skipped, stats: await rt.stats() };
}

describe('a slow frame grows the interval at once, and a quarter second of cheap ones brings it back', () => {
  // [cost of the slow frame, the interval it needs]: n = ceil(cost * 1.2 / 16.7), at most maxMultiple (4)
  const rows = (['draw', 'frame'] as const).flatMap((loop) =>
    [
      [20, 2],
      [30, 3],
      [40, 3],
      [45, 4],
      [200, 4],
    ].map(([cost, n]) => [loop, cost!, n!] as const),
  );
  it.each(rows)('%s loop: one frame of %i ms, n = %i', async (loop, slowCost, n) => {
    const slowAt = START + 30 * R;
    const { changes, drawnAt, late, skipped, stats } = await paced(loop, (t) => (Math.abs(t - slowAt) < 1 ? slowCost : CHEAP), 120);
    expect(changes.map((c) => [c.reason, c.fromMultiple, c.toMultiple])).toEqual([
      ['overrun', 1, n],
      ['spare', n, 1],
    ]);
    const [grow, shrink] = changes as [PacerChange, PacerChange];
    // grown by the slow frame itself; after it (at the first vsync after it ends, if that is later), every n-th
    // vsync drawn until the shrink, then every one
    expect(grow.at).toBeCloseTo(slowAt, 6);
    const gaps = drawnAt.slice(1).map((t, i) => Math.round((t - drawnAt[i]!) / R));
    const slow = drawnAt.findIndex((t) => Math.abs(t - slowAt) < 1);
    const shrunk = drawnAt.findIndex((t) => Math.abs(t - shrink.at) < 1);
    expect(gaps.slice(0, slow)).toEqual(gaps.slice(0, slow).map(() => 1));
    expect(gaps[slow]).toBe(Math.max(n, Math.ceil(slowCost / R)));
    expect(gaps.slice(slow + 1, shrunk)).toEqual(gaps.slice(slow + 1, shrunk).map(() => n));
    expect(gaps.slice(shrunk)).toEqual(gaps.slice(shrunk).map(() => 1));
    // the outlier costs a quarter second plus at most two intervals at the reduced rate (after its own length)
    const after = drawnAt[slow + 1]!;
    expect(shrink.at - after).toBeGreaterThanOrEqual(SPARE_MS);
    expect(shrink.at - after).toBeLessThanOrEqual(SPARE_MS + 2 * n * R + 1e-6);
    // each rendered frame was the one announced to the worker (but the one after a frame longer than the interval
    // it grew to, which comes when the page is free again), and none was drawn late
    expect(stats.frameClock.unannounced).toBe(slowCost > n * R ? 1 : 0);
    expect(late).toEqual([]);
    expect(stats.pacing).toMatchObject({ multiple: 1, grows: 1, shrinks: 1, skippedVsyncs: skipped });
  });

  it.each(['draw', 'frame'] as const)('%s loop: frames that keep costing 20 ms hold n = 2; 36 to 40 ms hold n = 3', async (loop) => {
    for (const [cost, n] of [
      [20, 2],
      [38, 3],
    ] as const) {
      const { changes, stats } = await paced(loop, () => cost, 90);
      expect(changes.map((c) => [c.reason, c.toMultiple])).toEqual([['overrun', n]]);
      expect(stats.pacing).toMatchObject({ multiple: n, shrinks: 0 });
      expect(stats.frameClock.unannounced).toBe(0);
      runtime?.dispose();
      runtime = undefined;
    }
  });
});
