import { describe, expect, it } from 'vitest';
import { defineSchema, type FieldViews } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import { allocateSharedBuffer, createSharedViews, fieldViews } from '../../src/core/layout.ts';
import { interpolateField } from '../../src/core/interpolate.ts';
import { OVERTAKEN_MISSES_TO_STOP, OVERTAKEN_WATCH_MIN_MS, OVERTAKEN_WATCH_MS, overtakenWatch, Sampler, type SampleResult } from '../../src/main/sampler.ts';
import { StateHistory } from '../../src/main/history.ts';
import { ReadTicks } from '../../src/main/read-ticks.ts';
import { SlotReader } from '../../src/core/slot-reader.ts';
import { SlotWriter, type PublishMeta } from '../../src/core/slot-writer.ts';

const schema = defineSchema({
  pos: { width: 1, kind: 'linear', velocity: 'vel' },
  vel: { width: 1, kind: 'linear' },
  spin: { width: 4, kind: 'quaternion', velocity: 'omega' },
  omega: { width: 3, kind: 'linear' },
  frame: { width: 1, kind: 'none' },
});
const CAPACITY = 4;

/** A writer and a reader over one buffer, and a sampler drawing into its own render buffer. */
function setup() {
  const layout = computeLayout(schema, CAPACITY);
  const views = createSharedViews(allocateSharedBuffer(layout, 0), schema, CAPACITY);
  const world = new Float32Array(layout.blockBytes / 4);
  const fields = fieldViews<typeof schema>(world.buffer, 0, layout);
  const generation = new Uint32Array(world.buffer, layout.generationOffset, CAPACITY);
  const writer = new SlotWriter(views, world, () => 0);
  const reader = new SlotReader(views);
  const render = fieldViews<typeof schema>(new ArrayBuffer(layout.blockBytes), 0, layout);
  const sampler = new Sampler(schema, layout, render);
  let tick = 0;
  let count = 0;
  /** Publishes tick `tick + 1` at `time` (the previous one at `time - length`) with entity i at pos = f(i). */
  const publish = (
    time: number,
    pos: (i: number) => number,
    options: { count?: number; previousCount?: number; length?: number; snaps?: number; scale?: number; write?: (f: FieldViews<typeof schema>) => void } = {},
  ) => {
    // PREV_COUNT: the previous state's count, or fewer (what a publish after skipped ones says: the fewest any tick between had)
    const previousCount = options.previousCount ?? count;
    count = options.count ?? 2;
    for (let i = 0; i < CAPACITY; i++) {
      fields.pos[i] = pos(i);
      fields.vel[i] = 10;
      fields.spin.set([0, 0, 0, 1], 4 * i);
      fields.omega.set([0, 0, Math.PI / 2], 3 * i);
      fields.frame[i] = tick + 1;
    }
    options.write?.(fields);
    const meta: PublishMeta = {
      previousTick: tick,
      currentTick: tick + 1,
      previousTime: time - (options.length ?? 100),
      currentTime: time,
      count,
      previousCount,
      simTime: time,
      scale: options.scale ?? 1,
      snaps: options.snaps ?? 0,
    };
    // the first state is one tick, numbered as the next publish's previous one (the worker's tick 0 then (0, 1))
    if (tick === 0) writer.publishInitial({ ...meta, previousTick: 1, currentTick: 1, previousTime: time, previousCount: count });
    else writer.publish(meta);
    tick++;
  };
  const out: SampleResult = { alpha: 0, time: 0, previousTick: 0, tick: 0, previousTime: 0, currentTime: 0, count: 0, simSeconds: 0, late: false, overtaken: false, snapped: 0, state: {} };
  /** What the main thread does each frame. */
  const sample = (time: number) => {
    const slot = reader.acquire()!;
    sampler.read(slot, time, out);
    reader.release();
    sampler.finish(time, out);
    return out;
  };
  return { sampler, publish, sample, render, generation, out, fields };
}

const values = (view: Float32Array, n: number) => Array.from(view.subarray(0, n));

describe('sampler: interpolate', () => {
  it('blends at the frame time and counts late frames, holding by default', () => {
    const { publish, sample, render, sampler } = setup();
    publish(0, (i) => i);
    publish(100, (i) => 10 + i);
    expect(sample(25)).toMatchObject({ alpha: 0.25, previousTick: 1, tick: 2, late: false });
    expect(values(render.pos, 2)).toEqual([2.5, 3.5]);
    expect(values(render.frame, 2)).toEqual([2, 2]); // 'none' shows the current value once the frame has left the previous
    expect(sample(140)).toMatchObject({ alpha: 1, late: true });
    expect(values(render.pos, 2)).toEqual([10, 11]);
    expect(sampler.stats).toMatchObject({ late: 1, extrapolated: 0 });
  });

  it("carries the last tick's motion on when late, if asked, at most maxPrediction ticks", () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ whenLate: 'extrapolate', maxPrediction: 0.5 });
    publish(0, (i) => i);
    publish(100, (i) => 10 + i);
    expect(sample(120).alpha).toBeCloseTo(1.2, 12);
    expect(render.pos[0]).toBeCloseTo(12, 5);
    expect(sample(400).alpha).toBe(1.5);
    expect(render.pos[0]).toBeCloseTo(15, 5);
    expect(sampler.stats).toMatchObject({ late: 2, extrapolated: 2 });
  });

  it('snaps entities the simulation marked, entities new this tick, and jumps past snapDistance', () => {
    const { publish, sample, render, generation, sampler } = setup();
    publish(0, (i) => i, { count: 2 });
    generation[1] = 1; // entity 1 teleports
    publish(100, (i) => (i === 1 ? 500 : 10 + i), { count: 3, snaps: 1 });
    expect(sample(50).snapped).toBe(2);
    expect(values(render.pos, 3)).toEqual([5, 500, 12]); // 0 blends; 1 teleported; 2 is new
    sampler.configure({ snapDistance: { field: 'pos', distance: 50 } });
    publish(200, (i) => (i === 0 ? 1000 : 10 + i), { count: 3 });
    expect(sample(150).snapped).toBe(2); // 0 jumped 990 > 50; 1 came back from 500 to 11
    expect(values(render.pos, 3)).toEqual([1000, 11, 12]);
    expect(sampler.stats.snapped).toBe(4);
  });
});

describe('sampler: extrapolate and latest', () => {
  it('moves the newest state at or before the frame time on by its velocity, never using a later state', () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ mode: 'extrapolate' });
    publish(0, () => 0);
    publish(100, () => 1);
    // at 50 the newest state at or before is the previous one (pos 0, 10 units/s)
    expect(sample(50).alpha).toBe(0);
    expect(render.pos[0]).toBeCloseTo(0.5, 5);
    expect(sample(150).alpha).toBe(1);
    expect(render.pos[0]).toBeCloseTo(1.5, 5);
    // capped at maxPrediction (1 tick = 100 ms) past the state
    sample(900);
    expect(render.pos[0]).toBeCloseTo(2, 5);
    // a quaternion turns by its angular velocity: pi/2 rad/s about z, for 0.1 s
    const [x, y, z, w] = values(render.spin, 4);
    expect([x, y]).toEqual([0, 0]);
    expect(2 * Math.atan2(z!, w!)).toBeCloseTo(Math.PI / 20, 5);
  });

  it('scales the prediction by the time scale of the state', () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ mode: 'extrapolate' });
    publish(0, () => 0, { scale: 0.5 });
    publish(100, () => 1, { scale: 0.5 });
    sample(150);
    expect(render.pos[0]).toBeCloseTo(1.25, 5); // 50 ms of wall clock is 25 ms of game time
  });

  it('shows an entity that snapped this tick (a despawn moved another into its slot) as it is', () => {
    const { publish, sample, render, generation, sampler } = setup();
    sampler.configure({ mode: 'extrapolate', maxPrediction: 0 });
    publish(0, (i) => i * 1000, { count: 3 });
    generation[0] = 1; // entity 2 moved into slot 0
    publish(100, (i) => (i === 0 ? 2000 : i * 1000), { count: 2, snaps: 1 });
    sample(50); // before the current state: extrapolating from the previous one, except for slot 0
    expect(values(render.pos, 2)).toEqual([2000, 1000]);
  });

  it("'latest' shows the newest state as it is", () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ mode: 'latest' });
    publish(0, () => 0);
    publish(100, () => 1);
    expect(sample(10).alpha).toBe(1);
    expect(render.pos[0]).toBe(1);
  });

  it("'latest' is a copy of the published state, bit for bit, not a blend at alpha 1", () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ mode: 'latest' });
    const bits = (view: Float32Array, n: number) => Array.from(new Uint32Array(view.buffer, view.byteOffset, n));
    // tick 1: a NaN, an unnormalised quaternion; tick 2: finite again, and a value a lerp rounds away
    const odd = new Float32Array([Number.NaN, 1e30]);
    const spin = new Float32Array([0.1, 0.2, 0.3, 0.9]); // |q| = 0.9747: nlerp would normalise it
    publish(0, (i) => odd[i]!, { write: (f) => f.spin.set(spin) });
    publish(100, (i) => [1, 3e-8][i]!, { write: (f) => f.spin.set([0, 0, 0.0998334, 0.9950042]) });
    sample(100);
    // a + (b - a) * 1 gives NaN for entity 0 (the NaN is the previous state) and 0 for entity 1 (1e30 swamps 3e-8)
    expect(bits(render.pos, 2)).toEqual(bits(new Float32Array([1, 3e-8]), 2));
    expect(bits(render.spin, 4)).toEqual(bits(new Float32Array([0, 0, 0.0998334, 0.9950042]), 4));
    publish(200, () => Number.NaN, { write: (f) => f.spin.set(spin) });
    sample(150);
    expect(bits(render.pos, 2)).toEqual(bits(new Float32Array([Number.NaN, Number.NaN]), 2));
    expect(bits(render.spin, 4)).toEqual(bits(spin, 4));
  });

  it("'latest' copies the live entities only, as the count moves both ways", () => {
    const { publish, sample, render, sampler } = setup();
    sampler.configure({ mode: 'latest' });
    render.pos.fill(-1);
    publish(0, (i) => 10 + i, { count: 1 });
    publish(100, (i) => 20 + i, { count: 1 });
    sample(100);
    expect(Array.from(render.pos.subarray(0, 3))).toEqual([20, -1, -1]); // nothing past COUNT is copied
    publish(200, (i) => 30 + i, { count: 3 });
    sample(200);
    expect(Array.from(render.pos.subarray(0, 3))).toEqual([30, 31, 32]);
    publish(300, (i) => 40 + i, { count: 2 });
    sample(300);
    expect(Array.from(render.pos.subarray(0, 3))).toEqual([40, 41, 32]);
    publish(400, (i) => 50 + i, { count: 2 });
    sample(400);
    expect(Array.from(render.pos.subarray(0, 2))).toEqual([50, 51]); // the other slot's views, kept
  });
});

describe('sampler: overtaken frames (the worker published past the frame before it sampled)', () => {
  /** Ticks every 100 ms; entity i at pos = time / 10 + i, so the truth at any time is known. */
  const truth = (time: number, i: number) => time / 10 + i;
  /** Each published tick's world, for the oracle. */
  function run(mode: 'interpolate' | 'extrapolate' = 'interpolate') {
    const s = setup();
    s.sampler.configure({ mode });
    const worlds = new Map<number, FieldViews<typeof schema>>();
    const publish = (time: number) => {
      s.publish(time, (i) => truth(time, i), { write: (f) => f.spin.set([0, 0, Math.sin(time / 1000), Math.cos(time / 1000)], 0) });
      const copy = fieldViews<typeof schema>(new ArrayBuffer(computeLayout(schema, CAPACITY).blockBytes), 0, computeLayout(schema, CAPACITY));
      for (const name of Object.keys(copy) as (keyof typeof schema)[]) copy[name].set(s.fields[name]);
      worlds.set(time, copy);
    };
    return { ...s, publish, worlds };
  }

  it('draws the first one at the oldest state at hand, flagged, and keeps states from then on', () => {
    const { publish, sample, render, sampler } = run();
    for (let t = 0; t <= 300; t += 100) {
      publish(t);
      sample(t);
    }
    publish(400);
    publish(500); // the worker ran two ticks ahead while this frame's callback was late
    expect(sample(350)).toMatchObject({ overtaken: true, alpha: 0, previousTime: 400, currentTime: 500, late: false });
    expect(render.pos[0]).toBe(truth(400, 0)); // not the truth at 350: nothing older was kept
    expect(sampler.stats).toMatchObject({ overtaken: 1, recovered: 0 });
  });

  it('blends the exact pair of a later one from the states kept, as the JS kernels blend that pair', () => {
    const { publish, sample, render, sampler, worlds } = run();
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    sample(50); // overtaken, nothing kept yet: starts keeping
    for (let t = 300; t <= 600; t += 100) {
      publish(t);
      sample(t);
    }
    publish(700);
    publish(800);
    const frame = sample(630); // front slot: 700 .. 800
    expect(frame).toMatchObject({ overtaken: false, late: false, previousTime: 600, currentTime: 700, time: 630 });
    expect(frame.alpha).toBeCloseTo(0.3, 12);
    expect(render.pos[0]).toBeCloseTo(truth(630, 0), 4);
    expect(render.pos[1]).toBeCloseTo(truth(630, 1), 4);
    // the oracle: every field is the blend of the two published states around 630 at alpha 0.3
    const [a, b] = [worlds.get(600)!, worlds.get(700)!];
    for (const [name, spec] of Object.entries(schema) as [keyof typeof schema, (typeof schema)[keyof typeof schema]][]) {
      const expected = new Float32Array(spec.width * 2);
      interpolateField(spec.kind, spec.width, a[name], b[name], expected, 2, frame.alpha);
      expect(values(render[name], 2 * spec.width)).toEqual(Array.from(expected));
    }
    expect(sampler.stats).toMatchObject({ overtaken: 1, recovered: 1, late: 0 });
  });

  it('flags one older than every state kept', () => {
    const { publish, sample, sampler } = run();
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    sample(50); // starts keeping (for OVERTAKEN_WATCH_MIN_MS: a lone one)
    for (let t = 300; t <= 1000; t += 100) {
      publish(t);
      sample(t);
    }
    publish(1100);
    publish(1200);
    // six states are kept (700 .. 1200): 300 is before them all
    expect(sample(300)).toMatchObject({ overtaken: true, alpha: 0, previousTime: 700 });
    expect(sample(750)).toMatchObject({ overtaken: false, previousTime: 700, currentTime: 800, alpha: 0.5 });
    expect(sampler.stats).toMatchObject({ overtaken: 2, recovered: 1 });
  });

  it('flags one whose pair the main thread never read whole, and blends it across the gap', () => {
    const { publish, sample, render, sampler } = run();
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    sample(50); // starts keeping
    publish(300);
    sample(300); // reads 200 .. 300
    publish(400); // never read: the worker published it after the frame above and moved on
    publish(500);
    publish(600);
    expect(sample(350)).toMatchObject({ overtaken: true, previousTime: 300, currentTime: 500, alpha: 0.25 });
    expect(render.pos[0]).toBeCloseTo(truth(350, 0), 4); // straight motion: the blend across the gap is right here
    expect(sampler.stats).toMatchObject({ overtaken: 2, recovered: 0, gaps: 1 });
  });

  it('keeps states OVERTAKEN_WATCH_MIN_MS after a lone overtaken frame, 1.5 times the gap after a recurring one', () => {
    expect(overtakenWatch(Number.NaN)).toBe(OVERTAKEN_WATCH_MIN_MS); // the first
    expect(overtakenWatch(OVERTAKEN_WATCH_MS + 1)).toBe(OVERTAKEN_WATCH_MIN_MS); // long after the last
    expect(overtakenWatch(100)).toBe(OVERTAKEN_WATCH_MIN_MS);
    expect(overtakenWatch(4000)).toBe(6000);
    expect(overtakenWatch(OVERTAKEN_WATCH_MS)).toBe(OVERTAKEN_WATCH_MS);
    const { publish, sample, sampler } = run();
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    sample(50); // overtaken, the first: keeps states until 50 + OVERTAKEN_WATCH_MIN_MS
    let t = 300;
    for (; t <= 50 + OVERTAKEN_WATCH_MIN_MS + 300; t += 100) {
      publish(t);
      sample(t);
    }
    publish(t);
    publish(t + 100);
    // 350 ms back would be in the history if it were still kept
    expect(sample(t - 350)).toMatchObject({ overtaken: true, alpha: 0 });
    expect(sampler.stats).toMatchObject({ overtaken: 2, recovered: 0 });
    // that one came 1 s after the first: states are kept for 1.5 s after it, and the next one is recovered
    const second = t - 350;
    expect(second - 50).toBe(1000);
    for (t += 200; t <= second + 1400; t += 100) {
      publish(t);
      sample(t);
    }
    publish(t);
    publish(t + 100);
    expect(sample(t - 150)).toMatchObject({ overtaken: false, late: false });
    expect(sampler.stats).toMatchObject({ overtaken: 2, recovered: 1 });
  });

  it('runs the watch from the states in the slot, not from the own time of a frame a second late', () => {
    const { publish, sample, sampler } = run();
    let t = 0;
    for (; t <= 1500; t += 100) {
      publish(t);
      sample(t);
    }
    // a callback a second late: its time is 1 s before the slot's states; copies start, for 1 s from those
    publish(t);
    publish(t + 100);
    expect(sample(t - 1000).overtaken).toBe(true);
    for (t += 200; t <= 2300; t += 100) {
      publish(t);
      sample(t);
    }
    publish(t);
    publish(t + 100);
    expect(sample(t - 150)).toMatchObject({ overtaken: false, late: false }); // 0.6 s later: recovered
    expect(sampler.stats).toMatchObject({ overtaken: 1, recovered: 1 });
  });

  it('keeps the watch the first overtaken frame of a spell set through the rest of that spell', () => {
    const { publish, sample, sampler } = run();
    let t = 0;
    const regularTo = (end: number) => {
      for (; t <= end; t += 100) {
        publish(t);
        sample(t);
      }
    };
    /** Two frames of one spell, 30 and 80 ms past `at`, after the worker ran two ticks ahead of them. */
    const spell = (at: number) => {
      publish(at + 100);
      publish(at + 200);
      const frames = [sample(at + 30), sample(at + 80)];
      t = at + 300;
      return frames;
    };
    regularTo(1000);
    expect(spell(1000).map((f) => f.overtaken)).toEqual([true, true]); // the first ever: 1 s of copies
    regularTo(3000);
    // 1.95 s after the last: copies for 2.9 s; its second frame, 50 ms later, must not cut that to 1 s
    spell(3000);
    regularTo(5000);
    expect(spell(5000)[0]).toMatchObject({ overtaken: false }); // recovered from the copies
    expect(sampler.stats.recovered).toBeGreaterThanOrEqual(1);
  });

  it('counts the misses of a spell from its first: the gap its own frames leave in the reads does not stop it early', () => {
    const { publish, sample, sampler } = run();
    // ticks every 100 ms, frames every tick just behind the worker; then a spell of frames whose callbacks run
    // two and a half ticks late: the first two pairs were never read whole, the rest were, and copies serve them
    let published = -100;
    const upTo = (time: number) => {
      while (published < time) publish((published += 100));
    };
    for (let t = 50; t <= 1050; t += 100) {
      upTo(Math.ceil(t / 100) * 100);
      sample(t);
    }
    for (let t = 1150; t <= 1650; t += 100) {
      upTo(Math.ceil(t / 100) * 100 + 200);
      sample(t);
    }
    // asking at the second miss whether the reads skip ticks (they do: the first miss's own read skipped one)
    // stopped the copies there: 5 flagged, 1 recovered
    expect(sampler.stats).toMatchObject({ overtaken: 3, recovered: 3 });
  });

  it('stops copying for overtaken frames no copy could serve (frames several ticks apart), but still flags them', () => {
    const { publish, sample, sampler } = run();
    // ticks every 100 ms, the worker 2 ticks ahead of each frame, frames 450 ms apart (a slow page): each frame's
    // pair is a tick the main thread never read, so keeping states could not have recovered one
    let published = -100;
    const copies: number[] = [];
    for (let t = 0; t <= 450 * 20; t += 450) {
      while (published < t + 200) publish((published += 100));
      sample(t);
      copies.push(sampler.stats.keptCopies);
    }
    expect(sampler.stats.overtaken).toBeGreaterThanOrEqual(18);
    expect(sampler.stats.recovered).toBe(0);
    // the first overtaken frames start copies (the benefit of the doubt) until OVERTAKEN_MISSES_TO_STOP in a
    // row: then none, for the 15 frames after, where the old rule copied each frame's two new states for 10 s
    const stop = OVERTAKEN_MISSES_TO_STOP + 1; // frame 0 is not overtaken
    expect(copies[stop - 1]).toBeLessThanOrEqual(2 * (OVERTAKEN_MISSES_TO_STOP - 1));
    expect(copies.at(-1)).toBe(copies[stop - 1]);
    expect(sampler.stats.keptBytes).toBe(copies.at(-1)! * (2 * 10 + 2) * 4); // live entities only: 2 of 4
  });

  it('starts no copies for a slow page (frames several ticks apart) when one of its frames is overtaken', () => {
    const { publish, sample, sampler } = run();
    // ticks every 100 ms, frames 450 ms apart, the worker just past each frame: the ticks read skip some
    let published = -100;
    for (let t = 0; t <= 450 * 8; t += 450) {
      while (published < t) publish((published += 100));
      sample(t);
    }
    // one frame's callback runs late: the worker is two ticks past its time
    const late = 450 * 9;
    while (published < late + 200) publish((published += 100));
    expect(sample(late).overtaken).toBe(true);
    for (let t = late + 450; t <= late + 450 * 8; t += 450) {
      while (published < t) publish((published += 100));
      sample(t);
    }
    // copies could not have served it (its pair was never read); the old rule copied every frame's two new
    // states for OVERTAKEN_WATCH_MS after it
    expect(sampler.stats).toMatchObject({ overtaken: 1, recovered: 0, keptCopies: 0 });
  });

  it('stops copies under way once overtaken frames in a row could not have been served, and starts again when one could', () => {
    const { publish, sample, sampler } = run();
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    sample(50); // its pair (0, 100) was read whole: starts keeping
    for (let t = 300; t <= 600; t += 100) {
      publish(t);
      sample(t);
    }
    publish(700);
    publish(800);
    expect(sample(630).overtaken).toBe(false); // recovered from the copies
    const copiesWhileRecovering = sampler.stats.keptCopies;
    expect(copiesWhileRecovering).toBeGreaterThan(0);
    // the page slows down: frames 450 ms apart, each overtaken across ticks never read
    let published = 800;
    let t = 630;
    for (let i = 0; i < OVERTAKEN_MISSES_TO_STOP; i++) {
      t += 450;
      while (published < t + 200) publish((published += 100));
      expect(sample(t)).toMatchObject({ overtaken: true });
    }
    const copiesAtStop = sampler.stats.keptCopies;
    for (let i = 0; i < 10; i++) {
      t += 450;
      while (published < t + 200) publish((published += 100));
      sample(t);
    }
    expect(sampler.stats.keptCopies).toBe(copiesAtStop); // stopped well within OVERTAKEN_WATCH_MS
    expect(sampler.stats).toMatchObject({ recovered: 1 });
    // frames every tick again: an overtaken one whose pair was read starts the copies, the next one recovers
    t = published;
    sample(t);
    publish((published += 100));
    publish((published += 100));
    expect(sample(t + 50).overtaken).toBe(true); // pair (t, t + 100) read whole: keeps from now on
    publish((published += 100));
    sample(published);
    publish((published += 100));
    publish((published += 100));
    expect(sample(published - 170)).toMatchObject({ overtaken: false });
    expect(sampler.stats.recovered).toBe(2);
    expect(sampler.stats.keptCopies).toBeGreaterThan(copiesAtStop);
  });

  it('extrapolates an overtaken frame from the kept state at or before its time (mode extrapolate)', () => {
    const { publish, sample, render, sampler } = run('extrapolate');
    publish(0);
    sample(0);
    publish(100);
    publish(200);
    expect(sample(50).overtaken).toBe(true);
    for (let t = 300; t <= 600; t += 100) {
      publish(t);
      sample(t);
    }
    publish(700);
    publish(800);
    expect(sample(650)).toMatchObject({ overtaken: false, alpha: 0, previousTime: 600 });
    expect(render.pos[0]).toBeCloseTo(truth(600, 0) + 10 * 0.05, 4); // 10 units/s for 50 ms from the state at 600
    expect(sampler.stats).toMatchObject({ overtaken: 1, recovered: 1 });
  });
});

describe('sampler: render delay', () => {
  /** Ticks every 100 ms; entity 0 at pos = 10 * tick. */
  function run(delay: number) {
    const s = setup();
    s.sampler.configure({ renderDelay: delay });
    s.publish(0, () => 0);
    return s;
  }

  it('shows the world `renderDelay` ticks ago, from the history', () => {
    const { publish, sample, render } = run(1);
    for (let k = 1; k <= 5; k++) {
      publish(k * 100, () => k * 10);
      sample(k * 100);
    }
    expect(sample(450)).toMatchObject({ time: 350, previousTick: 4, tick: 5, alpha: 0.5, late: false }); // tick k is at (k - 1) * 100
    expect(render.pos[0]).toBeCloseTo(35, 5);
  });

  it('rides out a late worker that a plain interpolation would hold on', () => {
    const { publish, sample, render, sampler } = run(1);
    for (let k = 1; k <= 5; k++) {
      publish(k * 100, () => k * 10);
      sample(k * 100);
    }
    // the worker stalls: no tick after 500 for 80 ms; frames keep coming
    for (const t of [520, 540, 560, 580]) {
      sample(t);
      expect(render.pos[0]).toBeCloseTo((t - 100) / 10, 4); // smooth: 42, 44, 46, 48
    }
    expect(sampler.stats.late).toBe(0);
  });

  it('snaps in the delayed view what the slot marked or spawned, and blends where it said nothing changed', () => {
    const { publish, sample, render, generation } = run(1);
    publish(100, (i) => 10 + i);
    sample(100);
    publish(200, (i) => 20 + i);
    sample(200);
    generation[1] = 1; // entity 1 teleports
    publish(300, (i) => (i === 1 ? 500 : 30 + i), { count: 3, snaps: 1 }); // ... and entity 2 is new
    sample(300);
    publish(400, (i) => (i === 1 ? 510 : 40 + i), { count: 3 });
    sample(400);
    // a tick behind: 250, between the states at 200 and 300: 0 blends, 1 is where it teleported, 2 as it came
    expect(sample(350)).toMatchObject({ time: 250, snapped: 2 });
    expect(values(render.pos, 3)).toEqual([25, 500, 32]);
    // 350, between 300 and 400, which the slot said nothing was marked or spawned between: all blend
    expect(sample(450)).toMatchObject({ time: 350, snapped: 0 });
    expect(values(render.pos, 3)).toEqual([35, 505, 37]);
  });

  /** Frames at 100, 200, 300 and 400 over states with entity i at 10k + i (k the hundreds), but as `at300` says at 300. */
  function delayedAround(at300: Parameters<ReturnType<typeof setup>['publish']>[2] & { pos?: (i: number) => number; before300?: () => void }, delay = run(1)) {
    const { publish, sample } = delay;
    publish(100, (i) => 10 + i, { count: at300.previousCount === undefined ? 2 : 3 });
    sample(100);
    publish(200, (i) => 20 + i, { count: at300.previousCount === undefined ? 2 : 3 });
    sample(200);
    at300.before300?.();
    publish(300, at300.pos ?? ((i) => 30 + i), at300);
    sample(300);
    publish(400, (i) => (at300.pos ? at300.pos(i) + 10 : 40 + i), { count: at300.count ?? 2 });
    sample(400);
    return delay;
  }

  it('snaps in the delayed view an entity new by the count alone (SNAPS 0)', () => {
    const s = delayedAround({ count: 3, pos: (i) => (i === 2 ? 900 : 30 + i) });
    expect(s.sample(350)).toMatchObject({ time: 250, snapped: 1 });
    expect(values(s.render.pos, 3)).toEqual([25, 26, 900]);
  });

  it('snaps in the delayed view an entity marked alone (the count unchanged)', () => {
    const s = run(1);
    delayedAround({ snaps: 1, pos: (i) => (i === 1 ? 500 : 30 + i), before300: () => (s.generation[1] = 7) }, s);
    expect(s.sample(350)).toMatchObject({ time: 250, snapped: 1 });
    expect(values(s.render.pos, 2)).toEqual([25, 500]);
  });

  it('snaps in the delayed view past snapDistance, in a pair with nothing marked', () => {
    const s = run(1);
    s.sampler.configure({ snapDistance: { field: 'pos', distance: 50 } });
    delayedAround({ pos: (i) => (i === 1 ? 500 : 30 + i) }, s);
    expect(s.sample(350)).toMatchObject({ time: 250, snapped: 1 });
    expect(values(s.render.pos, 2)).toEqual([25, 500]);
  });

  it('snaps in the delayed view what despawned and came back between two states it kept (PREV_COUNT below the count)', () => {
    // three entities throughout, but the publish at 300 says a tick between had one (publishes skipped for a
    // stalled page): entities 1 and 2 came back, with nothing marked
    const s = delayedAround({ count: 3, previousCount: 1, pos: (i) => (i === 0 ? 30 : 700 + i) });
    expect(s.sample(350)).toMatchObject({ time: 250, snapped: 2 });
    expect(values(s.render.pos, 3)).toEqual([25, 701, 702]);
  });

  it("takes what a slot says of a pair for the history only when it holds the pair's older state as the newest", () => {
    const layout = computeLayout(schema, CAPACITY);
    const history = new StateHistory<typeof schema>(layout, 6);
    const block = new Float32Array(layout.blockBytes / 4);
    history.record(1, 0, 2, block);
    history.record(3, 200, 2, block, true, 2, 1); // the slot spoke of 2 to 3; the history has 1 to 3
    expect(history.at(1)).toMatchObject({ snapFree: false, previousCount: 2 });
    history.record(4, 300, 2, block, true, 3, 1);
    expect(history.at(2)).toMatchObject({ snapFree: true, previousCount: 1 });
  });

  it('blends across a tick the main thread never saw, and counts the gap', () => {
    const { publish, sample, render, sampler } = run(1);
    publish(100, () => 10);
    sample(100);
    publish(200, () => 20);
    publish(300, () => 30); // two publishes between frames: tick 2 appears only as tick 3's previous
    publish(400, () => 40); // ... and this frame misses tick 3's pair too: history has 1, 3?, 4
    sample(400);
    sample(350); // shown at 250: between 200 (tick 2, never seen) ... and what we have
    expect(render.pos[0]).toBeGreaterThanOrEqual(20);
    expect(render.pos[0]).toBeLessThanOrEqual(30);
    expect(sampler.stats.gaps).toBeGreaterThan(0);
  });

  it('eases into a new delay instead of jumping back', () => {
    const { publish, sample, sampler } = run(0);
    for (let k = 1; k <= 8; k++) publish(k * 100, () => k * 10);
    sample(800);
    sampler.configure({ renderDelay: 2 });
    const shown: number[] = [800];
    for (let t = 816; t <= 1712; t += 16) {
      publish(Math.ceil(t / 100) * 100, () => Math.ceil(t / 100) * 10);
      shown.push(sample(t).time);
    }
    for (let i = 1; i < shown.length; i++) {
      // from the frame before the change on, the shown time never goes back, and slows to at most a quarter
      // below real time while the delay grows
      expect(shown[i]! - shown[i - 1]!).toBeGreaterThanOrEqual(16 * 0.75 - 1e-9);
    }
    expect(sampler.delayMs).toBe(200);
    expect(shown.at(-1)).toBe(1712 - 200);
  });

  it('keeps a delay asked for before the tick length is known (frames at tick 0)', () => {
    const { publish, sample, sampler } = run(1); // tick 0 only: its two states stand for one time
    expect(sample(0)).toMatchObject({ time: 0, late: false });
    expect(sampler.delayMs).toBe(0);
    for (let k = 1; k <= 12; k++) {
      publish(k * 100, () => k * 10);
      sample(k * 100);
    }
    expect(sampler.delayMs).toBe(100); // eased in once ticks came
    expect(sample(1250)).toMatchObject({ time: 1150 });
  });

  it('takes a re-pinned time for a tick it already has (resume): no jump', () => {
    const { publish, sample, render } = run(1);
    for (let k = 1; k <= 3; k++) {
      publish(k * 100, () => k * 10);
      sample(k * 100);
    }
    // paused at tick 3 (time 300) until 1000; the worker re-pins tick 3 to 1000 and publishes tick 4 at 1100
    sample(900);
    expect(render.pos[0]).toBeCloseTo(30, 5);
    publish(1100, () => 40, { length: 100 });
    sample(1000);
    expect(render.pos[0]).toBeCloseTo(30, 5); // shown at 900: still tick 3, not a jump toward 4
    sample(1150);
    expect(render.pos[0]).toBeCloseTo(35, 5);
  });

  it('hands out the same options object until they change', () => {
    const { sampler } = setup();
    const first = sampler.options;
    expect(sampler.options).toBe(first);
    sampler.configure({ renderDelay: 1 });
    expect(sampler.options).not.toBe(first);
    expect(sampler.options).toMatchObject({ mode: 'interpolate', renderDelay: 1 });
  });

  it('names the type of a value of the wrong type', () => {
    const { sampler } = setup();
    expect(() => sampler.configure({ renderDelay: '1' as never })).toThrow(/renderDelay is in ticks, from 0 to 2; got the string '1'$/);
    expect(() => sampler.configure({ maxPrediction: '2' as never })).toThrow(/maxPrediction .*; got the string '2'$/);
    expect(() => sampler.configure({ mode: 60 as never })).toThrow(/interpolation mode must be .*; got 60$/);
    expect(() => sampler.configure({ mode: '60' as never })).toThrow(/interpolation mode must be .*; got the string '60'$/);
    expect(() => sampler.configure({ whenLate: true as never })).toThrow(/whenLate must be .*; got the boolean true$/);
    expect(() => sampler.configure({ snapDistance: { field: 'pos', distance: '5' as never } })).toThrow(/distance must be .*; got the string '5'$/);
    expect(() => sampler.configure({ snapDistance: { field: ['pos'] as never, distance: 5 } })).toThrow(/must name a linear field .*; got an array$/);
    expect(() => sampler.configure({ snapDistance: { field: 'toString' as never, distance: 5 } })).toThrow(/must name a linear field .*; got the string 'toString'$/);
    expect(() => sampler.configure({ snapDistance: 5 as never })).toThrow(/snapDistance must be \{ field, distance \} or null; got 5$/);
    expect(() => sampler.configure(null as never)).toThrow(/interpolation options must be an object.*; got null$/);
    expect(sampler.options).toMatchObject({ renderDelay: 0, maxPrediction: 1, snapDistance: null }); // nothing taken
  });

  it('refuses bad options with the reason', () => {
    const { sampler } = setup();
    expect(() => sampler.configure({ renderDelay: 3 })).toThrow(/renderDelay is in ticks, from 0 to 2; got 3/);
    expect(() => sampler.configure({ mode: 'cubic' as never })).toThrow(/interpolation mode must be/);
    expect(() => sampler.configure({ whenLate: 'guess' as never })).toThrow(/whenLate must be 'hold' or 'extrapolate'/);
    expect(() => sampler.configure({ maxPrediction: -1 })).toThrow(/maxPrediction/);
    expect(() => sampler.configure({ snapDistance: { field: 'frame' as never, distance: 1 } })).toThrow(/must name a linear field/);
    expect(() => sampler.configure({ snapDistance: { field: 'pos', distance: 0 } })).toThrow(/above 0/);
  });
});

export type { FieldViews };

describe('state history storage', () => {
  const layout = computeLayout(schema, CAPACITY);

  it('lays its blocks one after another in the storage it is given (a wasm memory, for the SIMD kernels)', () => {
    const storage = new ArrayBuffer(3 * layout.blockBytes);
    const history = new StateHistory<typeof schema>(layout, 3, storage);
    const source = new Float32Array(layout.blockBytes / 4).map((_, i) => i);
    for (let tick = 1; tick <= 3; tick++) history.record(tick, 100 * tick, 2, source);
    for (let i = 0; i < 3; i++) {
      const entry = history.at(i);
      expect(entry.block.buffer).toBe(storage);
      expect(entry.block.byteOffset).toBe(i * layout.blockBytes);
      expect(entry.fields.pos.buffer).toBe(storage);
      // only the live part is copied: pos (width 1) of entities 0 and 1; entities 2 and 3 (dead) stay unwritten
      expect(Array.from(entry.block.subarray(0, 4))).toEqual([0, 1, 0, 0]);
      expect(Array.from(entry.generation.subarray(0, 4))).toEqual([...new Uint32Array(source.buffer, layout.generationOffset, 2), 0, 0]);
    }
    expect(history.copies).toBe(3);
    // per state: 2 entities × (1 + 1 + 4 + 3 + 1 floats) + 2 generations, 4 bytes each
    expect(history.copiedBytes).toBe(3 * (2 * 10 + 2) * 4);
    // a fourth state reuses the oldest block, still in the storage
    history.record(4, 400, 2, source);
    expect(history.at(2).tick).toBe(4);
    expect(history.at(2).block.buffer).toBe(storage);
  });

  it('refuses storage too small for its depth', () => {
    expect(() => new StateHistory<typeof schema>(layout, 3, new ArrayBuffer(2 * layout.blockBytes))).toThrow(/history storage/);
  });
});

describe('read ticks (what a history would hold, numbers and times only)', () => {
  /** Reads as the sampler records them: pairs (tick, time) of each acquire's previous and current state. */
  const reads = (pairs: [number, number][]) => {
    const read = new ReadTicks();
    for (const [tick, time] of pairs) read.record(tick, time);
    return read;
  };

  it.each([
    // frames as fast as ticks: every pair read whole
    { pairs: [[1, 100], [2, 200], [2, 200], [3, 300], [4, 400], [5, 500]], time: 350, served: true },
    // frames 3 ticks apart: 3 and 4 never read, the frame at 350 lies in (3, 4)
    { pairs: [[1, 100], [2, 200], [5, 500], [6, 600]], time: 350, served: false },
    // the same frame between the newest pair of an acquire and the previous acquire's newest
    { pairs: [[1, 100], [2, 200], [3, 300], [4, 400]], time: 250, served: true },
    // before every tick kept (6 of them: 3 .. 8)
    { pairs: [[1, 100], [2, 200], [3, 300], [4, 400], [5, 500], [6, 600], [7, 700], [8, 800]], time: 250, served: false },
    // a tick held across a pause: the same tick again at a later time is its own entry, no gap
    { pairs: [[1, 100], [2, 200], [2, 900], [3, 1000]], time: 500, served: true },
    // an older tick read again adds nothing
    { pairs: [[1, 100], [3, 300], [2, 200]], time: 150, served: false },
  ] as { pairs: [number, number][]; time: number; served: boolean }[])('$pairs at $time: $served', ({ pairs, time, served }) => {
    expect(reads(pairs).couldServe(time)).toBe(served);
  });

  it('never serves a time past the newest tick (that frame is late) or with fewer than two ticks', () => {
    expect(reads([[1, 100]]).couldServe(100)).toBe(false);
    expect(reads([[1, 100], [2, 200]]).couldServe(250)).toBe(false);
    const read = reads([[1, 100], [2, 200]]);
    read.clear();
    expect(read.size).toBe(0);
    expect(read.couldServe(150)).toBe(false);
  });
});
