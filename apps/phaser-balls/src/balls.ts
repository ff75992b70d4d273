/**
 * The rules of Phaser's "group world bounds event" example (phaserjs/examples, physics/arcade), as its Arcade
 * bodies play them: gravity, then the move, then each edge of the world clamps the ball and turns its velocity
 * with bounce 1, and a ball that touched an edge shows the next of the five frames. Here they run in the
 * worker at a fixed 60 Hz; Arcade steps the same way on the page (`fixedStep`, 60 per second by default).
 */
import { BALL, FRAMES, GRAVITY, WORLD } from './schema.ts';

/** The world's fields the rules read and write: the schema's two and the worker's private velocity. */
export interface BallFields {
  readonly position: Float32Array;
  readonly frame: Float32Array;
  readonly velocity: Float32Array;
}

/** The worker-only field (`privateFields`): px/s, (x, y). */
export const privateFields = { velocity: { width: 2 } } as const;

const HALF = BALL / 2;
const LEFT = HALF;
const RIGHT = WORLD.width - HALF;
const TOP = HALF;
const BOTTOM = WORLD.height - HALF;

/** One step of `dt` seconds for balls [0, count). */
export function stepBalls(f: BallFields, count: number, dt: number): void {
  const { position: p, velocity: v, frame } = f;
  for (let i = 0; i < count; i++) {
    const ix = 2 * i;
    const iy = ix + 1;
    let vy = v[iy]! + GRAVITY * dt;
    let vx = v[ix]!;
    let x = p[ix]! + vx * dt;
    let y = p[iy]! + vy * dt;
    let hit = false;
    if (x < LEFT) {
      x = LEFT;
      vx = -vx;
      hit = true;
    } else if (x > RIGHT) {
      x = RIGHT;
      vx = -vx;
      hit = true;
    }
    if (y < TOP) {
      y = TOP;
      vy = -vy;
      hit = true;
    } else if (y > BOTTOM) {
      y = BOTTOM;
      vy = -vy;
      hit = true;
    }
    p[ix] = x;
    p[iy] = y;
    v[ix] = vx;
    v[iy] = vy;
    if (hit) frame[i] = (frame[i]! + 1) % FRAMES;
  }
}

/** Puts ball i at (x, y), kept inside the world, moving at (vx, vy) px/s, showing `frameIndex`. */
export function placeBall(f: BallFields, i: number, x: number, y: number, vx: number, vy: number, frameIndex: number): void {
  f.position[2 * i] = Math.min(RIGHT, Math.max(LEFT, x));
  f.position[2 * i + 1] = Math.min(BOTTOM, Math.max(TOP, y));
  f.velocity[2 * i] = vx;
  f.velocity[2 * i + 1] = vy;
  f.frame[i] = frameIndex % FRAMES;
}
