/**
 * Suite events (issue #37): what the event ring costs.
 *
 * 1. The page's frame with no events: `runtime.frameAt(t)` (catch-up check, sample, present, announce, watchdog)
 *    on two runtimes side by side, `events: false` and the default ring with nothing emitted, schema3d at 1k and
 *    10k entities. The workers are attached and held (two `stepOnce`, never started), t fixed halfway between
 *    their two ticks: every call does the same work, no worker thread competes for the two shared cores, and the
 *    variants differ only by the event path (`present()` on an empty ring: a load of WRITE, no record). A running
 *    worker would publish between calls and make each frame blend other data: noise far above a load. Samples of
 *    the two alternate (the order flipping each round); ratio = enabled / disabled per pair.
 * 2. The worker's side, per event: `tick.emit` + the commit, in a worker (events.worker.ts), N = 100, 1k, 10k a
 *    tick against N = 0 (shared/event-costs.ts: a micro-measure on the ring's writer, read back untimed).
 * 3. The page's side, per event: `present()` + `code(i)` and `payload(i, 0)` of each event, N a frame against
 *    N = 0, on the page's main thread (a micro-measure: the ring filled, untimed, by a writer in the same thread,
 *    so its records are in this core's cache; in the runtime the worker writes them on another core).
 */
import { createRuntime, type Runtime } from 'steadyframe';
import { measureEventCosts, type EventCostRow, type EventsToPage, type EventsToWorker } from '../shared/event-costs.ts';
import { schema3d } from '../shared/sims.ts';
import { quantile, spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, log, timeCalls } from '../page.ts';
import { simWorker } from '../workers.ts';

type S = typeof schema3d;

/**
 * ms of calls a frame sample times: short, so that on a loaded 2-core machine most samples run without being
 * preempted (a preempted one is an outlier the median and the quartiles leave out); many of them.
 */
const FRAME_SAMPLE_MS = 1;

export interface EventsFrameRow {
  readonly count: number;
  /** ms per frameAt, median (min–max) over samples: `events: false`, and the default ring with none emitted. */
  readonly off: Spread;
  readonly on: Spread;
  /** on / off, per pair of samples; and its quartiles (the middle half of the pairs, robust to a preempted sample). */
  readonly ratio: Spread;
  readonly ratioQuartiles: { readonly p25: number; readonly p75: number };
  /** The fastest sample of each, on / off: the least disturbed estimate of work that is the same every call. */
  readonly fastestRatio: number;
  /** Whether on's median lies within off's min–max (the run's spread of `events: false`). */
  readonly withinSpread: boolean;
  /** on's median − off's median, ns a frame. */
  readonly differenceNs: number;
  readonly callsPerSample: number;
  /** Catch-up waits the frames made (stats().frameClock.waits), each runtime: 0 means every call did the same work. */
  readonly waits: { readonly off: number; readonly on: number };
}

export interface EventsResult {
  readonly frame: EventsFrameRow[];
  readonly emit: EventCostRow[];
  readonly present: EventCostRow[];
  readonly samples: { readonly frame: number; readonly perEvent: number };
}

async function heldRuntime(count: number, events: boolean): Promise<{ runtime: Runtime<S>; time: number }> {
  const runtime = await createRuntime<S>({
    worker: simWorker({ kind: '3d', count, tickRate: 60 }),
    schema: schema3d,
    capacity: count,
    visibility: null,
    ...(events ? {} : { events: false as const }),
  });
  // two ticks: the front slot holds tick 1 and tick 2, real motion between them
  await runtime.stepOnce();
  await runtime.stepOnce();
  const newest = runtime.sample(Number.POSITIVE_INFINITY);
  if (newest.tick !== 2 || newest.count !== count) throw new Error(`unexpected state: tick ${newest.tick}, count ${newest.count}`);
  return { runtime, time: (newest.previousTime + newest.currentTime) / 2 };
}

async function frameRow(count: number, samples: number): Promise<EventsFrameRow> {
  const off = await heldRuntime(count, false);
  const on = await heldRuntime(count, true);
  try {
    const fns = {
      off: () => void off.runtime.frameAt(off.time),
      on: () => void on.runtime.frameAt(on.time),
    };
    // warm up, about 300 ms each (the first frames may wait for the worker: the ticks are fresh)
    for (const fn of [fns.off, fns.on, fns.off, fns.on]) {
      const until = performance.now() + 150;
      for (let n = 0; n < 3 || performance.now() < until; n++) fn();
    }
    if (on.runtime.frameAt(on.time).events.length !== 0) throw new Error('events presented where none were emitted');
    const before = { off: (await off.runtime.stats()).frameClock.waits, on: (await on.runtime.stats()).frameClock.waits };
    const calls = Math.max(1, Math.min(20_000, Math.ceil(FRAME_SAMPLE_MS / Math.max(1e-5, timeCalls(fns.off, 20)))));
    const times = { off: [] as number[], on: [] as number[] };
    await collectGarbage();
    for (let r = 0; r < samples; r++) {
      const order = r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const name of order) times[name].push(timeCalls(fns[name], calls));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const after = { off: (await off.runtime.stats()).frameClock.waits, on: (await on.runtime.stats()).frameClock.waits };
    const ratios = times.on.map((t, i) => t / times.off[i]!);
    const o = spread(times.off);
    const e = spread(times.on);
    return {
      count,
      off: o,
      on: e,
      ratio: spread(ratios),
      fastestRatio: e.min / o.min,
      ratioQuartiles: { p25: quantile(ratios, 0.25), p75: quantile(ratios, 0.75) },
      withinSpread: e.median >= o.min && e.median <= o.max,
      differenceNs: 1e6 * (e.median - o.median),
      callsPerSample: calls,
      waits: { off: after.off - before.off, on: after.on - before.on },
    };
  } finally {
    off.runtime.dispose();
    on.runtime.dispose();
  }
}

async function workerSide(counts: readonly number[], samples: number): Promise<EventCostRow[]> {
  const worker = new Worker(new URL('../events.worker.ts', import.meta.url), { type: 'module', name: 'events' });
  try {
    return await new Promise<EventCostRow[]>((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(`events worker: ${event.message}`));
      worker.onmessage = (event: MessageEvent<EventsToPage>) => {
        if (event.data.type === 'done') resolve(event.data.rows);
        else reject(new Error(event.data.message));
      };
      worker.postMessage({ counts, samples, sampleMs: 2 } satisfies EventsToWorker);
    });
  } finally {
    worker.terminate();
  }
}

const fmt = (s: Spread, digits: number, scale = 1) => `${(s.median * scale).toFixed(digits)} (${(s.min * scale).toFixed(digits)}–${(s.max * scale).toFixed(digits)})`;

function logCosts(label: string, rows: readonly EventCostRow[]): void {
  for (const r of rows) {
    log(
      `events ${label} N=${r.n}: ${fmt(r.tickMs, 2, 1000)} µs a tick (ring ${r.capacity}, ${r.ticksPerSample} ticks a sample)` +
        (r.nsPerEvent ? `, ${fmt(r.nsPerEvent, 1)} ns an event` : '') +
        (r.lost > 0 ? `, ${r.lost} LOST` : ''),
    );
  }
}

export async function events(quick: boolean): Promise<EventsResult> {
  const frameSamples = quick ? 15 : 301;
  const perEventSamples = quick ? 5 : 101;
  const counts = [0, 100, 1_000, 10_000];
  const frame: EventsFrameRow[] = [];
  for (const count of [1_000, 10_000]) {
    await collectGarbage();
    const row = await frameRow(count, frameSamples);
    log(
      `events frame, ${count} entities: events: false ${fmt(row.off, 2, 1000)} µs, enabled, none emitted ${fmt(row.on, 2, 1000)} µs; ` +
        `enabled / false ${fmt(row.ratio, 3)}, fastest ${row.fastestRatio.toFixed(3)}, quartiles ${row.ratioQuartiles.p25.toFixed(3)}–${row.ratioQuartiles.p75.toFixed(3)}; difference ${row.differenceNs.toFixed(0)} ns, ${row.withinSpread ? 'within' : 'OUTSIDE'} the spread of events: false; waits ${row.waits.off}/${row.waits.on}`,
    );
    frame.push(row);
  }
  await collectGarbage();
  const emit = await workerSide(counts, perEventSamples);
  logCosts('worker emit + commit', emit);
  await collectGarbage();
  const present = await measureEventCosts('present', counts, perEventSamples, 2);
  logCosts('page present + read', present);
  return { frame, emit, present, samples: { frame: frameSamples, perEvent: perEventSamples } };
}
