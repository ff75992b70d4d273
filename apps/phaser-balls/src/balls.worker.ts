/**
 * The simulation: Phaser's bouncing balls (./balls.ts) at 60 Hz in this worker. A click or tap on the page
 * arrives as an input event and throws a burst of balls in from that point.
 */
import { exposeSimulation } from 'steadyframe/worker';
import { placeBall, privateFields, stepBalls, type BallFields } from './balls.ts';
import { BURST, CAPACITY, INPUT_BURST, schema, START_BALLS, TICK_RATE, WORLD } from './schema.ts';

/** What `createRuntime({ setup })` sends: how many balls the scene starts with. */
export interface Setup {
  readonly balls: number;
}

const commands = {
  /** Balls in the world (read from the published state by the page; this is for tests and tools). */
  count: () => balls,
};
export type Commands = typeof commands;

let balls = 0;

/** The rules' view of a world: its published fields and its private velocity. */
const fieldsOf = (world: { fields: { position: Float32Array; frame: Float32Array }; private: { velocity: Float32Array } }): BallFields => ({
  position: world.fields.position,
  frame: world.fields.frame,
  velocity: world.private.velocity,
});

exposeSimulation<typeof schema, Setup, typeof privateFields>({
  schema,
  privateFields,
  tickRate: TICK_RATE,
  commands,
  init(world, setup: Setup, { random }) {
    const n = Math.max(0, Math.min(CAPACITY, Math.floor(setup?.balls ?? START_BALLS)));
    world.count = n;
    const fields = fieldsOf(world);
    for (let i = 0; i < n; i++) {
      // the example: anywhere in the world, moving at (200, 150); here each ball also gets a random quarter turn
      const q = Math.floor(random() * 4);
      placeBall(fields, i, random() * WORLD.width, random() * WORLD.height, q & 1 ? -200 : 200, q & 2 ? -150 : 150, Math.floor(random() * 5));
    }
    balls = n;
  },
  step(world, tick) {
    const input = tick.input;
    for (let e = 0; e < input.length; e++) {
      if (input.code(e) !== INPUT_BURST) continue;
      const x = input.payload(e, 0);
      const y = input.payload(e, 1);
      const fields = fieldsOf(world);
      for (let k = 0; k < BURST && world.count < CAPACITY; k++) {
        const i = world.spawn();
        const angle = tick.random() * 2 * Math.PI;
        const speed = 150 + tick.random() * 250;
        placeBall(fields, i, x, y, Math.cos(angle) * speed, Math.sin(angle) * speed, k);
      }
    }
    stepBalls(fieldsOf(world), world.count, tick.dt);
    balls = world.count;
  },
});
