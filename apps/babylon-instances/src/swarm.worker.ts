/**
 * The simulation: the swarm (./swarm.ts) at 30 Hz in this worker. A click or tap on the page arrives as an input
 * event and throws a burst of new bodies in (spawned: drawn at their first state, never blended from nowhere).
 */
import { exposeSimulation } from 'steadyframe/worker';
import { placeBody, privateFields, stepSwarm, type SwarmFields } from './swarm.ts';
import { BURST, CAPACITY, INPUT_BURST, schema, START_INSTANCES, TICK_RATE } from './schema.ts';

/** What `createRuntime({ setup })` sends: how many bodies the scene starts with. */
export interface Setup {
  readonly instances: number;
}

let bodies = 0;
const commands = {
  /** Bodies in the world (the page reads the published count; this is for tests and tools). */
  count: () => bodies,
};
export type Commands = typeof commands;

type World = { fields: { position: Float32Array; rotation: Float32Array; scale: Float32Array }; private: { ring: Float32Array; phase: Float32Array; axis: Float32Array } };
const fieldsOf = (world: World): SwarmFields => ({ ...world.fields, ...world.private });

exposeSimulation<typeof schema, Setup, typeof privateFields>({
  schema,
  privateFields,
  tickRate: TICK_RATE,
  commands,
  init(world, setup: Setup, { random }) {
    const n = Math.max(0, Math.min(CAPACITY, Math.floor(setup?.instances ?? START_INSTANCES)));
    world.count = n;
    const fields = fieldsOf(world);
    for (let i = 0; i < n; i++) placeBody(fields, i, random);
    bodies = n;
  },
  step(world, tick) {
    const fields = fieldsOf(world);
    const input = tick.input;
    for (let e = 0; e < input.length; e++) {
      if (input.code(e) !== INPUT_BURST) continue;
      for (let k = 0; k < BURST && world.count < CAPACITY; k++) placeBody(fields, world.spawn(), tick.random);
    }
    stepSwarm(fields, world.count, tick.dt);
    bodies = world.count;
  },
});
