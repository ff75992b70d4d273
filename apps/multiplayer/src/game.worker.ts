/** The server's simulation module (bundled for Node by server.ts and run by `createNodeRuntime`): the game's definition, exposed. */
import { exposeSimulation } from 'steadyframe/worker';
import { game } from './game.ts';

exposeSimulation(game);
