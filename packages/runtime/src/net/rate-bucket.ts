/**
 * A connection's allowance of something it sends (pings: net/publisher.ts and net/socket-host.ts): a token
 * bucket of `perSecond` that refills at `perSecond` a second, so a burst of that many is allowed at once and the
 * long-run rate is `perSecond`. Pure over the caller's times (ms); allocates nothing after it is made.
 */
export class RateBucket {
  #allowance: number;
  #refilledAt: number;

  constructor(
    readonly perSecond: number,
    now: number,
  ) {
    this.#allowance = perSecond;
    this.#refilledAt = now;
  }

  /** Takes one at `now` (ms); false when the allowance is spent (nothing taken: the caller refuses or closes). */
  take(now: number): boolean {
    this.#allowance = Math.min(this.perSecond, this.#allowance + (Math.max(0, now - this.#refilledAt) * this.perSecond) / 1000);
    this.#refilledAt = now;
    if (this.#allowance < 1) return false;
    this.#allowance--;
    return true;
  }
}
