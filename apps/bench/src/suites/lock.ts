/**
 * Suite 5, lock: the slot lock under the 100k 3D case, a 60 fps frame loop (`runtime.frame`) against a worker
 * publishing 60 and 1,000 ticks/s. From `runtime.stats()` per window: main-thread acquires, failed
 * compareExchange spins, misses (frames that gave up and repeated the last state); the worker's flips that had
 * to wait for the reader, and how long they waited.
 */
import { createRuntime, schema3d, type Runtime, type RuntimeStats } from 'steadyframe';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, log, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

const COUNT = 100_000;

export interface LockWindow {
  readonly frames: number;
  /** Frames and publishes per second of the window (a window ends when stats() answers: the worker may be busy). */
  readonly fps: number;
  readonly publishesPerSecond: number;
  readonly acquires: number;
  readonly spinsPerAcquire: number;
  readonly misses: number;
  readonly publishes: number;
  /** Flips that slept on the lock, per 1,000 publishes, and ms slept per publish. */
  readonly flipWaitsPer1000: number;
  readonly flipWaitMsPerPublish: number;
  /** Ms the page spent in runtime.frame, mean per frame. */
  readonly frameMs: number;
}

export interface LockRow {
  readonly tickRate: number;
  readonly windows: readonly LockWindow[];
  readonly summary: Record<keyof LockWindow, Spread>;
  /** Most spins in one acquire over the whole run. */
  readonly maxSpins: number;
  readonly overloads: number;
}

async function run(tickRate: number, windows: number, windowMs: number): Promise<LockRow> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count: COUNT, tickRate }),
    schema: schema3d,
    capacity: COUNT,
    visibility: null,
    pacing: { adaptive: false },
  });
  let running = true;
  let frames = 0;
  let frameMs = 0;
  const onFrame = (ts: number) => {
    if (!running) return;
    requestAnimationFrame(onFrame);
    const started = performance.now();
    runtime.frame(ts);
    frameMs += performance.now() - started;
    frames++;
  };
  await runtime.start();
  requestAnimationFrame(onFrame);
  await sleep(1000);
  const results: LockWindow[] = [];
  let before: RuntimeStats = await runtime.stats();
  for (let w = 0; w < windows; w++) {
    frames = 0;
    frameMs = 0;
    const started = performance.now();
    await sleep(windowMs);
    const after = await runtime.stats();
    const seconds = (performance.now() - started) / 1000;
    const publishes = after.worker.publishes - before.worker.publishes;
    const acquires = after.lock.acquires - before.lock.acquires;
    const flipWaits = after.worker.flipWaits - before.worker.flipWaits;
    results.push({
      frames,
      fps: frames / seconds,
      publishesPerSecond: publishes / seconds,
      acquires,
      spinsPerAcquire: (after.lock.spins - before.lock.spins) / Math.max(1, acquires),
      misses: after.lock.misses - before.lock.misses,
      publishes,
      flipWaitsPer1000: (1000 * flipWaits) / Math.max(1, publishes),
      flipWaitMsPerPublish: (after.worker.flipWaitMs - before.worker.flipWaitMs) / Math.max(1, publishes),
      frameMs: frameMs / Math.max(1, frames),
    });
    before = after;
  }
  running = false;
  runtime.dispose();
  const keys = Object.keys(results[0]!) as (keyof LockWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof LockWindow, Spread>;
  return { tickRate, windows: results, summary, maxSpins: before.lock.maxSpins, overloads: before.worker.overloads };
}

export async function lock(quick: boolean): Promise<{ count: number; rows: LockRow[] }> {
  const rows: LockRow[] = [];
  for (const tickRate of [60, 1000]) {
    await collectGarbage();
    const row = await run(tickRate, quick ? 2 : 3, quick ? 1000 : 1500);
    const s = row.summary;
    log(
      `lock ${tickRate} Hz: ${s.fps.median.toFixed(0)} fps, ${s.publishesPerSecond.median.toFixed(0)} publishes/s, ${s.acquires.median} acquires, ${s.spinsPerAcquire.median.toFixed(2)} spins/acquire (max ${row.maxSpins}), ` +
        `${s.misses.median} misses; ${s.publishes.median} publishes, ${s.flipWaitsPer1000.median.toFixed(1)} flip waits per 1000, ` +
        `${s.flipWaitMsPerPublish.median.toFixed(3)} ms waited per publish`,
    );
    rows.push(row);
  }
  return { count: COUNT, rows };
}
