/** The worker: the game runs here at a fixed 30 Hz; the page only draws and sends keys. */
import { exposeSimulation } from 'steadyframe/worker';
import { Game } from './game.ts';
import { schema, TICK_RATE } from './schema.ts';

const game = new Game();

const commands = {
  /**
   * Score, lives, counters and the input read so far, for tests (a call across threads: the HUD reads the same
   * numbers from the frames' game fields instead).
   */
  state() {
    return game.state;
  },
};
export type Commands = typeof commands;

exposeSimulation({
  schema,
  tickRate: TICK_RATE,
  commands,
  init: (world, _setup, context) => game.init(world, context),
  step: (world, tick) => game.step(world, tick),
  // what the game keeps outside the world, so a snapshot or a recording can start mid-game
  save: () => game.save(),
  load: (saved) => game.load(saved),
});
