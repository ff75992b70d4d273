/**
 * The message transport with both halves loaded: for a thread that plays both sides, and the contract suite
 * (test/node/transport-contract.test.ts). Apps get the halves apart (index.ts), each loaded on demand.
 */
import type { MessageAttachConfig } from '../../contracts/remote.ts';
import type { Transport } from '../../contracts/transport.ts';
import { available } from './index.ts';
import { openMessagePage } from './page.ts';
import { connectMessageWorker } from './worker.ts';

export const messageTransport: Transport<MessageAttachConfig> = { kind: 'message', available, page: openMessagePage, worker: connectMessageWorker };
