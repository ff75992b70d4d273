/**
 * The attach deadline (main/attach-deadline.ts): it counts the time the page was awake, so a page held past the
 * whole timeout (a blocked main thread) does not fail a worker whose answer waits in its queue. Real timers; a
 * held page is a clock that jumps between two looks.
 */
import { describe, expect, it } from 'vitest';
import { attachDeadline, describeWait, type AttachWait } from '../../src/main/attach-deadline.ts';

const expiry = (timeoutMs: number, now?: () => number) =>
  new Promise<AttachWait>((resolve) => {
    attachDeadline(timeoutMs, resolve, now);
  });

describe('attachDeadline', () => {
  it('expires once the timeout has passed on an awake page, and says nothing of holds', async () => {
    const started = performance.now();
    const wait = await expiry(60);
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
    // the time counted (waited, less any hold of this loaded test process) reached the timeout
    expect(wait.waitedMs - wait.heldMs).toBeGreaterThanOrEqual(60);
    expect(describeWait({ waitedMs: 60, heldMs: 0 })).toBe('');
  });

  it('does not count a hold longer than the whole timeout, and says how long the page was held', async () => {
    // the page is held 20 s at the first look: one timer of 300 ms would have fired there
    let jump = 0;
    let looks = 0;
    const now = () => {
      if (++looks === 2) jump = 20_000;
      return performance.now() + jump;
    };
    const started = performance.now();
    const wait = await expiry(300, now);
    // the awake time still ran on: of the hold, two looks' worth (2 × 300/8 ms) was counted
    expect(performance.now() - started).toBeGreaterThanOrEqual(299 - 75);
    expect(wait.waitedMs).toBeGreaterThanOrEqual(20_000);
    expect(wait.heldMs).toBeGreaterThanOrEqual(20_000 - 75);
    expect(describeWait(wait)).toMatch(/^ \(waited \d{5,} ms, \d{5,} of them with this page held, not counted\)$/);
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
