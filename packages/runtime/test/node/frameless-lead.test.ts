/**
 * A frameless host's loop (a server: `steadyframe/node` with no frames, ARCHITECTURE.md "The loop"), driven by a
 * clock moved by hand: with no frame expected each tick starts at its time, never ahead, the wake planned for the
 * next tick's time, and an input stamped up to a tick's time lands in that tick. The lead comes back for frames
 * the app announces, and for a game that sets `maxLeadTicks`. A page's loop (no `frameless` at attach) is the
 * other tests' (simulation.test.ts), unchanged; here it is the contrast that shows the assertions can fail.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout, schemaSignature } from 'steadyframe/adapter';
import { mulberry32 } from 'steadyframe/testing';
import { Simulation, type SimulationDefinition } from 'steadyframe/worker';
import { writeNextFrame } from '../../src/core/doorbell.ts';
import { allocateInputRing } from '../../src/core/input-ring.ts';
import { InputWriter } from '../../src/core/input-writer.ts';
import { allocateSharedBuffer, createSharedViews } from '../../src/core/layout.ts';
import { checkDefinition, leadTicks } from '../../src/worker/settings.ts';
import { manualHost } from './support/manual-host.ts';

const schema = defineSchema({ x: { width: 1, kind: 'linear' } });
const CAPACITY = 4;
/** 200 Hz from 1000: tick k stands at 1000 + 5k. */
const TICK_MS = 5;

/** What one step saw: its tick, the time it stands for, the clock when it ran, and its input events. */
interface Run {
  readonly tick: number;
  readonly at: number;
  readonly previousAt: number;
  readonly start: number;
  readonly inputs: ReadonlyArray<{ readonly time: number; readonly late: boolean }>;
}

/** The loop on a hand-moved clock, attached as a frameless host does (`frameless`), or as a page (false). */
function loopOn(frameless: boolean, options: Partial<Omit<SimulationDefinition<typeof schema>, 'schema' | 'init' | 'step'>> = {}) {
  const clock = manualHost();
  const ring = allocateInputRing(64);
  const input = new InputWriter(ring);
  const runs: Run[] = [];
  const sim = new Simulation(
    {
      schema,
      tickRate: 1000 / TICK_MS,
      // a long stall is caught up whole: every tick runs, none dropped
      maxCatchUpSteps: 1000,
      ...options,
      init(world) {
        world.count = 1;
      },
      step(world, tick) {
        const inputs = [];
        for (let i = 0; i < tick.input.length; i++) inputs.push({ time: tick.input.time(i), late: tick.input.late(i) });
        runs.push({ tick: tick.tick, at: tick.at, previousAt: tick.previousAt, start: clock.now, inputs });
        world.fields.x[0] = tick.tick;
      },
    },
    { host: clock.host },
  );
  const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
  sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY, input: ring as SharedArrayBuffer, ...(frameless ? { frameless: true } : {}) });
  const views = createSharedViews(buffer, schema, CAPACITY);
  /** The newest tick's time. */
  const newest = () => 1000 + sim.stats().tick * TICK_MS;
  return { sim, clock, input, runs, views, newest };
}

/**
 * Moves the clock 600 times by a seeded random step (0 to 12 ms, one in four landing exactly on the next tick's
 * time), with an input arriving on the way before about half the moves (stamped at a random time in the step, up
 * to its end: in the ring before the loop runs at that time), and calls `check` after each wake.
 */
async function randomWalk(loop: ReturnType<typeof loopOn>, check: () => void): Promise<void> {
  const random = mulberry32(41);
  const { clock, input } = loop;
  for (let move = 0; move < 600; move++) {
    const from = clock.now;
    const to = random() < 0.25 ? 1000 + (Math.floor((from - 1000) / TICK_MS) + 1) * TICK_MS : from + random() * 12;
    if (random() < 0.5) input.push(random() < 0.25 ? to : from + (to - from) * random(), 1, move);
    clock.now = to;
    await clock.wake();
    check();
  }
}

describe('a frameless host (a server) ticks on the wall clock', () => {
  it('runs each tick at its time, never ahead, and plans its wake for the next tick\'s time', async () => {
    const loop = loopOn(true);
    const { sim, clock, runs, newest } = loop;
    sim.start();
    expect(runs).toEqual([]); // tick 1 stands at 1005: not yet
    expect(clock.sleeps).toEqual([TICK_MS]);
    await randomWalk(loop, () => {
      // caught up to now, not past it: the newest tick is the last one whose time has come
      expect(newest()).toBeLessThanOrEqual(clock.now);
      expect(newest() + TICK_MS).toBeGreaterThan(clock.now);
      // asleep until the next tick's time
      expect(clock.now + clock.sleeps.at(-1)!).toBeCloseTo(newest() + TICK_MS, 9);
    });
    expect(runs.length).toBeGreaterThan(400);
    for (const run of runs) expect(run.start).toBeGreaterThanOrEqual(run.at);
    expect(sim.stats()).toMatchObject({ overloads: 0, droppedMs: 0 });
  });

  it('puts each input in the tick whose interval it arrived in, none late', async () => {
    const loop = loopOn(true);
    loop.sim.start();
    await randomWalk(loop, () => {});
    const inputs = loop.runs.flatMap((run) => run.inputs.map((event) => ({ ...event, run })));
    expect(inputs.length).toBeGreaterThan(200);
    for (const { time, late, run } of inputs) {
      expect(late).toBe(false);
      expect(time).toBeGreaterThan(run.previousAt);
      expect(time).toBeLessThanOrEqual(run.at);
    }
    expect(loop.sim.stats()).toMatchObject({ lateInputs: 0 });
  });

  it('a page\'s loop, on the same moves, runs every tick ahead of its time, and its inputs come late (the contrast)', async () => {
    const loop = loopOn(false);
    loop.sim.start();
    await randomWalk(loop, () => {});
    expect(loop.runs.filter((run) => run.start < run.at).length).toBeGreaterThan(loop.runs.length / 2);
    expect(loop.sim.stats().lateInputs).toBeGreaterThan(0);
  });

  it('an input stamped just before a tick\'s time lands in that tick', async () => {
    const { sim, clock, input, runs } = loopOn(true);
    sim.start();
    clock.now = 1004.9;
    await clock.wake();
    expect(runs).toEqual([]); // tick 1 (1005) is not made ahead of its time...
    input.push(1004.999, 7, 0); // ...so an input 1 µs before it still makes it
    clock.now = 1005;
    await clock.wake();
    expect(runs).toEqual([{ tick: 1, at: 1005, previousAt: 1000, start: 1005, inputs: [{ time: 1004.999, late: false }] }]);
  });

  it('keeps the lead a game sets: maxLeadTicks holds on a frameless host as before', async () => {
    const { sim, clock, runs } = loopOn(true, { maxLeadTicks: 2 });
    sim.start();
    clock.now = 1004;
    await clock.wake();
    // the newest state just past now, as every host ran with no frame expected
    expect(runs.map((run) => [run.tick, run.start])).toEqual([[1, 1004]]);
  });

  it('runs ahead for a frame the app announces (frame(), frameAt()), within maxLeadTicks, and on time again once frames stop', async () => {
    const { sim, clock, views, newest } = loopOn(true);
    writeNextFrame(views, 1016); // a server loop's frame at 1016
    sim.start();
    expect(newest()).toBe(1010); // toward the frame, at most 2 ticks (the default lead for frames) ahead of 1000
    clock.now = 1006;
    await clock.wake();
    expect(newest()).toBe(1015); // the lead allows one more
    clock.now = 1010;
    await clock.wake();
    expect(newest()).toBe(1020); // just past the frame: its pair (1015, 1020) is made before it draws
    // no frame after it: once it is overdue by more than the hold (50 ms), the wall clock again, none ahead
    clock.now = 1066.5;
    await clock.wake();
    expect(newest()).toBe(1065);
  });

  it('takes the lead cap per pass: the game\'s or 2 while a frame is expected or on a page; on a frameless host without one, the game\'s or 0', () => {
    const settings = (maxLeadTicks?: number) => checkDefinition({ schema, tickRate: 60, step: () => {}, ...(maxLeadTicks === undefined ? {} : { maxLeadTicks }) });
    // [maxLeadTicks set, frameless, frame expected] -> ticks
    const table: Array<[number | undefined, boolean, boolean, number]> = [
      [undefined, false, false, 2],
      [undefined, false, true, 2],
      [undefined, true, true, 2],
      [undefined, true, false, 0],
      [1, true, false, 1],
      [3, true, false, 3],
      [0, false, true, 0],
    ];
    for (const [set, frameless, expected, ticks] of table) expect(leadTicks(settings(set), frameless, expected), `${set} ${frameless} ${expected}`).toBe(ticks);
  });
});
