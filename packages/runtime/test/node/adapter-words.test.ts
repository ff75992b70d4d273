/**
 * steadyframe/adapter's named accessors read the very words the worker writes: a pair published by the
 * worker's writer and read under the reader's lock, and the header of a buffer the worker's side updates.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import {
  clockAnchorOf,
  computeLayout,
  countOf,
  currentTimeOf,
  heartbeatOf,
  overloadsOf,
  previousCountOf,
  previousTickOf,
  previousTimeOf,
  publishCountOf,
  readerStallsOf,
  simSecondsOf,
  snapsOf,
  statusOf,
  tickOf,
  timeScaleOf,
} from 'steadyframe/adapter';
import { allocateSharedBuffer, createSharedViews, I32, STATUS } from '../../src/core/layout.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter } from '../../src/core/slot-writer.ts';

const schema = defineSchema({ position: { width: 2, kind: 'linear' } });
const CAPACITY = 8;

function buffer() {
  const layout = computeLayout(schema, CAPACITY);
  const views = createSharedViews(allocateSharedBuffer(layout, 1234.5), schema, CAPACITY);
  const writer = new SlotWriter(views, new Float32Array(layout.blockBytes / 4), () => 0);
  return { views, writer, reader: new SlotReader(views) };
}

describe('pair accessors', () => {
  it('read each meta word of the pair the worker published', () => {
    const { writer, reader } = buffer();
    const meta = { count: 5, previousCount: 3, simTime: 2500, scale: 0.5, snaps: 2 };
    writer.publishInitial({ ...meta, previousTick: 6, currentTick: 6, previousTime: 100, currentTime: 100 });
    writer.publish({ ...meta, previousTick: 6, currentTick: 7, previousTime: 100, currentTime: 133 });
    const pair = reader.acquire()!;
    const read = {
      previousTick: previousTickOf(pair),
      tick: tickOf(pair),
      previousTime: previousTimeOf(pair),
      currentTime: currentTimeOf(pair),
      count: countOf(pair),
      previousCount: previousCountOf(pair),
      snaps: snapsOf(pair),
      simSeconds: simSecondsOf(pair),
      timeScale: timeScaleOf(pair),
    };
    reader.release();
    expect(read).toEqual({ previousTick: 6, tick: 7, previousTime: 100, currentTime: 133, count: 5, previousCount: 3, snaps: 2, simSeconds: 2.5, timeScale: 0.5 });
  });
});

describe('header accessors', () => {
  it('read the status, publishes, heartbeat, overloads, reader stalls and clock anchor', () => {
    const { views, writer } = buffer();
    expect(statusOf(views)).toBe('idle');
    expect(clockAnchorOf(views)).toBe(1234.5);
    const meta = { count: 1, previousCount: 1, simTime: 0, scale: 1, snaps: 0 };
    writer.publishInitial({ ...meta, previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0 });
    writer.publish({ ...meta, previousTick: 0, currentTick: 1, previousTime: 0, currentTime: 10 });
    expect(publishCountOf(views)).toBe(2);
    for (const [code, name] of [
      [STATUS.RUNNING, 'running'],
      [STATUS.PAUSED, 'paused'],
      [STATUS.STOPPED, 'stopped'],
      [STATUS.FAULTED, 'faulted'],
    ] as const) {
      Atomics.store(views.i32, I32.STATUS, code);
      expect(statusOf(views)).toBe(name);
    }
    Atomics.store(views.i32, I32.HEARTBEAT, 41);
    Atomics.store(views.i32, I32.OVERLOADS, 3);
    expect([heartbeatOf(views), overloadsOf(views)]).toEqual([41, 3]);
    // the counters that wrap read unsigned, as the reader reads them
    Atomics.store(views.i32, I32.PUBLISH_SEQ, -1);
    Atomics.store(views.i32, I32.READER_STALLS, -2);
    expect([publishCountOf(views), readerStallsOf(views)]).toEqual([2 ** 32 - 1, 2 ** 32 - 2]);
  });
});
