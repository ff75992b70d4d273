/**
 * An endpoint that holds incoming messages until a promise settles. Rapier's compat build initialises
 * asynchronously (`await RAPIER.init()`), while `exposeSimulation` must listen from the worker's first turn:
 * the main thread's attach call may arrive before the WebAssembly is ready, and a module worker that awaits at
 * its top level before listening can miss it. Wrapping the worker's scope in this endpoint lets
 * `exposeSimulation` listen at once and see the held messages, in order, once Rapier is ready.
 */
import type { ExposeOptions } from 'steadyframe/worker';

/** comlink's Endpoint, as `exposeSimulation` takes it. */
export type Endpoint = NonNullable<ExposeOptions['endpoint']>;

type Listener = EventListenerOrEventListenerObject;

const deliver = (listener: Listener, event: Event): void => {
  if (typeof listener === 'function') listener(event);
  else listener.handleEvent(event);
};

/**
 * Wraps `endpoint` so that its message listeners get nothing until `ready` resolves, then everything held, in
 * order. If `ready` rejects, the error is thrown from a task of its own, so the worker's `error` event (and
 * `createRuntime`'s "failed before it attached") reports it.
 */
export function deferEndpoint(endpoint: Endpoint, ready: Promise<unknown>): Endpoint {
  let held: Array<() => void> | null = [];
  const wrapped = new Map<Listener, (event: Event) => void>();
  ready.then(
    () => {
      const queue = held!;
      held = null;
      for (const run of queue) run();
    },
    (error: unknown) => {
      setTimeout(() => {
        throw error;
      });
    },
  );
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => endpoint.postMessage(message, transfer),
    addEventListener(type: string, listener: Listener, options?: object) {
      const inner = (event: Event): void => {
        if (held !== null) held.push(() => deliver(listener, event));
        else deliver(listener, event);
      };
      wrapped.set(listener, inner);
      endpoint.addEventListener(type, inner, options);
    },
    removeEventListener(type: string, listener: Listener, options?: object) {
      const inner = wrapped.get(listener);
      if (inner === undefined) return;
      wrapped.delete(listener);
      endpoint.removeEventListener(type, inner, options);
    },
  };
}
