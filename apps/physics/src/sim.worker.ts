/**
 * The worker: a Rapier world stepped at 60 Hz by @steadyframe/rapier, which publishes every awake body's pose.
 * The page asks for heaps and resets with input events, read at the start of the tick they fall in; every draw
 * comes from the run's seeded generator. A session is thus its seed, setup and inputs: it records and replays
 * bit for bit (on Rapier's deterministic build), in the browser or in Node.
 */
import DETERMINISTIC from '@dimforge/rapier3d-deterministic-compat';
import { exposePhysics, type Physics, type Rapier } from '@steadyframe/rapier';
import type { World } from 'steadyframe/worker';
import { addArena, dropHeap } from './pile.ts';
import { CAPACITY, EVENT, FALL_Y, HALF_FLOOR, IMPACT_MIN_IMPULSE, INPUT, SHAPES, START_BODIES, TICK_RATE, schema, type PhysicsSchema, type Shape } from './schema.ts';

/**
 * Rapier's cross-platform deterministic build: the same steps, bit for bit, in every browser and in Node, so a
 * recorded session replays anywhere. It has the compat build's API (the same source, built for determinism);
 * TypeScript sees its classes as other classes, so it is typed as the compat build.
 */
const RAPIER = DETERMINISTIC as unknown as Rapier;

export interface PileState {
  tick: number;
  /** Dynamic bodies, and how many of them Rapier has put to sleep. */
  bodies: number;
  sleeping: number;
  /** Bodies removed after falling off the floor. */
  fallen: number;
}

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
  state(): PileState {
    let sleeping = 0;
    const p = physics;
    if (p === null) return { tick, bodies: 0, sleeping: 0, fallen };
    for (let i = fixed; i < p.count; i++) if (p.body(i).isSleeping()) sleeping++;
    return { tick, bodies: p.count - fixed, sleeping, fallen };
  },
};
export type Commands = typeof commands;

/** A heap's centre kept inside the walls, wherever the page asked for it. */
const clamp = (v: number): number => Math.max(-HALF_FLOOR + 2, Math.min(HALF_FLOOR - 2, v));

function fill(p: Physics, world: World<PhysicsSchema>, n: number, random: () => number): void {
  addArena(RAPIER, p, world);
  fixed = p.count;
  dropHeap(RAPIER, p, world, n, 0, 0, SHAPES.mixed, random);
}

exposePhysics(RAPIER, {
  schema,
  tickRate: TICK_RATE,
  commands,
  // each impact as an event, presented with the frame that shows it (the page's knocks); no ends: nothing hears them
  contacts: { events: true, codes: { start: EVENT.impact, end: EVENT.parted }, minImpulse: IMPACT_MIN_IMPULSE, ends: false },
  init(p, world, setup: Setup, context) {
    physics = p;
    fallen = 0;
    startBodies = setup.bodies;
    fill(p, world, startBodies, context.random);
  },
  // the page's drops and resets, as input events: recorded with the session, so a replay makes the same heaps
  beforeStep(p, t, world) {
    tick = t.tick;
    for (let e = 0; e < t.input.length; e++) {
      const code = t.input.code(e);
      if (code === INPUT.reset) {
        const n = t.input.payload(e, 0);
        if (Number.isInteger(n) && n >= 0) startBodies = Math.min(n, CAPACITY - 8);
        p.clear();
        fallen = 0;
        fill(p, world, startBodies, t.random);
      } else if (code === INPUT.drop) {
        const [n, x, z, shape] = [0, 1, 2, 3].map((j) => t.input.payload(e, j)) as [number, number, number, number];
        if (!(Number.isInteger(n) && n > 0 && Number.isFinite(x) && Number.isFinite(z))) continue;
        dropHeap(RAPIER, p, world, Math.min(n, 2000), clamp(x), clamp(z), (Object.values(SHAPES) as number[]).includes(shape) ? (shape as Shape) : SHAPES.mixed, t.random);
      }
    }
  },
  // what the pile keeps outside the world (the Rapier world itself is saved by @steadyframe/rapier)
  save: () => new TextEncoder().encode(JSON.stringify({ tick, fallen, fixed, startBodies })),
  load(saved) {
    ({ tick, fallen, fixed, startBodies } = JSON.parse(new TextDecoder().decode(saved)) as { tick: number; fallen: number; fixed: number; startBodies: number });
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
