/**
 * The simulation's seeded generator (src/core/random.ts): xoshiro128** 1.0 against its reference outputs, seeded
 * by splitmix32 (values computed apart from this code), and on a runtime (the seeded fixture: `init` and every
 * step draw): one seed, one run; `restart('scratch')` runs it again from the seed; `restart('last')` after a
 * step that drew and threw goes on as if that step had never run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeRuntime } from 'steadyframe/node';
import { checkSeed, SeededRandom } from '../../src/core/random.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import type { SeededCommands } from './fixtures/seeded.worker.ts';
import { disposeRuntimes, onManualClock, type MotionRuntime } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

const TWO_32 = 2 ** 32;

describe('SeededRandom', () => {
  it('is xoshiro128** 1.0: its reference outputs from the state 1, 2, 3, 4', () => {
    const random = new SeededRandom(0);
    random.state.set([1, 2, 3, 4]);
    expect(Array.from({ length: 8 }, () => random.next() * TWO_32)).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
  });

  it('seeds by splitmix32 (a Weyl sequence through MurmurHash3 fmix32): seed 42', () => {
    const random = new SeededRandom(42);
    expect(Array.from(random.state)).toEqual([939911724, 3948730756, 321366731, 3317318717]);
    expect(Array.from({ length: 4 }, () => random.next() * TWO_32)).toEqual([2837322924, 544945897, 479756282, 3500138142]);
  });

  it('draws in [0, 1); save and restore go on from where it was; seed starts over', () => {
    const random = new SeededRandom(7);
    const first = Array.from({ length: 1000 }, random.next);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(first).size).toBe(1000);
    const saved = new Uint32Array(4);
    random.save(saved);
    const after = Array.from({ length: 10 }, random.next);
    random.restore(saved);
    expect(Array.from({ length: 10 }, random.next)).toEqual(after);
    random.seed(7);
    expect(Array.from({ length: 1000 }, random.next)).toEqual(first);
  });

  it('takes a whole number from 0 to 2^32 − 1 as a seed, and nothing else', () => {
    expect(checkSeed(0)).toBe(0);
    expect(checkSeed(0xffff_ffff)).toBe(0xffff_ffff);
    for (const bad of [-1, 1.5, TWO_32, Number.NaN, '1', null]) expect(() => checkSeed(bad)).toThrow(/whole number from 0 to 4294967295/);
  });
});

describe("a runtime's generator", () => {
  afterEach(disposeRuntimes);

  /** The published positions and angles, bit for bit. */
  const state = (rt: MotionRuntime): number[] =>
    rt.reader.read((pair) => [...new Uint32Array(pair.current.position.slice(0, 8).buffer), ...new Uint32Array(pair.current.angle.slice(0, 4).buffer)]) ?? [];

  /** `ticks` steps of a held runtime: the states from tick 0 on. */
  async function steps(rt: MotionRuntime, ticks: number): Promise<number[][]> {
    const states = [state(rt)];
    for (let k = 0; k < ticks; k++) {
      await rt.stepOnce();
      states.push(state(rt));
    }
    return states;
  }

  const seeded = (seed?: number) => onManualClock({ fixture: 'seeded', capacity: 8, setup: { count: 4 }, ...(seed === undefined ? {} : { seed }) });

  it('one seed, one run: init and every step draw the same; another seed draws otherwise', async () => {
    const a = await seeded(1234);
    const b = await seeded(1234);
    const c = await seeded(1235);
    expect(a.rt.info.seed).toBe(1234);
    const runA = await steps(a.rt, 30);
    expect(await steps(b.rt, 30)).toEqual(runA);
    const runC = await steps(c.rt, 30);
    runC.forEach((s, k) => expect(s, `tick ${k}`).not.toEqual(runA[k]));
  });

  it('picks a seed when none is given, and says which: that seed runs the same again', async () => {
    const a = await seeded();
    const b = await seeded();
    expect(Number.isInteger(a.rt.info.seed) && a.rt.info.seed >= 0 && a.rt.info.seed < TWO_32).toBe(true);
    expect(a.rt.info.seed).not.toBe(b.rt.info.seed);
    const again = await seeded(a.rt.info.seed);
    expect(await steps(again.rt, 10)).toEqual(await steps(a.rt, 10));
  });

  it("restart('scratch') runs again from the seed: init's draws, then the same steps", async () => {
    const { rt } = await seeded(99);
    const run = await steps(rt, 20);
    await rt.restart('scratch');
    expect(await steps(rt, 20)).toEqual(run);
  });

  it("restart('last') after a step that drew and threw: the generator as it was at the last publish", async () => {
    const reference = await steps((await seeded(5)).rt, 20);
    const { rt } = await seeded(5);
    const commands = rt.commands as unknown as SeededCommands;
    const first = await steps(rt, 10);
    expect(first).toEqual(reference.slice(0, 11));
    await commands.failNextStep();
    await rt.stepOnce();
    expect((await rt.remote.stats()).error?.message).toBe('a step that failed halfway');
    await rt.restart('last');
    const rest = [];
    for (let k = 0; k < 10; k++) {
      await rt.stepOnce();
      rest.push(state(rt));
    }
    expect(rest).toEqual(reference.slice(11));
  });

  it('refuses a seed that is not a 32-bit whole number at set-up', async () => {
    await expect(createNodeRuntime({ worker: await nodeFixture('seeded'), schema: motionSchema, capacity: 8, seed: -1 })).rejects.toThrow(RangeError);
  });
});
