/**
 * What the page and the benchmark workers agree on: the schemas, the simulations' work, the analytic motion
 * the motion-quality suite checks against, and the side buffer where workers stamp when each tick was made.
 * Imported by both realms, so it uses nothing but ECMAScript and `performance`.
 */
import { defineSchema, schema2d, schema3d } from 'steadyframe/worker';

export { schema2d, schema3d };

/** Bodies with known motion; `velocity` lets the runtime extrapolate. */
export const motionSchema = defineSchema({
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
});

export type SimKind = '2d' | '3d' | 'motion';

/** The first message every benchmark worker gets, before anything else. */
export interface SimConfig {
  readonly kind: SimKind;
  readonly tickRate: number;
  /** Live entities. */
  readonly count: number;
  /** The page's time origin: both realms stamp times on the page's `performance.now()` timeline. */
  readonly anchor: number;
  /** Where the worker stamps each tick (see SIDE); optional. */
  readonly side?: SharedArrayBuffer;
  /** Busy-wait `stallMs` in every `stallEvery`-th tick (an injected worker stall). */
  readonly stallEvery?: number;
  readonly stallMs?: number;
  /**
   * 2d: each tick the live count is `count` less up to `churn` (`churnCount`: a sawtooth, up by about a tenth
   * of `churn` a tick for about ten ticks, then down most of it; never above `count`), so entities at the end
   * despawn and spawn again (a game's bullets, particles, enemies coming and going).
   */
  readonly churn?: number;
  /** 3d: events each step emits after its work (`tick.emit(1, i, tick, 0.5, -0.5)`, i < emit): the events suite. */
  readonly emit?: number;
}

/** The live count at step `k` of a scene of `count` whose count churns by up to `churn` (0: `count`). */
export function churnCount(count: number, churn: number, k: number): number {
  return churn > 0 ? count - ((k * 7919) % (churn + 1)) : count;
}

/** A clock on the page's `performance.now()` timeline, in either realm. */
export function pageClock(anchor: number): () => number {
  const offset = performance.timeOrigin - anchor;
  return () => offset + performance.now();
}

/**
 * The side buffer: per tick, when its step started and ended and when it was due (page-clock ms), in rings of
 * RING entries; NEWEST (Int32, Atomics) is the newest tick whose step has ended.
 *
 * ```text
 *  byte 0   Int32 NEWEST, 15 spare words
 *  byte 64  Float64 start[RING] | end[RING] | due[RING]
 * ```
 */
export const SIDE = { NEWEST: 0, RING: 8192, F64_OFFSET: 64 } as const;

export function createSide(): SharedArrayBuffer {
  return new SharedArrayBuffer(SIDE.F64_OFFSET + 3 * SIDE.RING * 8);
}

export interface SideViews {
  readonly i32: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly due: Float64Array;
}

export function sideViews(buffer: SharedArrayBuffer): SideViews {
  const f64 = (k: number) => new Float64Array(buffer, SIDE.F64_OFFSET + k * SIDE.RING * 8, SIDE.RING);
  return { i32: new Int32Array(buffer, 0, 16), start: f64(0), end: f64(1), due: f64(2) };
}

/** Records tick `tick`: started at `start`, ended at `end`, due at `due`; then publishes it as the newest. */
export function stamp(side: SideViews, tick: number, start: number, end: number, due: number): void {
  const i = tick % SIDE.RING;
  side.start[i] = start;
  side.end[i] = end;
  side.due[i] = due;
  // the stamps above are visible to whoever reads NEWEST >= tick
  Atomics.store(side.i32, SIDE.NEWEST, tick);
}

/** A small seeded PRNG, so every run starts from the same world. */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 2D/3D benchmark world: every entity drifts at its own velocity and turns (2D: its own spin; 3D: one
 * small rotation applied to every quaternion, about 1.7 degrees per tick). Cheap on purpose: these suites
 * measure moving the state, not making it.
 */
export class BenchWorld {
  readonly velocity: Float32Array;
  readonly spin: Float32Array;

  constructor(
    readonly kind: '2d' | '3d',
    readonly capacity: number,
  ) {
    const random = mulberry32(42);
    const w = kind === '2d' ? 2 : 3;
    this.velocity = new Float32Array(capacity * w);
    this.spin = new Float32Array(kind === '2d' ? capacity : 0);
    for (let i = 0; i < this.velocity.length; i++) this.velocity[i] = (random() - 0.5) * 4;
    for (let i = 0; i < this.spin.length; i++) this.spin[i] = (random() - 0.5) * 6;
  }

  /** Tick 0: positions spread over a box, random orientations. */
  init(position: Float32Array, turn: Float32Array, count: number): void {
    const random = mulberry32(7);
    const w = this.kind === '2d' ? 2 : 3;
    for (let i = 0; i < count * w; i++) position[i] = (random() - 0.5) * 200;
    if (this.kind === '2d') {
      for (let i = 0; i < count; i++) turn[i] = (random() - 0.5) * 2 * Math.PI;
      return;
    }
    for (let i = 0; i < count; i++) {
      const x = random() - 0.5;
      const y = random() - 0.5;
      const z = random() - 0.5;
      const ww = random() - 0.5;
      const n = 1 / Math.hypot(x, y, z, ww);
      turn.set([x * n, y * n, z * n, ww * n], 4 * i);
    }
  }

  step(position: Float32Array, turn: Float32Array, count: number, dt: number): void {
    const v = this.velocity;
    const w = this.kind === '2d' ? 2 : 3;
    for (let i = 0, n = count * w; i < n; i++) position[i] = position[i]! + v[i]! * dt;
    if (this.kind === '2d') {
      const spin = this.spin;
      for (let i = 0; i < count; i++) {
        const a = turn[i]! + spin[i]! * dt;
        turn[i] = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
      }
      return;
    }
    // q <- d * q, d a fixed turn of 0.03 rad about (1, 2, 3) / |(1, 2, 3)|
    const s = Math.sin(0.015) / Math.sqrt(14);
    const dx = s;
    const dy = 2 * s;
    const dz = 3 * s;
    const dw = Math.cos(0.015);
    for (let o = 0, n = 4 * count; o < n; o += 4) {
      const qx = turn[o]!;
      const qy = turn[o + 1]!;
      const qz = turn[o + 2]!;
      const qw = turn[o + 3]!;
      turn[o] = dw * qx + dx * qw + dy * qz - dz * qy;
      turn[o + 1] = dw * qy - dx * qz + dy * qw + dz * qx;
      turn[o + 2] = dw * qz + dx * qy - dy * qx + dz * qw;
      turn[o + 3] = dw * qw - dx * qx - dy * qy - dz * qz;
    }
  }
}

/**
 * Body `i` of the motion suite at simulated second `s`: even bodies go straight, odd ones circle, turning
 * CIRCLE_TURN radians per tick. Every body covers 1 unit per tick, so an error in units is an error in ticks
 * of motion. Writes x, y, vx, vy (units per simulated second) into `out`.
 */
export const CIRCLE_TURN = 0.05;

export function motionAt(i: number, s: number, tickRate: number, out: Float64Array): void {
  const speed = tickRate; // units per second: 1 unit per tick
  const heading = (i * 2.399963) % (2 * Math.PI); // golden angle: spread directions
  if (i % 2 === 0) {
    const vx = speed * Math.cos(heading);
    const vy = speed * Math.sin(heading);
    out[0] = 10 * i + vx * s;
    out[1] = -10 * i + vy * s;
    out[2] = vx;
    out[3] = vy;
    return;
  }
  const omega = CIRCLE_TURN * tickRate; // rad per second
  const radius = speed / omega;
  const a = heading + omega * s;
  out[0] = 10 * i + radius * Math.cos(a);
  out[1] = -10 * i + radius * Math.sin(a);
  out[2] = -radius * omega * Math.sin(a);
  out[3] = radius * omega * Math.cos(a);
}

/** Spins until `ms` have passed: an injected stall, or a fixed amount of work. */
export function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
