/**
 * The shared clock reads its realm's time origin once: WebKit computes `performance.timeOrigin` anew on every read
 * (seen here: five values 0.02 ms apart, 0.08 ms in all, within three seconds), and a page whose clock took a second read ran
 * behind its own `performance.now()` and its animation frames' timestamps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSharedClock, currentTimeOrigin } from '../../src/core/clock.ts';

describe('the shared clock', () => {
  afterEach(() => vi.restoreAllMocks());

  it("on the realm that anchored the buffer it is that realm's performance.now(), whatever later reads of timeOrigin say", () => {
    const origin = currentTimeOrigin();
    // from here on every read of performance.timeOrigin answers 0.02 ms earlier than the one before, as WebKit's can
    let drift = 0;
    vi.spyOn(performance, 'timeOrigin', 'get').mockImplementation(() => origin - (drift += 0.02));
    const clock = createSharedClock(currentTimeOrigin());
    for (let i = 0; i < 100; i++) {
      const before = performance.now();
      const at = clock();
      const after = performance.now();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
    expect(currentTimeOrigin()).toBe(origin);
  });

  it("another realm's clock is its own origin less the anchor", () => {
    const origin = currentTimeOrigin();
    const clock = createSharedClock(origin - 250);
    const before = performance.now();
    const at = clock();
    expect(at - 250).toBeGreaterThanOrEqual(before);
    expect(at - 250).toBeLessThanOrEqual(performance.now());
  });
});
