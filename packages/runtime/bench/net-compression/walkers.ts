/**
 * 2D entities on a seeded random walk with bounded speed, for scenes 2 and 3: each keeps a heading and a speed,
 * both nudged at random every step, and bounces off the walls of a square world. The speed never falls below
 * MIN_SPEED, so every entity moves at least MIN_SPEED × a send interval between snapshots (0.05 m at 20 Hz: five
 * steps of a 1/100 m quantisation): every one changes in every snapshot, as the scene asks.
 *
 * ```text
 *  each step, dt = 1/60 s:  heading += turn · (r − ½) · dt     speed += accel · (r − ½) · dt, kept in [MIN, MAX]
 *                           position += speed · (cos, sin)(heading) · dt; past a wall: mirrored back, heading turned
 * ```
 */
import { mulberry32 } from 'steadyframe/testing';

export const WALK_TICK_RATE = 60;
/** m/s: a walk at the least, a sprint at the most. */
export const MIN_SPEED = 1;
export const MAX_SPEED = 6;
/** rad/s² of the heading's random nudges' spread, and m/s² of the speed's. */
const TURN = 6;
const ACCEL = 8;

export interface Walkers {
  readonly count: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** The heading, radians, as it accumulates (the angle field's quantiser wraps it). */
  readonly heading: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  /** One 1/60 s step. */
  step(): void;
}

/** `count` walkers spread at random over [−half, half]², seeded. */
export function createWalkers(count: number, half: number, seed: number): Walkers {
  const random = mulberry32(seed);
  const x = Float64Array.from({ length: count }, () => (random() * 2 - 1) * half);
  const y = Float64Array.from({ length: count }, () => (random() * 2 - 1) * half);
  const heading = Float64Array.from({ length: count }, () => random() * 2 * Math.PI);
  const speed = Float64Array.from({ length: count }, () => MIN_SPEED + random() * (MAX_SPEED - MIN_SPEED));
  const vx = new Float64Array(count);
  const vy = new Float64Array(count);
  const dt = 1 / WALK_TICK_RATE;
  return {
    count,
    x,
    y,
    heading,
    vx,
    vy,
    step() {
      for (let i = 0; i < count; i++) {
        heading[i] = heading[i]! + TURN * (random() - 0.5) * dt;
        speed[i] = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed[i]! + ACCEL * (random() - 0.5) * dt));
        vx[i] = speed[i]! * Math.cos(heading[i]!);
        vy[i] = speed[i]! * Math.sin(heading[i]!);
        let px = x[i]! + vx[i]! * dt;
        let py = y[i]! + vy[i]! * dt;
        // a wall: the step mirrored back inside, the heading mirrored with it
        if (px > half || px < -half) {
          px = Math.sign(px) * 2 * half - px;
          heading[i] = Math.PI - heading[i]!;
          vx[i] = -vx[i]!;
        }
        if (py > half || py < -half) {
          py = Math.sign(py) * 2 * half - py;
          heading[i] = -heading[i]!;
          vy[i] = -vy[i]!;
        }
        x[i] = px;
        y[i] = py;
      }
    },
  };
}
