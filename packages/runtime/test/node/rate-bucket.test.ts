/**
 * The allowance of pings a connection gets (src/net/rate-bucket.ts): a burst of `perSecond` at once, then
 * `perSecond` a second, never more saved up than the burst; times are the caller's, so no clock is involved.
 */
import { expect, it } from 'vitest';
import { RateBucket } from '../../src/net/rate-bucket.ts';

/** How many of `tries` takes at each time succeed. */
function taken(bucket: RateBucket, times: readonly number[]): number {
  return times.filter((t) => bucket.take(t)).length;
}

it.each([
  // [per second, times of the takes (ms), how many are allowed]
  [10, Array.from({ length: 30 }, () => 0), 10], // a burst: the allowance, no more
  [10, Array.from({ length: 30 }, (_, i) => i * 100), 30], // ten a second, spread: every one
  [10, Array.from({ length: 30 }, (_, i) => i * 50), 10 + 14], // twenty a second: the burst, then ten a second
  [10, [...Array.from({ length: 10 }, () => 0), ...Array.from({ length: 30 }, () => 60_000)], 20], // a minute idle saves up one burst, not 600
  [2, [0, 0, 0, 499, 500, 1000], 4], // half a second earns one
  [10, [1000, 999, 998], 3], // a clock that goes back earns nothing, takes nothing away
])('at %i a second, %j: %i taken', (perSecond, times, expected) => {
  expect(taken(new RateBucket(perSecond, 0), times)).toBe(expected);
});
