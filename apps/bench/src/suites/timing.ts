/**
 * Suite 4, tick timing.
 *
 * Jitter: how late each tick starts, actual minus target, at 60 and 120 ticks/s, with 1,000 3D entities of
 * work per tick and no frame loop (so the worker paces itself; with frames, the main thread's doorbell wakes it
 * instead). steadyframe's target for tick k + 1 is the time tick k stands for (`tick.previousAt`): the loop
 * sleeps until the wall clock reaches its newest state, then makes the next one. The baselines, in
 * pacer.worker.ts, target t0 + k * T: setTimeout, Atomics.waitAsync with a timeout (steadyframe's own sleep,
 * bare), and Atomics.wait until 1 ms before, then a spin.
 *
 * CPU: /proc per-thread CPU time (schedstat, ns) of the worker thread over the run, as a share of one core; the
 * page's main thread beside it. For an idle (attached, never started) and a paused simulation, with and
 * without a frame loop running on the page.
 */
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { PACER_STOP, PACER_WAIT, type PacerMode } from '../shared/pacer.ts';
import { createSide, SIDE, sideViews, type SideViews } from '../shared/sims.ts';
import { percentiles, spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';
import { pacerWorker, simWorker } from '../workers.ts';

const COUNT = 1000;
const SPIN_MS = 1;

export type TimingDesign = 'steadyframe' | PacerMode;

export interface JitterWindow {
  /** Tick start minus target, µs. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly ticks: number;
  /** Worker thread CPU, % of one core. */
  readonly workerCpu: number;
  /** steadyframe: the part of it spent spinning for precise wakes (stats().worker.spunMs), % of one core. */
  readonly spinCpu: number;
}

export interface JitterRow {
  readonly design: TimingDesign;
  readonly tickRate: number;
  readonly windows: readonly JitterWindow[];
  readonly summary: Record<keyof JitterWindow, Spread>;
}

export interface IdleWindow {
  /** % of one core. */
  readonly workerCpu: number;
  readonly mainCpu: number;
  /** Ticks published in the window (should be 0). */
  readonly publishes: number;
}

export interface IdleRow {
  readonly state: 'idle' | 'paused' | 'paused + frames' | 'running + frames';
  readonly windows: readonly IdleWindow[];
  readonly summary: Record<keyof IdleWindow, Spread>;
}

function summarise<W extends object>(windows: readonly W[]): Record<keyof W, Spread> {
  const keys = Object.keys(windows[0]!) as (keyof W)[];
  return Object.fromEntries(keys.map((k) => [k, spread(windows.map((w) => w[k] as number))])) as Record<keyof W, Spread>;
}

/** Measures `windows` windows of the ticks stamped in `side`. */
async function jitterWindows(side: SideViews, windows: number, windowMs: number, spunMs: () => Promise<number>): Promise<JitterWindow[]> {
  const results: JitterWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    const spun0 = await spunMs();
    await meter.start();
    const k0 = Atomics.load(side.i32, SIDE.NEWEST);
    await sleep(windowMs);
    const k1 = Atomics.load(side.i32, SIDE.NEWEST);
    const cpu = await meter.stop();
    const spun = (await spunMs()) - spun0;
    const lateness: number[] = [];
    for (let k = Math.max(1, k0 + 1); k <= k1; k++) lateness.push(1000 * (side.start[k % SIDE.RING]! - side.due[k % SIDE.RING]!));
    const p = percentiles(lateness);
    results.push({ p50: p.p50, p99: p.p99, max: p.max, ticks: lateness.length, workerCpu: (100 * cpu.workers) / cpu.wallMs, spinCpu: (100 * spun) / cpu.wallMs });
  }
  return results;
}

async function jitterRun(design: TimingDesign, tickRate: number, windows: number, windowMs: number): Promise<JitterRow> {
  const buffer = createSide();
  const side = sideViews(buffer);
  let stop: () => void;
  let spunMs = async () => Number.NaN;
  if (design === 'steadyframe') {
    const runtime: Runtime<typeof schema3d> = await createRuntime({
      worker: simWorker({ kind: '3d', count: COUNT, tickRate, side: buffer }),
      schema: schema3d,
      capacity: COUNT,
      visibility: null,
    });
    await runtime.start();
    stop = () => runtime.dispose();
    // spunMs is newer than some runtimes: NaN where the worker does not report it
    spunMs = async () => (await runtime.stats()).worker.spunMs ?? Number.NaN;
  } else {
    const worker = pacerWorker({ mode: design, spinMs: SPIN_MS, kind: '3d', count: COUNT, tickRate, side: buffer });
    stop = () => {
      Atomics.store(side.i32, PACER_STOP, 1);
      Atomics.notify(side.i32, PACER_WAIT);
      worker.terminate();
    };
  }
  await sleep(500);
  const results = await jitterWindows(side, windows, windowMs, spunMs);
  stop();
  return { design, tickRate, windows: results, summary: summarise(results) };
}

async function idleRun(state: IdleRow['state'], windows: number, windowMs: number): Promise<IdleRow> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count: COUNT, tickRate: 60 }),
    schema: schema3d,
    capacity: COUNT,
    visibility: null,
    pacing: { adaptive: false },
  });
  let frames = false;
  const onFrame = (ts: number) => {
    if (!frames) return;
    requestAnimationFrame(onFrame);
    runtime.frame(ts);
  };
  if (state !== 'idle') {
    await runtime.start();
    await sleep(300);
    if (state !== 'running + frames') await runtime.pause();
  }
  if (state.endsWith('frames')) {
    frames = true;
    requestAnimationFrame(onFrame);
  }
  await sleep(300);
  const results: IdleWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    const p0 = runtime.reader.publishCount();
    await sleep(windowMs);
    const cpu = await meter.stop();
    results.push({ workerCpu: (100 * cpu.workers) / cpu.wallMs, mainCpu: (100 * cpu.main) / cpu.wallMs, publishes: runtime.reader.publishCount() - p0 });
  }
  frames = false;
  runtime.dispose();
  return { state, windows: results, summary: summarise(results) };
}

export async function timing(quick: boolean): Promise<{ count: number; spinMs: number; jitter: JitterRow[]; idle: IdleRow[] }> {
  const windows = quick ? 1 : 3;
  const windowMs = quick ? 1500 : 3000;
  const jitter: JitterRow[] = [];
  for (const tickRate of [60, 120]) {
    for (const design of ['steadyframe', 'timeout', 'wait-async', 'wait-spin'] as const) {
      await collectGarbage();
      const row = await jitterRun(design, tickRate, windows, windowMs);
      const s = row.summary;
      log(
        `timing ${design} ${tickRate} Hz: late p50 ${s.p50.median.toFixed(0)} µs, p99 ${s.p99.median.toFixed(0)} µs, max ${s.max.median.toFixed(0)} µs; ` +
          `worker CPU ${s.workerCpu.median.toFixed(2)}%`,
      );
      jitter.push(row);
    }
  }
  const idle: IdleRow[] = [];
  for (const state of ['idle', 'paused', 'paused + frames', 'running + frames'] as const) {
    await collectGarbage();
    const row = await idleRun(state, windows, quick ? 1500 : 2000);
    log(`cpu ${state}: worker ${row.summary.workerCpu.median.toFixed(3)}% of a core, main ${row.summary.mainCpu.median.toFixed(2)}%, publishes ${row.summary.publishes.median}`);
    idle.push(row);
  }
  return { count: COUNT, spinMs: SPIN_MS, jitter, idle };
}
