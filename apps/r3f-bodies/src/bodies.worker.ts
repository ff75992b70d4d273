/**
 * The simulation: Rapier stepped at 60 Hz in this worker by @steadyframe/rapier, every box an entity; a rain of
 * boxes relaunched from above keeps the pile moving. The page (React Three Fiber) never loads Rapier.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { exposePhysics, type Physics } from '@steadyframe/rapier';
import { CAPACITY, schema } from './schema.ts';

let physics: Physics | null = null;
/** Heaps asked for by the page, dropped at the start of the next tick. */
const heaps: number[] = [];
/** The box the rain relaunches next (round robin). */
let next = 0;
/** Boxes relaunched from above each tick: the pile keeps churning (a teleport snaps; nothing streaks). */
const RAIN_PER_TICK = 2;

/** `n` boxes in a column of layers above the floor's centre, seeded by `random`. */
function drop(p: Physics, n: number, random: () => number): void {
  const side = 10;
  for (let k = 0; k < n && p.count < CAPACITY; k++) {
    const layer = Math.floor(k / (side * side));
    const cell = k % (side * side);
    const body = RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(((cell % side) - 4.5) * 1.2 + (random() - 0.5) * 0.6, 6 + layer * 1.2, (Math.floor(cell / side) - 4.5) * 1.2 + (random() - 0.5) * 0.6)
      .setRotation(tilt(random));
    p.add(body, RAPIER.ColliderDesc.cuboid(0.4, 0.4, 0.4));
  }
}

/** A random tilt of up to about 0.4 rad, so that a heap topples rather than standing as a tower. */
function tilt(random: () => number): { x: number; y: number; z: number; w: number } {
  const x = (random() - 0.5) * 0.4;
  const z = (random() - 0.5) * 0.4;
  const w = Math.sqrt(1 - x * x - z * z);
  return { x, y: 0, z, w };
}

const commands = {
  /** Drops `n` more boxes on the next tick. */
  drop(n: number) {
    if (Number.isInteger(n) && n > 0) heaps.push(n);
  },
  /** Bodies in the world. */
  count: () => physics?.count ?? 0,
};
export type Commands = typeof commands;

/** What `createRuntime({ setup })` sends: how many boxes the scene starts with. */
export interface Setup {
  readonly bodies: number;
}

exposePhysics(RAPIER, {
  schema,
  tickRate: 60,
  commands,
  init(p, _world, setup: Setup, { random }) {
    physics = p;
    // a collider without a body is fixed ground: not an entity, so not drawn by the instances
    p.world.createCollider(RAPIER.ColliderDesc.cuboid(15, 0.5, 15).setTranslation(0, -0.5, 0));
    drop(p, setup.bodies, random);
  },
  beforeStep(p, tick) {
    for (const n of heaps.splice(0)) drop(p, n, tick.random);
    // rain: a couple of boxes a tick go back up above the floor, wherever they were
    for (let k = 0; k < RAIN_PER_TICK && p.count > 0; k++) {
      next = (next + 1) % p.count;
      p.teleport(next, (tick.random() - 0.5) * 16, 14 + tick.random() * 6, (tick.random() - 0.5) * 16);
    }
  },
  afterStep(p, _tick, world) {
    // a box that fell off the floor goes back up: a teleport snaps it instead of streaking across the screen
    for (let i = 0; i < p.count; i++) if (world.fields.position[3 * i + 1]! < -20) p.teleport(i, 0, 25, 0);
  },
});
