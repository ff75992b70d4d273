/**
 * The transport contract: one suite, run against both transports (the shared buffer and the message path), in
 * one Node thread with a real MessageChannel and SharedArrayBuffer. The page's side and the worker's side are
 * the library's own (`MainTransport`, `WorkerTransport`); the worker publishes with the real `SlotWriter`.
 *
 * What both must do: hand the page a pair whose data and meta agree, the newest one after any stall; mirror the
 * header words; carry frame times; deliver every input event they accepted, in order, and refuse (false,
 * counted) what could not be delivered; hand the page every game event of a tick by the time that tick's state
 * is the pair, in order, once, and none of a step that threw; report events lost to a full ring; and keep memory
 * bounded however far behind the page falls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import { I32, META, STATUS } from '../../src/core/layout.ts';
import { readNextFrame } from '../../src/core/doorbell.ts';
import type { PublishMeta } from '../../src/core/slot-writer.ts';
import type { InputEvent } from '../../src/core/input-reader.ts';
import { EVENTS_LOST } from '../../src/core/event-ring.ts';
import type { GameEvent } from '../../src/core/event-reader.ts';
import type { PageHost } from '../../src/contracts/host.ts';
import type { PageTransport, Transport, WorkerTransport } from '../../src/contracts/transport.ts';
import type { StateWriter } from '../../src/core/slot-writer.ts';
import { DEFAULT_TRANSPORTS } from '../../src/transports/library.ts';

const schema = defineSchema({ v: { width: 2, kind: 'linear' } });
const CAPACITY = 3;
const INPUT = { capacity: 16, payloadWidth: 2 };
const EVENTS = { capacity: 16, payloadWidth: 2 };

interface Pair {
  main: PageTransport<typeof schema>;
  worker: WorkerTransport<typeof schema>;
  writer: StateWriter<typeof schema>;
  world: Float32Array;
  /** Publishes tick `tick` with every value of the world set to it. */
  publish(tick: number): void;
  /** Lets messages in flight arrive (nothing to wait for with shared memory). */
  settle(): Promise<void>;
  /** The page's pair now: ticks from the meta and from the data. */
  seen(): { previousTick: number; tick: number; previousData: number; data: number; previousTime: number; currentTime: number } | null;
}

const meta = (tick: number): PublishMeta => ({
  previousTick: Math.max(0, tick - 1),
  currentTick: tick,
  previousTime: 10 * Math.max(0, tick - 1),
  currentTime: 10 * tick,
  count: CAPACITY,
  previousCount: CAPACITY,
  simTime: tick,
  scale: 1,
  snaps: 0,
});

const open: Array<PageTransport<typeof schema>> = [];
afterEach(() => {
  for (const t of open.splice(0)) t.close();
});

/** Only what the page halves ask of their host. */
const host = { kind: 'test', sharedMemory: () => null } as unknown as PageHost;

const transports = new Map<string, Transport>(DEFAULT_TRANSPORTS.map((t) => [t.kind, t]));
const KINDS = [...transports.keys()];

function connect(kind: string, capacity = CAPACITY): Pair {
  const transport = transports.get(kind)!;
  const main = transport.page({ schema, layout: computeLayout(schema, capacity), anchor: 0, maxSpins: 100, input: INPUT, events: EVENTS, kernels: 'js', host });
  open.push(main);
  const worker = transport.worker(schema, main.attach);
  const world = new Float32Array(worker.views.layout.blockBytes / 4);
  const writer = worker.writer(world, () => 0);
  const publish = (tick: number) => {
    world.fill(tick, 0, capacity * 2);
    if (tick === 0) writer.publishInitial(meta(0));
    else writer.publish(meta(tick));
    worker.published(writer.front);
  };
  return {
    main,
    worker,
    writer,
    world,
    publish,
    async settle() {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    },
    seen() {
      const pair = main.source.acquire();
      if (pair === null) return null;
      try {
        return {
          previousTick: pair.metaWords[META.PREV_TICK]!,
          tick: pair.metaWords[META.CUR_TICK]!,
          previousData: pair.previous.v[0]!,
          data: pair.current.v[0]!,
          previousTime: pair.metaWords[META.PREV_TIME]!,
          currentTime: pair.metaWords[META.CUR_TIME]!,
        };
      } finally {
        main.source.release();
      }
    },
  };
}

/** Every event the worker's ticks would take now, as [code, p0]. */
function takeAll(worker: WorkerTransport<typeof schema>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  worker.input!.take(Number.POSITIVE_INFINITY, (e: InputEvent) => out.push([e.code, e.payload(0)]));
  return out;
}

// every transport the library ships (the registry's list): a new one is held to the same contract by being there
for (const kind of KINDS) {
  describe(`transport contract: ${kind}`, () => {
    it('hands the page tick 0 after attach, then each publish as the pair (previous, current), data and meta agreeing', async () => {
      const t = connect(kind);
      expect(t.main.kind).toBe(kind);
      expect(t.worker.kind).toBe(kind);
      t.publish(0);
      await t.settle();
      expect(t.seen()).toEqual({ previousTick: 0, tick: 0, previousData: 0, data: 0, previousTime: 0, currentTime: 0 });
      expect(t.main.source.publishCount()).toBe(1);
      for (let tick = 1; tick <= 5; tick++) {
        t.publish(tick);
        await t.settle();
        expect(t.seen()).toEqual({ previousTick: tick - 1, tick, previousData: tick - 1, data: tick, previousTime: 10 * (tick - 1), currentTime: 10 * tick });
        expect(t.main.source.publishCount()).toBe(tick + 1);
      }
    });

    it('after the page falls behind by hundreds of publishes: the newest pair, data matching meta, and bounded memory', async () => {
      const t = connect(kind);
      t.publish(0);
      await t.settle();
      // the page does not run (no message is delivered) while the worker publishes 500 states
      for (let tick = 1; tick <= 500; tick++) t.publish(tick);
      await t.settle();
      expect(t.seen()).toEqual({ previousTick: 499, tick: 500, previousData: 499, data: 500, previousTime: 4990, currentTime: 5000 });
      expect(t.main.source.publishCount()).toBe(501);
      // issue #14 bug 2: the message path grew one pooled buffer per state the page fell behind by, forever
      expect(t.worker.stateBuffers()).toBeLessThanOrEqual(4);
      t.publish(501);
      await t.settle();
      expect(t.seen()).toMatchObject({ previousTick: 500, tick: 501, previousData: 500, data: 501 });
    });

    // what test/browser-plain/fallback.test.ts reads from a worker publishing at 1 kHz, here state by state: the
    // message path posts each state's live entities only, into pooled buffers that held other states before
    it('with a count that changes every publish (none and all among them), each pair reads whole, whether the page keeps up or falls behind', async () => {
      // a capacity whose runs lie far enough apart (MERGE_GAP_FLOATS) that a copy of the live part is not the whole
      const capacity = 2048;
      const t = connect(kind, capacity);
      const counts = [2048, 0, 700, 2048, 1, 0, 0, 1500, 3, 900, 2048, 2048, 0, 1, 1200];
      const countAt = (tick: number) => counts[tick % counts.length]!;
      const publishCounted = (tick: number) => {
        const count = countAt(tick);
        // the live entities carry the tick; the world past the count a value no state may show
        t.world.fill(tick, 0, 2 * count).fill(-1, 2 * count, 2 * capacity);
        const m = { ...meta(tick), count, previousCount: tick === 0 ? count : countAt(tick - 1) };
        if (tick === 0) t.writer.publishInitial(m);
        else t.writer.publish(m);
        t.worker.published(t.writer.front);
      };
      const checkWhole = (tick: number) => {
        const pair = t.main.source.acquire()!;
        try {
          const count = pair.metaWords[META.COUNT]!;
          const previousCount = pair.metaWords[META.PREV_COUNT]!;
          expect([pair.metaWords[META.CUR_TICK], count, previousCount]).toEqual([tick, countAt(tick), countAt(tick - 1)]);
          expect(Array.from(pair.current.v.subarray(0, 2 * count))).toEqual(new Array(2 * count).fill(tick));
          expect(Array.from(pair.previous.v.subarray(0, 2 * previousCount))).toEqual(new Array(2 * previousCount).fill(tick - 1));
        } finally {
          t.main.source.release();
        }
      };
      publishCounted(0);
      await t.settle();
      // keeping up: every state arrives before the next
      for (let tick = 1; tick <= 30; tick++) {
        publishCounted(tick);
        await t.settle();
        checkWhole(tick);
      }
      // falling behind by one to nine states at a time
      let tick = 30;
      for (let behind = 1; behind <= 9; behind++) {
        for (let k = 0; k < behind; k++) publishCounted(++tick);
        await t.settle();
        checkWhole(tick);
      }
      expect(t.worker.stateBuffers()).toBeLessThanOrEqual(4);
    });

    it('re-times the front pair on a restamp', async () => {
      const t = connect(kind);
      t.publish(0);
      t.publish(1);
      t.writer.restamp(100, 110);
      t.worker.restamped(t.writer.front);
      await t.settle();
      expect(t.seen()).toMatchObject({ previousTick: 0, tick: 1, previousTime: 100, currentTime: 110, data: 1 });
    });

    it('mirrors the header words the page watches (STATUS, OVERLOADS, HEARTBEAT)', async () => {
      const t = connect(kind);
      t.publish(0);
      Atomics.store(t.worker.views.i32, I32.STATUS, STATUS.FAULTED);
      Atomics.add(t.worker.views.i32, I32.OVERLOADS, 3);
      Atomics.add(t.worker.views.i32, I32.HEARTBEAT, 7);
      t.worker.headerChanged();
      await t.settle();
      expect(Atomics.load(t.main.header, I32.STATUS)).toBe(STATUS.FAULTED);
      expect(Atomics.load(t.main.header, I32.OVERLOADS)).toBe(3);
      expect(Atomics.load(t.main.header, I32.HEARTBEAT)).toBe(7);
    });

    it('carries the next frame time to the worker', async () => {
      const t = connect(kind);
      t.main.expectFrame(1234.5);
      await t.settle();
      expect(readNextFrame(t.worker.views)).toBe(1234.5);
    });

    it('delivers every input event it accepted, in order, and refuses (false, counted) what it cannot deliver', async () => {
      const t = connect(kind);
      t.publish(0);
      const input = t.main.input!;
      // 3x the ring while the worker takes nothing (a paused simulation): issue #14 bug 3, the message path
      // accepted all of them and the worker's ring dropped the surplus
      const accepted: number[] = [];
      for (let i = 0; i < 3 * INPUT.capacity; i++) {
        if (input.push(i, 1, i)) accepted.push(i);
        t.main.inputPushed();
        if (i % 5 === 0) await t.settle();
      }
      await t.settle();
      expect(accepted).toEqual(Array.from({ length: INPUT.capacity }, (_, i) => i));
      expect(input.rejected).toBe(2 * INPUT.capacity);
      // the worker's ticks take them: every accepted event, in order, none refused on its side
      expect(takeAll(t.worker)).toEqual(accepted.map((i) => [1, i]));
      expect(t.worker.inputRejected()).toBe(0);
      // once the page hears they were taken (the next publish tells it), the ring takes events again
      t.publish(1);
      await t.settle();
      expect(input.push(100, 2, 100)).toBe(true);
      t.main.inputPushed();
      await t.settle();
      expect(takeAll(t.worker)).toEqual([[2, 100]]);
    });

    it("hands the page each tick's events by the time that tick is the pair: in order, once, none of a step that threw", async () => {
      const t = connect(kind);
      const events = t.worker.events!;
      const reader = t.main.events!;
      t.publish(0);
      await t.settle();
      const seen: Array<[number, number, number]> = [];
      const collect = (e: GameEvent) => seen.push([e.tick, e.code, e.payload(0)]);
      for (let tick = 1; tick <= 40; tick++) {
        // a step that emits (tick % 3) events; every fifth tick's step throws after emitting, and is made again
        if (tick % 5 === 0) {
          events.emit(tick, 99, -1);
          events.abandon();
        }
        for (let k = 0; k < tick % 3; k++) expect(events.emit(tick, 7, tick * 10 + k)).toBe(true);
        t.publish(tick);
        await t.settle();
        // the pair is this tick's: its events are there, and a frame showing it presents them
        expect(t.seen()!.tick).toBe(tick);
        reader.present(tick).forEach(collect);
      }
      const expected: Array<[number, number, number]> = [];
      for (let tick = 1; tick <= 40; tick++) for (let k = 0; k < tick % 3; k++) expected.push([tick, 7, tick * 10 + k]);
      expect(seen).toEqual(expected);
      expect(reader.lost).toBe(0);
    });

    it('a frame short of a tick presents none of its events; the page falling behind loses none up to the capacity', async () => {
      const t = connect(kind);
      const events = t.worker.events!;
      const reader = t.main.events!;
      t.publish(0);
      await t.settle();
      for (let tick = 1; tick <= 6; tick++) {
        events.emit(tick, tick, 0);
        events.emit(tick, tick, 1);
        t.publish(tick);
      }
      await t.settle();
      // 12 events committed, the ring holds 16: a frame showing tick 3 presents those of ticks 1 to 3, in order
      const window = reader.present(3);
      expect(Array.from({ length: window.length }, (_, i) => [window.tick(i), window.payload(i, 0)])).toEqual([
        [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1],
      ]);
      expect(reader.present(3).length).toBe(0);
      expect(reader.present(6).length).toBe(6);
      expect(reader.lost).toBe(0);
    });

    it('reports events lost to a full ring with an EVENTS_LOST event in their place, never silently', async () => {
      const t = connect(kind);
      const events = t.worker.events!;
      const reader = t.main.events!;
      t.publish(0);
      await t.settle();
      // 20 events in one tick, a ring of 16: 16 go in, 4 are lost
      let accepted = 0;
      for (let k = 0; k < 20; k++) if (events.emit(1, 5, k)) accepted++;
      expect(accepted).toBe(16);
      t.publish(1);
      await t.settle();
      const first = reader.present(1);
      expect(first.length).toBe(16);
      // the next tick's event finds no room either: the page holds the last frame's 16 until its next frame (the
      // shared ring refuses it in the worker; the message transport's page ring, on arrival)
      events.emit(2, 6, 0);
      t.publish(2);
      await t.settle();
      expect(reader.present(2).length).toBe(0); // and now it has handed them back
      // the loss is reported first, at the tick of the first event lost (5 of them), then the new event
      expect(events.emit(3, 6, 1)).toBe(true);
      t.publish(3);
      await t.settle();
      const third = reader.present(3);
      expect([third.length, third.code(0), third.tick(0), third.payload(0, 0), third.code(1), third.payload(1, 0)]).toEqual([2, EVENTS_LOST, 1, 5, 6, 1]);
      expect(reader.lost).toBe(5);
    });
  });
}
