/**
 * The attach deadline (main/attach-deadline.ts): it counts the time the page was awake, so a page held past the
 * whole timeout (a blocked main thread) does not fail a worker whose answer waits in its queue. Real timers; a
 * held page is a clock that jumps between two looks.
 */
import { describe, expect, it } from 'vitest';
import { attachDeadline, describeHeld } from '../../src/main/attach-deadline.ts';

const expiry = (timeoutMs: number, now?: () => number) =>
  new Promise<number>((resolve) => {
    attachDeadline(timeoutMs, resolve, now);
  });

describe('attachDeadline', () => {
  it('expires once the timeout has passed on an awake page', async () => {
    const started = performance.now();
    const held = await expiry(60);
    // the time counted (waited, less any hold of this loaded test process) reached the timeout
    expect(performance.now() - started - held).toBeGreaterThanOrEqual(59);
    expect(describeHeld(0)).toBe('');
  });

  it('does not count a hold longer than the whole timeout, and says how long the page was held', async () => {
    // the page is held 20 s before the first look: one timer of 300 ms would have fired there
    let jump = 0;
    let reads = 0;
    const now = () => {
      if (++reads === 2) jump = 20_000;
      return performance.now() + jump;
    };
    const started = performance.now();
    const held = await expiry(300, now);
    // the awake time still ran on: of the hold, two looks' worth (2 × 300/8 ms) was counted
    expect(performance.now() - started).toBeGreaterThanOrEqual(299 - 75);
    expect(held).toBeGreaterThanOrEqual(20_000 - 75);
    expect(describeHeld(held)).toMatch(/^ \(not counting \d{5,} ms this page was held\)$/);
  });

  it('never expires once cancelled, nor with an infinite timeout', async () => {
    let expired = 0;
    const cancel = attachDeadline(20, () => expired++);
    cancel();
    attachDeadline(Number.POSITIVE_INFINITY, () => expired++);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(expired).toBe(0);
  });
});
