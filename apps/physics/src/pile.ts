/**
 * The scene: a floor with four low walls, and heaps of boxes and spheres dropped above it. Used by the worker
 * (and nothing else: Rapier is imported here, so the page never loads it).
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { Physics } from '@steadyframe/rapier';
import type { World } from 'steadyframe/worker';
import { HALF_FLOOR, SHAPES, WALL_HEIGHT, type PhysicsSchema, type Shape } from './schema.ts';

type Rapier = typeof RAPIER;


/** Adds one fixed box (half extents hx, hy, hz) centred at x, y, z, and writes its size. */
function addSlab(rapier: Rapier, physics: Physics, world: World<PhysicsSchema>, x: number, y: number, z: number, hx: number, hy: number, hz: number): void {
  const i = physics.add(rapier.RigidBodyDesc.fixed().setTranslation(x, y, z), rapier.ColliderDesc.cuboid(hx, hy, hz));
  if (i < 0) return;
  world.fields.box.set([2 * hx, 2 * hy, 2 * hz], 3 * i);
  world.fields.ball[i] = 0;
}

/** The floor (its top at y = 0) and four walls around it. */
export function addArena(rapier: Rapier, physics: Physics, world: World<PhysicsSchema>): void {
  const h = HALF_FLOOR;
  addSlab(rapier, physics, world, 0, -0.5, 0, h, 0.5, h);
  addSlab(rapier, physics, world, 0, WALL_HEIGHT / 2, h + 0.25, h + 0.5, WALL_HEIGHT / 2, 0.25);
  addSlab(rapier, physics, world, 0, WALL_HEIGHT / 2, -h - 0.25, h + 0.5, WALL_HEIGHT / 2, 0.25);
  addSlab(rapier, physics, world, h + 0.25, WALL_HEIGHT / 2, 0, 0.25, WALL_HEIGHT / 2, h);
  addSlab(rapier, physics, world, -h - 0.25, WALL_HEIGHT / 2, 0, 0.25, WALL_HEIGHT / 2, h);
}

/**
 * Drops `n` bodies in a column of layers above (x, z), the lowest at y = 4; returns how many fit. Sizes,
 * shapes and tilts come from `random`.
 */
export function dropHeap(rapier: Rapier, physics: Physics, world: World<PhysicsSchema>, n: number, x: number, z: number, shape: Shape, random: () => number): number {
  const side = Math.max(4, Math.min(12, Math.ceil(Math.sqrt(n / 8))));
  const gap = 1.3;
  let added = 0;
  for (let k = 0; k < n; k++) {
    const layer = Math.floor(k / (side * side));
    const cell = k % (side * side);
    const px = x + ((cell % side) - (side - 1) / 2) * gap + (random() - 0.5) * 0.2;
    const pz = z + (Math.floor(cell / side) - (side - 1) / 2) * gap + (random() - 0.5) * 0.2;
    const py = 4 + layer * gap;
    const ball = shape === SHAPES.spheres || (shape === SHAPES.mixed && random() < 0.5);
    const body = rapier.RigidBodyDesc.dynamic()
      .setTranslation(px, py, pz)
      .setRotation(randomRotation(random))
      // damping stands in for rolling resistance, which Rapier does not model: without it spheres roll for ever
      .setLinearDamping(0.3)
      .setAngularDamping(1.5);
    const size = 0.35 + random() * 0.2;
    const height = size * (0.6 + random() * 0.6);
    const i = ball
      ? physics.add(body, rapier.ColliderDesc.ball(size).setFriction(0.6))
      : physics.add(body, rapier.ColliderDesc.cuboid(size, height, size).setFriction(0.6));
    if (i < 0) break;
    if (ball) {
      world.fields.box.fill(0, 3 * i, 3 * i + 3);
      world.fields.ball[i] = size;
    } else {
      world.fields.box.set([2 * size, 2 * height, 2 * size], 3 * i);
      world.fields.ball[i] = 0;
    }
    added++;
  }
  return added;
}

function randomRotation(random: () => number): { x: number; y: number; z: number; w: number } {
  // uniform on the sphere of unit quaternions (Shoemake)
  const u = random();
  const v = random() * 2 * Math.PI;
  const w = random() * 2 * Math.PI;
  const a = Math.sqrt(1 - u);
  const b = Math.sqrt(u);
  return { x: a * Math.sin(v), y: a * Math.cos(v), z: b * Math.sin(w), w: b * Math.cos(w) };
}
