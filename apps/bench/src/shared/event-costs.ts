/**
 * The events suite's micro-measures (suites/events.ts on the page, events.worker.ts in a worker): the event ring's
 * two sides driven directly, a writer and a reader on one ring in one thread, each side timed alone.
 *
 * | side     | timed, per tick or frame                                       | untimed, between batches          |
 * |----------|----------------------------------------------------------------|-----------------------------------|
 * | `emit`   | N × `tick.emit(code, p0..p3)` (tickEmitters, as a step calls it) | the reader frees the ring         |
 * |          | + `EventWriter.commit()` (what the publish's flip runs)         |                                   |
 * | `present`| `EventReader.present(tick)` + `code(i)` and `payload(i, 0)` of  | the writer fills the ring with    |
 * |          | each of its N events (what a frame and its draw do)             | the batch's ticks, N events each  |
 *
 * A batch is as many ticks as the ring holds at N a tick (the ring sized as ARCHITECTURE.md's "Capacity" says: four
 * ticks' events at least, the default 4,096 below that), so nothing is lost and nothing waits; a sample is batches
 * summed up to about `sampleMs` of timed work. N = 0 is the baseline: the same loop, no events (a commit with
 * nothing staged; a present that finds nothing). The cost of an event is (per-tick ms at N − at 0) / N.
 */
import { EventReader } from '../../../../packages/runtime/src/core/event-reader.ts';
import { allocateEventRing, DEFAULT_EVENT_CAPACITY, DEFAULT_EVENT_PAYLOAD_WIDTH } from '../../../../packages/runtime/src/core/event-ring.ts';
import { EventWriter } from '../../../../packages/runtime/src/core/event-writer.ts';
import { tickEmitters } from '../../../../packages/runtime/src/worker/tick-events.ts';
import { spread, type Spread } from './stats.ts';

export type EventSide = 'emit' | 'present';

/** The ring for N events a tick: the default 4,096, or the power of two that holds four ticks' events. */
export function ringCapacityFor(n: number): number {
  let capacity = DEFAULT_EVENT_CAPACITY;
  while (capacity < 4 * n) capacity *= 2;
  return capacity;
}

/** Ticks a batch runs: as many as the ring holds at N a tick (256 at N = 0). */
const ticksPerBatch = (n: number, capacity: number) => (n === 0 ? 256 : Math.floor(capacity / n));

/** One rig: `batch()` runs a batch and returns its timed ms; `ticks` per batch; `lost` events so far (must be 0). */
export interface EventRig {
  readonly n: number;
  readonly capacity: number;
  readonly ticks: number;
  batch(): number;
  readonly lost: number;
  /** Events the reader saw (present side), a check that every event was read. */
  readonly read: number;
}

export function eventRig(side: EventSide, n: number): EventRig {
  const capacity = ringCapacityFor(n);
  const buffer = allocateEventRing(capacity, DEFAULT_EVENT_PAYLOAD_WIDTH, true);
  const writer = new EventWriter(buffer);
  const reader = new EventReader(buffer);
  const info = { tick: 0 };
  const { emit } = tickEmitters(info, writer);
  const ticks = ticksPerBatch(n, capacity);
  let read = 0;
  let sink = 0;
  const emitTicks = () => {
    for (let t = 0; t < ticks; t++) {
      const tick = ++info.tick;
      for (let i = 0; i < n; i++) emit(1, i, tick, 0.5, -0.5);
      writer.commit();
    }
  };
  const batch =
    side === 'emit'
      ? () => {
          // free the ring: hand the last window back, present everything, hand that back too
          reader.present(Number.POSITIVE_INFINITY);
          reader.present(Number.POSITIVE_INFINITY);
          const start = performance.now();
          emitTicks();
          return performance.now() - start;
        }
      : () => {
          // the last window goes back, then the batch's ticks are written (untimed)
          reader.present(Number.POSITIVE_INFINITY);
          const first = info.tick + 1;
          emitTicks();
          const start = performance.now();
          for (let t = 0; t < ticks; t++) {
            const events = reader.present(first + t);
            const length = events.length;
            for (let i = 0; i < length; i++) sink += events.code(i) + events.payload(i, 0);
            read += length;
          }
          const ms = performance.now() - start;
          if (sink === -1) throw new Error('unreachable: keeps the reads alive');
          return ms;
        };
  return {
    n,
    capacity,
    ticks,
    batch,
    get lost() {
      return writer.lost;
    },
    get read() {
      return read;
    },
  };
}

export interface EventCostRow {
  readonly side: EventSide;
  readonly n: number;
  readonly capacity: number;
  /** Ticks (frames) per batch, and per sample. */
  readonly ticksPerBatch: number;
  readonly ticksPerSample: number;
  /** ms per tick (per frame on the present side), median (min–max) over samples. */
  readonly tickMs: Spread;
  /** ns per event: (ms per tick − the same round's at N = 0) / N; absent at N = 0. */
  readonly nsPerEvent?: Spread;
  readonly lost: number;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Warms a rig up (JIT tiers, the ring's pages), about 150 ms, and returns the batches a sample of `sampleMs` takes. */
export function warmUp(rig: EventRig, sampleMs: number): number {
  const until = performance.now() + 150;
  let ms = 0;
  let k = 0;
  while (k < 3 || performance.now() < until) {
    ms += rig.batch();
    k++;
  }
  return Math.max(1, Math.min(20_000, Math.ceil(sampleMs / Math.max(1e-4, ms / k))));
}

/** One sample: `batches` batches, ms per tick. */
export function sampleRig(rig: EventRig, batches: number): number {
  let ms = 0;
  for (let b = 0; b < batches; b++) ms += rig.batch();
  return ms / (batches * rig.ticks);
}

/** The rows of a side, from each N's per-tick samples (round by round; counts[0] must be 0, the baseline). */
export function costRows(side: EventSide, rigs: readonly Pick<EventRig, 'n' | 'capacity' | 'ticks' | 'lost'>[], batches: readonly number[], perTick: readonly number[][]): EventCostRow[] {
  return rigs.map((rig, j) => ({
    side,
    n: rig.n,
    capacity: rig.capacity,
    ticksPerBatch: rig.ticks,
    ticksPerSample: batches[j]! * rig.ticks,
    tickMs: spread(perTick[j]!),
    ...(rig.n === 0 ? {} : { nsPerEvent: spread(perTick[j]!.map((ms, i) => (1e6 * (ms - perTick[0]![i]!)) / rig.n)) }),
    lost: rig.lost,
  }));
}

/**
 * Times one side at each N (0 first, the baseline) in this thread, `samples` rounds; every N in every round, the
 * order rotating from round to round, so that drift hits each alike. (The page's side: its timed loop calls only
 * the reader's class. The worker's side runs one rig per worker instead, events.worker.ts: a step's call site of
 * `tick.emit` sees one emitter, as in a simulation worker; four rigs in one thread would make it polymorphic.)
 */
export async function measureEventCosts(side: EventSide, counts: readonly number[], samples: number, sampleMs = 4): Promise<EventCostRow[]> {
  const rigs = counts.map((n) => eventRig(side, n));
  const batches = rigs.map((rig) => warmUp(rig, sampleMs));
  await macrotask();
  const perTick: number[][] = rigs.map(() => []);
  for (let r = 0; r < samples; r++) {
    for (let m = 0; m < rigs.length; m++) {
      const j = (m + r) % rigs.length;
      perTick[j]!.push(sampleRig(rigs[j]!, batches[j]!));
      await macrotask(); // GC and messages outside the timed batches
    }
  }
  return costRows(side, rigs, batches, perTick);
}

/** The worker's side, one N per worker: set up and warm up, then one sample per request. */
export type EventsToWorker = { readonly type: 'setup'; readonly n: number; readonly sampleMs: number } | { readonly type: 'sample' };
export type EventsToPage =
  | { readonly type: 'ready'; readonly capacity: number; readonly ticks: number; readonly batches: number }
  | { readonly type: 'sample'; readonly perTickMs: number; readonly lost: number }
  | { readonly type: 'error'; readonly message: string };
