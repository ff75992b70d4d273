/**
 * The orbs: targets that drift and curve, each turning its velocity by its own `spin` every tick and bouncing off
 * the walls, so everything about an orb's motion is in its fields (position, velocity, spin) and a state on the
 * wire says where it goes next. A shot that hits one places it elsewhere, drawn from the run's seeded generator
 * (`tick.random` in the step, the context's in `init`), never `Math.random`.
 *
 * ```text
 *  each tick:   v := v turned by spin × dt      p += v × dt      off a wall: reflected, that component turned round
 *  hit:         a new place, speed, heading and spin from the generator; snapped (the page shows a jump, not a streak)
 * ```
 */
import type { World } from 'steadyframe/worker';
import { HEIGHT, ORB_RADIUS, ORBS, WIDTH, type GameSchema } from './schema.ts';

type GameWorld = World<GameSchema>;

/** An orb's speed, units a second, and its turn rate, rad/s (either way). */
const SPEED = [60, 180] as const;
const SPIN = [0.4, 1.2] as const;

/** Orb `i` somewhere new, from `random` (a number in [0, 1) each call). */
export function placeOrb(world: GameWorld, i: number, random: () => number): void {
  const { position: p, velocity: v, spin, heading } = world.fields;
  p[2 * i] = ORB_RADIUS + random() * (WIDTH - 2 * ORB_RADIUS);
  p[2 * i + 1] = ORB_RADIUS + random() * (HEIGHT - 2 * ORB_RADIUS);
  const speed = SPEED[0] + random() * (SPEED[1] - SPEED[0]);
  const angle = random() * 2 * Math.PI;
  v[2 * i] = speed * Math.cos(angle);
  v[2 * i + 1] = speed * Math.sin(angle);
  spin[i] = (random() < 0.5 ? -1 : 1) * (SPIN[0] + random() * (SPIN[1] - SPIN[0]));
  heading[i] = angle;
}

/** Every orb a tick of `dt` on: its velocity turned by its spin, moved, off the walls. */
export function moveOrbs(world: GameWorld, dt: number): void {
  const { position: p, velocity: v, spin, heading } = world.fields;
  for (let i = 0; i < ORBS; i++) {
    const turn = spin[i]! * dt;
    const c = Math.cos(turn);
    const s = Math.sin(turn);
    const vx = v[2 * i]! * c - v[2 * i + 1]! * s;
    const vy = v[2 * i]! * s + v[2 * i + 1]! * c;
    v[2 * i] = vx;
    v[2 * i + 1] = vy;
    for (let axis = 0; axis < 2; axis++) {
      const at = 2 * i + axis;
      const x = p[at]! + v[at]! * dt;
      const high = (axis === 0 ? WIDTH : HEIGHT) - ORB_RADIUS;
      if (x < ORB_RADIUS || x > high) {
        p[at] = x < ORB_RADIUS ? 2 * ORB_RADIUS - x : 2 * high - x;
        v[at] = -v[at]!;
      } else {
        p[at] = x;
      }
    }
    heading[i] = Math.atan2(v[2 * i + 1]!, v[2 * i]!);
  }
}
