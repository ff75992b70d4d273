/**
 * Where a worker module is reached from the page: its global scope in a browser worker, or the endpoint the
 * environment installed before it loaded the module (`steadyframe/node`'s bootstrap installs one over
 * `parentPort`), so the same module serves in both, unchanged.
 *
 * Never a window. A page's `window` has a `postMessage` too, so a worker module imported by a page (for a
 * `schema` or a constant it also exports) would serve its simulation on the main thread, answering comlink
 * messages any frame or opener posts to the window. `refuseWindow` stops that at the call, naming the import.
 */
import type { Endpoint } from 'comlink';

/** The global slot an environment puts its endpoint in before it imports the worker module. */
export const WORKER_ENDPOINT = Symbol.for('steadyframe.workerEndpoint');

/** This worker's endpoint to the page: the one the environment installed, else the global scope. */
export function workerEndpoint(): Endpoint {
  const installed = (globalThis as { [WORKER_ENDPOINT]?: Endpoint })[WORKER_ENDPOINT];
  if (installed !== undefined) return installed;
  refuseWindow(globalThis);
  if (typeof (globalThis as { postMessage?: unknown }).postMessage !== 'function') {
    throw new Error(
      "steadyframe: exposeSimulation() found no page to serve: this is not a worker (no postMessage on the global scope); run the module in a Worker, or through steadyframe/node's createNodeRuntime",
    );
  }
  return globalThis as unknown as Endpoint;
}

/** Throws when `endpoint` is a window (a page's main thread, or a frame's), which a simulation never serves on. */
export function refuseWindow(endpoint: unknown): void {
  // a window is its own `window` (and `self`); a worker's global scope has no `window`, an endpoint object neither
  const candidate = endpoint as { window?: unknown } | null;
  if (candidate === null || typeof candidate !== 'object' || candidate.window !== candidate) return;
  throw new Error(
    'steadyframe: exposeSimulation() refuses to serve on a window (the main thread): a simulation runs in a Worker. ' +
      'The likely cause is a page that imports the worker module, for its schema or a constant: Vite then bundles the ' +
      'whole worker runtime into the page and runs exposeSimulation() there. Move what the page and the worker share ' +
      '(the schema, constants, command types) into a module of its own (e.g. shared.ts) and import that from both.',
  );
}
