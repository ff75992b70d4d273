/**
 * The shared transport: one SharedArrayBuffer between the threads (the fast path). Needs memory that can be
 * shared with the worker: a cross-origin isolated page, a render worker of one, or Node.
 *
 * Its halves apart (`sharedPageHalf`, `sharedWorkerHalf`), so that each side's bundle holds its own half only
 * (transports/registry.ts), and together (`sharedTransport`).
 */
import type { PageHost } from '../../contracts/host.ts';
import type { SharedAttachConfig } from '../../contracts/remote.ts';
import type { PageHalf, PageTransportContext, Transport, WorkerHalf } from '../../contracts/transport.ts';
import type { Schema } from '../../core/schema.ts';
import { joinSharedPage, openSharedPage } from './page.ts';
import { connectSharedWorker } from './worker.ts';

const available = (host: PageHost): string | null => host.sharedMemory();

const join = <S extends Schema>(context: Pick<PageTransportContext<S>, 'schema' | 'layout' | 'maxSpins'>, config: SharedAttachConfig) =>
  joinSharedPage({
    schema: context.schema,
    layout: context.layout,
    buffer: config.buffer,
    memory: config.memory ?? null,
    maxSpins: context.maxSpins,
    // the joining thread presents the events when the config hands it the ring (a render worker's does)
    ...(config.events === undefined ? {} : { events: config.events }),
  });

export const sharedPageHalf: PageHalf<SharedAttachConfig> = { kind: 'shared', available, page: openSharedPage, join };

export const sharedWorkerHalf: WorkerHalf<SharedAttachConfig> = { kind: 'shared', worker: connectSharedWorker };

export const sharedTransport: Transport<SharedAttachConfig> = { kind: 'shared', available, page: openSharedPage, worker: connectSharedWorker, join };
