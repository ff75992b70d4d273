/**
 * The client's jitter buffer (src/net/snapshot-buffer.ts): snapshots land in their place by tick however the
 * network reorders them; duplicates and ones no frame can use are dropped and counted; the pair around a render
 * time is exact; a refused message costs nothing kept. Checked against a model over a long seeded run of a
 * reordering, duplicating, lossy link.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from 'steadyframe/testing';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { SnapshotBuffer } from '../../src/net/snapshot-buffer.ts';
import { encodePing, encodeSnapshot, wireFormat } from '../../src/net/wire.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';

const CAPACITY = 3;
const format = wireFormat(computeLayout(motionSchema, CAPACITY));
const SEND_MS = 50;
/** Snapshot k: tick 2k (sent every other tick), at 50 ms a snapshot; entity 0's x is k. */
function snapshotOf(k: number): Uint8Array {
  const buffer = new ArrayBuffer(format.layout.blockBytes);
  const block = new Float32Array(buffer);
  block[format.layout.fields[0]!.offset / 4] = k;
  const generation = generationView(buffer, 0, format.layout);
  generation[0] = k;
  return encodeSnapshot(format, { tick: 2 * k, time: 1000 + k * SEND_MS, count: 2, snaps: 0 }, block, generation);
}
const xOf = (s: { block: Float32Array }) => s.block[format.layout.fields[0]!.offset / 4];

describe('the snapshot buffer', () => {
  it('keeps snapshots in tick order whatever order they come in, and finds the pair around a time', () => {
    const buffer = new SnapshotBuffer(format, 8);
    for (const k of [3, 1, 2, 5, 4]) expect(buffer.insert(snapshotOf(k), 0)).toBe('stored');
    expect(buffer.kept.map((s) => s.tick)).toEqual([2, 4, 6, 8, 10]);
    expect(buffer.stats).toMatchObject({ stored: 5, reordered: 3 });
    const pair = buffer.pairAt(1000 + 2.25 * SEND_MS)!;
    expect([pair.previous.tick, pair.current.tick, xOf(pair.previous), xOf(pair.current)]).toEqual([4, 6, 2, 3]);
    expect(pair.alpha).toBeCloseTo(0.25, 12);
    expect([pair.before, pair.after]).toEqual([false, false]);
    // on a snapshot's own time: that one is the previous, alpha 0
    const on = buffer.pairAt(1000 + 3 * SEND_MS)!;
    expect([on.previous.tick, on.current.tick, on.alpha]).toEqual([6, 8, 0]);
    // the ones before the pair are freed
    expect(buffer.kept.map((s) => s.tick)).toEqual([6, 8, 10]);
  });

  it('says when the time is past the newest (nothing newer yet) or before the oldest', () => {
    const buffer = new SnapshotBuffer(format, 4);
    expect(buffer.pairAt(0)).toBeNull();
    buffer.insert(snapshotOf(10), 0);
    buffer.insert(snapshotOf(11), 0);
    const early = buffer.pairAt(1000)!;
    expect([early.before, early.after, early.alpha, early.previous.tick]).toEqual([true, false, 0, 20]);
    const late = buffer.pairAt(1000 + 12 * SEND_MS)!;
    expect([late.before, late.after, late.alpha, late.previous.tick, late.current.tick]).toEqual([false, true, 1, 22, 22]);
  });

  it('drops duplicates, and snapshots older than what a frame drew from or than all kept when full', () => {
    const buffer = new SnapshotBuffer(format, 3);
    for (const k of [1, 2, 3]) buffer.insert(snapshotOf(k), 0);
    expect(buffer.insert(snapshotOf(2), 0)).toBe('duplicate');
    // full: older than the oldest kept is no use
    expect(buffer.insert(snapshotOf(0), 0)).toBe('stale');
    // full, newer: the oldest is recycled
    expect(buffer.insert(snapshotOf(4), 0)).toBe('stored');
    expect(buffer.kept.map((s) => s.tick)).toEqual([4, 6, 8]);
    // a frame drew from (6, 8): tick 4 and older can never be used again
    buffer.pairAt(1000 + 3.5 * SEND_MS);
    expect(buffer.kept.map((s) => s.tick)).toEqual([6, 8]);
    expect(buffer.insert(snapshotOf(2), 0)).toBe('stale');
    expect(buffer.stats).toMatchObject({ duplicates: 1, stale: 2 });
  });

  it('refuses what is not a snapshot, counted, without losing a kept one, even when full', () => {
    const buffer = new SnapshotBuffer(format, 2);
    buffer.insert(snapshotOf(1), 0);
    buffer.insert(snapshotOf(2), 0);
    const cut = snapshotOf(3).slice(0, 30);
    const damaged = snapshotOf(3);
    damaged[24] = damaged[24]! ^ 0xff; // the time's lowest byte: decodes (a finite time is all that is checked)
    const lying = snapshotOf(3);
    new DataView(lying.buffer).setUint32(20, CAPACITY + 1, true); // a count past the capacity
    expect(buffer.insert(cut, 0)).toBe('truncated');
    expect(buffer.insert(lying, 0)).toBe('count');
    expect(buffer.insert(encodePing(format, { sequence: 3, clientSent: 0 }), 0)).toBe('type');
    expect(buffer.kept.map((s) => [s.tick, xOf(s)])).toEqual([
      [2, 1],
      [4, 2],
    ]);
    expect(buffer.stats.refused).toMatchObject({ truncated: 1, count: 1, type: 1 });
    // a delta against a state this client never had: refused, nothing kept
    const orphan = snapshotOf(3);
    new DataView(orphan.buffer).setUint32(40, 1, true);
    expect(buffer.insert(orphan, 0)).toBe('baseline');
    expect(buffer.insert(damaged, 0)).toBe('stored');
  });

  it('over 20,000 snapshots through a reordering, duplicating, lossy link: the pair is always the model pair', () => {
    const random = mulberry32(77);
    const buffer = new SnapshotBuffer(format, 16);
    const delay = 120; // ms of render delay behind the newest send
    const arrivals: Array<{ at: number; k: number }> = [];
    for (let k = 0; k < 20_000; k++) {
      if (random() < 0.05) continue; // lost
      const sent = 1000 + k * SEND_MS;
      arrivals.push({ at: sent + 30 + random() * 80, k }); // 30–110 ms on the way: reordered often
      if (random() < 0.02) arrivals.push({ at: sent + 30 + random() * 200, k }); // a duplicate
    }
    arrivals.sort((a, b) => a.at - b.at);
    const received = new Set<number>();
    let next = 0;
    let pairs = 0;
    let bridged = 0;
    for (let t = 1000 + delay + 200; t < 1000 + 20_000 * SEND_MS; t += 16.7) {
      while (next < arrivals.length && arrivals[next]!.at <= t) {
        buffer.insert(snapshotOf(arrivals[next]!.k), arrivals[next]!.at);
        received.add(arrivals[next]!.k);
        next++;
      }
      const render = t - delay;
      const pair = buffer.pairAt(render);
      if (pair === null || pair.before || pair.after) continue;
      pairs++;
      // the model: the newest received snapshot at or before the render time, and the oldest after it
      const kPrev = Math.floor((render - 1000) / SEND_MS);
      let a = kPrev;
      while (!received.has(a)) a--;
      let b = kPrev + 1;
      while (!received.has(b)) b++;
      expect([xOf(pair.previous), xOf(pair.current)]).toEqual([a, b]);
      expect(pair.alpha).toBeCloseTo((render - (1000 + a * SEND_MS)) / ((b - a) * SEND_MS), 9);
      if (b - a > 1) bridged++;
    }
    // (a frame whose next snapshot has not arrived yet is past the newest: a 120 ms delay is short of the 110 ms
    // worst delivery plus a send interval, on purpose, so that this happens too)
    expect(pairs).toBeGreaterThan(40_000);
    // losses bridged by the pair across them; duplicates dropped, counted
    expect(bridged).toBeGreaterThan(1000);
    expect(buffer.stats.duplicates).toBeGreaterThan(100);
    expect(buffer.stats.reordered).toBeGreaterThan(1000);
    expect(buffer.kept.length).toBeLessThanOrEqual(16);
  });
});
