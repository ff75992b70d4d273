/** The page's simulation worker: the server's world, through the network client (the URL comes from the page's setup). */
import { networkClient } from 'steadyframe/network';
import { exposeSimulation } from 'steadyframe/worker';
import { schema } from './schema.ts';

exposeSimulation(networkClient({ schema, inputWidth: 2 }));
