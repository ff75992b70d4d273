/**
 * Our client in the benchmark: the network client predicting this player's own disc with the game's definition
 * (ours-game.ts), the made time on every input for the server's `tick.rewind`; everything else interpolated, as
 * the multiplayer guide sets it up (its defaults: a correction fades over 100 ms, none snaps).
 */
import { networkClient, type NetworkClientOptions } from 'steadyframe/network';
import { CLIENT_WIDTH, oursGame, oursSchema } from './ours-game.ts';

export function oursClient(socket?: NetworkClientOptions<typeof oursSchema>['socket']) {
  return networkClient({
    schema: oursSchema,
    ...(socket === undefined ? {} : { socket }),
    inputWidth: CLIENT_WIDTH,
    predict: { simulation: oursGame, entities: (_world, player, out) => void out.push(player), madeTime: true },
  });
}
