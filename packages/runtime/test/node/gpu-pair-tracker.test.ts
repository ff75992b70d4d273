/**
 * The GPU pair tracker, as `@steadyframe/three` and `@steadyframe/pixi` use it: what to upload for each pair read,
 * and where each frame falls against the pair on the GPU (late and overtaken frames as the sampler decides them).
 * Pure: pairs are plain typed arrays, no GPU.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout, createGpuPairTracker, META, type GpuFrameStats, type LateOptions, type PairUpload, type StatePair } from 'steadyframe/adapter';
import { allocateSharedBuffer, createSharedViews, fieldViews } from '../../src/core/layout.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter } from '../../src/core/slot-writer.ts';
import { Sampler, type SampleResult } from '../../src/main/sampler.ts';

const schema = defineSchema({ position: { width: 2, kind: 'linear' } });
const CAPACITY = 4;

/** A stand-in pair: what `reader.read` hands an adapter, its meta words set by hand. */
function pairWith(words: { previousTick?: number; tick?: number; previousTime: number; currentTime: number; count?: number; previousCount?: number; snaps?: number }): StatePair<typeof schema> {
  const layout = computeLayout(schema, CAPACITY);
  const block = () => new ArrayBuffer(layout.blockBytes);
  const previous = block();
  const current = block();
  const metaWords = new Float64Array(16);
  metaWords[META.PREV_TICK] = words.previousTick ?? 1;
  metaWords[META.CUR_TICK] = words.tick ?? 2;
  metaWords[META.PREV_TIME] = words.previousTime;
  metaWords[META.CUR_TIME] = words.currentTime;
  metaWords[META.COUNT] = words.count ?? CAPACITY;
  metaWords[META.PREV_COUNT] = words.previousCount ?? CAPACITY;
  metaWords[META.SNAPS] = words.snaps ?? 0;
  return {
    previous: fieldViews(previous, 0, layout),
    current: fieldViews(current, 0, layout),
    previousGeneration: new Uint32Array(previous, layout.generationOffset, CAPACITY),
    currentGeneration: new Uint32Array(current, layout.generationOffset, CAPACITY),
    previousGame: new Float64Array(0),
    currentGame: new Float64Array(0),
    previousBlock: new Float32Array(previous),
    currentBlock: new Float32Array(current),
    metaWords,
  };
}

const PAIR = pairWith({ previousTime: 100, currentTime: 150 });

describe('track: what to upload for the pair read', () => {
  it.each([
    // publish counts read, one frame each,           the uploads asked for
    ['the first pair: both states', [7], ['full']],
    ['the same publish again: nothing', [7, 7, 7], ['full', 'none', 'none']],
    ['one publish on: a swap', [7, 8, 9], ['full', 'swap', 'swap']],
    ['publishes skipped: both states', [7, 9, 10, 13], ['full', 'full', 'swap', 'full']],
    ['one publish on across 2^31', [2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1], ['full', 'swap', 'swap']],
    ['one publish on across the wrap of 2^32', [2 ** 32 - 2, 2 ** 32 - 1, 0, 1], ['full', 'swap', 'swap', 'swap']],
    ['two on across the wrap: both states', [2 ** 32 - 1, 1], ['full', 'full']],
    ['publish 0 first (tick 0 only): both states', [0, 0, 1], ['full', 'none', 'swap']],
  ] as const)('%s', (_name, counts, uploads) => {
    const tracker = createGpuPairTracker();
    const asked: PairUpload[] = counts.map((n) => tracker.track(PAIR, n));
    expect(asked).toEqual(uploads);
    expect(tracker.publishCount).toBe(counts.at(-1));
  });

  it('after forget (buffers grown, unloaded, a lost context) uploads both states, even one publish on', () => {
    const tracker = createGpuPairTracker();
    tracker.track(PAIR, 3);
    tracker.forget();
    expect(tracker.publishCount).toBe(-1);
    expect(tracker.track(PAIR, 3)).toBe('full');
    tracker.forget();
    expect(tracker.track(PAIR, 4)).toBe('full');
    expect(tracker.track(PAIR, 5)).toBe('swap');
  });

  it("notes the pair's ticks, times, counts and snaps every time: a restamp moves the times without a publish", () => {
    const tracker = createGpuPairTracker();
    expect(tracker.track(pairWith({ previousTick: 4, tick: 5, previousTime: 100, currentTime: 150, count: 3, previousCount: 2, snaps: 1 }), 9)).toBe('full');
    expect(tracker).toMatchObject({ previousTick: 4, tick: 5, previousTime: 100, currentTime: 150, count: 3, previousCount: 2, snaps: 1 });
    // resumed after a pause: the same publish, re-pinned 1 s later
    expect(tracker.track(pairWith({ previousTick: 4, tick: 5, previousTime: 1100, currentTime: 1150, count: 3, previousCount: 2, snaps: 1 }), 9)).toBe('none');
    expect(tracker).toMatchObject({ previousTime: 1100, currentTime: 1150 });
    expect(tracker.place(1125)).toBe(0.5);
  });
});

describe('place: where a frame falls against the pair on the GPU', () => {
  const hold: LateOptions = { whenLate: 'hold', maxPrediction: 1 };
  const carryOn = (maxPrediction = 1): LateOptions => ({ whenLate: 'extrapolate', maxPrediction });
  // the pair: previous at 100 ms, current at 150 ms, unless a row says otherwise
  it.each([
    // name,                                       options,       time, prev, cur, alpha, late, extrapolated, overtaken
    ['between', hold, 120, 100, 150, 0.4, false, false, false],
    ['on the previous state', hold, 100, 100, 150, 0, false, false, false],
    ['on the current state', hold, 150, 100, 150, 1, false, false, false],
    ['late, held (the default)', undefined, 170, 100, 150, 1, true, false, false],
    ['late, held', hold, 170, 100, 150, 1, true, false, false],
    ['late, carried on', carryOn(), 170, 100, 150, 1.4, true, true, false],
    ['late, carried on at most maxPrediction ticks', carryOn(0.5), 400, 100, 150, 1.5, true, true, false],
    ['late, maxPrediction defaults to 1', { whenLate: 'extrapolate' }, 400, 100, 150, 2, true, true, false],
    ['overtaken: drawn at the previous state', hold, 58, 100, 150, 0, false, false, true],
    ['overtaken, whenLate does not matter', carryOn(), 58, 100, 150, 0, false, false, true],
    ['no span (tick 0, a held tick): the current state, never late', carryOn(), 170, 150, 150, 1, false, false, false],
    ['no span, a frame before it: overtaken, as the sampler counts it', hold, 120, 150, 150, 1, false, false, true],
  ] as const)('%s', (_name, options, time, previousTime, currentTime, alpha, late, extrapolated, overtaken) => {
    const tracker = createGpuPairTracker();
    tracker.track(pairWith({ previousTime, currentTime }), 1);
    expect(tracker.place(time, options)).toBeCloseTo(alpha, 12);
    expect(tracker.alpha).toBeCloseTo(alpha, 12);
    expect({ late: tracker.late, extrapolated: tracker.extrapolated, overtaken: tracker.overtaken }).toEqual({ late, extrapolated, overtaken });
    expect(tracker.stats).toEqual({ late: late ? 1 : 0, extrapolated: extrapolated ? 1 : 0, overtaken: overtaken ? 1 : 0 });
  });

  it('before any pair was tracked: alpha 1, nothing counted', () => {
    const tracker = createGpuPairTracker();
    expect(tracker.place(1e9, carryOn())).toBe(1);
    expect(tracker.place(-1e9)).toBe(1);
    expect({ late: tracker.late, overtaken: tracker.overtaken }).toEqual({ late: false, overtaken: false });
    expect(tracker.stats).toEqual({ late: 0, extrapolated: 0, overtaken: 0 });
  });

  it("counts each frame once, into the stats object it was given (an adapter's own)", () => {
    const stats: GpuFrameStats & { swaps: number } = { swaps: 0, late: 0, extrapolated: 0, overtaken: 0 };
    const tracker = createGpuPairTracker(stats);
    expect(tracker.stats).toBe(stats);
    tracker.track(PAIR, 1);
    for (const time of [90, 120, 160, 170, 80]) tracker.place(time, carryOn());
    expect(stats).toEqual({ swaps: 0, late: 2, extrapolated: 2, overtaken: 2 });
    // a frame back on its pair answers afresh
    tracker.place(125);
    expect({ alpha: tracker.alpha, late: tracker.late, extrapolated: tracker.extrapolated, overtaken: tracker.overtaken }).toEqual({
      alpha: 0.5,
      late: false,
      extrapolated: false,
      overtaken: false,
    });
  });

  it('follows the options it is given each frame (setInterpolation between frames)', () => {
    const tracker = createGpuPairTracker();
    tracker.track(PAIR, 1);
    expect(tracker.place(175, carryOn())).toBeCloseTo(1.5, 12);
    expect(tracker.place(175, hold)).toBe(1);
    expect(tracker.place(175)).toBe(1);
    expect(tracker.stats).toEqual({ late: 3, extrapolated: 1, overtaken: 0 });
  });
});

describe("place agrees with the runtime's sampler on the same slot", () => {
  // a real slot, published by the worker's writer and read under the reader's lock, as both the sampler and an
  // adapter read it; the sampler is fresh for each frame, so it has no history to recover an overtaken frame from
  const layout = computeLayout(schema, CAPACITY);
  const views = createSharedViews(allocateSharedBuffer(layout, 0), schema, CAPACITY);
  const world = new Float32Array(layout.blockBytes / 4);
  const writer = new SlotWriter(views, world, () => 0);
  const reader = new SlotReader(views);
  const meta = { count: 2, previousCount: 2, simTime: 0, scale: 1, snaps: 0 };
  writer.publishInitial({ ...meta, previousTick: 1, currentTick: 1, previousTime: 100, currentTime: 100 });
  writer.publish({ ...meta, previousTick: 1, currentTick: 2, previousTime: 100, currentTime: 150 });

  it.each([
    ['hold', 1],
    ['extrapolate', 1],
    ['extrapolate', 0.25],
  ] as const)('whenLate %s, maxPrediction %s', (whenLate, maxPrediction) => {
    const tracker = createGpuPairTracker();
    for (const time of [40, 99.9, 100, 112.5, 149, 150, 150.1, 160, 175, 250, 1e6]) {
      const sampler = new Sampler(schema, layout, fieldViews(new ArrayBuffer(layout.blockBytes), 0, layout));
      sampler.configure({ whenLate, maxPrediction });
      const out = {} as SampleResult;
      const slot = reader.acquire()!;
      sampler.read(slot, time, out);
      tracker.track(slot, reader.publishCount());
      reader.release();
      sampler.finish(time, out);
      const alpha = tracker.place(time, { whenLate, maxPrediction });
      expect({ time, alpha, late: tracker.late, overtaken: tracker.overtaken }).toEqual({ time, alpha: out.alpha, late: out.late, overtaken: out.overtaken });
      expect(tracker.extrapolated).toBe(out.late && whenLate === 'extrapolate');
    }
  });
});

describe('a tracker of one table', () => {
  it("counts the table's entities, from its word in each state's game run, not the pair's extent", async () => {
    const { defineTables, tablesCapacity } = await import('steadyframe');
    const { COUNT_SPAN } = await import('../../src/core/tables.ts');
    const tables = defineTables({
      a: { capacity: 3, fields: { p: { width: 1, kind: 'linear' } } },
      b: { capacity: 5, fields: { p: { width: 1, kind: 'linear' } } },
    });
    const layout = computeLayout(tables, tablesCapacity(tables));
    const b = layout.tables[1]!;
    const pair = pairWith({ previousTime: 0, currentTime: 10, count: 7, previousCount: 6 });
    // a word: count + COUNT_SPAN * the next handle
    const game = { previousGame: new Float64Array([1, 2 + 9 * COUNT_SPAN]), currentGame: new Float64Array([3, 4 + 11 * COUNT_SPAN]) };
    const tracker = createGpuPairTracker(undefined, b);
    tracker.track({ ...pair, ...game }, 1);
    expect({ count: tracker.count, previousCount: tracker.previousCount }).toEqual({ count: 4, previousCount: 2 });
    // without a table: the pair's meta words, as before
    const all = createGpuPairTracker();
    all.track({ ...pair, ...game }, 1);
    expect({ count: all.count, previousCount: all.previousCount }).toEqual({ count: 7, previousCount: 6 });
    // a table's tracker needs the game runs
    expect(() => tracker.track({ metaWords: pair.metaWords }, 2)).toThrow(/tracks whole pairs/);
  });
});
