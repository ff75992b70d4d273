/**
 * Where a worker module is reached from the page: its global scope in a browser worker, or the endpoint the
 * environment installed before it loaded the module (`steadyframe/node`'s bootstrap installs one over
 * `parentPort`), so the same module serves in both, unchanged.
 */
import type { Endpoint } from 'comlink';

/** The global slot an environment puts its endpoint in before it imports the worker module. */
export const WORKER_ENDPOINT = Symbol.for('steadyframe.workerEndpoint');

/** This worker's endpoint to the page: the one the environment installed, else the global scope. */
export function workerEndpoint(): Endpoint {
  const installed = (globalThis as { [WORKER_ENDPOINT]?: Endpoint })[WORKER_ENDPOINT];
  if (installed !== undefined) return installed;
  if (typeof (globalThis as { postMessage?: unknown }).postMessage !== 'function') {
    throw new Error(
      "steadyframe: exposeSimulation() found no page to serve: this is not a worker (no postMessage on the global scope); run the module in a Worker, or through steadyframe/node's createNodeRuntime",
    );
  }
  return globalThis as unknown as Endpoint;
}
