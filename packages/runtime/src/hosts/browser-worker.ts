/**
 * The worker host of a browser worker, and of a Node `worker_threads` one alike (both have `performance`,
 * Atomics waits and MessageChannel): the real shared clock, `Atomics.waitAsync` / `Atomics.wait` / spin sleeps on
 * the doorbell, and one MessageChannel yield. The shared transport sleeps on it as it is; the message transport
 * swaps in timer sleeps; a manual clock replaces the clock, sleeps and timers.
 */
import type { SleepReport, WorkerHost } from '../contracts/host.ts';
import { createSharedClock } from '../core/clock.ts';
import { WARM_UP_MS } from '../core/fixed-step.ts';
import { createEventLoopYield } from './event-loop-yield.ts';
import { BLOCKED, SLEPT_ASYNC } from './sleep-report.ts';

/** How close to a due tick the default host stops sleeping with the event loop free and blocks instead, ms. */
export const BLOCK_MS = 4;

export function browserWorkerHost(): WorkerHost {
  /** The report of a spin, reused: the precise path allocates nothing. */
  const spun = { yielded: false, spunMs: 0 };
  const blockSync = (i32: Int32Array, index: number, value: number, ms: number, spinMs: number): SleepReport | null => {
    if (ms > spinMs + BLOCK_MS) return null;
    // close: block (a worker may; comlink calls wait at most BLOCK_MS), which wakes on time far more often,
    // then spin the last stretch in the same call, so nothing (not even a turn of the event loop) comes between
    // the precise wake and the tick it is for; a ring of the doorbell ends either stage at once. It ends
    // WARM_UP_MS early, once: the loop's next pass plans warm and spins the rest
    const until = performance.now() + (ms > 2 * WARM_UP_MS ? ms - WARM_UP_MS : ms);
    if (ms > spinMs && Atomics.wait(i32, index, value, ms - spinMs) !== 'timed-out') return BLOCKED;
    const spinFrom = performance.now();
    while (performance.now() < until && Atomics.load(i32, index) === value);
    spun.spunMs = performance.now() - spinFrom;
    return spun;
  };
  return {
    clock: createSharedClock,
    sleep(i32, index, value, ms, spinMs) {
      // Three stages toward a tick that falls due in `ms`: a timed Atomics.waitAsync wakes late by the most, a
      // blocking Atomics.wait by less, a spin on the clock hardly at all (ARCHITECTURE.md, "The loop", has the
      // figures measured here)
      const near = blockSync(i32, index, value, ms, spinMs);
      if (near !== null) return Promise.resolve({ ...near });
      if (typeof Atomics.waitAsync === 'function') {
        // far: sleep with the event loop free, waking early enough for the stage above
        const result = Atomics.waitAsync(i32, index, value, ms - spinMs - BLOCK_MS);
        return result.async ? result.value.then(() => SLEPT_ASYNC) : Promise.resolve(BLOCKED);
      }
      // no waitAsync (older engines): a timer, so the loop still yields; frames may wake it up to 4 ms late
      return new Promise((resolve) => setTimeout(() => resolve(SLEPT_ASYNC), Math.max(0, Math.min(ms - spinMs - BLOCK_MS, 4))));
    },
    blockSync,
    yieldToEvents: createEventLoopYield(),
    every(ms, fn) {
      const handle = setInterval(fn, ms);
      return () => clearInterval(handle);
    },
  };
}
