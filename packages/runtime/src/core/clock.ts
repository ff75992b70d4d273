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
 *
 * A realm's time origin is read once. WebKit computes `performance.timeOrigin` anew on each read (its monotonic
 * origin plus wall time less monotonic time, rounded to 20 µs), so two reads in one page differed by up to
 * 0.08 ms here: a page whose clock subtracted a second read from the anchor ran that much behind its own
 * `performance.now()` and its animation frames' timestamps (a frame drawn in a task after an animation frame came
 * out before the frame's own time). One reading makes the page's offset exactly 0.
 */

/** A clock: shared-clock milliseconds. Injected everywhere, so tests drive time by hand. */
export type Clock = () => number;

let realmOrigin = Number.NaN;

/** This realm's time origin, as first read (see above): the anchor a new buffer gets. */
export function currentTimeOrigin(): number {
  if (Number.isNaN(realmOrigin)) realmOrigin = performance.timeOrigin;
  return realmOrigin;
}

/** The shared clock of this realm for a buffer anchored at `anchor`. */
export function createSharedClock(anchor: number): Clock {
  const offset = currentTimeOrigin() - anchor;
  return () => offset + performance.now();
}
