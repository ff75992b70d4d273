/**
 * The GPU pair mirror over a backend whose "GPU" is plain typed arrays: after every read, each channel's buffer
 * `flip` must hold the pair's previous state and buffer `1 - flip` its current one (the live entities; the
 * generations whenever the tick marked snaps), whatever was published between reads: one publish (a swap),
 * several (both states), none, more entities than the buffers hold (they grow), a table's range at its base.
 * The pairs are real: published by the worker's slot writer, read under the reader's lock.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema, defineTables, tablesCapacity, type Schema } from 'steadyframe';
import { bindingTable, computeLayout, countOf, createGpuPairMirror, GENERATIONS, previousCountOf, snapsOf, type BindingTable, type GpuMirrorBackend, type GpuMirrorStats, type MirrorChannel, type StatePair } from 'steadyframe/adapter';
import { mulberry32 } from 'steadyframe/testing';
import { allocateSharedBuffer, createSharedViews, fieldViews, type Layout } from '../../src/core/layout.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter } from '../../src/core/slot-writer.ts';
import { createStateReader } from '../../src/main/state-reader.ts';

/** A backend over typed arrays: two per channel, as a GPU's buffers; what it was asked, counted. */
function arrayBackend(channels: readonly MirrorChannel[], entities: number) {
  const make = (c: MirrorChannel, n: number) => (c.field === null ? new Uint32Array(n * c.width) : new Float32Array(n * c.width));
  const backend = {
    buffers: channels.map((c) => [make(c, entities), make(c, entities)] as [Float32Array | Uint32Array, Float32Array | Uint32Array]),
    allocations: [] as number[],
    flips: [] as number[],
    elementsCopied: 0,
    allocate(n: number) {
      backend.allocations.push(n);
      backend.buffers = channels.map((c) => [make(c, n), make(c, n)]);
    },
    copy(k: number, buffer: 0 | 1, from: Float32Array | Uint32Array, offset: number, elements: number) {
      const to = backend.buffers[k]![buffer];
      expect(offset + elements).toBeLessThanOrEqual(from.length);
      expect(elements).toBeLessThanOrEqual(to.length); // never past what the buffers hold
      to.set(from.subarray(offset, offset + elements));
      backend.elementsCopied += elements;
    },
    flipped(previous: 0 | 1) {
      backend.flips.push(previous);
    },
    direct: true,
  } satisfies GpuMirrorBackend & Record<string, unknown>;
  return backend;
}

function newStats(): GpuMirrorStats & { grows: number; directUploads: number } {
  return { fullUploads: 0, swaps: 0, generationUploads: 0, misses: 0, grows: 0, directUploads: 0, late: 0, extrapolated: 0, overtaken: 0 };
}

/** A worker's world and writer, and the page's reader, over one shared slot pair. */
function slots(schema: Schema, capacity: number) {
  const layout: Layout = computeLayout(schema, capacity);
  const views = createSharedViews(allocateSharedBuffer(layout, 0), schema, capacity);
  const world = new Float32Array(layout.blockBytes / 4);
  const writer = new SlotWriter(views, world, () => 0);
  const source = new SlotReader(views);
  return {
    layout,
    fields: fieldViews(world.buffer, 0, layout),
    generations: new Uint32Array(world.buffer, layout.generationOffset, capacity),
    game: new Float64Array(world.buffer, layout.gameOffset, layout.game.length),
    writer,
    source,
    reader: createStateReader(source),
  };
}

/** What the pair on the slot is, copied out under the lock: each channel's previous and current run, the counts. */
function expected(source: SlotReader<Schema>, channels: readonly MirrorChannel[], table: BindingTable | null, counts: (pair: StatePair<Schema>) => [number, number]) {
  const pair = source.acquire()!;
  try {
    const [count, previousCount] = counts(pair);
    const base = table?.layout.base ?? 0;
    const run = (view: Float32Array | Uint32Array, width: number, n: number) => Array.from(view.subarray(base * width, (base + n) * width));
    return {
      count,
      previousCount,
      snaps: snapsOf(pair) > 0,
      channels: channels.map((c) =>
        c.field === null
          ? [run(pair.previousGeneration, 1, previousCount), run(pair.currentGeneration, 1, count)]
          : [run(pair.previous[c.field]!, c.width, previousCount), run(pair.current[c.field]!, c.width, count)],
      ),
    };
  } finally {
    source.release();
  }
}

describe('the buffers hold the pair after every read', () => {
  const schema = defineSchema({ position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } });
  const CAPACITY = 64;
  const channels: MirrorChannel[] = [{ field: 'position', width: 2 }, { field: 'angle', width: 1 }, GENERATIONS];

  it.each([1, 2, 3])('seed %i: 300 frames of 0 to 3 publishes, counts jumping, snaps now and then', (seed) => {
    const random = mulberry32(seed);
    const s = slots(schema, CAPACITY);
    const backend = arrayBackend(channels, 4);
    const stats = newStats();
    const mirror = createGpuPairMirror({ channels, table: null, capacity: CAPACITY, initialCapacity: 4, stats }, backend);
    let tick = 1;
    let count = 3;
    const fill = () => {
      for (let i = 0; i < CAPACITY * 2; i++) s.fields.position![i] = random() * 100;
      for (let i = 0; i < CAPACITY; i++) s.fields.angle![i] = random() * 6;
      for (let i = 0; i < CAPACITY; i++) if (random() < 0.2) s.generations[i] = s.generations[i]! + 1;
    };
    fill();
    s.writer.publishInitial({ previousTick: tick, currentTick: tick, previousTime: 0, currentTime: 0, count, previousCount: count, simTime: 0, scale: 1, snaps: 0 });
    let publishes = 1;
    let reads = 0;
    for (let frame = 0; frame < 300; frame++) {
      const n = [0, 1, 1, 1, 2, 3][Math.floor(random() * 6)]!;
      for (let p = 0; p < n; p++) {
        const previousCount = count;
        if (random() < 0.1) count = Math.floor(random() * (CAPACITY + 1)); // spawns, despawns, growth
        fill();
        tick++;
        s.writer.publish({ previousTick: tick - 1, currentTick: tick, previousTime: tick - 1, currentTime: tick, count, previousCount, simTime: tick, scale: 1, snaps: random() < 0.3 ? 1 : 0 });
        publishes++;
      }
      expect(mirror.read(s.reader)).toBe(true);
      reads++;
      const want = expected(s.source, channels, null, (pair) => [countOf(pair), previousCountOf(pair)]);
      expect({ count: mirror.count, previousCount: mirror.previousCount, snaps: mirror.snaps }).toEqual({ count: want.count, previousCount: want.previousCount, snaps: want.snaps });
      const flip = mirror.flip;
      channels.forEach((c, k) => {
        if (c.field === null && !want.snaps) return; // the shader does not compare generations then
        const [previous, current] = want.channels[k]!;
        expect(Array.from(backend.buffers[k]![flip].subarray(0, previous!.length)), `frame ${frame}: channel ${k}, previous`).toEqual(previous);
        expect(Array.from(backend.buffers[k]![1 - flip]!.subarray(0, current!.length)), `frame ${frame}: channel ${k}, current`).toEqual(current);
      });
      expect(mirror.bufferCapacity).toBeGreaterThanOrEqual(Math.max(want.count, want.previousCount));
    }
    // every distinct publish seen was uploaded once, as a swap or in full; the grows were the allocations
    expect(stats.fullUploads + stats.swaps).toBeLessThanOrEqual(publishes);
    expect(stats.swaps).toBe(backend.flips.length);
    expect(stats.grows).toBe(backend.allocations.length);
    expect(stats.grows).toBeGreaterThan(0);
    expect(stats.swaps).toBeGreaterThan(0);
    expect(stats.directUploads).toBe(stats.fullUploads + stats.swaps);
    expect(stats.misses).toBe(0);
    expect(reads).toBe(300);
  });

  it('a swap copies the current state only; a full upload both; nothing when no publish came', () => {
    const s = slots(schema, 8);
    const backend = arrayBackend(channels, 8);
    const stats = newStats();
    const mirror = createGpuPairMirror({ channels, table: null, capacity: 8, stats }, backend);
    const meta = { previousTime: 0, currentTime: 0, count: 8, previousCount: 8, simTime: 0, scale: 1, snaps: 0 };
    s.writer.publishInitial({ ...meta, previousTick: 1, currentTick: 1 });
    mirror.read(s.reader);
    expect(backend.elementsCopied).toBe(2 * 8 * 3); // both states of position (2) and angle (1), no generations
    mirror.read(s.reader);
    expect(backend.elementsCopied).toBe(2 * 8 * 3);
    s.writer.publish({ ...meta, previousTick: 1, currentTick: 2 });
    mirror.read(s.reader);
    expect(backend.elementsCopied).toBe(3 * 8 * 3);
    expect([mirror.flip, stats.fullUploads, stats.swaps]).toEqual([1, 1, 1]);
    expect(backend.allocations).toEqual([]); // it started at the capacity
  });
});

it('generations: each buffer uploaded only when it lacks them, across the wrap of the publish count', () => {
  const schema = defineSchema({ position: { width: 1, kind: 'linear' } });
  const channels: MirrorChannel[] = [{ field: 'position', width: 1 }, GENERATIONS];
  const s = slots(schema, 4);
  const stats = newStats();
  const mirror = createGpuPairMirror({ channels, table: null, capacity: 4, stats }, arrayBackend(channels, 4));
  // the real slot's publish count, moved to just below 2^32 (what a long session reaches)
  const OFFSET = 2 ** 32 - 3;
  const reader = { read: <T>(fn: (pair: StatePair<Schema>, n: number) => T) => s.reader.read((pair, n) => fn(pair, (n + OFFSET) >>> 0)) };
  const meta = { previousTime: 0, currentTime: 0, count: 4, previousCount: 4, simTime: 0, scale: 1, snaps: 1 };
  s.writer.publishInitial({ ...meta, previousTick: 1, currentTick: 1 });
  mirror.read(reader);
  expect(stats.generationUploads).toBe(2); // the first pair: both states' generations
  for (let tick = 2; tick <= 7; tick++) {
    s.writer.publish({ ...meta, previousTick: tick - 1, currentTick: tick });
    mirror.read(reader);
  }
  // six swaps across 2^32 - 1 → 0: the previous state's generations were always on the GPU already
  expect({ swaps: stats.swaps, generationUploads: stats.generationUploads }).toEqual({ swaps: 6, generationUploads: 2 + 6 });
  // a tick without snaps leaves them home; the next tick with snaps needs both again
  s.writer.publish({ ...meta, snaps: 0, previousTick: 7, currentTick: 8 });
  mirror.read(reader);
  s.writer.publish({ ...meta, previousTick: 8, currentTick: 9 });
  mirror.read(reader);
  expect(stats.generationUploads).toBe(2 + 6 + 2);
});

it("a table's mirror uploads its range from its base, to 0 in the buffers, by its own counts", () => {
  const tables = defineTables({
    a: { capacity: 3, fields: { p: { width: 2, kind: 'linear' } } },
    b: { capacity: 5, fields: { q: { width: 2, kind: 'linear' } } },
  });
  const capacity = tablesCapacity(tables);
  const table = bindingTable(tables, 'b', 'test')!;
  const channels: MirrorChannel[] = [{ field: 'q', width: 2 }, GENERATIONS];
  const s = slots(tables, capacity);
  const backend = arrayBackend(channels, 2);
  const stats = newStats();
  const mirror = createGpuPairMirror({ channels, table, capacity, initialCapacity: 2, stats }, backend);
  for (let i = 0; i < 2 * capacity; i++) s.fields.q![i] = i;
  s.game[table.layout.countIndex] = 4; // table b: 4 live entities (next handle 0)
  s.writer.publishInitial({ previousTick: 1, currentTick: 1, previousTime: 0, currentTime: 0, count: capacity, previousCount: capacity, simTime: 0, scale: 1, snaps: 0 });
  mirror.read(s.reader);
  expect([mirror.count, mirror.previousCount, mirror.bufferCapacity]).toEqual([4, 4, 4]);
  const base = table.layout.base;
  expect(base).toBe(3);
  const want = Array.from({ length: 8 }, (_, i) => 2 * base + i);
  expect(Array.from(backend.buffers[0]![0])).toEqual(want);
  expect(Array.from(backend.buffers[0]![1])).toEqual(want);
});

describe('set-up', () => {
  const stats = newStats();
  it('needs one generations channel', () => {
    const make = (channels: MirrorChannel[]) => () => createGpuPairMirror({ channels, table: null, capacity: 4, stats }, arrayBackend(channels, 4));
    expect(make([{ field: 'p', width: 1 }])).toThrow(/one generations channel/);
    expect(make([GENERATIONS, { field: 'p', width: 1 }, GENERATIONS])).toThrow(/one generations channel/);
    expect(make([{ field: null, width: 2 }])).toThrow(/one generations channel/);
    expect(make([{ field: 'p', width: 1 }, GENERATIONS])).not.toThrow();
  });
  it('needs an initial capacity of at least 1', () => {
    const channels = [GENERATIONS];
    expect(() => createGpuPairMirror({ channels, table: null, capacity: 4, initialCapacity: 0, stats }, arrayBackend(channels, 4))).toThrow(/initial capacity/);
    expect(() => createGpuPairMirror({ channels, table: null, capacity: 4, initialCapacity: 1.5, stats }, arrayBackend(channels, 4))).toThrow(/initial capacity/);
  });
});

it('a busy lock is a miss: nothing uploaded, the last pair kept', () => {
  const schema = defineSchema({ position: { width: 1, kind: 'linear' } });
  const channels: MirrorChannel[] = [{ field: 'position', width: 1 }, GENERATIONS];
  const s = slots(schema, 4);
  const stats = newStats();
  const mirror = createGpuPairMirror({ channels, table: null, capacity: 4, stats }, arrayBackend(channels, 4));
  s.writer.publishInitial({ previousTick: 1, currentTick: 1, previousTime: 0, currentTime: 0, count: 2, previousCount: 2, simTime: 0, scale: 1, snaps: 0 });
  expect(mirror.read(s.reader)).toBe(true);
  // a read inside a read cannot take the lock it holds: the reader answers undefined, as for a busy lock
  s.reader.read(() => expect(mirror.read(s.reader)).toBe(false));
  expect({ misses: stats.misses, fullUploads: stats.fullUploads, count: mirror.count }).toEqual({ misses: 1, fullUploads: 1, count: 2 });
});
