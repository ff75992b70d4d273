/**
 * A page that holds the lock past the stall bound (READER_STALL_MS) makes the worker skip publishes. What the
 * skipped ticks did must still reach the picture: their snaps (teleports, despawns) and the entities that were
 * absent at one of them; the hand-over must survive the worker taking its request back at the deadline; and one
 * stall must block the worker once, not for the stall bound on every tick while the page still holds the lock.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { allocateSharedBuffer, computeLayout, createSharedViews, fieldViews, generationView, I32, LOCK, META } from '../../src/core/layout.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter, type PublishMeta } from '../../src/core/slot-writer.ts';
import { createWorld } from '../../src/worker/world.ts';
import { allocateEventRing } from '../../src/core/event-ring.ts';
import { EventReader } from '../../src/core/event-reader.ts';
import { EventWriter } from '../../src/core/event-writer.ts';
import { Sampler, type SampleResult } from '../../src/main/sampler.ts';

const schema = defineSchema({ pos: { width: 1, kind: 'linear' } });
const CAPACITY = 4;
/** The stall bound in these tests, ms (the real one is 500). */
const STALL_MS = 5;

/** A world, a writer with a 5 ms stall bound, a reader and a sampler over one buffer, ticked by hand. */
function rig() {
  const layout = computeLayout(schema, CAPACITY);
  const views = createSharedViews(allocateSharedBuffer(layout, 0), schema, CAPACITY);
  const worldBlock = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
  const internals = createWorld(layout, worldBlock, fieldViews<typeof schema>(views.buffer, layout.worldOffset, layout), generationView(views.buffer, layout.worldOffset, layout));
  // an event ring, committed by each flip that takes (as the shared transport's writer does)
  const ring = allocateEventRing(64, 1, true);
  const events = { writer: new EventWriter(ring), reader: new EventReader(ring) };
  const writer = new SlotWriter(views, worldBlock, () => performance.now(), 1, STALL_MS, null, events.writer);
  const reader = new SlotReader(views);
  const render = fieldViews<typeof schema>(new ArrayBuffer(layout.blockBytes), 0, layout);
  const sampler = new Sampler(schema, layout, render);
  const world = internals.world;
  let tick = 0;
  /** One tick as the simulation makes it: the step, then the publish with this tick's snaps. */
  const tickOnce = (step: () => void = () => {}): boolean => {
    const previousCount = world.count;
    step();
    const meta: PublishMeta = {
      previousTick: tick,
      currentTick: tick + 1,
      previousTime: tick * 10,
      currentTime: (tick + 1) * 10,
      count: world.count,
      previousCount,
      simTime: 0,
      scale: 1,
      snaps: internals.takeSnaps(),
    };
    tick++;
    return writer.publish(meta);
  };
  world.count = 3;
  for (let i = 0; i < 3; i++) world.fields.pos[i] = 100 * (i + 1);
  internals.takeSnaps();
  writer.publishInitial({ previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0, count: 3, previousCount: 3, simTime: 0, scale: 1, snaps: 0 });
  /** The front pair sampled halfway between its two states. */
  const frame = () => {
    const slot = reader.acquire()!;
    const meta = slot.metaWords;
    const out = {} as SampleResult;
    sampler.read(slot, (meta[META.PREV_TIME]! + meta[META.CUR_TIME]!) / 2, out);
    const pair = [meta[META.PREV_TICK], meta[META.CUR_TICK]];
    reader.release();
    return { pos: Array.from(render.pos.subarray(0, 3)), pair };
  };
  /** Runs `fn` (a tick) while the page holds the lock: its publish is skipped. */
  const whileHeld = (fn: () => boolean): boolean => {
    reader.acquire();
    const published = fn();
    reader.release();
    return published;
  };
  return { views, world, writer, reader, tickOnce, frame, whileHeld, events, tick: () => tick };
}

describe('publishes skipped for a stalled reader', () => {
  for (const stalled of [false, true]) {
    const during = stalled ? 'a skipped publish' : 'a normal publish';
    const run = (r: ReturnType<typeof rig>, fn: () => boolean) => (stalled ? r.whileHeld(fn) : fn());

    it(`a teleport in ${during} snaps, never blends from the old place`, () => {
      const r = rig();
      r.tickOnce();
      expect(run(r, () => r.tickOnce(() => {
        r.world.fields.pos[0] = 5000;
        r.world.snap(0);
      }))).toBe(!stalled);
      r.tickOnce(() => void (r.world.fields.pos[0]! += 1));
      const f = r.frame();
      expect(f.pair).toEqual(stalled ? [1, 3] : [2, 3]);
      // across the teleport (1 -> 3) it snaps to tick 3; without a skip, (2 -> 3) blends after it
      expect(f.pos[0]).toBe(stalled ? 5001 : 5000.5);
    });

    it(`an entity moved by a despawn in ${during} snaps to its new slot`, () => {
      const r = rig();
      r.tickOnce();
      run(r, () => r.tickOnce(() => r.world.despawn(0)));
      r.tickOnce();
      expect(r.frame().pos[0]).toBe(300); // entity 2 moved into 0: no streak from 100
    });

    it(`entities absent at ${during} and back after it snap`, () => {
      const r = rig();
      r.tickOnce();
      run(r, () => r.tickOnce(() => void (r.world.count = 1)));
      r.tickOnce(() => {
        r.world.count = 3;
        r.world.fields.pos[1] = -7;
        r.world.fields.pos[2] = -9;
      });
      expect(r.frame().pos.slice(1)).toEqual([-7, -9]);
    });
  }

  it('blocks the worker once per stall: later publishes skip at once while the page still holds the lock', () => {
    const r = rig();
    r.reader.acquire();
    expect(r.tickOnce()).toBe(false);
    expect(r.writer.stats.readerStalls).toBe(1);
    const waits = r.writer.stats.flipWaits;
    expect(waits).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect(r.tickOnce()).toBe(false);
    // each later tick waits one short slice for a hand-over, not the stall bound's worth of slices again (a slice
    // lasts at least its 1 ms timeout, so a slow machine makes fewer, never more)
    expect(r.writer.stats.flipWaits - waits).toBeLessThanOrEqual(5);
    expect(r.writer.stats.readerStalls).toBe(1); // one stall, however many ticks it spans
    r.reader.release();
    expect(r.tickOnce()).toBe(true);
    expect(r.frame().pair).toEqual([0, 7]);
  });
});

describe('events of publishes skipped for a stalled reader', () => {
  it('stay staged, unseen by the page, and come with the next publish that takes, in order; a restart would drop them', () => {
    const r = rig();
    const emit = () => r.events.writer.emit(r.tick() + 1, 1, r.tick() + 1);
    // two ticks whose publishes the held lock skips: their events are staged, not committed
    expect(r.whileHeld(() => (emit(), r.tickOnce()))).toBe(false);
    expect(r.whileHeld(() => (emit(), r.tickOnce()))).toBe(false);
    expect(r.events.writer.staged).toBe(2);
    expect(r.events.reader.present(Number.POSITIVE_INFINITY).length).toBe(0);
    // the page lets go: the next publish takes and commits all three ticks' events with it
    emit();
    expect(r.tickOnce()).toBe(true);
    const window = r.events.reader.present(Number.POSITIVE_INFINITY);
    expect(Array.from({ length: window.length }, (_, i) => window.payload(i, 0))).toEqual([1, 2, 3]);
    // a staged event abandoned (restart('last'), restore, play, or a step that threw) never reaches the page
    r.whileHeld(() => (emit(), r.tickOnce()));
    r.events.writer.abandon();
    expect(r.tickOnce()).toBe(true);
    expect(r.events.reader.present(Number.POSITIVE_INFINITY).length).toBe(0);
  });
});

describe('the hand-over when the worker takes its request back', () => {
  it('leaves the lock free, never marked for a writer that gave up', () => {
    const r = rig();
    const { i32 } = r.views;
    expect(r.reader.acquire()).not.toBeNull();
    Atomics.store(i32, I32.LOCK, LOCK.READER_WAKE_WRITER); // the worker asked for the lock...
    // ...and, right between the page's release seeing that and handing the lock over, reaches its stall
    // deadline and takes the request back (3 -> 1), as SlotWriter.lock does
    const realCas = Atomics.compareExchange;
    let withdrawn = false;
    Atomics.compareExchange = ((array: Int32Array, index: number, expected: number, replacement: number) => {
      if (!withdrawn && index === I32.LOCK && expected === LOCK.READER_WAKE_WRITER && replacement === LOCK.WRITER) {
        withdrawn = realCas(array, index, LOCK.READER_WAKE_WRITER, LOCK.READER) === LOCK.READER_WAKE_WRITER;
      }
      return realCas(array, index, expected, replacement);
    }) as typeof Atomics.compareExchange;
    try {
      r.reader.release();
    } finally {
      Atomics.compareExchange = realCas;
    }
    expect(withdrawn).toBe(true);
    expect(Atomics.load(i32, I32.LOCK)).toBe(LOCK.FREE);
    expect(r.reader.acquire()).not.toBeNull(); // the next frame reads
    r.reader.release();
  });
});
