/**
 * A simulation worker in Node: a `worker_threads` Worker that runs a bootstrap, which installs the worker's
 * endpoint (over `parentPort`, in the shape comlink expects) where `steadyframe/worker` looks for it, then imports
 * the app's module: the same module a browser worker runs, unchanged. The module must be one Node can import
 * (JavaScript, or TypeScript under a loader the app names in `execArgv`).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Endpoint } from 'comlink';
import type { WorkerLink } from '../contracts/host.ts';
import { describeValue } from '../core/describe-value.ts';

/**
 * The bootstrap, run as the worker's script (CommonJS, `eval`): the endpoint first, so the module can call
 * `exposeSimulation` at its top level, then the module; an error importing it reaches the page as the
 * worker's `error`.
 */
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
const wrapped = new Map();
globalThis[Symbol.for('steadyframe.workerEndpoint')] = {
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
  addEventListener(type, listener) {
    const handler = (data) => (typeof listener === 'function' ? listener({ data }) : listener.handleEvent({ data }));
    wrapped.set(listener, handler);
    parentPort.on(type, handler);
  },
  removeEventListener(type, listener) {
    const handler = wrapped.get(listener);
    if (handler === undefined) return;
    wrapped.delete(listener);
    parentPort.off(type, handler);
  },
};
import(workerData.module).catch((error) => process.nextTick(() => { throw error; }));
`;

/** A module URL from what the app passed: a URL, a file: URL string, or a path (relative to the working directory). */
export function moduleUrl(module: unknown): string {
  if (module instanceof URL) return module.href;
  if (typeof module === 'string' && module !== '') {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(module)) return module;
    return pathToFileURL(isAbsolute(module) ? module : resolve(module)).href;
  }
  throw new TypeError(
    `steadyframe: options.worker must be the simulation's module, as a URL or a path (e.g. new URL('./sim.worker.js', import.meta.url)); got ${describeValue(module)}`,
  );
}

/** comlink's endpoint over a `worker_threads` Worker (its messages come as the data itself, not as events). */
function workerEndpoint(worker: Worker): Endpoint {
  const wrapped = new Map<unknown, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => worker.postMessage(message, transfer as never),
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const handler = (data: unknown): void => {
        const event = { data } as MessageEvent;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, handler);
      worker.on(type, handler);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const handler = wrapped.get(listener);
      if (handler === undefined) return;
      wrapped.delete(listener);
      worker.off(type, handler);
    },
  };
}

/** Starts the app's simulation module in a `worker_threads` Worker. */
export function nodeWorkerLink(module: unknown, options: WorkerOptions = {}): WorkerLink {
  const href = moduleUrl(module);
  const worker = new Worker(BOOTSTRAP, { ...options, eval: true, workerData: { module: href } });
  let terminated = false;
  return {
    endpoint: workerEndpoint(worker),
    onError(listener) {
      const onError = (error: Error): void => listener(error?.message ?? String(error));
      const onExit = (code: number): void => {
        if (terminated) return;
        // nothing listens on a worker whose module never called exposeSimulation: Node ends the thread
        listener(
          code === 0
            ? 'its module ran to its end without serving a simulation (the thread exited: does it call exposeSimulation() at its top level?)'
            : `the thread exited with code ${code}`,
        );
      };
      worker.on('error', onError);
      worker.on('exit', onExit);
      return () => {
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
    },
    terminate() {
      terminated = true;
      void worker.terminate();
    },
  };
}
