/**
 * The demo's simulation: bodies on circular orbits of different radii and speeds, each spinning about itself.
 * It runs at a deliberately low tick rate, so the difference between drawing ticks and interpolating shows.
 */
import { exposeSimulation, type World } from 'steadyframe/worker';
import { CAPACITY, DEFAULT_COUNT, DEFAULT_TICK_RATE, schema } from './schema.ts';

// the simulation's own state, beside the published fields
const radius = new Float32Array(CAPACITY);
const speed = new Float32Array(CAPACITY);
const phase = new Float32Array(CAPACITY);
const spin = new Float32Array(CAPACITY);
let wanted = DEFAULT_COUNT;

/** A small seeded PRNG, so every run shows the same sky. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(7);
for (let i = 0; i < CAPACITY; i++) {
  radius[i] = 0.12 + 0.82 * Math.sqrt(random());
  // inner orbits turn faster, like planets: 0.2 to about 1.3 turns per second
  speed[i] = (0.35 / radius[i]!) * (random() < 0.5 ? 1 : 0.8);
  phase[i] = random() * Math.PI * 2;
  spin[i] = (random() - 0.5) * 8;
}

function place(world: World<typeof schema>, i: number, t: number): void {
  const a = phase[i]! + speed[i]! * t;
  world.fields.position[2 * i] = radius[i]! * Math.cos(a);
  world.fields.position[2 * i + 1] = radius[i]! * Math.sin(a);
  const turned = spin[i]! * t;
  world.fields.angle[i] = turned - 2 * Math.PI * Math.floor((turned + Math.PI) / (2 * Math.PI));
}

const commands = {
  /** How many bodies live; applied at the next tick. */
  setCount(n: number): void {
    wanted = Math.max(0, Math.min(CAPACITY, Math.floor(n)));
  },
};
export type Commands = typeof commands;

exposeSimulation({
  schema,
  tickRate: DEFAULT_TICK_RATE,
  commands,
  init(world) {
    world.count = wanted;
    for (let i = 0; i < world.count; i++) place(world, i, 0);
  },
  step(world, tick) {
    // a body that appears blends in from wherever its slot last was, for one tick (per-entity snapping is planned)
    world.count = wanted;
    for (let i = 0; i < world.count; i++) place(world, i, tick.time);
  },
});
