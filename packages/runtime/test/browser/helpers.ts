/** Shared by the browser tests. Real threads, real clock: these helpers wait, they never assert on time. */

/** A fresh module Worker running one of the fixture simulations; `variant` reaches it as `self.name` ('stress:front-write'). */
export function fixtureWorker(name: 'motion' | 'stress' | 'stress-varying' | 'events-stress' | 'events' | 'faulty' | 'silent' | 'published', variant?: string): Worker {
  const workerName = variant === undefined ? name : `${name}:${variant}`;
  // each written as `new Worker(new URL(...), { type: 'module' })`: the form Vite (and Vitest's browser mode)
  // know a worker by; only a worker they know gets its dynamic imports served (the runtime loads record and replay,
  // the message transport's worker half and the manual clock's on demand)
  switch (name) {
    case 'motion':
      return new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'published':
      return new Worker(new URL('./fixtures/published.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'stress':
      return new Worker(new URL('./fixtures/stress.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'stress-varying':
      return new Worker(new URL('./fixtures/stress-varying.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'events-stress':
      return new Worker(new URL('./fixtures/events-stress.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'events':
      return new Worker(new URL('./fixtures/events.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'faulty':
      return new Worker(new URL('./fixtures/faulty.worker.ts', import.meta.url), { type: 'module', name: workerName });
    case 'silent':
      return new Worker(new URL('./fixtures/silent.worker.ts', import.meta.url), { type: 'module', name: workerName });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Holds this thread for `ms` (a main-thread stall: layout, a GC, a slow handler, a long task). */
export const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // held
  }
};

/** Lets the page's other tasks run without the 4 ms clamp of nested timers (for tests that hammer in a loop). */
export const yieldToPage = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });

/**
 * Polls until `predicate` holds; fails with `what` after `timeoutMs` (a hang guard, not a timing check: long
 * enough that a loaded machine, which only makes things slower, never reaches it).
 */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * The time the runtime draws a frame at inside an animation frame its hooks enclose: the animation frame's `ts`,
 * or the frame before's time `before` if that is later (never earlier than the frame before: a frame drawn at
 * now outside the hooks, in a callback that ran late, can be past the next animation frame's timestamp).
 */
export const enclosedFrameTime = (ts: number, before: number): number => (before > ts ? before : ts);

/**
 * The distinct ticks a clean swap-stress run must see for its check to mean something: `floor` (a tenth of the
 * acquires, at most 1,000), or one in 25 of the ticks the worker `published` while the reader watched, where it
 * published fewer than that makes (a CI run once failed by counting the ticks published before the reader began:
 * 2,838 in all, of which the reader watched a fraction). WebKitGTK's worker, on a CI machine running three engines at once, makes a few thousand ticks where the
 * others make tens of thousands, and the reader cannot see ticks that were never made.
 */
export const distinctTicksNeeded = (floor: number, published: number): number => Math.min(floor, published / 25);

/**
 * Acquires a stress reader makes between yields to the page. A CI run (the browser tests beside the e2e tests'
 * Chromium) once saw 824 distinct ticks in 500,000 acquires at every 4,096 while its worker published 112,489: the
 * worker ran little while the reader held its core. A yield four times as often gives it the core four times as
 * often; the acquires between yields still contend with its flips.
 */
export const YIELD_EVERY_ACQUIRES = 1024;

/** The warnings steadyframe wrote through a `console.warn` spy (`vi.spyOn(console, 'warn')`). */
export const steadyframeWarnings = (warn: { mock: { calls: unknown[][] } }): string[] =>
  warn.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith('steadyframe:'));
