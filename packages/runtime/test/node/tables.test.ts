/**
 * Entity tables (`defineTables`) on a manual clock, both transports and both kinds of blend kernel: a worker spawning and despawning at random
 * in three tables for 10^5 ticks, despawning from the middle (by index, by handle, by count), and every frame
 * checked on the page: each table's live entities show their own state (`who` names the handle and the table,
 * `pos` the handle's value at the frame's ticks, a rock's `radius` its handle's), every handle maps back to its
 * index (`indexOf`), no handle is shown twice. Then what carries a world carries tables: a recording replays
 * bit for bit (handles included), a snapshot restored gives the same handles and goes on giving new ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlePool, type Frame, type Runtime } from 'steadyframe';
import { createManualClock, replayRecording, type ManualClock } from 'steadyframe/node';
import { mulberry32 } from 'steadyframe/testing';
import { composeRuntime } from '../../src/compose/runtime.ts';
import { nodePageHost } from '../../src/node/page-host.ts';
import { TABLES_CAPACITY, TABLE_ORDER, posAt, radiusOf, tablesSchema, whoOf } from './fixtures/tables-schema.ts';
import { advanceAndReceive } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

type TablesRuntime = Runtime<typeof tablesSchema>;
type TablesFrame = Frame<typeof tablesSchema>;

const START = 1000;
let runtimes: TablesRuntime[] = [];
afterEach(() => {
  for (const rt of runtimes) rt.dispose();
  runtimes = [];
});

async function open(transport: 'shared' | 'message', seed = 7, kernels: 'wasm-simd' | 'js' = 'wasm-simd'): Promise<{ rt: TablesRuntime; clock: ManualClock }> {
  const clock = createManualClock(START);
  const rt = await composeRuntime<typeof tablesSchema, Record<never, never>>(
    nodePageHost(clock),
    { worker: await nodeFixture('tables'), schema: tablesSchema, capacity: TABLES_CAPACITY, transport, kernels, pacing: { adaptive: false }, heartbeatTimeout: false, onError: () => {}, seed },
    { clock: clock.config },
  );
  runtimes.push(rt);
  return { rt, clock };
}

/** What the frames showed: frames checked, entities checked, entities seen at another index than the frame before. */
interface Seen {
  frames: number;
  entities: number;
  moved: number;
  snappedOrBlended: { blended: number; current: number };
  maxCount: Record<string, number>;
  /** handle -> index in the last frame, per table. */
  last: Map<number, number>[];
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-3 * Math.max(1, Math.abs(b));

/** Checks one frame's tables against the fixture's rule; returns the first thing wrong, or null. */
function checkFrame(frame: TablesFrame, seen: Seen): string | null {
  const { previousTick: a, tick: b, alpha } = frame;
  seen.frames++;
  for (let number = 0; number < TABLE_ORDER.length; number++) {
    const name = TABLE_ORDER[number]!;
    const table = frame.tables[name];
    const count = table.count;
    if (!Number.isInteger(count) || count < 0 || count > table.capacity) return `${name}: count ${count}`;
    seen.maxCount[name] = Math.max(seen.maxCount[name] ?? 0, count);
    const now = new Map<number, number>();
    const last = seen.last[number]!;
    for (let i = 0; i < count; i++) {
      const h = table.handle(i);
      const where = `${name}[${i}] handle ${h}, ticks ${a}..${b} alpha ${alpha}`;
      if (now.has(h)) return `${where}: shown twice (also at ${now.get(h)})`;
      now.set(h, i);
      if (table.fields.who[i] !== whoOf(h, number)) return `${where}: who ${table.fields.who[i]}, not ${whoOf(h, number)}`;
      if (table.indexOf(h) !== i) return `${where}: indexOf ${table.indexOf(h)}`;
      const pa = posAt(h, a);
      const pb = posAt(h, b);
      const x = table.fields.pos[2 * i]!;
      const y = table.fields.pos[2 * i + 1]!;
      // blended from its own previous state, or (spawned, or moved into this index by a despawn) its current one
      if (close(x, pa + (pb - pa) * alpha) && close(y, -(pa + (pb - pa) * alpha))) seen.snappedOrBlended.blended++;
      else if (close(x, pb) && close(y, -pb)) seen.snappedOrBlended.current++;
      else return `${where}: pos (${x}, ${y}), not its own (${pa} -> ${pb})`;
      if (name === 'rocks' && frame.tables.rocks.fields.radius[i] !== radiusOf(h)) return `${where}: radius ${frame.tables.rocks.fields.radius[i]}`;
      const before = last.get(h);
      if (before !== undefined && before !== i) seen.moved++;
      seen.entities++;
    }
    if (table.indexOf(-5) !== -1 || table.indexOf(1e7) !== -1) return `${name}: indexOf of a handle never given`;
    seen.last[number] = now;
  }
  return null;
}

/** Frames at random times until the simulation has made `ticks` ticks; every frame checked. */
async function play(rt: TablesRuntime, clock: ManualClock, ticks: number, random: () => number, seen: Seen): Promise<void> {
  await rt.start();
  for (;;) {
    const t = clock.now() + (random() < 0.2 ? random() * 2 : 2 + 14 * random());
    await advanceAndReceive(rt, clock, t);
    const frame = rt.frameAt(t);
    const wrong = checkFrame(frame, seen);
    if (wrong !== null) expect.fail(`frame ${seen.frames}: ${wrong}`);
    if (frame.tick >= ticks) return;
  }
}

const newSeen = (): Seen => ({ frames: 0, entities: 0, moved: 0, snappedOrBlended: { blended: 0, current: 0 }, maxCount: {}, last: TABLE_ORDER.map(() => new Map()) });

describe.each([
  ['shared', 'wasm-simd'],
  ['shared', 'js'],
  ['message', 'js'],
] as const)('tables on the %s transport, %s kernels', (transport, kernels) => {
  it('shows every handle with its own entity in every frame, for 10^5 ticks of random spawns and despawns in three tables', async () => {
    const { rt, clock } = await open(transport, 7, kernels);
    // each table's live entities blended alone (core/interpolate.ts's kernels from an offset), by these kernels
    expect(rt.kernels).toBe(kernels);
    const seen = newSeen();
    await play(rt, clock, 100_000, mulberry32(11), seen);
    // the test had something to check: full and empty tables, entities moved by despawns, blends and snaps
    expect(seen.frames).toBeGreaterThan(5_000);
    expect(seen.maxCount).toEqual({ ships: 8, rocks: 40, bullets: 100 });
    expect(seen.moved).toBeGreaterThan(1_000);
    expect(seen.snappedOrBlended.blended).toBeGreaterThan(seen.entities / 2);
    expect(seen.snappedOrBlended.current).toBeGreaterThan(100);
  }, 300_000);
});

describe('tables carried as they are', () => {
  it('a recording of random spawns and despawns replays bit for bit, handles included', async () => {
    const { rt, clock } = await open('shared', 3);
    const seen = newSeen();
    await play(rt, clock, 500, mulberry32(5), seen);
    await rt.record();
    await play(rt, clock, 3_000, mulberry32(6), seen);
    const recording = await rt.stopRecording();
    rt.dispose();
    const report = await replayRecording(recording, { worker: await nodeFixture('tables') });
    expect(report.ticks).toBeGreaterThan(2_000);
    expect(report.firstDivergence).toBeNull();
    expect(report.difference).toBeNull();
    expect(report.matched).toBe(true);
  }, 60_000);

  it('a snapshot restored shows the same handles at the same indices, and new spawns get handles none of them has', async () => {
    const { rt, clock } = await open('shared', 9);
    const seen = newSeen();
    await play(rt, clock, 2_000, mulberry32(8), seen);
    await rt.stop();
    const snapshot = await rt.snapshot();
    const handlesOf = (frame: TablesFrame) => TABLE_ORDER.map((name) => Array.from({ length: frame.tables[name].count }, (_, i) => frame.tables[name].handle(i)));
    const before = handlesOf(rt.frameAt(clock.now()));
    const other = await open('message', 1);
    await other.rt.restore(snapshot);
    await advanceAndReceive(other.rt, other.clock, other.clock.now());
    expect(handlesOf(other.rt.frameAt(other.clock.now()))).toEqual(before);
    // on from there: every frame still checks out, and no handle of the snapshot comes back on another entity
    const again = newSeen();
    again.last = before.map((hs) => new Map(hs.map((h, i) => [h, i])));
    await play(other.rt, other.clock, 2_000 + 3_000, mulberry32(12), again);
    expect(again.frames).toBeGreaterThan(100);
  }, 60_000);
});

describe("a frame's tables", () => {
  it('keep the counts of the sample that wrote their entities, whatever pace() presents after it', async () => {
    // pace() writes runtime.state (the frame's state object) from the front pair; a sample that then misses the
    // lock keeps the last good frame's entities: the tables' counts must stay that frame's, not pace()'s
    const { rt, clock } = await open('shared', 13);
    await rt.start();
    const random = mulberry32(3);
    const seen = newSeen();
    let presentedOther = 0;
    for (let f = 0; f < 500; f++) {
      const t = clock.now() + 1 + 10 * random();
      await advanceAndReceive(rt, clock, t);
      const frame = rt.frameAt(t);
      const counts = TABLE_ORDER.map((name) => frame.tables[name].count);
      const later = t + 2 + 10 * random();
      await advanceAndReceive(rt, clock, later);
      if (!rt.pace(later)) continue;
      const state = frame.state as Readonly<Record<string, number>>;
      if (TABLE_ORDER.some((name, n) => state[`$${name}`]! % 2 ** 23 !== counts[n])) presentedOther++;
      expect(TABLE_ORDER.map((name) => frame.tables[name].count)).toEqual(counts);
      const wrong = checkFrame(frame, seen);
      if (wrong !== null) expect.fail(`frame ${f}, after pace(): ${wrong}`);
    }
    expect(presentedOther).toBeGreaterThan(100); // pace() did present other counts than the frame's
  }, 60_000);
});

describe('createHandlePool', () => {
  it('keeps one object per entity across frames: created once, updated at its new index, released once gone', async () => {
    const { rt, clock } = await open('shared', 4);
    await rt.start();
    const created = new Map<number, number>();
    const released = new Set<number>();
    const pool = createHandlePool<{ handle: number; index: number }>(tablesSchema.$rocks.table.capacity, {
      create: (handle, index) => {
        created.set(handle, (created.get(handle) ?? 0) + 1);
        return { handle, index };
      },
      update: (object, index) => {
        object.index = index;
      },
      release: (object, handle) => {
        expect(object.handle).toBe(handle);
        released.add(handle);
      },
    });
    const random = mulberry32(2);
    for (let f = 0; f < 3_000; f++) {
      const t = clock.now() + 1 + 10 * random();
      await advanceAndReceive(rt, clock, t);
      const rocks = rt.frameAt(t).tables.rocks;
      expect(pool.sync(rocks)).toBe(rocks.count);
      for (let i = 0; i < rocks.count; i++) {
        const object = pool.get(rocks.handle(i))!;
        expect(object.handle).toBe(rocks.handle(i));
        expect(object.index).toBe(i);
        expect(released.has(object.handle)).toBe(false);
      }
    }
    expect([...created.values()].every((n) => n === 1)).toBe(true);
    expect(released.size).toBeGreaterThan(500);
    pool.clear();
    expect(pool.size).toBe(0);
  }, 60_000);
});
