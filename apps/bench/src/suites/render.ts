/**
 * Suite 9, the render worker against main-thread jank (issue #12): the same scene (the motion suite's bodies,
 * 30 ticks/s, interpolated, drawn on a 2D canvas) drawn from the main thread and from the render worker, each
 * without and with a 30 ms busy loop on the page every 500 ms. Per window: the longest interval between draws,
 * draws over 1.5 refresh periods apart (both from the draws' own clock readings: headless Chromium's rAF timestamps
 * advance one period per callback even across a stall), and judder (the motion error: drawn against true position at the frame's time) p99
 * in % of a tick. Goal: with the render worker, the page's jank changes none of them measurably (longest interval
 * within 1.5 refresh periods, judder p99 <= 1% of a tick), while the main-thread renderer shows the stall.
 */
import { createRenderWorkerRuntime } from 'steadyframe';
import { jankScene, type JankSceneMessage, type JankSceneWindow } from '../shared/jank-scene.ts';
import type { MotionWindow } from '../shared/motion-recorder.ts';
import { busyWait, motionSchema } from '../shared/sims.ts';
import { quantile, spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

const TICK_RATE = 30;
const BODIES = 32;
export const JANK_MS = 30;
export const JANK_EVERY_MS = 500;

export interface RenderRow {
  readonly drawIn: 'main' | 'worker';
  readonly jank: boolean;
  /** Where frames were really drawn, and why not in the worker (a fallback would say so). */
  readonly renderer: 'main' | 'worker';
  readonly fallback: string | null;
  readonly windows: readonly MotionWindow[];
  readonly summary: Record<'p99' | 'max' | 'frames' | 'droppedFrames' | 'longestFrame', Spread>;
}

async function refreshPeriod(): Promise<number> {
  const stamps: number[] = [];
  for (let i = 0; i < 31; i++) stamps.push(await nextFrame());
  return quantile(
    stamps.slice(1).map((t, i) => t - stamps[i]!),
    0.5,
  );
}

let serial = 0;
async function runOne(drawIn: 'main' | 'worker', jank: boolean, windows: number, windowMs: number, period: number): Promise<RenderRow> {
  const name = `jank-${serial++}`;
  const canvas = document.createElement('canvas');
  canvas.style.width = '160px';
  canvas.style.height = '160px';
  document.body.append(canvas);
  const runtime = await createRenderWorkerRuntime({
    worker: simWorker({ kind: 'motion', count: BODIES, tickRate: TICK_RATE }),
    renderWorker: new Worker(new URL('../jank.render.ts', import.meta.url), { type: 'module', name: `${name}|${BODIES}|${TICK_RATE}` }),
    canvas,
    schema: motionSchema,
    capacity: BODIES,
    visibility: null,
    pacing: { adaptive: false },
    interpolation: { mode: 'interpolate' },
    renderIn: drawIn,
    fallback: jankScene(name, BODIES, TICK_RATE),
  });
  const channel = new BroadcastChannel(name);
  const take = () =>
    new Promise<JankSceneWindow>((resolve) => {
      channel.onmessage = (event: MessageEvent<JankSceneWindow>) => resolve(event.data);
      channel.postMessage({ op: 'take', period } satisfies JankSceneMessage);
    });
  await runtime.start();
  await sleep(1000); // JIT, and the pacer's refresh estimate
  channel.postMessage({ op: 'calibrate' } satisfies JankSceneMessage);
  while (!(await take()).calibrated) await sleep(20);
  const timer = jank ? setInterval(() => busyWait(JANK_MS), JANK_EVERY_MS) : undefined;
  const results: MotionWindow[] = [];
  for (let w = 0; w < windows; w++) {
    await take();
    await sleep(windowMs);
    results.push((await take()).window);
  }
  clearInterval(timer);
  channel.close();
  const row = { renderer: runtime.renderer, fallback: runtime.renderFallback };
  runtime.dispose();
  canvas.remove();
  const keys = ['p99', 'max', 'frames', 'droppedFrames', 'longestFrame'] as const;
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as RenderRow['summary'];
  return { drawIn, jank, ...row, windows: results, summary };
}

export async function render(quick: boolean): Promise<{ tickRate: number; bodies: number; jankMs: number; jankEveryMs: number; period: number; rows: RenderRow[] }> {
  const windows = quick ? 1 : 3;
  const windowMs = quick ? 1500 : 3000;
  const period = await refreshPeriod();
  const rows: RenderRow[] = [];
  for (const jank of [false, true]) {
    for (const drawIn of ['main', 'worker'] as const) {
      await collectGarbage();
      const row = await runOne(drawIn, jank, windows, windowMs, period);
      const s = row.summary;
      log(
        `render ${drawIn}${jank ? ' +jank' : ''} (drawn in ${row.renderer}${row.fallback === null ? '' : `: ${row.fallback}`}): longest frame ${s.longestFrame.median.toFixed(1)} ms ` +
          `(refresh ${period.toFixed(1)}), ${s.droppedFrames.median} of ${s.frames.median} frames over 1.5 periods, judder p99 ${(100 * s.p99.median).toFixed(2)}% of a tick`,
      );
      rows.push(row);
    }
  }
  return { tickRate: TICK_RATE, bodies: BODIES, jankMs: JANK_MS, jankEveryMs: JANK_EVERY_MS, period, rows };
}
