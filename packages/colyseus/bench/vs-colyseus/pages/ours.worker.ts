/** The main-thread page's simulation worker: our network client predicting this player's disc (../ours-client.ts). */
import { exposeSimulation } from 'steadyframe/worker';
import { oursClient } from '../ours-client.ts';

exposeSimulation(oursClient());
