/**
 * The scene, for the worker (Rapier is imported here, so the page never loads it): the ground and three
 * platforms, two of them tilted, as fixed bodies; crates and balls dropped above them, which bounce, slide and
 * come to rest, or fall off the ground's open ends.
 *
 *   0 ┌──────────────────────────────────────────────┐ 800
 *     │            ___C___ (tilted)                    │
 *     │                           ______B______ (tilted)
 *     │   _____A_____                                  │
 *     │                                                │
 * 600 │   ██████████████ ground ██████████████████     │  (open ends: bodies fall off there)
 */
import type RAPIER from '@dimforge/rapier2d-compat';
import type { TableBodies, TablesPhysics } from '@steadyframe/rapier/2d';
import type { World } from 'steadyframe/worker';
import { METRE, WORLD, type PlatformsSchema } from './schema.ts';

type Rapier = typeof RAPIER;
/** The Physics of the three tables (sim.worker.ts). */
export type PlatformsPhysics = TablesPhysics<'blocks' | 'crates' | 'balls'>;

/** The fixed bodies: x, y (centre), half width, half height, angle (radians, clockwise on screen). */
const BLOCKS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [400, 585, 360, 15, 0],
  [200, 430, 120, 10, 0],
  [590, 330, 130, 10, -0.15],
  [330, 220, 85, 10, 0.2],
];
/** The level's fixed bodies: the blocks table's entities, added first and never removed. */
export const LEVEL_BODIES = BLOCKS.length;

/** kg per square pixel: 1 kg per square metre. */
const DENSITY = 1 / (METRE * METRE);

/** Writes entity `i`'s picture size in its table's `size` field. */
function setSize(size: Float32Array, i: number, width: number, height: number): void {
  size[2 * i] = width;
  size[2 * i + 1] = height;
}

/** Adds the ground and the platforms: the blocks table. */
export function addLevel(rapier: Rapier, physics: PlatformsPhysics, world: World<PlatformsSchema>): void {
  for (const [x, y, hw, hh, angle] of BLOCKS) {
    const i = physics.tables.blocks.add(rapier.RigidBodyDesc.fixed().setTranslation(x, y).setRotation(angle), rapier.ColliderDesc.cuboid(hw, hh).setFriction(0.8));
    if (i >= 0) setSize(world.tables.blocks.fields.size, i, 2 * hw, 2 * hh);
  }
}

/**
 * Drops up to `n` bodies in a loose cluster around (x, y), kept inside the world's width: crates and balls (each
 * in its table) of sizes, turns and spins drawn from `random`. Returns how many fit; stops at the first that
 * does not (its table full).
 */
export function dropBodies(rapier: Rapier, physics: PlatformsPhysics, world: World<PlatformsSchema>, n: number, x: number, y: number, random: () => number): number {
  const columns = Math.max(1, Math.ceil(Math.sqrt(n)));
  let added = 0;
  for (let k = 0; k < n; k++) {
    const px = Math.max(20, Math.min(WORLD.width - 20, x + ((k % columns) - (columns - 1) / 2) * 34 + (random() - 0.5) * 8));
    const py = Math.min(WORLD.height - 60, y) - Math.floor(k / columns) * 34 + (random() - 0.5) * 8;
    const ball = random() < 0.5;
    const half = 8 + random() * 8;
    const body = rapier.RigidBodyDesc.dynamic()
      .setTranslation(px, py)
      .setRotation(random() * 2 * Math.PI)
      .setLinvel((random() - 0.5) * 120, 0)
      .setAngvel((random() - 0.5) * 4)
      // rolling resistance, which Rapier does not model: without it a ball on a tilted platform rolls for ever
      .setAngularDamping(ball ? 0.8 : 0.2);
    const collider = ball
      ? rapier.ColliderDesc.ball(half).setRestitution(0.55).setFriction(0.6).setDensity(DENSITY)
      : rapier.ColliderDesc.cuboid(half, half).setRestitution(0.1).setFriction(0.7).setDensity(DENSITY);
    const bodies: TableBodies = ball ? physics.tables.balls : physics.tables.crates;
    const i = bodies.add(body, collider);
    if (i < 0) break;
    setSize(world.tables[ball ? 'balls' : 'crates'].fields.size, i, 2 * half, 2 * half);
    added++;
  }
  return added;
}
