/**
 * The worker: a Rapier world stepped at 60 Hz by @steadyframe/rapier, which publishes every awake body's pose.
 * The page asks for heaps and resets through `commands`; they run between ticks, so they are queued here and
 * carried out at the start of the next step.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { exposePhysics, type Physics } from '@steadyframe/rapier';
import type { World } from 'steadyframe/worker';
import { addArena, dropHeap, prng } from './pile.ts';
import { FALL_Y, SHAPES, START_BODIES, TICK_RATE, schema, type PhysicsSchema, type Shape } from './schema.ts';

export interface PileState {
  tick: number;
  /** Dynamic bodies, and how many of them Rapier has put to sleep. */
  bodies: number;
  sleeping: number;
  /** Bodies removed after falling off the floor. */
  fallen: number;
}

type Request = { kind: 'drop'; n: number; x: number; z: number; shape: Shape } | { kind: 'reset'; n: number };

const requests: Request[] = [];
const random = prng(2024);
let physics: Physics | null = null;
let tick = 0;
let fallen = 0;
/** Fixed bodies (floor and walls) come first: entities 0 .. FIXED - 1, never removed. */
let fixed = 0;
/** Bodies a reset drops: the page's `setup.bodies` until a reset asks for another number. */
let startBodies = START_BODIES;

/** What the page sends at `createRuntime({ setup })`: how many bodies the pile starts with. */
export interface Setup {
  readonly bodies: number;
}

const commands = {
  drop(n: number, x = 0, z = 0, shape: Shape = SHAPES.mixed): void {
    requests.push({ kind: 'drop', n, x, z, shape });
  },
  /** Starts over with `n` bodies (default: as many as the last reset asked for, else START_BODIES). */
  reset(n = startBodies): void {
    startBodies = n;
    requests.push({ kind: 'reset', n });
  },
  state(): PileState {
    let sleeping = 0;
    const p = physics;
    if (p === null) return { tick, bodies: 0, sleeping: 0, fallen };
    for (let i = fixed; i < p.count; i++) if (p.body(i).isSleeping()) sleeping++;
    return { tick, bodies: p.count - fixed, sleeping, fallen };
  },
};
export type Commands = typeof commands;

function fill(p: Physics, world: World<PhysicsSchema>, n: number): void {
  addArena(RAPIER, p, world);
  fixed = p.count;
  dropHeap(RAPIER, p, world, n, 0, 0, SHAPES.mixed, random);
}

exposePhysics(RAPIER, {
  schema,
  tickRate: TICK_RATE,
  commands,
  init(p, world, setup: Setup) {
    physics = p;
    fallen = 0;
    startBodies = setup.bodies;
    fill(p, world, startBodies);
  },
  beforeStep(p, t, world) {
    tick = t.tick;
    for (const r of requests.splice(0)) {
      if (r.kind === 'reset') {
        p.clear();
        fallen = 0;
        fill(p, world, r.n);
      } else {
        dropHeap(RAPIER, p, world, r.n, r.x, r.z, r.shape, random);
      }
    }
  },
  afterStep(p, _t, world) {
    // bodies that left the floor: removed backwards, so a swap-remove only moves one already checked
    const { position } = world.fields;
    for (let i = p.count - 1; i >= fixed; i--) {
      if (position[3 * i + 1]! < FALL_Y) {
        p.remove(i);
        fallen++;
      }
    }
  },
});
