/**
 * The worker: a 2D Rapier world stepped at 60 Hz by @steadyframe/rapier/2d, its bodies in three tables (blocks,
 * crates, balls: `tables`), each awake body's translation and angle published in its table. The page drops
 * bodies and resets with input events, read at the start of the tick they fall in; every draw comes from the
 * run's seeded generator. A session is thus its seed, setup and inputs: it records and replays bit for bit (on
 * Rapier's deterministic build), in the browser or in Node.
 */
import DETERMINISTIC from '@dimforge/rapier2d-deterministic-compat';
import { exposePhysics, type Rapier } from '@steadyframe/rapier/2d';
import type { World } from 'steadyframe/worker';
import { addLevel, dropBodies, type PlatformsPhysics } from './level.ts';
import { DROP, FALL_Y, GRAVITY, IMPACT_MIN_IMPULSE, IMPACT_PAIRS, INPUT, MAX_BODIES, METRE, START_BODIES, TICK_RATE, WORLD, schema, type PlatformsSchema } from './schema.ts';

/**
 * Rapier's cross-platform deterministic 2D build: the same steps, bit for bit, in every browser and in Node.
 * Its newest release is 0.20 (the compat build's is 0.21); what this example calls is the same in both, and
 * TypeScript sees its classes as other classes, so it is typed as the compat build.
 */
const RAPIER = DETERMINISTIC as unknown as Rapier;

/** What the page sends at `createRuntime({ setup })`: how many bodies the scene starts with. */
export interface Setup {
  readonly bodies: number;
}

export interface PlatformsState {
  tick: number;
  /** Dynamic bodies, and how many of them Rapier has put to sleep. */
  bodies: number;
  sleeping: number;
  /** Bodies dropped since the start (or the last reset), and those removed after falling off. */
  dropped: number;
  fallen: number;
}

let physics: PlatformsPhysics | null = null;
let tick = 0;
let dropped = 0;
let fallen = 0;
let startBodies = START_BODIES;

const commands = {
  state(): PlatformsState {
    const p = physics;
    let sleeping = 0;
    if (p === null) return { tick, bodies: 0, sleeping, dropped, fallen };
    const { crates, balls } = p.tables;
    for (const bodies of [crates, balls]) for (let i = 0; i < bodies.count; i++) if (bodies.body(i).isSleeping()) sleeping++;
    return { tick, bodies: crates.count + balls.count, sleeping, dropped, fallen };
  },
};
export type Commands = typeof commands;

/** The level and the first bodies, in rows above it. */
function fill(p: PlatformsPhysics, world: World<PlatformsSchema>, random: () => number): void {
  // tolerances in pixels (Rapier's defaults are for metres); kept in the Rapier world's snapshots
  p.world.integrationParameters.lengthUnit = METRE;
  addLevel(RAPIER, p, world);
  dropped = 0;
  fallen = 0;
  for (let left = startBodies; left > 0; left -= DROP) dropped += dropBodies(RAPIER, p, world, Math.min(DROP, left), 200 + random() * (WORLD.width - 400), 60 - random() * 40, random);
}

exposePhysics(RAPIER, {
  schema,
  tickRate: TICK_RATE,
  commands,
  gravity: { x: 0, y: GRAVITY }, // y points down, as on the screen
  // three tables in one Rapier world: each body's pose goes to its table's position and angle
  tables: { blocks: {}, crates: {}, balls: {} },
  // each knock of a crate or a ball as an event, a code per pair of tables, presented with the frame that shows
  // it; no ends: nothing shows them
  contacts: { events: true, pairs: IMPACT_PAIRS, minImpulse: IMPACT_MIN_IMPULSE, ends: false },
  init(p, world, setup: Setup, context) {
    physics = p;
    tick = 0;
    startBodies = Math.max(0, Math.min(MAX_BODIES, Math.floor(setup?.bodies ?? START_BODIES)));
    fill(p, world, context.random);
  },
  // the page's drops and resets, as input events: recorded with the session, so a replay makes the same bodies
  beforeStep(p, t, world) {
    tick = t.tick;
    for (let e = 0; e < t.input.length; e++) {
      const code = t.input.code(e);
      if (code === INPUT.reset) {
        p.clear();
        fill(p, world, t.random);
      } else if (code === INPUT.drop) {
        const x = t.input.payload(e, 0);
        const y = t.input.payload(e, 1);
        if (Number.isFinite(x) && Number.isFinite(y)) dropped += dropBodies(RAPIER, p, world, DROP, x, y, t.random);
      }
    }
  },
  afterStep(p, _t, world) {
    // bodies that fell off the ground's ends: removed backwards, so a swap-remove only moves one already checked
    for (const name of ['crates', 'balls'] as const) {
      const bodies = p.tables[name];
      const { position } = world.tables[name].fields;
      for (let i = bodies.count - 1; i >= 0; i--) {
        if (position[2 * i + 1]! > FALL_Y) {
          bodies.remove(i);
          fallen++;
        }
      }
    }
  },
  // what the scene keeps outside the world (the Rapier world itself is saved by @steadyframe/rapier)
  save: () => new TextEncoder().encode(JSON.stringify({ tick, dropped, fallen, startBodies })),
  load(saved) {
    ({ tick, dropped, fallen, startBodies } = JSON.parse(new TextDecoder().decode(saved)) as { tick: number; dropped: number; fallen: number; startBodies: number });
  },
});
