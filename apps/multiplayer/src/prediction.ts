/**
 * What the page's network worker predicts (client.worker.ts), and how it blends a correction in: this player's
 * own ship, stepped by the game's own definition (game.ts, the one the server runs) ahead of the server from this
 * page's inputs; everything else is drawn a playout delay behind, as the server made it.
 */
import type { NetworkClientOptions } from 'steadyframe/network';
import { game } from './game.ts';
import { SHIPS, type GameSchema } from './schema.ts';
import { slotOf } from './ships.ts';

/**
 * Ms a correction fades over (its time constant is a third of it): long enough that a knock of 60 units (a shot
 * that lands while the page predicts 250 ms ahead) slides the ship over several frames, not one; the drawn ship
 * then moves by at most 3 × correction / SMOOTH_MS a ms more than its own motion (the e2e test's bound).
 */
export const SMOOTH_MS = 150;
/** A correction past this (a quarter of the arena: the ship was put somewhere else, not pushed) is drawn at once. */
export const SNAP_DISTANCE = 250;

export const predictOwnShip: NonNullable<NetworkClientOptions<GameSchema>['predict']> = {
  simulation: game,
  // this player's ship: the slot it owns in the predicted world
  entities: (world, player, out) => {
    const slot = slotOf(world, player);
    if (slot >= 0) out.push(SHIPS + slot);
  },
  smoothMs: SMOOTH_MS,
  snapDistance: SNAP_DISTANCE,
  // the server's publisher puts each input's made time in payload value 1; the step reads the aim after it
  madeTime: true,
};
