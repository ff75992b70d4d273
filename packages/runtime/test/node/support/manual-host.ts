/**
 * A worker host whose clock the test moves by hand, for tests that drive the simulation loop itself (a
 * `Simulation` attached to a buffer of the test's own): every sleep or yield lasts until the test calls `wake`.
 */
import type { WorkerHost } from 'steadyframe/worker';

/** A host whose clock the test moves by hand; every sleep or yield lasts until the test calls `wake`. */
export function manualHost(start = 1000) {
  let now = start;
  let wake: (() => void) | null = null;
  const sleeps: number[] = [];
  /** The heartbeat callbacks; the test calls them to pass HEARTBEAT_MS. */
  const beats: Array<() => void> = [];
  /** A pending yield to the event loop: `wake` lets it through by itself, as a real event loop would. */
  let yielded: (() => void) | null = null;
  let yields = 0;
  const pause = (record: number) => {
    sleeps.push(record);
    return new Promise<void>((resolve) => (wake = resolve));
  };
  const host: WorkerHost = {
    clock: () => () => now,
    sleep: (_i32, _index, _value, ms) => pause(ms).then(() => ({ yielded: true, spunMs: 0 })),
    yieldToEvents: () => {
      yields++;
      return new Promise<void>((resolve) => (yielded = resolve));
    },
    every: (_ms, fn) => {
      beats.push(fn);
      return () => beats.splice(beats.indexOf(fn), 1);
    },
  };
  return {
    host,
    sleeps,
    beats,
    get yields() {
      return yields;
    },
    get now() {
      return now;
    },
    set now(t: number) {
      now = t;
    },
    /** Ends the current sleep and lets the loop run (through any yields) until it sleeps again. */
    async wake() {
      const resume = wake;
      wake = null;
      resume?.();
      for (let turn = 0; turn < 1000; turn++) {
        for (let i = 0; i < 20; i++) await Promise.resolve();
        const pass = yielded;
        if (pass === null) break;
        yielded = null;
        pass();
      }
    },
  };
}
