/**
 * The page host of a browser page: `performance` for the clock, `requestAnimationFrame` and the runtime's own
 * frame hooks (animation-frames.ts) for frames, the document's visibility, and a DOM `Worker` the app made.
 */
import type { PageHost, VisibilityHook, WorkerLink } from '../contracts/host.ts';
import type { Endpoint } from 'comlink';
import { createSharedClock, currentTimeOrigin } from '../core/clock.ts';
import { describeValue } from '../core/describe-value.ts';
import { createAnimationFrames } from './animation-frames.ts';

/** Why SharedArrayBuffer is missing on a page that is not cross-origin isolated, and what to do. */
export const ISOLATION_REQUIRED =
  'steadyframe: SharedArrayBuffer needs a cross-origin isolated page. Serve it with the headers ' +
  '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" ' +
  '(or "credentialless"); crossOriginIsolated is false here.';

/** Why SharedArrayBuffer is missing on a page that is isolated (an engine that keeps it off, as WebKitGTK does by default). */
export const SHARED_MEMORY_OFF =
  'steadyframe: this page is cross-origin isolated, but the browser has no SharedArrayBuffer (WebKitGTK, for one, ' +
  'turns it on only with JSC_useSharedArrayBuffer=1; Safari has it on isolated pages)';

/** Null where this realm can share memory with its workers, else why not. */
export function browserSharedMemory(): string | null {
  if (globalThis.crossOriginIsolated === false) return ISOLATION_REQUIRED;
  if (typeof SharedArrayBuffer === 'undefined') return globalThis.crossOriginIsolated === true ? SHARED_MEMORY_OFF : ISOLATION_REQUIRED;
  return null;
}

/** The page's `visibilitychange`, or null where there is no document. */
export function documentVisibility(): VisibilityHook | null {
  if (typeof document === 'undefined') return null;
  return {
    get hidden() {
      return document.visibilityState === 'hidden';
    },
    subscribe(listener) {
      const onChange = () => listener(document.visibilityState === 'hidden');
      document.addEventListener('visibilitychange', onChange);
      return () => document.removeEventListener('visibilitychange', onChange);
    },
  };
}

/** A DOM Worker as the runtime talks to it: comlink on it, its `error` events (reported, not left to the console). */
export function domWorkerLink(worker: unknown): WorkerLink {
  const w = worker as Worker | null;
  if (typeof w?.postMessage !== 'function' || typeof w.addEventListener !== 'function') {
    throw new TypeError(
      `steadyframe: options.worker must be a Worker, e.g. new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' }); got ${describeValue(worker)}`,
    );
  }
  return {
    endpoint: w as unknown as Endpoint,
    onError(listener) {
      const onError = (event: ErrorEvent): void => {
        // the runtime reports it (a rejected set-up, a fault event): not a second time as uncaught
        event.preventDefault();
        listener(event.message ?? '');
      };
      w.addEventListener('error', onError);
      return () => w.removeEventListener('error', onError);
    },
    terminate: () => w.terminate(),
  };
}

/** A bounded spin on this thread (a page may not block): the catch-up wait. */
export function spinUntil(reached: () => boolean, until: number, now: () => number): boolean {
  while (!reached()) if (now() >= until) return false;
  return true;
}

/** The host `createRuntime` runs on. Starts its frame hooks at once (`frames.close()` stops them). */
export function browserPageHost(): PageHost {
  return {
    kind: 'browser',
    timeOrigin: currentTimeOrigin,
    clock: createSharedClock,
    frames: typeof requestAnimationFrame === 'function' ? createAnimationFrames() : null,
    visibility: documentVisibility,
    sharedMemory: browserSharedMemory,
    startWorker: domWorkerLink,
    every(ms, fn) {
      const handle = setInterval(fn, ms);
      return () => clearInterval(handle);
    },
    waitFor: spinUntil,
  };
}
