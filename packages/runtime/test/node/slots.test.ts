import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import { allocateSharedBuffer, createSharedViews, I32, LOCK, META } from '../../src/core/layout.ts';
import { frameNeedsWake, readNextFrame, writeCovered, writeNextFrame } from '../../src/core/doorbell.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter, type PublishMeta } from '../../src/core/slot-writer.ts';

const schema = defineSchema({ v: { width: 2, kind: 'linear' } });

function setup() {
  const views = createSharedViews(allocateSharedBuffer(computeLayout(schema, 3), 0), schema, 3);
  const world = new Float32Array(views.layout.blockBytes / 4);
  const writer = new SlotWriter(views, world, () => 0);
  const reader = new SlotReader(views, 100);
  const meta = (tick: number): PublishMeta => ({
    previousTick: tick - 1,
    currentTick: tick,
    previousTime: tick - 1,
    currentTime: tick,
    count: 3,
    previousCount: 3,
    simTime: tick,
    scale: 1,
    snaps: 0,
  });
  return { views, world, writer, reader, meta };
}

describe('slot discipline (one thread)', () => {
  it('writes the back slot, then flips: previous is the old current', () => {
    const { views, world, writer, reader, meta } = setup();
    world.fill(7);
    writer.publishInitial(meta(0));
    expect(writer.front).toBe(0);
    world.fill(8);
    writer.publish(meta(1));
    expect(writer.front).toBe(1);
    expect(Atomics.load(views.i32, I32.STATE_INDEX)).toBe(1);
    const slot = reader.acquire()!;
    expect(slot.index).toBe(1);
    expect(Array.from(slot.previous.v)).toEqual([7, 7, 7, 7, 7, 7]);
    expect(Array.from(slot.current.v)).toEqual([8, 8, 8, 8, 8, 8]);
    expect(slot.metaWords[META.CUR_TICK]).toBe(1);
    reader.release();
    // the slot the reader saw before is untouched by the next publish's preparation until it flips
    world.fill(9);
    writer.publish(meta(2));
    const next = reader.acquire()!;
    expect(next.index).toBe(0);
    expect(Array.from(next.previous.v)).toEqual([8, 8, 8, 8, 8, 8]);
    expect(Array.from(next.current.v)).toEqual([9, 9, 9, 9, 9, 9]);
    reader.release();
    expect(Atomics.load(views.i32, I32.PUBLISH_SEQ)).toBe(3);
  });

  it('gives up after the spin bound and counts a miss instead of blocking', () => {
    const { views, reader } = setup();
    Atomics.store(views.i32, I32.LOCK, LOCK.WRITER); // a writer that never lets go
    expect(reader.acquire()).toBeNull();
    expect(reader.stats).toMatchObject({ acquires: 0, misses: 1, spins: 100 });
    Atomics.store(views.i32, I32.LOCK, LOCK.FREE);
    expect(reader.acquire()).not.toBeNull();
    expect(Atomics.load(views.i32, I32.LOCK)).toBe(LOCK.READER);
    reader.release();
    expect(Atomics.load(views.i32, I32.LOCK)).toBe(LOCK.FREE);
    expect(reader.stats).toMatchObject({ acquires: 1, misses: 1 });
  });

  it('passes the next frame time through its sequence lock, bit for bit', () => {
    const { views } = setup();
    expect(readNextFrame(views)).toBe(0);
    for (const t of [1234.5678, 1e12 + 0.125, -0, Number.MIN_VALUE, 2 ** 53 - 1]) {
      writeNextFrame(views, t);
      expect(Object.is(readNextFrame(views), t)).toBe(true);
    }
    expect(Atomics.load(views.i32, I32.FRAME_SEQ)).toBe(10);
  });

  it('rings the doorbell for a frame unless the sleeping worker has made states up to it', () => {
    const { views } = setup();
    // a fresh buffer: no plan (COVERED = -Infinity), every frame wakes the worker
    expect(frameNeedsWake(views, -1e300)).toBe(true);
    expect(writeNextFrame(views, 10)).toBe(true);
    // asleep with states made up to t = 100: frames up to it need no wake-up, later ones do
    writeCovered(views, 100);
    expect(writeNextFrame(views, 90)).toBe(false);
    expect(writeNextFrame(views, 100)).toBe(false);
    expect(frameNeedsWake(views, Number.NaN)).toBe(true); // never skip on a time that compares false
    // a frame earlier than the one it replaces always rings, covered or not (the worker may be holding for
    // the later one, and plans its return to the wall clock from it)
    expect(writeNextFrame(views, 95)).toBe(true);
    expect(writeNextFrame(views, 96)).toBe(false);
    expect(writeNextFrame(views, 100.001)).toBe(true);
    // the frame time itself is published either way
    expect(readNextFrame(views)).toBe(100.001);
    // while the worker rewrites COVERED (the sequence is odd), in doubt: wake
    Atomics.add(views.i32, I32.PLAN_SEQ, 1);
    expect(frameNeedsWake(views, 50)).toBe(true);
    Atomics.add(views.i32, I32.PLAN_SEQ, 1);
    expect(frameNeedsWake(views, 50)).toBe(false);
    // awake again: every frame rings
    writeCovered(views, Number.NEGATIVE_INFINITY);
    expect(writeNextFrame(views, 50)).toBe(true);
    expect(Atomics.load(views.i32, I32.PLAN_SEQ)).toBe(6); // three rewrites, each two steps
  });

  it('re-times the front slot under the lock', () => {
    const { views, world, writer, reader, meta } = setup();
    world.fill(1);
    writer.publishInitial(meta(0));
    writer.publish(meta(1));
    writer.restamp(100, 150);
    expect(writer.frontMeta(META.PREV_TIME)).toBe(100);
    const slot = reader.acquire()!;
    expect([slot.metaWords[META.PREV_TIME], slot.metaWords[META.CUR_TIME]]).toEqual([100, 150]);
    reader.release();
    expect(Atomics.load(views.i32, I32.LOCK)).toBe(LOCK.FREE);
  });

  // issue #14 bug 4: the page used COUNT as the worker wrote it (a negative one passed the kernels' bounds
  // check; 1e8 at capacity 10 held the lock 1.6 s and came back as frame.count)
  it('hands out COUNT and PREV_COUNT clamped to whole numbers within the capacity, whatever the worker wrote', () => {
    const { views, world, writer, reader, meta } = setup();
    world.fill(1);
    writer.publishInitial(meta(0));
    for (const [written, seen] of [
      [-5, 0],
      [1e8, 3],
      [Number.NaN, 0],
      [2.7, 2],
      [3, 3],
    ] as const) {
      writer.publish({ ...meta(1), count: written, previousCount: written });
      const slot = reader.acquire()!;
      expect([slot.metaWords[META.COUNT], slot.metaWords[META.PREV_COUNT]]).toEqual([seen, seen]);
      reader.release();
      // the worker's own words are left as it wrote them
      expect(writer.frontMeta(META.COUNT)).toEqual(written);
    }
  });

  // issue #14 bug 5: PUBLISH_SEQ read signed went negative after 2^31 publishes
  it('counts publishes unsigned, modulo 2^32', () => {
    const { views, world, writer, reader, meta } = setup();
    world.fill(1);
    writer.publishInitial(meta(0));
    Atomics.store(views.i32, I32.PUBLISH_SEQ, 2 ** 31 - 1);
    expect(reader.publishCount()).toBe(2 ** 31 - 1);
    writer.publish(meta(1));
    expect(reader.publishCount()).toBe(2 ** 31);
    Atomics.store(views.i32, I32.PUBLISH_SEQ, -1);
    expect(reader.publishCount()).toBe(2 ** 32 - 1);
    writer.publish(meta(2));
    expect(reader.publishCount()).toBe(0);
    expect((reader.publishCount() - (2 ** 32 - 1)) >>> 0).toBe(1);
  });

  // issue #14 bug 6: a reader that never released parked the worker in 50 ms waits forever, its heartbeat stopped
  it('gives up a publish when the page holds the lock past the stall bound, counts it, and beats meanwhile', () => {
    const { views, world, reader, meta } = setup();
    const writer = new SlotWriter(views, world, () => performance.now(), 5, 30);
    world.fill(1);
    writer.publishInitial(meta(0));
    const held = reader.acquire()!; // and never released (yet)
    expect(held.metaWords[META.CUR_TICK]).toBe(0);
    const beats = Atomics.load(views.i32, I32.HEARTBEAT);
    world.fill(2);
    expect(writer.publish(meta(1))).toBe(false);
    expect(writer.front).toBe(0);
    expect(Atomics.load(views.i32, I32.READER_STALLS)).toBe(1);
    expect(writer.stats.readerStalls).toBe(1);
    expect(Atomics.load(views.i32, I32.HEARTBEAT)).toBeGreaterThan(beats);
    // the request was withdrawn: the page still holds the lock, and its release just frees it
    expect(Atomics.load(views.i32, I32.LOCK)).toBe(LOCK.READER);
    expect(writer.restamp(1, 2)).toBe(false);
    reader.release();
    expect(Atomics.load(views.i32, I32.LOCK)).toBe(LOCK.FREE);
    // the next publish goes through; its previous state is the last one published (tick 0), and says so
    world.fill(3);
    expect(writer.publish(meta(2))).toBe(true);
    const slot = reader.acquire()!;
    expect([slot.metaWords[META.PREV_TICK], slot.metaWords[META.CUR_TICK], slot.previous.v[0], slot.current.v[0]]).toEqual([0, 2, 1, 3]);
    reader.release();
  });
});
