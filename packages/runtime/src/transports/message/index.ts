/**
 * The message transport: states as transferred ArrayBuffers, frame times and input as messages. Works on any
 * page (no cross-origin isolation needed); slower than shared memory.
 */
import type { MessageAttachConfig } from '../../contracts/remote.ts';
import type { Transport } from '../../contracts/transport.ts';
import { openMessagePage } from './page.ts';
import { connectMessageWorker } from './worker.ts';

export const messageTransport: Transport<MessageAttachConfig> = {
  kind: 'message',
  available: () => (typeof MessageChannel === 'function' ? null : 'this platform has no MessageChannel'),
  page: openMessagePage,
  worker: connectMessageWorker,
};
