/**
 * Suite 3, motion quality: bodies with known analytic motion (shared/sims.ts `motionAt`: half go straight, half
 * circle, each 1 unit per tick), 30 ticks/s, drawn by a 60 fps frame loop. For every drawn frame and body: the
 * distance between what was drawn and the true position at the time the frame stands for, in ticks of motion.
 *
 * "The time the frame stands for" is the frame's rAF timestamp minus the design's fixed delay (a render delay
 * of one tick; MainLoop.js's own one-tick lag), mapped to simulated time once, at the start of each run, and
 * never again: a design that drifts, hitches or re-pins its clock later shows it as error.
 *
 * Designs: steadyframe in each interpolation mode (latest only, interpolate, extrapolate from the velocity
 * fields, interpolate with a one-tick render delay), each with on-time ticks and with an injected worker stall
 * (the step busy-waits 20 ms once a second); and MainLoop.js (npm `mainloop.js`), everything on the main
 * thread, with the same stall injected into its update.
 *
 * Lerp's own error on the circling bodies (the chord cuts inside the arc) is at most CIRCLE_TURN / 8 = 0.6% of a
 * tick: the floor any interpolating design shares.
 */
import MainLoop from 'mainloop.js';
import { createRuntime, type InterpolationOptions } from 'steadyframe';
import { busyWait, CIRCLE_TURN, motionAt, motionSchema } from '../shared/sims.ts';

export type { MotionWindow } from '../shared/motion-recorder.ts';
import { Recorder, type MotionWindow } from '../shared/motion-recorder.ts';
import { quantile, spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

export const MOTION_TICK_RATE = 30;
const BODIES = 32;
const STALL_EVERY = MOTION_TICK_RATE; // once a second
const STALL_MS = 20;

export type MotionDesign = 'latest' | 'interpolate' | 'extrapolate' | 'delay1' | 'mainloop';

export interface MotionRow {
  readonly design: MotionDesign;
  readonly stall: boolean;
  /** ms between a frame's timestamp and the time it shows (0, a render delay, MainLoop.js's lag). */
  readonly lagMs: number;
  readonly windows: readonly MotionWindow[];
  readonly summary: Record<Exclude<keyof MotionWindow, 'worst'>, Spread>;
}

/** The display's refresh period, from a few rAF intervals. */
async function refreshPeriod(): Promise<number> {
  const stamps: number[] = [];
  for (let i = 0; i < 31; i++) stamps.push(await nextFrame());
  return quantile(
    stamps.slice(1).map((t, i) => t - stamps[i]!),
    0.5,
  );
}

async function runSteadyframe(design: Exclude<MotionDesign, 'mainloop'>, stall: boolean, windows: number, windowMs: number, period: number): Promise<MotionRow> {
  const interpolation: InterpolationOptions<typeof motionSchema> =
    design === 'latest' ? { mode: 'latest' } : design === 'extrapolate' ? { mode: 'extrapolate' } : { mode: 'interpolate', renderDelay: design === 'delay1' ? 1 : 0 };
  const runtime = await createRuntime({
    worker: simWorker({ kind: 'motion', count: BODIES, tickRate: MOTION_TICK_RATE, ...(stall ? { stallEvery: STALL_EVERY, stallMs: STALL_MS } : {}) }),
    schema: motionSchema,
    capacity: BODIES,
    visibility: null,
    pacing: { adaptive: false },
    interpolation,
  });
  const lagMs = design === 'delay1' ? 1000 / MOTION_TICK_RATE : 0;
  const recorder = new Recorder(BODIES, MOTION_TICK_RATE);
  /** Simulated seconds at page time `t`, fixed once after the warm-up: s = s0 + (t - t0) / 1000. */
  let s0 = Number.NaN;
  let t0 = Number.NaN;
  let calibrate = false;
  let running = true;
  const onFrame = (ts: number) => {
    if (!running) return;
    requestAnimationFrame(onFrame);
    const frame = runtime.frame(ts);
    if (frame === null || !frame.fresh) return;
    if (calibrate && !frame.late && frame.tick > 0) {
      // tick k is k / tickRate simulated seconds; the frame says which page time it stands for
      s0 = frame.tick / MOTION_TICK_RATE;
      t0 = frame.currentTime;
      calibrate = false;
    }
    if (Number.isNaN(s0)) return;
    recorder.record(
      { ts, late: frame.late },
      frame.fields.position,
      s0 + (ts - lagMs - t0) / 1000,
      () =>
        `ticks ${frame.previousTick}..${frame.tick} at ${frame.previousTime.toFixed(1)}..${frame.currentTime.toFixed(1)} ms, ` +
        `alpha ${frame.alpha.toFixed(3)}, shown ${frame.time.toFixed(1)}, late ${frame.late}, overtaken ${frame.overtaken}`,
    );
  };
  await runtime.start();
  requestAnimationFrame(onFrame);
  await sleep(1000); // JIT, and the render delay easing in
  calibrate = true;
  while (calibrate) await nextFrame();
  const results: MotionWindow[] = [];
  /** Frames the worker overtook so far: served from the kept states (recovered) or not (overtaken). */
  const overtakenSoFar = async () => {
    const { sampling } = await runtime.stats();
    return sampling.overtaken + sampling.recovered;
  };
  for (let w = 0; w < windows; w++) {
    const before = await overtakenSoFar();
    recorder.take(period, true);
    await sleep(windowMs);
    results.push(recorder.take(period, true, (await overtakenSoFar()) - before));
  }
  running = false;
  runtime.dispose();
  return summarise(design, stall, lagMs, results);
}

async function runMainLoop(stall: boolean, windows: number, windowMs: number, period: number): Promise<MotionRow> {
  const previous = new Float64Array(2 * BODIES);
  const current = new Float64Array(2 * BODIES);
  const drawn = new Float64Array(2 * BODIES);
  const out = new Float64Array(4);
  const place = (target: Float64Array, s: number) => {
    for (let i = 0; i < BODIES; i++) {
      motionAt(i, s, MOTION_TICK_RATE, out);
      target[2 * i] = out[0]!;
      target[2 * i + 1] = out[1]!;
    }
  };
  place(current, 0);
  previous.set(current);
  const recorder = new Recorder(BODIES, MOTION_TICK_RATE);
  let updates = 0;
  let ts = 0;
  let s0 = Number.NaN;
  let t0 = Number.NaN;
  let calibrate = false;
  MainLoop.setSimulationTimestep(1000 / MOTION_TICK_RATE)
    .setBegin((timestamp) => {
      ts = timestamp;
    })
    .setUpdate(() => {
      updates++;
      if (stall && updates % STALL_EVERY === 0) busyWait(STALL_MS);
      previous.set(current);
      place(current, updates / MOTION_TICK_RATE);
    })
    .setDraw((alpha) => {
      for (let i = 0; i < 2 * BODIES; i++) drawn[i] = previous[i]! + (current[i]! - previous[i]!) * alpha;
      // the simulated time MainLoop.js draws: one tick behind its updates, plus the leftover fraction
      const shown = (updates - 1 + alpha) / MOTION_TICK_RATE;
      if (calibrate) {
        s0 = shown;
        t0 = ts;
        calibrate = false;
      }
      if (!Number.isNaN(s0)) recorder.record({ ts, late: false }, drawn, s0 + (ts - t0) / 1000, () => `update ${updates}, alpha ${alpha.toFixed(3)}`);
    })
    .setEnd((_fps, panic) => {
      if (panic) MainLoop.resetFrameDelta();
    })
    .start();
  await sleep(1000);
  calibrate = true;
  while (calibrate) await nextFrame();
  const results: MotionWindow[] = [];
  for (let w = 0; w < windows; w++) {
    recorder.take(period, false);
    await sleep(windowMs);
    results.push(recorder.take(period, false));
  }
  MainLoop.stop();
  // MainLoop.js draws between its last two updates: one tick behind the frame, by construction
  return summarise('mainloop', stall, 1000 / MOTION_TICK_RATE, results);
}

function summarise(design: MotionDesign, stall: boolean, lagMs: number, windows: MotionWindow[]): MotionRow {
  const keys = ['p50', 'p99', 'max', 'frames', 'lateFrames', 'overtakenFrames', 'droppedFrames', 'longestFrame'] as const;
  const summary = Object.fromEntries(keys.map((k) => [k, spread(windows.map((w) => w[k]))])) as Record<(typeof keys)[number], Spread>;
  return { design, stall, lagMs, windows, summary };
}

export async function motion(quick: boolean): Promise<{ tickRate: number; bodies: number; stallMs: number; stallEveryTicks: number; lerpFloor: number; period: number; rows: MotionRow[] }> {
  const windows = quick ? 1 : 3;
  const windowMs = quick ? 1500 : 2000;
  const period = await refreshPeriod();
  const rows: MotionRow[] = [];
  for (const stall of [false, true]) {
    for (const design of ['latest', 'interpolate', 'extrapolate', 'delay1', 'mainloop'] as const) {
      await collectGarbage();
      const row = design === 'mainloop' ? await runMainLoop(stall, windows, windowMs, period) : await runSteadyframe(design, stall, windows, windowMs, period);
      const s = row.summary;
      log(
        `motion ${design}${stall ? ' +stall' : ''}: p50 ${(100 * s.p50.median).toFixed(2)}%, p99 ${(100 * s.p99.median).toFixed(2)}%, ` +
          `max ${(100 * s.max.median).toFixed(1)}% of a tick; late ${s.lateFrames.median}, dropped ${s.droppedFrames.median} of ${s.frames.median} frames`,
      );
      rows.push(row);
    }
  }
  return { tickRate: MOTION_TICK_RATE, bodies: BODIES, stallMs: STALL_MS, stallEveryTicks: STALL_EVERY, lerpFloor: CIRCLE_TURN / 8, period, rows };
}
