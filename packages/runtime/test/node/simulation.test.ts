import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout, schemaSignature } from 'steadyframe/adapter';
import { Simulation, type PrivateFieldSpec, type SimulationDefinition, type Transport, type WorkerHost, type World } from 'steadyframe/worker';
import type { SharedAttachConfig } from '../../src/contracts/remote.ts';
import { sharedTransport } from '../../src/transports/shared/index.ts';
import { allocateSharedBuffer, createSharedViews, I32, META, STATUS } from '../../src/core/layout.ts';
import { frameNeedsWake, writeNextFrame } from '../../src/core/doorbell.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter } from '../../src/core/slot-writer.ts';
import type { SharedViews } from '../../src/core/layout.ts';
import type { Schema } from '../../src/core/schema.ts';
import { allocateInputRing } from '../../src/core/input-ring.ts';
import { InputWriter } from '../../src/core/input-writer.ts';
import { manualHost } from './support/manual-host.ts';

const schema = defineSchema({ x: { width: 1, kind: 'linear' } });
const CAPACITY = 4;

type Options = Partial<Omit<SimulationDefinition<typeof schema>, 'schema' | 'init'>>;

/**
 * The shared transport with a slot writer that gives up a held lock after `STALL_MS` of real time (the real
 * bound is 500 ms): the lock waits are real Atomics.waits, so their deadline runs on performance.now, not on the
 * hand-driven clock. It comes in as any transport of an app's own would.
 */
const quickStall: Transport<SharedAttachConfig> = {
  ...(sharedTransport as Transport<SharedAttachConfig>),
  worker(schema, config) {
    const half = sharedTransport.worker(schema, config);
    return { ...half, writer: (world) => new SlotWriter(half.views, world, () => performance.now(), 1, STALL_MS, config.memory ?? null) };
  },
};
const STALL_MS = 5;

/** x of entity 0 moves by 1 per tick. With `quickStall`, a page holding the lock 5 ms is a reader stall. */
function setup(options: Options = {}, input?: ArrayBufferLike, stallQuickly = false) {
  const clock = manualHost();
  const sim = new Simulation(
    {
      schema,
      tickRate: 200,
      init(world) {
        world.count = 1;
        world.fields.x[0] = 0;
      },
      step(world) {
        world.fields.x[0]! += 1;
      },
      ...options,
    },
    { host: clock.host, ...(stallQuickly ? { transports: [quickStall] } : {}) },
  );
  const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
  const info = sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY, ...(input === undefined ? {} : { input: input as SharedArrayBuffer }) });
  const views = createSharedViews(buffer, schema, CAPACITY);
  const reader = new SlotReader(views);
  /** The front slot as the main thread would see it. */
  const front = () => {
    const slot = reader.acquire()!;
    const f = slot.metaWords;
    const seen = {
      previousTick: f[META.PREV_TICK]!,
      tick: f[META.CUR_TICK]!,
      previousTime: f[META.PREV_TIME]!,
      currentTime: f[META.CUR_TIME]!,
      count: f[META.COUNT]!,
      previousCount: f[META.PREV_COUNT]!,
      snaps: f[META.SNAPS]!,
      scale: f[META.SCALE]!,
      previousX: slot.previous.x[0]!,
      x: slot.current.x[0]!,
      previousGeneration: Array.from(slot.previousGeneration),
      generation: Array.from(slot.currentGeneration),
    };
    reader.release();
    return seen;
  };
  return { sim, clock, views, front, info, reader };
}

describe('simulation loop (worker side, clock driven by hand)', () => {
  it('publishes tick 0 from init when attached', () => {
    const { sim, views, front, info } = setup();
    expect(front()).toMatchObject({ previousTick: 0, tick: 0, previousTime: 1000, currentTime: 1000, count: 1, previousX: 0, x: 0 });
    expect(Atomics.load(views.i32, I32.PUBLISH_SEQ)).toBe(1);
    expect(sim.stats().status).toBe('idle');
    expect(info).toMatchObject({
      tickRate: 200,
      timeScale: 1,
      maxCatchUpSteps: 50,
      maxLeadTicks: 2,
      backlog: 'catch-up',
      maxBacklog: 250,
      whenHidden: 'pause',
    });
  });

  it('runs just past the next frame the main thread expects, then sleeps until the next tick is due', async () => {
    const { sim, clock, views, front } = setup({ maxLeadTicks: 10 });
    writeNextFrame(views, 1016); // tick length 5 ms: ticks at 1005, 1010, 1015, 1020
    sim.start();
    expect(front()).toMatchObject({ previousTick: 3, tick: 4, previousTime: 1015, currentTime: 1020, previousX: 3, x: 4 });
    expect(clock.sleeps).toEqual([20]);
    // the frame at 1016 is drawn; the main thread now expects one at 1032
    clock.now = 1017;
    writeNextFrame(views, 1032);
    await clock.wake();
    expect(front()).toMatchObject({ tick: 7, previousTime: 1030, currentTime: 1035 });
    expect(clock.sleeps).toEqual([20, 18]);
  });

  it('counts timed wakes the OS ran late, and not wakes a frame rang', async () => {
    const { sim, clock, views } = setup({ maxLeadTicks: 10 });
    writeNextFrame(views, 1016);
    sim.start();
    expect(clock.sleeps).toEqual([20]); // planned to wake at 1020
    clock.now = 1020.5; // half a ms late: scheduling noise, not counted as late
    await clock.wake();
    expect(sim.stats()).toMatchObject({ lateWakes: 0, maxWakeLateMs: 0.5 });
    const planned = clock.now + clock.sleeps.at(-1)!;
    clock.now = planned + 3.5; // the thread ran 3.5 ms after its plan
    await clock.wake();
    expect(sim.stats()).toMatchObject({ lateWakes: 1, maxWakeLateMs: 3.5 });
    // a frame rings it long after the planned wake: that wake is the frame's, not a late one
    clock.now += clock.sleeps.at(-1)! + 10;
    writeNextFrame(views, clock.now);
    await clock.wake();
    expect(sim.stats()).toMatchObject({ lateWakes: 1, maxWakeLateMs: 3.5 });
  });

  it('publishes, while it sleeps, how far its states reach, so frames up to there need not wake it', async () => {
    let covered = Number.NaN;
    const { sim, clock, views } = setup({
      maxLeadTicks: 10,
      step(world) {
        world.fields.x[0]! += 1;
        covered = coveredOf(); // awake: -Infinity, every frame rings
      },
    });
    const coveredOf = () => {
      const halves = new Int32Array([Atomics.load(views.i32, I32.COVERED_LO), Atomics.load(views.i32, I32.COVERED_HI)]);
      return new Float64Array(halves.buffer)[0]!;
    };
    expect(frameNeedsWake(views, 1000)).toBe(true); // attached, not started: no plan
    writeNextFrame(views, 1016);
    sim.start();
    expect(covered).toBe(Number.NEGATIVE_INFINITY);
    // asleep with states up to tick 4 (1020): a frame at 1019 or 1020 need not wake it, one at 1021 must
    expect(coveredOf()).toBe(1020);
    expect(writeNextFrame(views, 1019)).toBe(false);
    expect(writeNextFrame(views, 1020.5)).toBe(true);
    clock.now = 1017;
    await clock.wake();
    expect(coveredOf()).toBe(1025); // planned again with the frame at 1020.5: one more tick
  });

  it('gives the event loop a turn every few ms even when every wait is a spin or a block', async () => {
    // 1 kHz with a step that takes 2 ms: never a sleep long enough to free the event loop by itself. (Under
    // backlog: 'drop' the 40 ms are dropped and nothing is due on this clock, which moves only in steps: the
    // stretch is the catch-up's, which falls further behind with every tick)
    let clock!: ReturnType<typeof manualHost>;
    let ticks = 0;
    const s = setup({
      tickRate: 1000,
      step() {
        ticks++;
        clock.now += 2;
      },
    });
    clock = s.clock;
    s.sim.start();
    s.clock.now += 40;
    await s.clock.wake();
    expect(ticks).toBeGreaterThan(40); // a busy stretch: ticks back to back, the clock moving 2 ms with each
    // a turn after each burst: ticks back to back while at most BURST_MS (4 ms) have passed since the pass began,
    // the first always, so at most 3 of these 2 ms ticks (6 ms) between two turns
    expect(s.clock.yields).toBeGreaterThanOrEqual(Math.floor(ticks / 3));
  });

  describe('never goes more than a few ms without a turn of its event loop, on a host whose short waits block', () => {
    /**
     * A host whose clock moves by itself: a sleep passes its ms at once and, like the browser's, frees the
     * event loop only when it is long (an Atomics.waitAsync); waits within spinMs + 4 ms block and spin,
     * synchronously (`blockSync`); a yield takes 20 µs. It parks the loop once the clock passes `end`.
     */
    function selfDrivingHost(end: number) {
      /** yields: when the event loop had a turn (a yield, or an asynchronous wait) */
      const state = { now: 1000, yields: [] as number[], spun: 0 };
      const host: WorkerHost = {
        clock: () => () => state.now,
        sleep: (_i32, _index, _value, ms, spinMs) => {
          if (state.now > end) return new Promise(() => {});
          state.now += Math.max(0, ms) + 0.001; // a wake lands a µs past its time, as a spin's does
          const spunMs = Math.min(Math.max(0, ms), spinMs);
          state.spun += spunMs;
          const yielded = ms > spinMs + 4;
          if (yielded) state.yields.push(state.now); // a waitAsync: the event loop had its turn
          return Promise.resolve({ yielded, spunMs });
        },
        // as the browser's: short waits block and spin synchronously (no await at all on that path)
        blockSync: (_i32, _index, _value, ms, spinMs) => {
          if (ms > spinMs + 4 || state.now > end) return null;
          state.now += Math.max(0, ms) + 0.001; // a wake lands a µs past its time, as a spin's does
          const spunMs = Math.min(Math.max(0, ms), spinMs);
          state.spun += spunMs;
          return { yielded: false, spunMs };
        },
        yieldToEvents: () => {
          // park a loop that yields without the clock moving (it would spin through microtasks forever)
          if (state.now > end || state.yields.length > 10_000) return new Promise(() => {});
          state.yields.push(state.now);
          state.now += 0.02; // a MessageChannel round trip
          return Promise.resolve();
        },
        every: () => () => {},
      };
      return { host, state };
    }

    for (const [label, options, stepMs] of [
      ['60 Hz, a step that takes 16 ms (every wait within the spin)', { tickRate: 60 }, 16],
      ['1 kHz with spinMs 1 (more than the wait between ticks)', { tickRate: 1000, spinMs: 1 }, 0],
      ['60 Hz with spinMs 20 (more than a tick)', { tickRate: 60, spinMs: 20 }, 0],
      ['60 Hz with spinMs 8 and a 10 ms step (every wait within the spin)', { tickRate: 60, spinMs: 8 }, 10],
    ] as const) {
      it(label, async () => {
        const { host, state } = selfDrivingHost(1500);
        const sim = new Simulation(
          {
            schema,
            ...options,
            init(world) {
              world.count = 1;
            },
            step() {
              state.now += stepMs;
            },
          },
          { host },
        );
        sim.attach({ kind: 'shared', buffer: allocateSharedBuffer(computeLayout(schema, CAPACITY), 0), signature: schemaSignature(schema), capacity: CAPACITY });
        sim.start();
        await new Promise((resolve) => setTimeout(resolve, 0)); // the loop ran to `end` in microtasks, then parked
        expect(state.yields.length).toBeLessThan(10_000);
        expect(state.now).toBeGreaterThan(1500);
        const gaps = state.yields.map((t, i) => t - (i === 0 ? 1000 : state.yields[i - 1]!));
        expect(Math.max(...gaps, state.now - state.yields.at(-1)!)).toBeLessThanOrEqual(2 * 4 + 1000 / options.tickRate);
        // and no more than half of each tick spent spinning, whatever spinMs asked
        expect(state.spun / (state.now - 1000)).toBeLessThanOrEqual(0.5);
      });
    }
    // issue #14, bug 1: a step slower than its tick made every pass a catch-up burst of maxCatchUpSteps ticks
    // with no yield between them (656 ms gaps at 40 ms steps, 2318 ms at 150 ms: past the heartbeat timeout)
    for (const stepMs of [40, 150]) {
      it(`60 Hz with a ${stepMs} ms step (overloaded): a turn at least every step plus a few ms, a beat every tick`, async () => {
        const { host, state } = selfDrivingHost(1000 + 40 * stepMs);
        const sim = new Simulation(
          {
            schema,
            tickRate: 60,
            init(world) {
              world.count = 1;
            },
            step() {
              state.now += stepMs;
            },
          },
          { host },
        );
        const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
        sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY });
        const views = createSharedViews(buffer, schema, CAPACITY);
        const beatsBefore = Atomics.load(views.i32, I32.HEARTBEAT);
        sim.start();
        await new Promise((resolve) => setTimeout(resolve, 0));
        const gaps = state.yields.map((t, i) => t - (i === 0 ? 1000 : state.yields[i - 1]!));
        expect(Math.max(...gaps)).toBeLessThanOrEqual(stepMs + 2 * 4 + 1);
        const stats = sim.stats();
        // the heartbeat moves with every tick (the host's timer never fires here)
        expect(Atomics.load(views.i32, I32.HEARTBEAT) - beatsBefore).toBeGreaterThanOrEqual(stats.publishes - 1);
        // the bursts still count toward maxCatchUpSteps: the backlog past it is dropped, as before
        expect(stats.overloads).toBeGreaterThan(0);
      });
    }
  });

  /**
   * Like the browser's host: a short wait blocks and spins synchronously but ends 50 µs early; the clock moves
   * a µs per read, so the loop's last spin (inside the tick, right before the step) ends. Parks after `ticks`.
   */
  function earlyWakingHost(ticks: number) {
    const state = { now: 1000, starts: [] as Array<{ start: number; due: number; at: number }> };
    const host: WorkerHost = {
      clock: () => () => (state.now += 0.001),
      sleep: (_i32, _index, _value, ms, spinMs) => {
        if (state.starts.length >= ticks) return new Promise(() => {});
        state.now += Math.max(0, ms - spinMs - 4); // the far stage ends where the near one begins
        return Promise.resolve({ yielded: true, spunMs: 0 });
      },
      blockSync: (_i32, _index, _value, ms, spinMs) => {
        if (ms > spinMs + 4 || state.starts.length >= ticks) return null;
        state.now += ms > 0.1 ? ms - 0.05 : ms;
        return { yielded: false, spunMs: 0 };
      },
      yieldToEvents: () => Promise.resolve(),
      every: () => () => {},
    };
    return { host, state };
  }

  function earlySim(ticks: number, options: Options = {}) {
    const { host, state } = earlyWakingHost(ticks);
    const sim = new Simulation(
      {
        schema,
        tickRate: 60,
        init(world) {
          world.count = 1;
        },
        step(_world, tick) {
          state.starts.push({ start: state.now, due: tick.previousAt, at: tick.at });
        },
        ...options,
      },
      { host },
    );
    const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
    sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY });
    return { sim, state, views: createSharedViews(buffer, schema, CAPACITY) };
  }

  it('with a host that wakes early on purpose, starts each tick at its due instant, never before', async () => {
    const { sim, state } = earlySim(200);
    sim.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.starts.length).toBeGreaterThanOrEqual(200);
    for (const { start, due } of state.starts) {
      expect(start).toBeGreaterThanOrEqual(due);
      expect(start - due).toBeLessThan(0.05); // within the warm-up's µs, not a whole wait late
    }
    expect(sim.stats().spunMs).toBeGreaterThan(0); // the spins inside the ticks are counted
  });

  it('with a host that wakes early on purpose, still drops the backlog when the hold for an overdue frame ends', async () => {
    // frames stop after one at 1010: the loop holds for it until 1060, then follows the wall clock; under 'drop'
    // the time it fell behind is dropped first, so no tick is made for a time already past
    const { sim, state, views } = earlySim(20, { backlog: 'drop', maxLeadTicks: 1 });
    writeNextFrame(views, 1010);
    sim.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.starts.length).toBeGreaterThanOrEqual(20);
    for (const { start, at } of state.starts) expect(at).toBeGreaterThanOrEqual(start);
    expect(sim.stats().droppedMs).toBeGreaterThan(0);
  });

  it('does not count holding for an overdue frame as backlog, even under drop', async () => {
    const { sim, clock, views, front } = setup({ maxLeadTicks: 10, backlog: 'drop' });
    writeNextFrame(views, 1016);
    sim.start();
    clock.now = 1040;
    await clock.wake();
    expect(sim.stats()).toMatchObject({ overloads: 0, droppedMs: 0 });
    expect(front().currentTime).toBe(1020);
  });

  it('does not overtake a frame whose callback runs late', async () => {
    const { sim, clock, views, front } = setup({ maxLeadTicks: 10 });
    writeNextFrame(views, 1016);
    sim.start(); // to 1020: just past the frame at 1016
    expect(front()).toMatchObject({ previousTime: 1015, currentTime: 1020 });
    clock.now = 1040; // the frame's callback has not run yet: it will still draw at 1016
    await clock.wake();
    expect(front()).toMatchObject({ previousTime: 1015, currentTime: 1020 }); // 1016 still between the two
    writeNextFrame(views, 1049); // it ran: the next one is expected at 1049
    await clock.wake();
    expect(front().currentTime).toBe(1050);
    clock.now = 1200; // no frame for 150 ms: follow the wall clock again
    await clock.wake();
    expect(front().currentTime).toBeGreaterThanOrEqual(1200);
  });

  it('never puts the newest state more than maxLeadTicks ahead of the wall clock', async () => {
    const { sim, views, front, clock } = setup();
    writeNextFrame(views, 5000);
    sim.start();
    expect(front().currentTime).toBe(1010); // 2 ticks of 5 ms
    expect(clock.sleeps).toEqual([5]); // until the next tick is allowed
    clock.now = 1005;
    await clock.wake();
    expect(front().currentTime).toBe(1015);
  });

  it('keeps up with the wall clock when no frame is expected', async () => {
    const { sim, front, clock } = setup();
    sim.start();
    expect(front().tick).toBe(0);
    clock.now = 1012;
    await clock.wake();
    expect(front()).toMatchObject({ tick: 3, currentTime: 1015 });
  });

  it("'catch-up': runs capped bursts until caught up, keeping at most maxBacklog", async () => {
    const { sim, front, clock } = setup({ maxCatchUpSteps: 4 });
    sim.start();
    clock.now = 2000; // a one-second stall
    await clock.wake();
    // 4 ticks reached 1020; 250 ms kept and caught up in bursts of 4 ticks, the event loop served between them
    expect(sim.stats()).toMatchObject({ overloads: 1, droppedMs: 730 });
    expect(front()).toMatchObject({ tick: 54, currentTime: 2000 });
  });

  it("'slow': one capped burst, then the rest is dropped", async () => {
    const { sim, front, clock } = setup({ maxCatchUpSteps: 4, backlog: 'slow' });
    sim.start();
    clock.now = 2000;
    await clock.wake();
    expect(sim.stats()).toMatchObject({ overloads: 1, droppedMs: 980 });
    expect(front()).toMatchObject({ tick: 4, currentTime: 1020 });
    clock.now = 2001;
    await clock.wake();
    await clock.wake();
    expect(front()).toMatchObject({ tick: 5, previousTime: 2000, currentTime: 2005 });
  });

  it("'drop': no extra ticks at all after a stall", async () => {
    const { sim, front, clock } = setup({ backlog: 'drop' });
    sim.start();
    clock.now = 2000;
    await clock.wake();
    expect(sim.stats()).toMatchObject({ overloads: 1, droppedMs: 1000 });
    expect(front().tick).toBe(0);
    clock.now = 2001;
    await clock.wake();
    expect(front()).toMatchObject({ tick: 1, previousTime: 2000, currentTime: 2005 });
  });

  it.each([10_000, 60_000])('sleeps while hidden and comes back after %i ms without a burst', async (hiddenFor) => {
    const { sim, front, clock } = setup();
    sim.start();
    clock.now = 1010;
    await clock.wake();
    const before = front().tick;
    sim.setHidden(true);
    await clock.wake(); // the loop wakes, sees it must end, and sleeps no more
    const sleeps = clock.sleeps.length;
    clock.now = 1010 + hiddenFor;
    await clock.wake();
    expect(clock.sleeps.length).toBe(sleeps);
    expect(front().tick).toBe(before);
    sim.setHidden(false);
    expect(front().tick).toBe(before); // no catch-up for the hidden time
    expect(sim.stats()).toMatchObject({ hiddenMs: hiddenFor, overloads: 0, droppedMs: 0 });
    clock.now = 1016 + hiddenFor;
    await clock.wake();
    expect(front()).toMatchObject({ tick: before + 2, previousTime: 1015 + hiddenFor, currentTime: 1020 + hiddenFor });
  });

  it("keeps ticking while hidden with whenHidden: 'run'", async () => {
    const { sim, front, clock } = setup({ whenHidden: 'run' });
    sim.start();
    sim.setHidden(true);
    clock.now = 1012;
    await clock.wake();
    expect(front().tick).toBe(3);
  });

  it('pauses, steps exactly one tick from now, and resumes without a jump', async () => {
    const { sim, front, clock } = setup();
    sim.start();
    clock.now = 1010;
    await clock.wake();
    expect(front().tick).toBe(2);
    sim.pause();
    await clock.wake();
    clock.now = 1500;
    await clock.wake();
    expect(front().tick).toBe(2);
    expect(sim.stats().status).toBe('paused');
    sim.stepOnce();
    expect(front()).toMatchObject({ previousTick: 2, tick: 3, previousTime: 1500, currentTime: 1505, x: 3 });
    clock.now = 1600;
    sim.resume();
    // resumed at 1600: the current tick is shown from 1600, the next one falls due at 1605
    expect(front()).toMatchObject({ tick: 3, currentTime: 1600 });
    clock.now = 1604; // the wall clock passes 1600: run just past it
    await clock.wake();
    expect(front()).toMatchObject({ previousTick: 3, tick: 4, previousTime: 1600, currentTime: 1605 });
  });

  it('refuses stepOnce while running', () => {
    const { sim } = setup();
    sim.start();
    expect(() => sim.stepOnce()).toThrow(/call pause\(\) first/);
  });

  it('spaces ticks by the scaled tick length on the shared clock', () => {
    const { sim, front, clock } = setup();
    sim.pause();
    sim.setTimeScale(2);
    sim.stepOnce();
    expect(front()).toMatchObject({ previousTime: 1000, currentTime: 1002.5, scale: 2 });
    sim.setTickRate(50);
    clock.now = 1100;
    sim.stepOnce();
    expect(front()).toMatchObject({ previousTime: 1100, currentTime: 1110 });
    expect(() => sim.setTimeScale(0)).toThrow(/above 0 .*use pause\(\) to stop time/);
    expect(() => sim.setTickRate(Number.POSITIVE_INFINITY)).toThrow(/tick rate must be a finite number/);
  });

  it('keeps the picture in place when the time scale changes, and goes on at the new pace', () => {
    const { sim, front, clock } = setup({ tickRate: 20 });
    sim.pause();
    sim.setTimeScale(0.01); // a tick now lasts 5 s
    sim.stepOnce(); // tick 1: 1000 -> 6000
    clock.now = 1030;
    const alphaAt = (f: { previousTime: number; currentTime: number }) => (clock.now - f.previousTime) / (f.currentTime - f.previousTime);
    const before = alphaAt(front());
    sim.setTimeScale(1);
    const after = front();
    expect(alphaAt(after)).toBeCloseTo(before, 12); // same place in the blend
    expect(after.currentTime - after.previousTime).toBeCloseTo(50, 9); // at the new pace
    expect(after.currentTime).toBeCloseTo(1030 + (1 - before) * 50, 9); // not 6000
  });

  it('keeps the default catch-up cap at a quarter second as the tick length changes', () => {
    const { sim } = setup({ tickRate: 20 });
    expect(sim.stats().maxCatchUpSteps).toBe(5);
    sim.setTickRate(240);
    expect(sim.stats().maxCatchUpSteps).toBe(60);
    sim.setTimeScale(2); // twice the ticks per wall-clock second
    expect(sim.stats().maxCatchUpSteps).toBe(120);
    const fixed = setup({ tickRate: 20, maxCatchUpSteps: 7 }).sim;
    fixed.setTickRate(240);
    expect(fixed.stats().maxCatchUpSteps).toBe(7);
  });

  it('faults when the step throws, keeps the last state published, and says why', async () => {
    const { sim, front, clock, views } = setup({
      step(world) {
        if (world.fields.x[0] === 2) throw new Error('boom at 2');
        world.fields.x[0]! += 1;
      },
    });
    sim.start();
    clock.now = 1100;
    await clock.wake();
    expect(front()).toMatchObject({ tick: 2, x: 2 });
    expect(sim.stats().status).toBe('faulted');
    expect(sim.stats().error?.message).toBe('boom at 2');
    expect(Atomics.load(views.i32, I32.STATUS)).toBe(STATUS.FAULTED);
    expect(() => sim.start()).toThrow(/faulted \(boom at 2\); call restart\(\) first/);
    // still told about the page, and stoppable, while faulted
    expect(() => sim.setHidden(true)).not.toThrow();
    expect(() => sim.stop()).not.toThrow();
    expect(sim.stats()).toMatchObject({ status: 'faulted', hidden: true });
  });

  it('refuses a main thread with another schema', () => {
    const clock = manualHost();
    const sim = new Simulation({ schema, tickRate: 10, step() {} }, { host: clock.host });
    const other = defineSchema({ y: { width: 2, kind: 'linear' } });
    const buffer = allocateSharedBuffer(computeLayout(other, 1), 0);
    expect(() => sim.attach({ kind: 'shared', buffer, signature: schemaSignature(other), capacity: 1 })).toThrow(
      /the main thread's schema "y:linear:2" differs from the worker's "x:linear:1"/,
    );
  });

  it('corrects its clock by a measured skew without moving the picture', () => {
    const { sim, front } = setup();
    expect(sim.clockProbe()).toBe(1000);
    sim.setClockOffset(3);
    expect(sim.clockProbe()).toBe(997);
    expect(front()).toMatchObject({ previousTime: 997, currentTime: 997 });
  });

  describe('a re-timing refused because the page holds the lock (a reader stall)', () => {
    /** The picture the page draws at `t` from the front slot: x blended as the sampler blends it. */
    const pictureAt = (f: { previousTime: number; currentTime: number; previousX: number; x: number }, t: number) => {
      const span = f.currentTime - f.previousTime;
      const alpha = span > 0 ? Math.min(1, Math.max(0, (t - f.previousTime) / span)) : 1;
      return f.previousX + alpha * (f.x - f.previousX);
    };
    /** Running at 20 Hz: tick 1 (x 0 -> 1) published over [1000, 1050], the page drawing at 1010. */
    const running = () => {
      const s = setup({ tickRate: 20 }, undefined, true);
      writeNextFrame(s.views, 1016);
      s.sim.start();
      expect(s.front()).toMatchObject({ previousTick: 0, tick: 1, previousTime: 1000, currentTime: 1050, x: 1 });
      s.clock.now = 1010;
      return s;
    };
    /** Runs `fn` while the page holds the lock: the worker's restamp waits out STALL_MS and gives up. */
    const whileHeld = (s: ReturnType<typeof running>, fn: () => void) => {
      s.reader.acquire();
      try {
        fn();
      } finally {
        s.reader.release();
      }
      expect(s.sim.stats().readerStalls).toBe(1);
    };

    it('a slow-down keeps the picture moving: the page still has the old times, so the timeline keeps them', async () => {
      const s = running();
      whileHeld(s, () => s.sim.setTimeScale(0.1)); // a tick now lasts 500 ms
      // refused: the page goes on reading tick 1 over [1000, 1050]
      expect(s.front()).toMatchObject({ tick: 1, previousTime: 1000, currentTime: 1050 });
      s.clock.now = 1300;
      writeNextFrame(s.views, 1316);
      await s.clock.wake();
      // tick 2 goes on from where the page sees tick 1, at the new pace; the picture keeps moving. (It froze at
      // x = 1 until 1410: the timeline had moved tick 1 to 1010 + 0.8 * 500 while the page still had 1050.)
      const f = s.front();
      expect(f).toMatchObject({ previousTick: 1, tick: 2, previousTime: 1050, currentTime: 1550 });
      expect(pictureAt(f, 1300)).toBeCloseTo(1.5, 9);
    });

    it('a clock correction leaves the next state joined to the one the page sees', async () => {
      const s = running();
      whileHeld(s, () => s.sim.setClockOffset(3));
      expect(s.sim.clockProbe()).toBe(1007); // the clock is corrected all the same
      expect(s.front()).toMatchObject({ tick: 1, previousTime: 1000, currentTime: 1050 });
      const old = s.front();
      s.clock.now = 1049;
      writeNextFrame(s.views, 1049 + 16);
      await s.clock.wake();
      const f = s.front();
      // the next pair starts where the page's tick 1 ends (it started at 1047, on a timeline moved under a front
      // slot that was not: the picture jumped 3 ms worth ahead at the join)
      expect(f).toMatchObject({ previousTick: 1, tick: 2, previousTime: 1050, currentTime: 1100 });
      expect(pictureAt(f, old.currentTime)).toBe(pictureAt(old, old.currentTime));
    });

    it('a resume after a pause still starts from now: the paused time is not caught up', async () => {
      const s = running();
      s.sim.pause();
      s.clock.now = 5000;
      whileHeld(s, () => s.sim.start());
      expect(s.front()).toMatchObject({ tick: 1, currentTime: 1050 }); // refused: the page holds tick 1 (past)
      writeNextFrame(s.views, 5016);
      s.clock.now = 5010;
      await s.clock.wake();
      expect(s.front()).toMatchObject({ previousTick: 1, tick: 2, previousTime: 5000, currentTime: 5050 });
    });
  });

  it('validates its definition', () => {
    const host = manualHost().host;
    const make = (extra: object) => () => new Simulation({ schema, tickRate: 10, step() {}, ...extra }, { host });
    expect(make({ tickRate: 0 })).toThrow(/tick rate must be .* above 0/);
    expect(make({ maxCatchUpSteps: 0 })).toThrow(/maxCatchUpSteps must be a finite whole number of at least 1/);
    expect(make({ maxLeadTicks: -1 })).toThrow(/maxLeadTicks/);
    expect(make({ backlog: 'later' })).toThrow(/backlog must be one of catch-up, slow, drop/);
    expect(make({ whenHidden: 'sometimes' })).toThrow(/whenHidden must be 'pause' or 'run'/);
    expect(() => new Simulation({ schema, tickRate: 10 } as never, { host })).toThrow(/needs a step/);
  });
});

describe('faults, restarts, bad values, heartbeat', () => {
  it('restarts from the last published state, undoing the step that threw halfway', async () => {
    let broken = true;
    const { sim, front, clock } = setup({
      step(world) {
        world.fields.x[0]! += 1;
        if (broken && world.fields.x[0] === 3) {
          world.fields.x[0] = 999; // half-done work, then the throw
          throw new Error('boom');
        }
      },
    });
    sim.start();
    clock.now = 1100;
    await clock.wake();
    expect(sim.stats().status).toBe('faulted');
    expect(front()).toMatchObject({ tick: 2, x: 2 });
    broken = false;
    sim.restart('last');
    expect(sim.stats()).toMatchObject({ status: 'idle', error: null, restarts: 1 });
    sim.stepOnce();
    expect(front()).toMatchObject({ tick: 3, previousX: 2, x: 3 }); // not 999 + 1
  });

  it('restarts from scratch: init again, every entity snaps, ticks go on, simulated time from 0', () => {
    const { sim, front } = setup();
    sim.pause();
    sim.stepOnce();
    sim.stepOnce();
    expect(front()).toMatchObject({ tick: 2, x: 2 });
    sim.restart('scratch');
    const f = front();
    expect(f).toMatchObject({ tick: 3, previousX: 2, x: 0, count: 1 });
    expect(f.snaps).toBeGreaterThan(0);
    expect(f.generation[0]).not.toBe(f.previousGeneration[0]);
    expect(sim.stats().simSeconds).toBe(0);
    expect(() => sim.restart('later' as never)).toThrow(/restart from 'last' or 'scratch'/);
  });

  it('counts non-finite values a step writes, and can hold the last finite value instead', () => {
    const write = (value: number) => (world: World<typeof schema>) => {
      world.fields.x[0] = value;
    };
    let value = 5;
    const counting = setup({ step: (w) => write(value)(w) });
    counting.sim.pause();
    counting.sim.stepOnce();
    value = Number.NaN;
    counting.sim.stepOnce();
    value = Number.POSITIVE_INFINITY;
    counting.sim.stepOnce();
    expect(counting.sim.stats()).toMatchObject({ nonFiniteValues: 2, nonFiniteTicks: 2 });
    expect(counting.front().x).toBe(Number.POSITIVE_INFINITY); // counted, published as written
    value = 5;
    const holding = setup({ nonFinite: 'hold', step: (w) => write(value)(w) });
    holding.sim.pause();
    holding.sim.stepOnce();
    value = Number.NaN;
    holding.sim.stepOnce();
    expect(holding.front()).toMatchObject({ previousX: 5, x: 5 });
    expect(holding.sim.stats().nonFiniteValues).toBe(1);
  });

  it('beats while idle, paused or running, and stops beating when detached', () => {
    const { sim, clock, views } = setup();
    const beat = () => Atomics.load(views.i32, I32.HEARTBEAT);
    const first = beat();
    expect(first).toBeGreaterThan(0);
    for (const fn of clock.beats) fn();
    expect(beat()).toBe(first + 1);
    sim.pause();
    for (const fn of clock.beats) fn();
    expect(beat()).toBe(first + 2);
    sim.detach();
    expect(clock.beats).toHaveLength(0);
  });
});

describe('input: each tick gets the events up to its time', () => {
  /** Ticks of 5 ms from 1000; every event a step sees, as [tick, time, code, payload 0, late]. */
  function withInput(options: Options = {}) {
    const ring = allocateInputRing(8);
    const writer = new InputWriter(ring);
    const seen: Array<[number, number, number, number, boolean]> = [];
    const s = setup(
      {
        step(_world, tick) {
          for (let i = 0; i < tick.input.length; i++) {
            seen.push([tick.tick, tick.input.time(i), tick.input.code(i), tick.input.payload(i, 0), tick.input.late(i)]);
          }
        },
        ...options,
      },
      ring,
    );
    return { ...s, writer, seen };
  }

  it('hands a tick exactly the events in (previous tick, its tick], in order: a press and release both', async () => {
    const { sim, clock, writer, seen } = withInput();
    sim.start(); // tick 0 at 1000, then 1005, 1010, ...
    writer.push(1001, 1, 65); // press A
    writer.push(1003, 2, 65); // release A, same tick
    writer.push(1005, 1, 66); // exactly at tick 1's time: still tick 1
    writer.push(1005.5, 2, 66); // tick 2
    writer.push(1012, 3, 0); // tick 3
    clock.now = 1011;
    await clock.wake(); // runs ticks 1..3 (3 is just past now)
    expect(seen).toEqual([
      [1, 1001, 1, 65, false],
      [1, 1003, 2, 65, false],
      [1, 1005, 1, 66, false],
      [2, 1005.5, 2, 66, false],
      [3, 1012, 3, 0, false],
    ]);
    expect(sim.stats()).toMatchObject({ inputs: 5, lateInputs: 0 });
  });

  it('gives an event that arrives after its tick was made to the next tick, flagged late', async () => {
    const { sim, clock, writer, seen } = withInput();
    sim.start();
    clock.now = 1004;
    await clock.wake(); // tick 1 (1005) is made ahead of the wall clock
    writer.push(1004.5, 7, 0); // happened before 1005, but tick 1 is done
    clock.now = 1006;
    await clock.wake();
    expect(seen).toEqual([[2, 1004.5, 7, 0, true]]);
    expect(sim.stats()).toMatchObject({ inputs: 1, lateInputs: 1 });
  });

  it('keeps events of ticks not yet made in the ring, none lost when it fills', async () => {
    const { sim, clock, writer, seen } = withInput();
    sim.start();
    let accepted = 0;
    for (let i = 0; i < 10; i++) if (writer.push(1100 + i, i, 0)) accepted++;
    expect(accepted).toBe(8); // the ring holds 8: two refused, and counted
    expect(writer.rejected).toBe(2);
    clock.now = 1050;
    await clock.wake();
    expect(seen).toEqual([]); // their ticks are not made yet
    clock.now = 1120;
    for (let i = 0; i < 30; i++) await clock.wake();
    expect(seen.map((e) => e[2])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('world: spawns, despawns and teleports snap', () => {
  it('marks generations and counts, and publishes them with the tick', () => {
    let world: World<typeof schema> | undefined;
    let action: (w: World<typeof schema>) => void = () => {};
    const { sim, front } = setup({
      step(w) {
        world = w;
        action(w);
      },
    });
    sim.pause();
    action = (w) => {
      expect(w.spawn()).toBe(1);
      w.fields.x[1] = 50;
    };
    sim.stepOnce();
    expect(front()).toMatchObject({ count: 2, previousCount: 1, snaps: 1, previousGeneration: [0, 0, 0, 0], generation: [0, 1, 0, 0] });
    action = (w) => {
      expect(w.snap(0)).toBe(true); // a teleport
      expect(w.snap(99)).toBe(false);
    };
    sim.stepOnce();
    expect(front()).toMatchObject({ count: 2, previousCount: 2, snaps: 1, previousGeneration: [0, 1, 0, 0], generation: [1, 1, 0, 0] });
    action = (w) => {
      expect(w.despawn(0)).toBe(1); // entity 1 moves into slot 0 and snaps there
    };
    sim.stepOnce();
    expect(front()).toMatchObject({ count: 1, x: 50, snaps: 1, generation: [2, 1, 0, 0] });
    action = () => {};
    sim.stepOnce();
    expect(front()).toMatchObject({ snaps: 0, previousGeneration: [2, 1, 0, 0], generation: [2, 1, 0, 0] });
    expect(world!.despawn(5)).toBe(-1);
    expect(world!.despawn(0)).toBe(-1); // the last one: nothing moves
    expect(world!.count).toBe(0);
  });

  it('checks world.count and reports a full world from spawn()', () => {
    let world: World<typeof schema> | undefined;
    const clock = manualHost();
    const sim = new Simulation({ schema, tickRate: 10, init: (w) => (world = w), step() {} }, { host: clock.host });
    sim.attach({ kind: 'shared', buffer: allocateSharedBuffer(computeLayout(schema, 2), 0), signature: schemaSignature(schema), capacity: 2 });
    expect(world!.spawn()).toBe(0);
    expect(world!.spawn()).toBe(1);
    expect(world!.spawn()).toBe(-1);
    expect(world!.count).toBe(2);
    expect(() => (world!.count = 3)).toThrow(/from 0 to the capacity 2; got 3/);
    expect(() => (world!.count = -1)).toThrow(/got -1/);
  });
});

describe('set-up data (createRuntime({ setup }) → init(world, setup))', () => {
  it('hands init the attach config setup, and the same setup again on restart from scratch', () => {
    const seen: unknown[] = [];
    const sim = new Simulation(
      {
        schema,
        tickRate: 60,
        init(world, setup: { count: number }) {
          seen.push(setup);
          world.count = setup.count;
        },
        step() {},
      },
      { host: manualHost().host },
    );
    const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
    sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY, setup: { count: 3 } });
    const reader = new SlotReader(createSharedViews(buffer, schema, CAPACITY));
    const count = () => {
      const slot = reader.acquire()!;
      const n = slot.metaWords[META.COUNT]!;
      reader.release();
      return n;
    };
    expect(count()).toBe(3);
    sim.restart('scratch');
    expect(seen).toEqual([{ count: 3 }, { count: 3 }]);
    sim.restart('last'); // no init
    expect(seen).toHaveLength(2);
  });

  it('gives init undefined when the runtime sends no setup', () => {
    const seen: unknown[] = [];
    const sim = new Simulation({ schema, tickRate: 60, init: (_w, setup) => void seen.push(setup), step() {} }, { host: manualHost().host });
    sim.attach({ kind: 'shared', buffer: allocateSharedBuffer(computeLayout(schema, CAPACITY), 0), signature: schemaSignature(schema), capacity: CAPACITY });
    expect(seen).toEqual([undefined]);
  });
});

describe('units: simulated time in seconds, clock times in ms', () => {
  it('stats().simSeconds and the frame meta agree with tick.time (seconds), whatever the time scale', () => {
    const times: number[] = [];
    const sim = new Simulation({ schema, tickRate: 50, init: (w) => void (w.count = 1), step: (_w, tick) => void times.push(tick.time) }, { host: manualHost().host });
    const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
    sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY });
    sim.pause();
    for (let i = 0; i < 10; i++) sim.stepOnce();
    expect(times.at(-1)).toBeCloseTo(10 / 50, 12); // 10 ticks of 1/50 s
    expect(sim.stats().simSeconds).toBeCloseTo(0.2, 12);
    sim.setTimeScale(2); // scale moves ticks on the clock, not simulated seconds per tick
    sim.stepOnce();
    expect(sim.stats().simSeconds).toBeCloseTo(0.22, 12);
    expect(times.at(-1)).toBeCloseTo(0.22, 12);
  });
});

describe('private fields (simulated, never published)', () => {
  function privateSim() {
    let throwNext = false;
    const sim = new Simulation(
      {
        schema,
        tickRate: 60,
        privateFields: { vel: { width: 2 } },
        init(world) {
          world.count = 3;
          for (let i = 0; i < 3; i++) {
            world.fields.x[i] = 100 * i;
            world.private.vel!.set([i + 1, -(i + 1)], 2 * i);
          }
        },
        step(world) {
          const vel = world.private.vel!;
          for (let i = 0; i < world.count; i++) {
            world.fields.x[i]! += vel[2 * i]!;
            vel[2 * i]! *= 2; // state that only the worker keeps
          }
          if (throwNext) {
            // half a step done: the private state moved on, the world is inconsistent
            vel.fill(999);
            throw new Error('boom');
          }
        },
      },
      { host: manualHost().host },
    );
    const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
    sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY });
    const reader = new SlotReader(createSharedViews(buffer, schema, CAPACITY));
    const xs = (): number[] => {
      const slot = reader.acquire()!;
      const n = slot.metaWords[META.COUNT]!;
      const out = Array.from(slot.current.x.subarray(0, n));
      reader.release();
      return out;
    };
    return { sim, xs, throwOn: () => (throwNext = true), throwOff: () => (throwNext = false) };
  }

  it('lives in the worker only: views of plain memory, not the shared buffer', () => {
    let seen: Float32Array | undefined;
    const sim = new Simulation(
      { schema, tickRate: 60, privateFields: { hp: { width: 1 } }, init: (w) => void (seen = w.private.hp!), step() {} },
      { host: manualHost().host },
    );
    const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
    sim.attach({ kind: 'shared', buffer, signature: schemaSignature(schema), capacity: CAPACITY });
    expect(seen).toHaveLength(CAPACITY);
    expect(seen!.buffer).not.toBe(buffer);
    expect(seen!.buffer).toBeInstanceOf(ArrayBuffer);
  });

  it('restart("last") puts them back as they were at the last publish', () => {
    const { sim, xs, throwOn, throwOff } = privateSim();
    sim.pause();
    sim.stepOnce(); // vel x: 1,2,3 → x 1,102,203; vel → 2,4,6
    sim.stepOnce(); // x 3,106,209; vel → 4,8,12
    expect(xs()).toEqual([3, 106, 209]);
    throwOn();
    sim.stepOnce(); // throws halfway: vel filled with 999
    expect(sim.stats().status).toBe('faulted');
    sim.restart('last');
    throwOff();
    sim.stepOnce(); // from x 3,106,209 and vel 4,8,12 (not the 999s the failed step left)
    expect(xs()).toEqual([7, 114, 221]);
  });

  it('moves with despawn (swap-remove)', () => {
    let world: World<typeof schema, PrivateFieldSpec> | undefined;
    const sim = new Simulation(
      {
        schema,
        tickRate: 60,
        privateFields: { vel: { width: 2 } },
        init(w) {
          world = w;
          w.count = 3;
          for (let i = 0; i < 3; i++) w.private.vel!.set([10 * i, 10 * i + 1], 2 * i);
        },
        step() {},
      },
      { host: manualHost().host },
    );
    sim.attach({ kind: 'shared', buffer: allocateSharedBuffer(computeLayout(schema, CAPACITY), 0), signature: schemaSignature(schema), capacity: CAPACITY });
    expect(world!.despawn(0)).toBe(2);
    expect(Array.from(world!.private.vel!.subarray(0, 4))).toEqual([20, 21, 10, 11]);
  });
});
