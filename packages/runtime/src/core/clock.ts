/**
 * One clock for both threads.
 *
 * `performance.now()` counts from each realm's own time origin, so a worker's and a page's readings differ by
 * the gap between their origins. `performance.timeOrigin + performance.now()` is on one timeline in every
 * realm of the page. The shared clock is that sum minus a common anchor (the creating page's time origin,
 * stored once in the header), which keeps the numbers small: on the main thread the shared clock equals
 * `performance.now()` and a `requestAnimationFrame` timestamp is already a shared-clock time.
 *
 * All times in steadyframe are shared-clock milliseconds.
 */

/** A clock: shared-clock milliseconds. Injected everywhere, so tests drive time by hand. */
export type Clock = () => number;

/** The anchor a new buffer gets: this realm's time origin. */
export function currentTimeOrigin(): number {
  return performance.timeOrigin;
}

/** The shared clock of this realm for a buffer anchored at `anchor`. */
export function createSharedClock(anchor: number): Clock {
  const offset = performance.timeOrigin - anchor;
  return () => offset + performance.now();
}
