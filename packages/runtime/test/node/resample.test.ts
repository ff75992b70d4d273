/**
 * The resampler (src/net/resample.ts): the state a network client's step writes into its world at a render time,
 * from the pair of snapshots around it. A real world (`createWorld` over a block of `computeLayout`), real
 * snapshots (encoded, inserted into a SnapshotBuffer, found by `pairAt`), and the world's own generation run to
 * see which entities were marked to snap.
 *
 * ```text
 *  snapshots:    A (1000 ms)            B (1100 ms)
 *  render time:  ── before ──▶ │ ── interpolated (alpha) ── │ ── extrapolated ≤ cap ──▶ held
 * ```
 */
import { describe, expect, it } from 'vitest';
import { computeLayout, fieldViews, generationView } from '../../src/core/layout.ts';
import { angleField, interpolateField, lerpField, wrapAngle } from '../../src/core/interpolate.ts';
import { defineSchema, type Schema } from '../../src/core/schema.ts';
import { RESAMPLED, Resampler } from '../../src/net/resample.ts';
import { SnapshotBuffer, type KeptSnapshot } from '../../src/net/snapshot-buffer.ts';
import { encodeSnapshot, wireFormat } from '../../src/net/wire.ts';
import { createWorld } from '../../src/worker/world.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';

/** Every kind, the linear and angle ones with a velocity, the quaternion with an angular velocity. */
const movingSchema = defineSchema({
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
  heading: { width: 1, kind: 'angle', velocity: 'turn' },
  turn: { width: 1, kind: 'linear' },
  spin: { width: 4, kind: 'quaternion', velocity: 'spinRate' },
  spinRate: { width: 3, kind: 'linear' },
  frame: { width: 1, kind: 'none' },
});

type Values<S extends Schema> = { readonly [K in keyof S]?: ArrayLike<number> };

/** A world over its own block, a snapshot buffer of the same layout, and a way to send it snapshots. */
function setup<S extends Schema>(schema: S, capacity = 4) {
  const layout = computeLayout(schema, capacity);
  const format = wireFormat(layout);
  const memory = new ArrayBuffer(layout.blockBytes);
  const generation = generationView(memory, 0, layout);
  const { world } = createWorld(layout, new Float32Array(memory), fieldViews<S>(memory, 0, layout), generation);
  const buffer = new SnapshotBuffer(format, 8);
  let tick = 0;
  /** A snapshot made at server time `time`: each field's values for `count` entities (missing: 0). */
  const send = (time: number, count: number, values: Values<S>, generations: ArrayLike<number> = new Array<number>(count).fill(1)): void => {
    const bytes = new ArrayBuffer(layout.blockBytes);
    const block = new Float32Array(bytes);
    for (const f of layout.fields) block.set(values[f.name as keyof S] ?? [], f.offset / 4);
    const g = generationView(bytes, 0, layout);
    g.set(generations);
    expect(buffer.insert(encodeSnapshot(format, { tick: tick++, time, count, snaps: 0 }, block, g), 0)).toBe('stored');
  };
  /** Writes the state at `time` from the buffer's pair around it; returns how, and which entities were marked to snap. */
  const write = (resampler: Resampler, time: number) => {
    const before = Array.from(generation);
    const how = resampler.write(world, buffer.pairAt(time)!, time);
    return { how, snapped: before.flatMap((g, i) => (generation[i] !== g ? [i] : [])) };
  };
  /** A snapshot as kept, by its time. */
  const kept = (time: number): KeptSnapshot => buffer.kept.find((s) => s.time === time)!;
  const run = (s: KeptSnapshot, name: keyof S & string, n: number) => {
    const start = layout.fields.find((f) => f.name === name)!.offset / 4;
    return s.block.subarray(start, start + n);
  };
  return { layout, world, generation, buffer, send, write, kept, run, resampler: (maxMs = 100, hermite = true) => new Resampler(layout, schema, maxMs, hermite) };
}

const bits = (values: Float32Array): number[] => Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));
const rotationZ = (angle: number): number[] => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];

describe('between two snapshots', () => {
  it("blends each kind as interpolateField does: linear lerped, angles the short way across ±π, quaternions nlerped to unit length, 'none' by the discrete rule (B's once past A)", () => {
    const s = setup(motionSchema);
    const a = { position: [1, 2, 10, 20], angle: [3.0, -1], spin: [...rotationZ(0.2), ...rotationZ(-3)], frame: [7, 8] };
    // spin: entity 1's B is the same rotation as far as a blend goes, stored negated (more than 90° from A as a 4-vector)
    const b = { position: [3, -2, 11, 25], angle: [-3.0, 0.5], spin: [...rotationZ(0.8), ...rotationZ(-2.6).map((v) => -v)], frame: [9, 10] };
    s.send(1000, 2, a);
    s.send(1100, 2, b);
    const r = s.resampler();
    for (const time of [1000, 1025, 1050, 1099]) {
      const pair = s.buffer.pairAt(time)!;
      expect(r.write(s.world, pair, time)).toBe(RESAMPLED.INTERPOLATED);
      expect(s.world.count).toBe(2);
      for (const field of s.layout.fields) {
        const want = new Float32Array(2 * field.width);
        const name = field.name as keyof typeof a;
        interpolateField(field.kind, field.width, new Float32Array(a[name]), new Float32Array(b[name]), want, 2, pair.alpha);
        expect(s.world.fields[name].subarray(0, 2 * field.width), `${field.name} at ${time}`).toEqual(want);
      }
      // 3.0 to −3.0 goes through ±π (0.283 rad), not through 0 (6 rad)
      const angle = s.world.fields.angle[0]!;
      expect(Math.abs(wrapAngle(angle - 3.0)), `at ${time}`).toBeLessThanOrEqual(2 * Math.PI - 6 + 1e-6);
      expect(Math.abs(angle), `at ${time}`).toBeLessThanOrEqual(Math.fround(Math.PI)); // [−π, π) in float64, then float32
      for (let i = 0; i < 2; i++) expect(Math.hypot(...s.world.fields.spin.subarray(4 * i, 4 * i + 4))).toBeCloseTo(1, 6);
      expect(Array.from(s.world.fields.frame.subarray(0, 2))).toEqual(pair.alpha > 0 ? b.frame : a.frame);
    }
    // halfway, entity 1's spin is the rotation halfway (−2.8 about z), whatever the sign B was stored with
    s.write(r, 1050);
    const half = s.world.fields.spin.subarray(4, 8);
    expect(Math.abs(half[2]! * rotationZ(-2.8)[2]! + half[3]! * rotationZ(-2.8)[3]!)).toBeCloseTo(1, 6);
    // at alpha 1 (a pair made by hand: `pairAt` gives B as the previous there) 'none' takes B's values
    const pair = { previous: s.kept(1000), current: s.kept(1100), alpha: 1, before: false, after: false };
    r.write(s.world, pair, 1100);
    expect(Array.from(s.world.fields.frame.subarray(0, 2))).toEqual(b.frame);
    expect(Array.from(s.world.fields.position.subarray(0, 4))).toEqual(b.position);
  });

  it('Hermite with the velocities: the end values bit for bit at alpha 0 and 1; a constant acceleration exact and a circle far closer than the lerp', () => {
    const s = setup(movingSchema);
    const T = 0.1; // seconds between the snapshots
    // entity 0: constant acceleration (Hermite is exact for a quadratic); entity 1: a circle of radius 5 at 3 rad/s
    const acc = [40, -30];
    const v0 = [3, -1];
    const p0 = [1, 2];
    const ballistic = (t: number) => ({ p: [0, 1].map((k) => p0[k]! + v0[k]! * t + 0.5 * acc[k]! * t * t), v: [0, 1].map((k) => v0[k]! + acc[k]! * t) });
    const [R, W, PHASE] = [5, 3, 0.7];
    const circle = (t: number) => ({ p: [R * Math.cos(PHASE + W * t), R * Math.sin(PHASE + W * t)], v: [-R * W * Math.sin(PHASE + W * t), R * W * Math.cos(PHASE + W * t)] });
    // the heading turns at 2.5 rad/s from 3.0: across +π between the snapshots
    const heading = (t: number) => wrapAngle(3.0 + 2.5 * t);
    const at = (t: number) => ({
      position: [...ballistic(t).p, ...circle(t).p],
      velocity: [...ballistic(t).v, ...circle(t).v],
      heading: [heading(t), heading(t)],
      turn: [2.5, 2.5],
    });
    s.send(1000, 2, at(0));
    s.send(1000 + 1000 * T, 2, at(T));
    const hermite = s.resampler(100, true);
    const lerp = s.resampler(100, false);
    // alpha 0: A exactly, bit for bit
    s.write(hermite, 1000);
    const [A, B] = [s.kept(1000), s.kept(1100)];
    expect(bits(s.world.fields.position.subarray(0, 4))).toEqual(bits(s.run(A, 'position', 4)));
    expect(bits(s.world.fields.heading.subarray(0, 2))).toEqual(bits(s.run(A, 'heading', 2)));
    // alpha 1 (a pair made by hand): B exactly
    hermite.write(s.world, { previous: A, current: B, alpha: 1, before: false, after: false }, 1100);
    expect(bits(s.world.fields.position.subarray(0, 4))).toEqual(bits(s.run(B, 'position', 4)));
    expect(bits(s.world.fields.heading.subarray(0, 2))).toEqual(bits(s.run(B, 'heading', 2)));
    // within the interval: the error against the true motion, Hermite and lerp
    const error = (resampler: Resampler, alpha: number) => {
      const time = 1000 + 1000 * T * alpha;
      expect(s.write(resampler, time).how).toBe(RESAMPLED.INTERPOLATED);
      const p = s.world.fields.position;
      const truth = at(T * alpha);
      return {
        ballistic: Math.hypot(p[0]! - truth.position[0]!, p[1]! - truth.position[1]!),
        circle: Math.hypot(p[2]! - truth.position[2]!, p[3]! - truth.position[3]!),
        heading: Math.abs(wrapAngle(s.world.fields.heading[0]! - truth.heading[0]!)),
        position: Float32Array.from(p.subarray(0, 4)),
        angle: s.world.fields.heading[0]!,
      };
    };
    for (const alpha of [0.25, 0.5, 0.75]) {
      const h = error(hermite, alpha);
      const l = error(lerp, alpha);
      // the lerp cuts the corner: a·T²·α(1−α)/2 for the ballistic one (62.5 mm at the middle), R(1 − cos(ωT/2)) for the circle
      expect(l.ballistic).toBeCloseTo((50 * T * T * alpha * (1 - alpha)) / 2, 5);
      expect(l.circle).toBeGreaterThan(0.03);
      // Hermite: exact for the quadratic (float32 rounding only), and the circle's error is O((ωT)⁴), under 1% of the lerp's
      expect(h.ballistic).toBeLessThan(1e-6);
      expect(h.circle).toBeLessThan(l.circle / 100);
      // both turn the short way across ±π, and stay wrapped
      expect(h.heading).toBeLessThan(1e-6);
      expect(l.heading).toBeLessThan(1e-6);
      expect(h.angle).toBeGreaterThanOrEqual(-Math.PI);
      expect(h.angle).toBeLessThan(Math.PI);
      // hermite: false is the plain lerp (angles by angleField)
      const want = new Float32Array(4);
      lerpField(s.run(A, 'position', 4), s.run(B, 'position', 4), want, 4, alpha);
      expect(l.position).toEqual(want);
      const angle = new Float32Array(1);
      angleField(s.run(A, 'heading', 1), s.run(B, 'heading', 1), angle, 1, alpha);
      expect(l.angle).toBe(angle[0]);
    }
  });
});

describe('outside the snapshots', () => {
  const a = { position: [0, 0], velocity: [1, 1], heading: [0], turn: [0], spin: rotationZ(0), spinRate: [0, 0, 0], frame: [1] };
  const b = { position: [1, -2], velocity: [10, -20], heading: [3.1], turn: [2], spin: rotationZ(1), spinRate: [0, 0, 2], frame: [2] };

  it('past the newest: moved on by the velocities for at most maxExtrapolateMs, then held', () => {
    const s = setup(movingSchema);
    s.send(1000, 1, a);
    s.send(1100, 1, b);
    const r = s.resampler(100);
    expect(s.write(r, 1130).how).toBe(RESAMPLED.EXTRAPOLATED);
    const f = s.world.fields;
    expect(Array.from(f.position.subarray(0, 2))).toEqual([Math.fround(1 + 10 * 0.03), Math.fround(-2 - 20 * 0.03)]);
    expect(f.heading[0]).toBe(Math.fround(wrapAngle(Math.fround(3.1) + 2 * 0.03)));
    expect(f.heading[0]).toBeLessThan(0); // past +π, wrapped
    expect(Array.from(f.spin.subarray(0, 4)).map((v, k) => v - rotationZ(1 + 2 * 0.03)[k]!).every((d) => Math.abs(d) < 1e-6)).toBe(true);
    // the velocities themselves, and 'none', held
    expect(Array.from(f.velocity.subarray(0, 2))).toEqual(b.velocity);
    expect(f.frame[0]).toBe(2);
    // capped: 150 ms and 400 ms past give the state 100 ms past, the same bits
    expect(s.write(r, 1250).how).toBe(RESAMPLED.EXTRAPOLATED);
    expect(Array.from(f.position.subarray(0, 2))).toEqual([Math.fround(1 + 10 * 0.1), Math.fround(-2 - 20 * 0.1)]);
    // the whole world block, every field, bit for bit
    const capped = bits(new Float32Array(f.position.buffer).slice());
    expect(s.write(r, 1500).how).toBe(RESAMPLED.EXTRAPOLATED);
    expect(bits(new Float32Array(f.position.buffer))).toEqual(capped);
  });

  it('past the newest without a velocity field (or with maxExtrapolateMs 0): held', () => {
    const s = setup(motionSchema);
    const m = { position: [5, 6], angle: [1], spin: rotationZ(0.5), frame: [3] };
    s.send(1000, 1, { position: [0, 0], angle: [0], spin: rotationZ(0), frame: [2] });
    s.send(1100, 1, m);
    expect(s.write(s.resampler(100), 1150).how).toBe(RESAMPLED.HELD);
    expect(Array.from(s.world.fields.position.subarray(0, 2))).toEqual(m.position);
    expect(Array.from(s.world.fields.spin.subarray(0, 4))).toEqual(Array.from(Float32Array.from(m.spin)));
    const v = setup(movingSchema);
    v.send(1000, 1, a);
    v.send(1100, 1, b);
    expect(v.write(v.resampler(0), 1150).how).toBe(RESAMPLED.HELD);
    expect(Array.from(v.world.fields.position.subarray(0, 2))).toEqual(b.position);
    // exactly at the newest's time: held too (nothing to move by)
    expect(v.write(v.resampler(100), 1100).how).toBe(RESAMPLED.HELD);
  });

  it('before the oldest kept: the oldest, held', () => {
    const s = setup(movingSchema);
    s.send(1000, 1, a);
    s.send(1100, 1, b);
    expect(s.write(s.resampler(), 900).how).toBe(RESAMPLED.BEFORE);
    expect(Array.from(s.world.fields.position.subarray(0, 2))).toEqual(a.position);
    expect(Array.from(s.world.fields.spin.subarray(0, 4))).toEqual(a.spin);
    expect(s.world.count).toBe(1);
  });
});

describe('generations and counts', () => {
  it("takes B's values for a server snap and a spawn, shrinks the count, and marks an entity to snap exactly when its written generation changes", () => {
    const s = setup(motionSchema);
    const state = (x: number[], count = x.length) => ({ position: x.flatMap((v) => [v, -v]), angle: new Array<number>(count).fill(0), spin: x.flatMap(() => rotationZ(0)), frame: x });
    s.send(900, 2, state([0, 10]), [1, 1]);
    s.send(1000, 2, state([1, 11]), [1, 1]);
    s.send(1100, 2, state([2, 100]), [1, 2]); // entity 1 teleported (a server snap)
    s.send(1200, 3, state([3, 101, 50]), [1, 2, 1]); // entity 2 spawned
    s.send(1300, 1, state([4]), [1]); // entities 1 and 2 gone
    const r = s.resampler();
    const x = () => Array.from({ length: s.world.count }, (_, i) => s.world.fields.position[2 * i]!);
    // the first write: every live entity snaps (nothing drawn before it)
    expect(s.write(r, 950)).toEqual({ how: RESAMPLED.INTERPOLATED, snapped: [0, 1] });
    expect(x()).toEqual([0.5, 10.5]);
    // within (1000, 1100): entity 1 is B's from the interval's start to its end; it snaps once, at the first write
    expect(s.write(r, 1000).snapped).toEqual([1]);
    expect(x()).toEqual([1, 100]);
    expect(s.write(r, 1050).snapped).toEqual([]);
    expect(x()).toEqual([1.5, 100]);
    expect(s.write(r, 1099).snapped).toEqual([]);
    expect(x()[1]).toBe(100);
    // within (1100, 1200): entity 1's generations agree, blended; entity 2 spawned: B's values, snapped once
    expect(s.write(r, 1150)).toEqual({ how: RESAMPLED.INTERPOLATED, snapped: [2] });
    expect(x()).toEqual([2.5, 100.5, 50]);
    expect(s.write(r, 1175).snapped).toEqual([]);
    expect(x()).toEqual([2.75, 100.75, 50]);
    // within (1200, 1300): the count is B's
    expect(s.write(r, 1250)).toEqual({ how: RESAMPLED.INTERPOLATED, snapped: [] });
    expect(s.world.count).toBe(1);
    expect(x()).toEqual([3.5]);
    expect(s.write(r, 1320)).toEqual({ how: RESAMPLED.HELD, snapped: [] });
    // a reset: every live entity snaps on the next write, and only on that one
    r.reset();
    expect(s.write(r, 1330).snapped).toEqual([0]);
    expect(s.write(r, 1340).snapped).toEqual([]);
  });

  it('an entity back after the count shrank past it snaps, even at the generation it had', () => {
    const s = setup(motionSchema);
    const state = (x: number[]) => ({ position: x.flatMap((v) => [v, 0]), angle: x.map(() => 0), spin: x.flatMap(() => rotationZ(0)), frame: x });
    s.send(1000, 2, state([0, 10]), [1, 1]);
    s.send(1100, 1, state([1]), [1]);
    s.send(1200, 2, state([2, 30]), [1, 1]);
    s.send(1300, 2, state([3, 31]), [1, 1]);
    const r = s.resampler();
    expect(s.write(r, 1050).snapped).toEqual([0]); // the first write: the live entities (B has one)
    expect(s.write(r, 1150)).toEqual({ how: RESAMPLED.INTERPOLATED, snapped: [1] }); // entity 1 back (spawned in B)
    expect(s.world.fields.position[2]).toBe(30);
    expect(s.write(r, 1250).snapped).toEqual([]);
    expect(s.world.fields.position[2]).toBe(30.5);
  });
});

describe('game fields', () => {
  const gameSchema = defineSchema({
    position: { width: 1, kind: 'linear' },
    score: { kind: 'none', scope: 'game' },
    timer: { kind: 'linear', scope: 'game' },
    heading: { kind: 'angle', scope: 'game' },
  });

  it("are written at the render time as the page blends them: linear lerped, angles the short way, 'none' B's once past A; held past the newest, the oldest before it", () => {
    const layout = computeLayout(gameSchema, 2);
    const format = wireFormat(layout);
    const memory = new ArrayBuffer(layout.blockBytes);
    const { world } = createWorld(layout, new Float32Array(memory), fieldViews<typeof gameSchema>(memory, 0, layout), generationView(memory, 0, layout));
    const buffer = new SnapshotBuffer(format, 8);
    const send = (tick: number, time: number, game: [number, number, number]) => {
      const bytes = new ArrayBuffer(layout.blockBytes);
      new Float64Array(bytes, layout.gameOffset, 3).set(game);
      expect(buffer.insert(encodeSnapshot(format, { tick, time, count: 1, snaps: 0 }, new Float32Array(bytes), generationView(bytes, 0, layout)), 0)).toBe('stored');
    };
    send(1, 1000, [10, 60, 3.0]);
    send(2, 1100, [20, 59, -3.0]);
    const r = new Resampler(layout, gameSchema, 100, true);
    const at = (time: number) => {
      const how = r.write(world, buffer.pairAt(time)!, time);
      return [how, world.state.score, world.state.timer, world.state.heading];
    };
    expect(at(990)).toEqual([RESAMPLED.BEFORE, 10, 60, 3.0]);
    expect(at(1000)).toEqual([RESAMPLED.INTERPOLATED, 10, 60, 3.0]);
    const [, score, timer, heading] = at(1050);
    expect([score, timer]).toEqual([20, 59.5]);
    // across the seam: halfway between 3 and −3 the short way is ±π
    expect(Math.abs(Math.abs(heading!) - Math.PI)).toBeLessThan(1e-12);
    expect(at(1300)).toEqual([RESAMPLED.HELD, 20, 59, -3.0]);
  });
});
