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
 * 2. The worker's side, per event: `tick.emit` + the commit, in a worker (events.worker.ts, one per N), N = 100,
 *    1k, 10k a tick against N = 0 (shared/event-costs.ts: a micro-measure on the ring's writer, read back untimed).
 * 3. The page's side, per event: `present()` + `code(i)` and `payload(i, 0)` of each event, N a frame against
 *    N = 0, on the page's main thread (a micro-measure: the ring filled, untimed, by a writer in the same thread,
 *    so its records are in this core's cache; in the runtime the worker writes them on another core).
 * 4. Both through the runtime, as a check on 2 and 3: four runtimes (1k entities; the sim worker's step emits N =
 *    0, 100, 1k, 10k events after its work), each frame one `stepOnce` then, timed, `frameAt` at the new tick's
 *    time with every event of `frame.events` read as in 3; the worker's side from `stats().worker.lastStepMs`
 *    (the step alone: `tick.emit` included, the commit, one store in the publish, not). The runtimes take turns
 *    frame by frame. Coarser (one frame or step a timer reading, at the timer's 5 µs grain, averaged over many),
 *    but the records cross cores as they do in a game.
 */
import { createRuntime, type Runtime } from 'steadyframe';
import { costRows, measureEventCosts, ringCapacityFor, type EventCostRow, type EventsToPage, type EventsToWorker } from '../shared/event-costs.ts';
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

export interface EventsRuntimeRow {
  readonly n: number;
  readonly capacity: number;
  /** ms per frame (frameAt + reading its events) and per step (lastStepMs), the mean of each sample's frames. */
  readonly frameMs: Spread;
  readonly stepMs: Spread;
  /** ns per event against N = 0, the same sample's; absent at N = 0. */
  readonly pageNsPerEvent?: Spread;
  readonly workerNsPerEvent?: Spread;
  /** Frames whose events were not exactly the step's N (must be 0), events lost, catch-up waits. */
  readonly wrongFrames: number;
  readonly lost: number;
  readonly waits: number;
}

export interface EventsResult {
  readonly frame: EventsFrameRow[];
  readonly emit: EventCostRow[];
  readonly present: EventCostRow[];
  readonly runtime: EventsRuntimeRow[];
  readonly runtimeCount: number;
  readonly framesPerSample: number;
  readonly samples: { readonly frame: number; readonly perEvent: number; readonly runtime: number };
}

const RUNTIME_COUNT = 1_000;

async function throughRuntime(counts: readonly number[], samples: number, framesPerSample: number): Promise<EventsRuntimeRow[]> {
  const runtimes: Runtime<S>[] = [];
  try {
    for (const n of counts) {
      runtimes.push(
        await createRuntime<S>({
          worker: simWorker({ kind: '3d', count: RUNTIME_COUNT, tickRate: 60, emit: n }),
          schema: schema3d,
          capacity: RUNTIME_COUNT,
          visibility: null,
          events: { capacity: ringCapacityFor(n) },
        }),
      );
    }
    const waitsBefore = await Promise.all(runtimes.map(async (r) => (await r.stats()).frameClock.waits));
    const frameSamples: number[][] = counts.map(() => []);
    const stepSamples: number[][] = counts.map(() => []);
    const wrong = counts.map(() => 0);
    let sink = 0;
    // one frame of runtime j: a tick, then the frame that shows it and its events read (timed); its step's time
    const frame = async (j: number): Promise<[number, number]> => {
      const runtime = runtimes[j]!;
      await runtime.stepOnce();
      const time = runtime.sample(Number.POSITIVE_INFINITY).currentTime;
      const start = performance.now();
      const events = runtime.frameAt(time).events;
      const length = events.length;
      for (let i = 0; i < length; i++) sink += events.code(i) + events.payload(i, 0);
      const ms = performance.now() - start;
      if (length !== counts[j]) wrong[j]!++;
      return [ms, (await runtime.stats()).worker.lastStepMs];
    };
    // warm up: a second's worth of frames each
    for (let f = 0; f < 60; f++) for (let j = 0; j < counts.length; j++) await frame(j);
    for (let r = 0; r < samples; r++) {
      const frameSum = counts.map(() => 0);
      const stepSum = counts.map(() => 0);
      for (let f = 0; f < framesPerSample; f++) {
        for (let m = 0; m < counts.length; m++) {
          const j = (m + f + r) % counts.length;
          const [ms, step] = await frame(j);
          frameSum[j]! += ms;
          stepSum[j]! += step;
        }
      }
      for (let j = 0; j < counts.length; j++) {
        frameSamples[j]!.push(frameSum[j]! / framesPerSample);
        stepSamples[j]!.push(stepSum[j]! / framesPerSample);
      }
    }
    if (sink === -1) throw new Error('unreachable: keeps the reads alive');
    const after = await Promise.all(runtimes.map((r) => r.stats()));
    const perEvent = (xs: number[], base: number[], n: number) => spread(xs.map((x, i) => (1e6 * (x - base[i]!)) / n));
    return counts.map((n, j) => ({
      n,
      capacity: ringCapacityFor(n),
      frameMs: spread(frameSamples[j]!),
      stepMs: spread(stepSamples[j]!),
      ...(n === 0 ? {} : { pageNsPerEvent: perEvent(frameSamples[j]!, frameSamples[0]!, n), workerNsPerEvent: perEvent(stepSamples[j]!, stepSamples[0]!, n) }),
      wrongFrames: wrong[j]!,
      lost: after[j]!.events.lost,
      waits: after[j]!.frameClock.waits - waitsBefore[j]!,
    }));
  } finally {
    for (const r of runtimes) r.dispose();
  }
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

/** The worker's side: one worker per N (events.worker.ts), asked for a sample in turn, the order rotating each round. */
async function workerSide(counts: readonly number[], samples: number, sampleMs: number): Promise<EventCostRow[]> {
  const workers = counts.map((n) => new Worker(new URL('../events.worker.ts', import.meta.url), { type: 'module', name: `events-${n}` }));
  const ask = (j: number, message: EventsToWorker) =>
    new Promise<EventsToPage>((resolve, reject) => {
      const worker = workers[j]!;
      worker.onerror = (event) => reject(new Error(`events worker: ${event.message}`));
      worker.onmessage = (event: MessageEvent<EventsToPage>) => (event.data.type === 'error' ? reject(new Error(event.data.message)) : resolve(event.data));
      worker.postMessage(message);
    });
  try {
    const rigs: { n: number; capacity: number; ticks: number; lost: number }[] = [];
    const batches: number[] = [];
    // one at a time: the warm-ups do not share the cores
    for (let j = 0; j < counts.length; j++) {
      const ready = await ask(j, { type: 'setup', n: counts[j]!, sampleMs });
      if (ready.type !== 'ready') throw new Error('events worker: not ready');
      rigs.push({ n: counts[j]!, capacity: ready.capacity, ticks: ready.ticks, lost: 0 });
      batches.push(ready.batches);
    }
    const perTick: number[][] = counts.map(() => []);
    for (let r = 0; r < samples; r++) {
      for (let m = 0; m < counts.length; m++) {
        const j = (m + r) % counts.length;
        const reply = await ask(j, { type: 'sample' });
        if (reply.type !== 'sample') throw new Error('events worker: no sample');
        perTick[j]!.push(reply.perTickMs);
        rigs[j]!.lost = reply.lost;
      }
    }
    return costRows('emit', rigs, batches, perTick);
  } finally {
    for (const w of workers) w.terminate();
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
  const emit = await workerSide(counts, perEventSamples, 2);
  logCosts('worker emit + commit', emit);
  await collectGarbage();
  const present = await measureEventCosts('present', counts, perEventSamples, 2);
  logCosts('page present + read', present);
  await collectGarbage();
  const runtimeSamples = quick ? 3 : 15;
  const framesPerSample = quick ? 10 : 30;
  const runtime = await throughRuntime(counts, runtimeSamples, framesPerSample);
  for (const r of runtime) {
    log(
      `events through the runtime N=${r.n}: frame ${fmt(r.frameMs, 2, 1000)} µs, step ${fmt(r.stepMs, 2, 1000)} µs` +
        (r.pageNsPerEvent && r.workerNsPerEvent ? `; ns an event: page ${fmt(r.pageNsPerEvent, 1)}, worker ${fmt(r.workerNsPerEvent, 1)}` : '') +
        `; wrong frames ${r.wrongFrames}, lost ${r.lost}, waits ${r.waits}`,
    );
  }
  return {
    frame,
    emit,
    present,
    runtime,
    runtimeCount: RUNTIME_COUNT,
    framesPerSample,
    samples: { frame: frameSamples, perEvent: perEventSamples, runtime: runtimeSamples },
  };
}
