/**
 * The page host in Node: the real clock (`performance`), or a manual one; no animation frames (the app makes its
 * frames: a server loop calls `runtime.frame()`), none with a manual clock but the ones it runs; no visibility;
 * the simulation in a `worker_threads` Worker over the shared transport (Node shares memory without isolation).
 */
import type { WorkerOptions } from 'node:worker_threads';
import type { PageHost } from '../contracts/host.ts';
import { createSharedClock, currentTimeOrigin } from '../core/clock.ts';
import { spinUntil } from '../hosts/browser-page.ts';
import type { ManualClock } from '../hosts/manual-clock/page.ts';
import { nodeWorkerLink } from './worker-link.ts';

export function nodePageHost(clock: ManualClock | null, workerOptions: WorkerOptions = {}): PageHost {
  const startWorker = (module: unknown) => nodeWorkerLink(module, workerOptions);
  const sharedMemory = () => (typeof SharedArrayBuffer === 'function' ? null : 'steadyframe: this Node has no SharedArrayBuffer');
  if (clock !== null) {
    return {
      kind: 'manual',
      // the manual clock is the shared clock itself: anchored at 0
      timeOrigin: () => 0,
      clock: (anchor) => () => clock.now() - anchor,
      frames: clock.frames,
      visibility: () => null,
      sharedMemory,
      startWorker,
      every: (ms, fn) => clock.every(ms, fn),
      // time stands still while a frame waits: let the worker settle instead of spinning
      waitFor: (reached) => reached() || (clock.settleSync(), reached()),
    };
  }
  return {
    kind: 'node',
    timeOrigin: currentTimeOrigin,
    clock: createSharedClock,
    frames: null,
    visibility: () => null,
    sharedMemory,
    startWorker,
    every(ms, fn) {
      const handle = setInterval(fn, ms);
      // the runtime's own watch does not keep a process alive; its worker does, until dispose
      handle.unref();
      return () => clearInterval(handle);
    },
    waitFor: spinUntil,
  };
}
