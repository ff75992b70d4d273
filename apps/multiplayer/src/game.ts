/**
 * The game's simulation definition, one module for both ends: the server's worker exposes it (game.worker.ts), and
 * each page's network worker imports it to predict its own ship (client.worker.ts). Its step is a function of the
 * world's fields, the tick's inputs and `tick.random` alone (no module state, no clock), and ends on the wire's
 * grid (`quantizeFields`), so the client's prediction of its ship is the server's state whenever it knew the
 * same inputs (what it cannot know, another player's shot knocking it, is a correction).
 *
 * ```text
 *  step:  inputs in order ─▶ hello: a ship │ leave: none │ steer: keys into the ship's field │ shoot: judged (shots.ts)
 *         ships move (ships.ts) ─▶ orbs move (orbs.ts) ─▶ every field quantised
 * ```
 */
import { INPUT_PLAYER, quantizeFields, type SimulationDefinition } from 'steadyframe/worker';
import { moveOrbs, placeOrb } from './orbs.ts';
import { CAPACITY, INPUT, MAX_PLAYERS, ORBS, schema, TICK_RATE, type GameSchema } from './schema.ts';
import { emptySlot, join, leave, moveShips, steer } from './ships.ts';
import { shoot } from './shots.ts';

export const game: SimulationDefinition<GameSchema> = {
  schema,
  tickRate: TICK_RATE,
  // the states of the last second, for `tick.rewind`: a page a second behind the server is not one to judge by
  rewind: true,
  init(world, _setup, context) {
    world.count = CAPACITY;
    for (let i = 0; i < ORBS; i++) placeOrb(world, i, () => context.random());
    for (let s = 0; s < MAX_PLAYERS; s++) emptySlot(world, s);
    quantizeFields(schema, world.fields, world.count);
  },
  step(world, tick) {
    const input = tick.input;
    for (let e = 0; e < input.length; e++) {
      const player = input.payload(e, INPUT_PLAYER);
      switch (input.code(e)) {
        case INPUT.HELLO:
          join(world, player, input.payload(e, 2));
          break;
        case INPUT.LEAVE:
          leave(world, player);
          break;
        case INPUT.STEER:
          steer(world, player, input.payload(e, 2), input.payload(e, 3));
          break;
        case INPUT.SHOOT:
          shoot(world, tick, e, player);
          break;
      }
    }
    moveShips(world, tick.dt);
    moveOrbs(world, tick.dt);
    quantizeFields(schema, world.fields, world.count);
  },
};
