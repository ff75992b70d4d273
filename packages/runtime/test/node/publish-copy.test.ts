/**
 * The live-range publish (core/publish-copy.ts): what a publish copies, and that no reader can tell it from the
 * old whole-block copy. A seeded game spawns, despawns, teleports, and grows and shrinks its count tick after
 * tick, through the real world (worker/world.ts) living in the buffer's world region and the real SlotWriter;
 * beside it a reference pair is kept the old way (previous <- whole current block, current <- whole world).
 * Every tick both are sampled by the real Sampler in every mode, and the frames must agree bit for bit. Twice:
 * copying with copyWithin (a SharedArrayBuffer) and with WebAssembly memory.copy (a shared WebAssembly.Memory).
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout, type StatePair } from 'steadyframe/adapter';
import { allocateSharedBuffer, blockOffset, createSharedViews, fieldViews, generationView, initStateBuffer, META, META_WORDS } from '../../src/core/layout.ts';
import { createMemoryCopy } from '../../src/core/memory-copy.ts';
import { blockRuns, copyAcross, copyLive, copyLiveBytes, MERGE_GAP_FLOATS, PublishCopier } from '../../src/core/publish-copy.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter, type PublishMeta } from '../../src/core/slot-writer.ts';
import { Sampler, type SampleResult, type InterpolationOptions } from '../../src/main/sampler.ts';
import { createWorld } from '../../src/worker/world.ts';
import { mulberry32 } from '../../src/testing/prng.ts';

const schema = defineSchema({
  pos: { width: 2, kind: 'linear', velocity: 'vel' },
  vel: { width: 2, kind: 'linear' },
  spin: { width: 4, kind: 'quaternion' },
  heading: { width: 1, kind: 'angle' },
  frame: { width: 1, kind: 'none' },
});
type S = typeof schema;
/** Large enough that the dead capacity between runs exceeds MERGE_GAP_FLOATS at small counts (copied per run). */
const CAPACITY = 1500;

describe('copyLive / copyAcross', () => {
  const layout = computeLayout(schema, CAPACITY);
  const runs = blockRuns(layout);
  const floats = layout.blockBytes / 4;

  /** A buffer of two blocks: the source numbered 1, 2, 3... and the destination all -1. */
  function blocks() {
    const f32 = new Float32Array(2 * floats);
    for (let i = 0; i < floats; i++) f32[i] = i + 1;
    f32.fill(-1, floats);
    return f32;
  }
  /** Whether float `k` of a block belongs to entities 0 .. count - 1 of some run. */
  const live = (k: number, count: number) => {
    for (let r = 0; r < runs.offsets.length; r++) {
      if (k >= runs.offsets[r]! && k < runs.offsets[r]! + count * runs.widths[r]!) return true;
    }
    return false;
  };

  for (const count of [0, 1, 7, 100, 1000, CAPACITY]) {
    it(`copies the first ${count} entities of every run (fields and generations)${count <= 100 ? ', nothing else' : ''}`, () => {
      const f32 = blocks();
      copyLive(f32, runs, 0, floats, count);
      const across = new Float32Array(floats).fill(-1);
      copyAcross(f32.subarray(0, floats), across, runs, count);
      const memory = new WebAssembly.Memory({ initial: Math.ceil((8 * floats) / 65_536), maximum: 64, shared: true });
      const wasm = new Float32Array(memory.buffer, 0, 2 * floats);
      wasm.set(blocks());
      copyLiveBytes(createMemoryCopy(memory)!, runs, 0, 4 * floats, count);
      let dead = 0;
      let disagree = 0;
      let missed = 0;
      for (let k = 0; k < floats; k++) {
        const copied = f32[floats + k]!;
        // the three copies agree, float for float
        if (across[k] !== copied || wasm[floats + k] !== copied) disagree++;
        if (live(k, count)) {
          if (copied !== k + 1) missed++;
        } else if (copied !== -1) dead++;
      }
      expect(disagree).toBe(0);
      expect(missed).toBe(0);
      // small counts leave long dead stretches between runs: each run is copied alone, not a float more; near
      // the capacity the gaps are short and the runs go as one span (dead bytes, read by nobody, ride along)
      if (count <= 100) expect(dead).toBe(0);
      else expect(dead).toBeLessThanOrEqual(runs.offsets.length * MERGE_GAP_FLOATS);
    });
  }
});

interface Tick {
  meta: PublishMeta;
}

/** The buffer as the runtime makes it: a SharedArrayBuffer, or a shared WebAssembly.Memory's (the SIMD path). */
type Copy = 'copyWithin' | 'memory.copy';

/** The real pipeline (world in the buffer, SlotWriter, SlotReader) and the reference, whole-block pair. */
function pipelines(seed: number, by: Copy = 'copyWithin') {
  const layout = computeLayout(schema, CAPACITY);
  const pages = Math.ceil(layout.totalBytes / 65_536);
  const memory = by === 'memory.copy' ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : null;
  const buffer = memory === null ? allocateSharedBuffer(layout, 0) : initStateBuffer(memory.buffer, layout, 0);
  const views = createSharedViews(buffer, schema, CAPACITY);
  const worldBlock = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
  const internals = createWorld(layout, worldBlock, fieldViews<S>(views.buffer, layout.worldOffset, layout), generationView(views.buffer, layout.worldOffset, layout));
  const world = internals.world;
  const writer = new SlotWriter(views, worldBlock, () => 0, undefined, undefined, memory);
  expect(new PublishCopier(views, worldBlock, memory).method).toBe(by);
  const reader = new SlotReader(views);

  // the reference: the old publish, whole blocks
  const refBuffers = [new ArrayBuffer(layout.blockBytes), new ArrayBuffer(layout.blockBytes)];
  const refBlocks = refBuffers.map((b) => new Float32Array(b));
  const refMeta = new Float64Array(META_WORDS);
  const refPair = (): StatePair<S> => ({
    previous: fieldViews<S>(refBuffers[0]!, 0, layout),
    current: fieldViews<S>(refBuffers[1]!, 0, layout),
    previousGeneration: generationView(refBuffers[0]!, 0, layout),
    currentGeneration: generationView(refBuffers[1]!, 0, layout),
    previousGame: new Float64Array(0),
    currentGame: new Float64Array(0),
    previousBlock: refBlocks[0]!,
    currentBlock: refBlocks[1]!,
    metaWords: refMeta,
  });
  const ref = refPair();

  const random = mulberry32(seed);
  const int = (n: number) => Math.floor(random() * n);
  let tick = 0;
  /** Gives entity i fresh values: a new entity, or one the game moved by hand. */
  const place = (i: number) => {
    const f = world.fields;
    f.pos[2 * i] = int(2000) - 1000;
    f.pos[2 * i + 1] = int(2000) - 1000;
    f.vel[2 * i] = int(21) - 10;
    f.vel[2 * i + 1] = int(21) - 10;
    const a = random() * Math.PI;
    f.spin.set([0, 0, Math.sin(a), Math.cos(a)], 4 * i);
    f.heading[i] = random() * 6 - 3;
    f.frame[i] = tick;
  };
  /** One tick of the game: everything moves, then some of spawn / despawn / teleport / count changes. */
  const step = () => {
    const f = world.fields;
    for (let i = 0; i < world.count; i++) {
      f.pos[2 * i] = f.pos[2 * i]! + f.vel[2 * i]!;
      f.pos[2 * i + 1] = f.pos[2 * i + 1]! + f.vel[2 * i + 1]!;
      const z = f.spin[4 * i + 2]!;
      const w = f.spin[4 * i + 3]!;
      f.spin[4 * i + 2] = 0.995 * z + 0.0998 * w;
      f.spin[4 * i + 3] = 0.995 * w - 0.0998 * z;
      f.heading[i] = f.heading[i]! + 0.9;
      f.frame[i] = tick;
    }
    const roll = random();
    if (roll < 0.25) {
      for (let k = int(40); k > 0; k--) {
        const i = world.spawn();
        if (i >= 0) place(i);
      }
    } else if (roll < 0.45) {
      for (let k = int(40); k > 0 && world.count > 0; k--) world.despawn(int(world.count));
    } else if (roll < 0.55 && world.count > 0) {
      const i = int(world.count);
      place(i);
      world.snap(i);
    } else if (roll < 0.65) {
      // the game sets the count itself: entities come or go without spawn / despawn (no generation bump)
      const n = int(CAPACITY + 1);
      for (let i = world.count; i < n; i++) place(i);
      world.count = n;
    } else if (roll < 0.7) {
      world.count = int(3); // almost everything gone at once
    } else if (roll < 0.75) {
      for (let i = world.count; i < CAPACITY; i++) place(i);
      world.count = CAPACITY; // full
    }
  };
  const meta: PublishMeta = { previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0, count: 0, previousCount: 0, simTime: 0, scale: 1, snaps: 0 };
  const writeRefMeta = () => {
    refMeta[META.PREV_TICK] = meta.previousTick;
    refMeta[META.CUR_TICK] = meta.currentTick;
    refMeta[META.PREV_TIME] = meta.previousTime;
    refMeta[META.CUR_TIME] = meta.currentTime;
    refMeta[META.COUNT] = meta.count;
    refMeta[META.PREV_COUNT] = meta.previousCount;
    refMeta[META.SIM_TIME] = meta.simTime;
    refMeta[META.SCALE] = meta.scale;
    refMeta[META.SNAPS] = meta.snaps;
  };
  const init = () => {
    for (let i = 0; i < 200; i++) place(world.spawn());
    Object.assign(meta, { count: world.count, previousCount: world.count, snaps: internals.takeSnaps() });
    writer.publishInitial(meta);
    refBlocks[0]!.set(worldBlock);
    refBlocks[1]!.set(worldBlock);
    writeRefMeta();
  };
  /** Runs one tick (the seeded game's step, or `game`) and publishes it both ways. */
  const advance = (game: () => void = step): Tick => {
    const previousCount = world.count;
    tick++;
    game();
    Object.assign(meta, {
      previousTick: tick - 1,
      currentTick: tick,
      previousTime: 100 * (tick - 1),
      currentTime: 100 * tick,
      count: world.count,
      previousCount,
      simTime: 100 * tick,
      snaps: internals.takeSnaps(),
    });
    writer.publish(meta);
    refBlocks[0]!.set(refBlocks[1]!);
    refBlocks[1]!.set(worldBlock);
    writeRefMeta();
    return { meta: { ...meta } };
  };
  return { layout, views, world, worldBlock, writer, reader, ref, init, advance };
}

const results = (): SampleResult => ({ alpha: 0, time: 0, previousTick: 0, tick: 0, previousTime: 0, currentTime: 0, count: 0, simSeconds: 0, late: false, overtaken: false, snapped: 0, state: {} });

/** The first of the first `n` elements whose bits differ (NaN included), or -1: an exact comparison, fast. */
function firstDiff(a: Float32Array | Uint32Array, b: Float32Array | Uint32Array, n: number): number {
  const x = new Uint32Array(a.buffer, a.byteOffset, n);
  const y = new Uint32Array(b.buffer, b.byteOffset, n);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return i;
  return -1;
}

/** Name, options, where in the tick the frame falls (0 previous, 1 current), a frame every how many ticks. */
const MODES: Array<[string, InterpolationOptions<S>, number, number]> = [
  ['interpolate', {}, 0.5, 1],
  ['interpolate, late, extrapolating', { whenLate: 'extrapolate', maxPrediction: 1 }, 1.4, 1],
  ['interpolate, snapDistance', { snapDistance: { field: 'pos', distance: 12 } }, 0.3, 1],
  ['interpolate, render delay 1', { renderDelay: 1 }, 0.5, 1],
  // frames that miss publishes: the history then holds states it only ever saw as a slot's previous state
  ['interpolate, render delay 1, a frame every other tick', { renderDelay: 1.5 }, 0.5, 2],
  ['extrapolate', { mode: 'extrapolate' }, 0.7, 1],
  ['latest', { mode: 'latest' }, 0.5, 1],
];

describe.each(['copyWithin', 'memory.copy'] as const)('live-range publish by %s, as readers see it', (by) => {
  for (const [name, options, where, every] of MODES) {
    it(`draws the same frames as whole-block copies (${name}), over 400 ticks of spawns, despawns and count changes`, () => {
      const p = pipelines(16, by);
      const { layout } = p;
      const real = fieldViews<S>(new ArrayBuffer(layout.blockBytes), 0, layout);
      const old = fieldViews<S>(new ArrayBuffer(layout.blockBytes), 0, layout);
      const samplers = [new Sampler(schema, layout, real), new Sampler(schema, layout, old)] as const;
      for (const s of samplers) s.configure(options);
      const outs = [results(), results()] as const;
      p.init();
      let grew = 0;
      let shrank = 0;
      let snappedNew = 0;
      for (let k = 0; k < 400; k++) {
        const { meta } = p.advance();
        if (meta.count > meta.previousCount) grew++;
        if (meta.count < meta.previousCount) shrank++;
        if (k % every !== 0) continue;
        const time = meta.previousTime + where * 100;
        const slot = p.reader.acquire()!;
        samplers[0].read(slot, time, outs[0]);
        // what is copied: the live parts, and exactly the reference's values there
        const count = meta.count;
        const previousCount = meta.previousCount;
        for (const f of layout.fields) {
          const n = f.name as keyof S;
          expect(firstDiff(slot.current[n], p.ref.current[n], count * f.width), f.name).toBe(-1);
          expect(firstDiff(slot.previous[n], p.ref.previous[n], previousCount * f.width), f.name).toBe(-1);
        }
        expect(firstDiff(slot.currentGeneration, p.ref.currentGeneration, count)).toBe(-1);
        expect(firstDiff(slot.previousGeneration, p.ref.previousGeneration, previousCount)).toBe(-1);
        p.reader.release();
        samplers[0].finish(time, outs[0]);
        samplers[1].read(p.ref, time, outs[1]);
        samplers[1].finish(time, outs[1]);
        expect(outs[0]).toEqual(outs[1]);
        const shown = outs[0].count;
        for (const f of layout.fields) {
          const n = f.name as keyof S;
          if (options.mode === 'latest' && f.kind === 'quaternion') {
            // 'latest' blends at alpha 1 against the previous state, whose sign test picks q or -q (the same
            // rotation) for an entity new this tick from the dead values there: as it always did (whole blocks
            // held the world's dead values there); compare the rotation, not its sign
            let other = 0;
            for (let i = 0; i < shown; i++) {
              let same = true;
              let negated = true;
              for (let c = 4 * i; c < 4 * i + 4; c++) {
                same &&= Object.is(real[n][c], old[n][c]);
                negated &&= real[n][c] === -old[n][c]!;
              }
              if (!same && !negated) other++;
            }
            expect(other, `${f.name}, tick ${meta.currentTick}`).toBe(0);
            continue;
          }
          expect(firstDiff(real[n], old[n], shown * f.width), `${f.name}, tick ${meta.currentTick}`).toBe(-1);
        }
        // entities at or past the previous count are new: drawn exactly as they are now (not in 'latest',
        // which shows the current state anyway, nor with a render delay, which draws an older pair)
        if (options.renderDelay === undefined && options.mode !== 'latest' && where <= 1) {
          for (let i = previousCount; i < count; i++) {
            expect(real.pos[2 * i]).toBe(p.world.fields.pos[2 * i]);
            snappedNew++;
          }
        }
      }
      // the sequence did what it is for
      expect(grew).toBeGreaterThan(50);
      expect(shrank).toBeGreaterThan(50);
      if (options.renderDelay === undefined && options.mode !== 'latest' && where <= 1) expect(snappedNew).toBeGreaterThan(1000);
    }, 60_000);
  }

  it('leaves the dead capacity alone: after the count falls, the blocks past it keep older values', () => {
    const p = pipelines(3, by);
    p.init(); // 200 entities, frame 0 everywhere: all four blocks are whole copies of this world
    const f = p.world.fields;
    p.advance(() => {
      p.world.count = CAPACITY;
      f.frame.fill(77);
    });
    const { meta } = p.advance(() => {
      p.world.count = 5;
      f.frame.fill(88, 0, 5);
    });
    expect(meta).toMatchObject({ count: 5, previousCount: CAPACITY });
    const slot = p.reader.acquire()!;
    // this slot's current block was last written at the initial publish (frame 0 all over): only the 5 live
    // entities were copied over it, not the world's 77s past them; its previous block got all of the last tick
    expect(Array.from(slot.current.frame.subarray(0, 7))).toEqual([88, 88, 88, 88, 88, 0, 0]);
    expect(slot.current.frame[CAPACITY - 1]).toBe(0);
    expect(p.world.fields.frame[CAPACITY - 1]).toBe(77);
    expect(slot.previous.frame[CAPACITY - 1]).toBe(77);
    p.reader.release();
    // and the world block lives in the shared buffer, after the four slot blocks
    expect(p.worldBlock.buffer).toBe(p.views.buffer);
    expect(p.worldBlock.byteOffset).toBe(blockOffset(p.layout, 1, 'current') + p.layout.blockBytes);
  });
});

describe('which copy a publish uses', () => {
  const layout = computeLayout(schema, 10);
  it('memory.copy over the WebAssembly.Memory it lays out; copyWithin over a SharedArrayBuffer; set for a world elsewhere', () => {
    const pages = Math.ceil(layout.totalBytes / 65_536);
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    const onMemory = createSharedViews(initStateBuffer(memory.buffer, layout, 0), schema, 10);
    const world = (views: typeof onMemory) => new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
    expect(new PublishCopier(onMemory, world(onMemory), memory).method).toBe('memory.copy');
    expect(new PublishCopier(onMemory, world(onMemory)).method).toBe('copyWithin');
    const plain = createSharedViews(allocateSharedBuffer(layout, 0), schema, 10);
    // a memory that is not the buffer's: not used
    expect(new PublishCopier(plain, world(plain), memory).method).toBe('copyWithin');
    expect(new PublishCopier(plain, new Float32Array(layout.blockBytes / 4), memory).method).toBe('set');
    // an unshared memory (the worker's own buffer under the message transport, were it one) works too
    const unshared = new WebAssembly.Memory({ initial: 1 });
    new Uint8Array(unshared.buffer).set([1, 2, 3, 4], 8);
    createMemoryCopy(unshared)!(0, 8, 4);
    expect(Array.from(new Uint8Array(unshared.buffer, 0, 4))).toEqual([1, 2, 3, 4]);
  });
});
