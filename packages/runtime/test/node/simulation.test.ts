import { describe, expect, it } from 'vitest';
import { computeLayout, defineSchema, schemaSignature } from 'steadyframe';
import { Simulation, type SimulationHost, type World } from 'steadyframe/worker';
import { allocateSharedBuffer, createSharedViews, I32, META, STATUS } from '../../src/core/layout.ts';
import { SlotReader, writeNextFrame } from '../../src/core/slots.ts';

const schema = defineSchema({ x: { width: 1, kind: 'linear' } });
const CAPACITY = 4;

/** A host whose clock and sleeps the test moves by hand. */
function manualHost(start = 1000) {
  let now = start;
  let wake: (() => void) | null = null;
  const sleeps: number[] = [];
  const host: SimulationHost = {
    clock: () => () => now,
    sleep(_i32, _index, _value, ms) {
      sleeps.push(ms);
      return new Promise<void>((resolve) => (wake = resolve));
    },
    yieldToEvents: () => Promise.resolve(),
  };
  return {
    host,
    sleeps,
    get now() {
      return now;
    },
    set now(t: number) {
      now = t;
    },
    /** Ends the current sleep and lets the loop run until it sleeps again. */
    async wake() {
      const resume = wake;
      wake = null;
      resume?.();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
  };
}

/** x of entity 0 moves by 1 per tick. */
function setup(options: { tickRate?: number; maxCatchUpSteps?: number; step?: (world: World<typeof schema>) => void } = {}) {
  const clock = manualHost();
  const sim = new Simulation(
    {
      schema,
      tickRate: options.tickRate ?? 200,
      ...(options.maxCatchUpSteps === undefined ? {} : { maxCatchUpSteps: options.maxCatchUpSteps }),
      init(world) {
        world.count = 1;
        world.fields.x[0] = 0;
      },
      step:
        options.step ??
        ((world) => {
          world.fields.x[0]! += 1;
        }),
    },
    clock.host,
  );
  const buffer = allocateSharedBuffer(computeLayout(schema, CAPACITY), 0);
  const info = sim.attach({ buffer, signature: schemaSignature(schema), capacity: CAPACITY });
  const views = createSharedViews(buffer, schema, CAPACITY);
  const reader = new SlotReader(views);
  /** The front slot as the main thread would see it. */
  const front = () => {
    const slot = reader.acquire()!;
    const m = slot.meta;
    const f = views.f64;
    const seen = {
      previousTick: f[m + META.PREV_TICK],
      tick: f[m + META.CUR_TICK],
      previousTime: f[m + META.PREV_TIME],
      currentTime: f[m + META.CUR_TIME],
      count: f[m + META.COUNT],
      previousX: slot.previous.x[0],
      x: slot.current.x[0],
    };
    reader.release();
    return seen;
  };
  return { sim, clock, views, front, info };
}

describe('simulation loop (worker side, clock driven by hand)', () => {
  it('publishes tick 0 from init when attached', () => {
    const { sim, views, front, info } = setup();
    expect(front()).toEqual({ previousTick: 0, tick: 0, previousTime: 1000, currentTime: 1000, count: 1, previousX: 0, x: 0 });
    expect(Atomics.load(views.i32, I32.PUBLISH_SEQ)).toBe(1);
    expect(sim.stats().status).toBe('idle');
    expect(info).toMatchObject({ tickRate: 200, timeScale: 1, maxCatchUpSteps: 50, maxLead: 100 });
  });

  it('runs just past the next frame the main thread expects, then sleeps until the next tick is due', async () => {
    const { sim, clock, views, front } = setup();
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

  it('never runs more than maxLead ahead of the wall clock', async () => {
    const { sim, views, front, clock } = setup();
    writeNextFrame(views, 5000);
    sim.start();
    expect(front().currentTime).toBe(1100); // 100 ms lead: 20 ticks
    expect(clock.sleeps).toEqual([0]); // may continue as soon as the wall clock moves
  });

  it('keeps up with the wall clock when no frame is expected', async () => {
    const { sim, front, clock } = setup();
    sim.start();
    expect(front().tick).toBe(0);
    clock.now = 1012;
    await clock.wake();
    expect(front()).toMatchObject({ tick: 3, currentTime: 1015 });
  });

  it('caps catch-up steps and drops the backlog, counting it', async () => {
    const { sim, front, clock } = setup({ maxCatchUpSteps: 4 });
    sim.start();
    clock.now = 2000;
    await clock.wake();
    const stats = sim.stats();
    expect(stats.overloads).toBe(1);
    expect(stats.droppedMs).toBe(980); // 4 ticks reached 1020 of the 2000 due
    expect(front()).toMatchObject({ tick: 4, currentTime: 1020 });
    // the next tick starts from now rather than bursting through the lost second
    clock.now = 2001;
    await clock.wake();
    expect(front()).toMatchObject({ tick: 5, previousTime: 2000, currentTime: 2005 });
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
    expect(front()).toMatchObject({ tick: 3 });
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
    expect(front()).toMatchObject({ previousTime: 1000, currentTime: 1002.5 });
    sim.setTickRate(50);
    clock.now = 1100;
    sim.stepOnce();
    expect(front()).toMatchObject({ previousTime: 1100, currentTime: 1110 });
    expect(() => sim.setTimeScale(0)).toThrow(/above 0 .*use pause\(\) to stop time/);
    expect(() => sim.setTickRate(Number.POSITIVE_INFINITY)).toThrow(/tick rate must be a finite number/);
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
    expect(() => sim.start()).toThrow(/faulted \(boom at 2\)/);
  });

  it('refuses a main thread with another schema', () => {
    const clock = manualHost();
    const sim = new Simulation({ schema, tickRate: 10, step() {} }, clock.host);
    const other = defineSchema({ y: { width: 2, kind: 'linear' } });
    const buffer = allocateSharedBuffer(computeLayout(other, 1), 0);
    expect(() => sim.attach({ buffer, signature: schemaSignature(other), capacity: 1 })).toThrow(
      /the main thread's schema "y:linear:2" differs from the worker's "x:linear:1"/,
    );
  });

  it('checks world.count and reports a full world from spawn()', () => {
    let world: World<typeof schema> | undefined;
    const clock = manualHost();
    const sim = new Simulation({ schema, tickRate: 10, init: (w) => (world = w), step() {} }, clock.host);
    sim.attach({ buffer: allocateSharedBuffer(computeLayout(schema, 2), 0), signature: schemaSignature(schema), capacity: 2 });
    expect(world!.spawn()).toBe(0);
    expect(world!.spawn()).toBe(1);
    expect(world!.spawn()).toBe(-1);
    expect(world!.count).toBe(2);
    expect(() => (world!.count = 3)).toThrow(/from 0 to the capacity 2; got 3/);
    expect(() => (world!.count = -1)).toThrow(/got -1/);
  });

  it('validates its definition', () => {
    const host = manualHost().host;
    expect(() => new Simulation({ schema, tickRate: 0, step() {} }, host)).toThrow(/tick rate must be .* above 0/);
    expect(() => new Simulation({ schema, tickRate: 10, maxCatchUpSteps: 0, step() {} }, host)).toThrow(/maxCatchUpSteps/);
    expect(() => new Simulation({ schema, tickRate: 10 } as never, host)).toThrow(/needs a step/);
  });
});
