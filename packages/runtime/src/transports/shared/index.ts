/**
 * The shared transport: one SharedArrayBuffer between the threads (the fast path). Needs memory that can be
 * shared with the worker: a cross-origin isolated page, a render worker of one, or Node.
 */
import type { SharedAttachConfig } from '../../contracts/remote.ts';
import type { Transport } from '../../contracts/transport.ts';
import { joinSharedPage, openSharedPage } from './page.ts';
import { connectSharedWorker } from './worker.ts';

export const sharedTransport: Transport<SharedAttachConfig> = {
  kind: 'shared',
  available: (host) => host.sharedMemory(),
  page: openSharedPage,
  worker: connectSharedWorker,
  join: (context, config) =>
    joinSharedPage({
      schema: context.schema,
      layout: context.layout,
      buffer: config.buffer,
      memory: config.memory ?? null,
      maxSpins: context.maxSpins,
      // the joining thread presents the events when the config hands it the ring (a render worker's does)
      ...(config.events === undefined ? {} : { events: config.events }),
    }),
};
