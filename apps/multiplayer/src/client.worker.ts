/**
 * The page's simulation worker: the server's world through the network client (the URL comes from the page's
 * setup), this player's own ship predicted (prediction.ts), so it answers a key in the next frame.
 */
import { networkClient } from 'steadyframe/network';
import { exposeSimulation } from 'steadyframe/worker';
import { predictOwnShip } from './prediction.ts';
import { PAGE_INPUT_WIDTH, schema } from './schema.ts';

exposeSimulation(networkClient({ schema, inputWidth: PAGE_INPUT_WIDTH, predict: predictOwnShip }));
