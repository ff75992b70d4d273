/**
 * The message transport: states as transferred ArrayBuffers, frame times and input as messages. Works on any
 * page (no cross-origin isolation needed); slower than shared memory.
 *
 * Its halves apart, so that each side's bundle holds its own half only (transports/registry.ts), and each loads
 * its code on demand, since a cross-origin isolated page and its worker never run it: the page's
 * (`messagePageHalf`) when a runtime first opens it, the worker's (`messageWorkerHalf`) in `load`, which the
 * simulation awaits before the (synchronous) attach. `messageTransport` (transport.ts) is both halves, loaded:
 * it is a module of its own, since a static import of a half here would put that half in every bundle.
 */
import type { MessageAttachConfig } from '../../contracts/remote.ts';
import type { PageHalf, PageTransportContext, WorkerHalf } from '../../contracts/transport.ts';
import type { Schema } from '../../core/schema.ts';
import type { connectMessageWorker } from './worker.ts';

export const available = (): string | null => (typeof MessageChannel === 'function' ? null : 'this platform has no MessageChannel');

/** The page half, its module loaded on demand (a chunk of its own in a bundled app). */
const openOnDemand = async <S extends Schema>(context: PageTransportContext<S>) => (await import('./page.ts')).openMessagePage(context);

export const messagePageHalf: PageHalf<MessageAttachConfig> = { kind: 'message', available, page: openOnDemand };

/** The worker half's code once `load` has brought it (one per realm, as the module itself is). */
let connectLoaded: typeof connectMessageWorker | null = null;

export const messageWorkerHalf: WorkerHalf<MessageAttachConfig> = {
  kind: 'message',
  async load() {
    connectLoaded ??= (await import('./worker.ts')).connectMessageWorker;
  },
  worker(schema, config) {
    if (connectLoaded === null) {
      throw new Error("steadyframe: the message transport's worker half is not loaded: exposeSimulation loads it before the attach; with a Simulation of your own, await simulation.prepare(config) before attach(config)");
    }
    return connectLoaded(schema, config);
  },
};
