/**
 * The tables suite's simulation (shared/tables.ts): the scene's live entities as three tables, or as one plain
 * schema with a `kind`; every live entity moves each tick. The page posts a TablesWorkerConfig first.
 */
import { exposeSimulation } from 'steadyframe/worker';
import { plainSceneSchema, tablesSceneSchema, type TablesWorkerConfig } from './shared/tables.ts';

const move = (position: Float32Array, angle: Float32Array | null, from: number, to: number, t: number): void => {
  for (let i = from; i < to; i++) {
    position[2 * i] = 100 * Math.cos(t + i);
    position[2 * i + 1] = 100 * Math.sin(t + i);
    if (angle !== null) angle[i] = t + i;
  }
};

self.addEventListener(
  'message',
  (event: MessageEvent<TablesWorkerConfig>) => {
    const { design, scene } = event.data;
    if (design === 'tables') {
      exposeSimulation({
        schema: tablesSceneSchema,
        tickRate: 60,
        init(world) {
          const { ships, rocks, bullets } = world.tables;
          ships.count = scene.ships;
          rocks.count = scene.rocks;
          bullets.count = scene.bullets;
          for (let i = 0; i < rocks.count; i++) rocks.fields.radius[i] = 1 + (i % 7);
        },
        step(world, tick) {
          const { ships, rocks, bullets } = world.tables;
          move(ships.fields.position, ships.fields.angle, 0, ships.count, tick.time);
          for (let i = 0; i < ships.count; i++) ships.fields.shield[i] = tick.time;
          move(rocks.fields.position, rocks.fields.angle, 0, rocks.count, tick.time);
          move(bullets.fields.position, null, 0, bullets.count, tick.time);
        },
      });
      return;
    }
    const count = scene.ships + scene.rocks + scene.bullets;
    exposeSimulation({
      schema: plainSceneSchema,
      tickRate: 60,
      init(world) {
        world.count = count;
        // ships first, then rocks, then bullets, as index ranges
        for (let i = 0; i < count; i++) world.fields.kind[i] = i < scene.ships ? 0 : i < scene.ships + scene.rocks ? 1 : 2;
        for (let i = scene.ships; i < scene.ships + scene.rocks; i++) world.fields.radius[i] = 1 + (i % 7);
      },
      step(world, tick) {
        move(world.fields.position, world.fields.angle, 0, count, tick.time);
        for (let i = 0; i < scene.ships; i++) world.fields.shield[i] = tick.time;
      },
    });
  },
  { once: true },
);
