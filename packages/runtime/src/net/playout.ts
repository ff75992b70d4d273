/**
 * The playout delay: how far behind the server's present a client draws, so that the pair of snapshots around
 * the time it draws has nearly always arrived (the timing of a jitter buffer). Pure: the caller passes every
 * time in, in server ms (a snapshot's time as the server stamped it; its arrival and the present through the
 * client's ServerClock); no timers, no I/O.
 *
 * Each snapshot that arrives is a lateness sample, `arrival − time`: its one-way delay plus the clock's error
 * (the same in every sample and in the present the render time is taken from, so it cancels out). Drawing at
 * `render`, the client needs the snapshot after it: the one made at T from when the render time passes the one
 * before it, T − sendInterval (I). With render = now − delay it is on time when `lateness ≤ delay − I`:
 *
 * ```text
 *            T − I          T                          T + lateness
 *  ───────────┼─────────────┼────────────────────────────────┼───────────────────────▶ server time
 *             └ the render time reaches T − I when now = T − I + delay: T must have come by then
 *
 *  target = max(percentile(lateness over the window) + I + margin, I)
 * ```
 *
 * At the 95th percentile about 1 snapshot in 20 comes after it was needed: interpolation holds or extrapolates
 * for part of an interval, rarely for long, since its neighbour is rarely late too. Gaffer on Games ("Snapshot
 * Interpolation") sizes the buffer by hand at about three send intervals, so two snapshots in a row may be lost
 * at 2-5% loss; Mirror sizes it from the standard deviation of delivery times over about 2 s. A percentile
 * measures the tail itself, which is what lateness has (queues add delay, never take it away).
 *
 * Playback moves toward the target only by running a few percent fast or slow: the render time advances at
 * 1 ± PLAYOUT_MAX_RATE_CHANGE of the server time elapsed, and never goes back. A jump of the server clock is
 * reported (`clockJumped`, from ServerClock.lastJump) and goes into the delay: the clock's error is in every
 * lateness sample alike, so a corrected clock moves the samples, the target and the delay together and the
 * picture not at all. What is not reported is taken as time: server time that goes back holds the render time
 * still until it passes its highest again (`holds`); server time that leaps forward by more than
 * PLAYOUT_SKIP_MS between two calls (a hidden tab) puts the render time at `now − target` at once (`skips`)
 * rather than racing through the backlog. The target there is the one from before the gap: a page frozen with
 * its worker wakes to a socket full of snapshots seconds late, lateness of its own making. Those samples still
 * raise the target for a window, and the delay follows at 5%: by at most windowMs × maxRateChange (150 ms),
 * undone in the seconds after.
 */
import { checkNumber } from '../core/describe-value.ts';

export interface PlayoutOptions {
  /** Server ms between two snapshots the server sends (k ticks of its tick length). Required. */
  readonly sendInterval: number;
  /** Share of lateness samples the delay covers, in (0, 1]. Default PLAYOUT_PERCENTILE. */
  readonly percentile?: number;
  /** Server ms of arrivals the percentile is taken over. Default PLAYOUT_WINDOW_MS. */
  readonly windowMs?: number;
  /** Ms added to the target. Default PLAYOUT_MARGIN_MS. */
  readonly marginMs?: number;
  /** Most the playback rate differs from 1 while the delay moves. Default PLAYOUT_MAX_RATE_CHANGE. */
  readonly maxRateChange?: number;
  /** Ms of delay error per unit of rate change below the cap (the time constant). Default PLAYOUT_SETTLE_MS. */
  readonly settleMs?: number;
  /** Server ms between two calls past which the render time skips to the target. Default PLAYOUT_SKIP_MS. */
  readonly skipMs?: number;
}

export interface PlayoutStats {
  /** The delay playback moves toward, ms. */
  readonly target: number;
  /** The delay now: the highest server time seen minus the render time, ms (NaN before the first `renderTime`). */
  readonly delay: number;
  /** The percentile of lateness over the window, ms (NaN without samples). */
  readonly lateness: number;
  /** Jitter: the percentile of lateness minus its median, over the window, ms (NaN without samples). */
  readonly jitter: number;
  /** Lateness samples in the window. */
  readonly samples: number;
  /** Lateness samples taken, in all. */
  readonly sampled: number;
  /** Snapshots that arrived after the render time had passed `time − sendInterval` (lateness above delay − sendInterval). */
  readonly late: number;
  /** Snapshots refused: a time or arrival not finite (an unsynced clock gives NaN). */
  readonly rejected: number;
  /** Calls where the render time jumped to `now − target` after server time leapt forward. */
  readonly skips: number;
  /** Calls where server time stood at or below its highest, and the render time held still. */
  readonly holds: number;
  /** Clock jumps taken into the delay (`clockJumped`). */
  readonly shifts: number;
}

/**
 * Lateness the delay covers: 95%. At most about 5% of snapshots come after they were needed (fewer by the
 * margin: 2.4% on the tests' link), each costing part of an interval of holding or extrapolating. Covering 99%
 * puts the tail's worst few into every frame's delay: there, 37 ms more delay for 1.4 points fewer late.
 */
export const PLAYOUT_PERCENTILE = 0.95;

/**
 * Server ms of arrivals the percentile is over. Mirror averages delivery times over about 2 s; 3 s holds 60
 * samples at 20 snapshots a second, so the 95th percentile rests on three of them rather than on one, and a
 * lag spike stops raising the target 3 s after it ended.
 */
export const PLAYOUT_WINDOW_MS = 3000;

/**
 * Ms added to the target. The target moves with the samples in its window and the delay trails it (at most 5%
 * fast or slow, 1/e a second), so it is short of a rising target for a while; 10 ms covers most of that. On the
 * tests' link (100 ± 30 ms, 3% held back 60 ms) it takes the frames whose next snapshot had not come from 4.0%
 * to 2.4% for 10 ms more delay (20 ms: 1.9%).
 */
export const PLAYOUT_MARGIN_MS = 10;

/**
 * Most the playback rate differs from 1: 5%. Mirror catches up at 2% and slows down at 4% ("1% is too slow");
 * 5% absorbs a 100 ms change of the target in about 2 s. The server clock's slew (CLOCK_SLEW_RATE) adds at
 * most 0.5% to what the client's clock sees.
 */
export const PLAYOUT_MAX_RATE_CHANGE = 0.05;

/**
 * Time constant of the approach, ms: the rate differs from 1 by error / 1000 ms (capped), so 50 ms or more of
 * error runs at the cap and smaller errors fade smoothly (1/e a second) rather than in steps of 5%.
 */
export const PLAYOUT_SETTLE_MS = 1000;

/**
 * Server ms between two calls past which the render time skips: longer than a slow frame or a GC pause, a gap
 * the picture froze through anyway; catching up a 250 ms lag at 5% would take 5 s of fast playback.
 */
export const PLAYOUT_SKIP_MS = 250;

/** Lateness samples held at most: 3 s at 170 snapshots a second. Allocated once. */
const CAPACITY = 512;

/**
 * The playout: `addSnapshot` per snapshot that arrives (in any order), `renderTime(serverNow)` once per frame,
 * `clockJumped(by)` when the ServerClock jumps. Call `renderTime` first once a snapshot or two are in: the first
 * call places the render time at `serverNow − target`. A server restart whose time starts over is a new
 * session: `reset()`, the one way the render time goes back. Never throws on what the network brings; allocates
 * only at creation and in `stats()`.
 */
export class Playout {
  readonly #interval: number;
  readonly #percentile: number;
  readonly #windowMs: number;
  readonly #margin: number;
  readonly #maxRate: number;
  readonly #settle: number;
  readonly #skipMs: number;
  // the window: a ring of (arrival, lateness), oldest at #first, and its latenesses kept sorted (no sort, no allocation)
  readonly #arrival = new Float64Array(CAPACITY);
  readonly #lateness = new Float64Array(CAPACITY);
  readonly #sorted = new Float64Array(CAPACITY);
  #first = 0;
  #count = 0;
  #newest = Number.NEGATIVE_INFINITY;
  #target: number;
  /** The target at the last `renderTime`: where a skip lands. */
  #lastTarget = Number.NaN;
  #high = Number.NaN;
  #render = Number.NaN;
  #pHigh = Number.NaN;
  #p50 = Number.NaN;
  #sampled = 0;
  #late = 0;
  #rejected = 0;
  #skips = 0;
  #holds = 0;
  #shifts = 0;

  constructor(options: PlayoutOptions) {
    this.#interval = checkNumber('Playout sendInterval', options.sendInterval, Number.MIN_VALUE, { what: 'a finite number of ms above 0' });
    this.#percentile = checkNumber('Playout percentile', options.percentile ?? PLAYOUT_PERCENTILE, Number.MIN_VALUE, { max: 1, what: 'a number above 0, at most 1' });
    this.#windowMs = checkNumber('Playout windowMs', options.windowMs ?? PLAYOUT_WINDOW_MS, 0);
    this.#margin = checkNumber('Playout marginMs', options.marginMs ?? PLAYOUT_MARGIN_MS, 0);
    this.#maxRate = checkNumber('Playout maxRateChange', options.maxRateChange ?? PLAYOUT_MAX_RATE_CHANGE, 0, { max: 0.5 });
    this.#settle = checkNumber('Playout settleMs', options.settleMs ?? PLAYOUT_SETTLE_MS, Number.MIN_VALUE, { what: 'a finite number of ms above 0' });
    this.#skipMs = checkNumber('Playout skipMs', options.skipMs ?? PLAYOUT_SKIP_MS, 0, { max: this.#settle, what: `a number of ms from 0 to settleMs (${this.#settle})` });
    this.#target = this.#interval + this.#margin;
  }

  /** The delay playback moves toward, ms: sendInterval + margin until a sample says more. */
  get target(): number {
    return this.#target;
  }

  /**
   * Takes a snapshot made at server time `time` that arrived at server time `arrival` (the client's clock at
   * arrival through the ServerClock). Counts it late if the render time at its arrival (the last one carried on
   * at rate 1: `arrival − delay`) had passed `time − sendInterval`, where a frame needs it. Order does not
   * matter; a duplicate is one more sample of the same lateness. Returns false for a time or arrival that is
   * not finite (counted in `rejected`).
   */
  addSnapshot(time: number, arrival: number): boolean {
    if (!Number.isFinite(time) || !Number.isFinite(arrival)) {
      this.#rejected++;
      return false;
    }
    // the render time at the arrival: the last one carried on at rate 1 (arrival minus the delay)
    if (arrival - (this.#high - this.#render) > time - this.#interval) this.#late++;
    this.#sampled++;
    if (this.#count === CAPACITY) this.#dropOldest();
    const i = (this.#first + this.#count) % CAPACITY;
    const lateness = arrival - time;
    this.#arrival[i] = arrival;
    this.#lateness[i] = lateness;
    this.#insertSorted(lateness);
    this.#count++;
    this.#newest = Math.max(this.#newest, arrival);
    const oldest = this.#newest - this.#windowMs;
    while (this.#count > 1 && this.#arrival[this.#first]! < oldest) this.#dropOldest();
    this.#retarget();
    return true;
  }

  /**
   * The server time to draw at, for server time `serverNow`. Advances by the server time elapsed since the
   * highest `serverNow` yet, times a rate within [1 − maxRateChange, 1 + maxRateChange] that moves the delay
   * toward the target; holds still while `serverNow` is at or below that highest; skips to `serverNow −
   * target` (never back; the target as it stood at the call before) when `serverNow` passed it by more than
   * `skipMs`. A `serverNow` that is not finite (an unsynced clock) changes nothing and returns the render time
   * as it stands (NaN before the first call).
   */
  renderTime(serverNow: number): number {
    if (!Number.isFinite(serverNow)) return this.#render;
    if (this.#render !== this.#render) {
      this.#high = serverNow;
      this.#render = serverNow - this.#target;
      this.#lastTarget = this.#target;
      return this.#render;
    }
    const elapsed = serverNow - this.#high;
    if (!(elapsed > 0)) {
      this.#holds++;
      return this.#render;
    }
    if (elapsed > this.#skipMs) {
      // to the target as it stood before the gap: what came in the gap may be the gap's own lateness (the
      // snapshots a frozen page finds queued when it wakes), not the link's
      this.#skips++;
      this.#high = serverNow;
      this.#render = Math.max(this.#render, serverNow - this.#lastTarget);
      this.#lastTarget = this.#target;
      return this.#render;
    }
    this.#lastTarget = this.#target;
    // the error of the delay before this step: positive when behind the target (run fast), negative when ahead
    const error = this.#high - this.#render - this.#target;
    const most = this.#maxRate * elapsed;
    let change = (error * elapsed) / this.#settle;
    if (change > most) change = most;
    else if (change < -most) change = -most;
    if (Math.abs(change) > Math.abs(error)) change = error; // never past the target
    this.#high = serverNow;
    this.#render += elapsed + change;
    return this.#render;
  }

  /**
   * Server time as read just jumped by `by` ms (`ServerClock.lastJump`: its estimate was corrected, not time
   * passing). The jump goes into the delay, not the picture: the render time stays, and the highest server time
   * and every sample's arrival and lateness move by `by` (they were read with the clock before the jump), so the
   * target moves with the delay and the next frame advances by its own time alone. Without this call a forward
   * jump looks like a gap (a skip to the old target: by the jump too little delay, caught up at 5%) and a
   * backward one holds the picture still for its length.
   */
  clockJumped(by: number): void {
    if (!Number.isFinite(by) || by === 0) return;
    this.#shifts++;
    this.#high += by;
    this.#newest += by;
    this.#lastTarget += by;
    for (let n = 0; n < this.#count; n++) {
      const i = (this.#first + n) % CAPACITY;
      this.#arrival[i] = this.#arrival[i]! + by;
      this.#lateness[i] = this.#lateness[i]! + by;
      this.#sorted[n] = this.#sorted[n]! + by;
    }
    if (this.#count > 0) this.#retarget();
  }

  /** Forgets the render time and the samples (a new session: a server whose time started over). Counters stay. */
  reset(): void {
    this.#render = Number.NaN;
    this.#high = Number.NaN;
    this.#lastTarget = Number.NaN;
    this.#count = 0;
    this.#newest = Number.NEGATIVE_INFINITY;
    this.#pHigh = Number.NaN;
    this.#p50 = Number.NaN;
    this.#target = this.#interval + this.#margin;
  }

  /** The target, the delay and the counters as they stand. Allocates the record: for a stats panel. */
  /** The high percentile of lateness minus its median, ms (what `stats().jitter` says, allocating nothing). */
  get jitter(): number {
    return this.#pHigh - this.#p50;
  }

  stats(): PlayoutStats {
    return {
      target: this.#target,
      delay: this.#high - this.#render,
      lateness: this.#pHigh,
      jitter: this.#pHigh - this.#p50,
      samples: this.#count,
      sampled: this.#sampled,
      late: this.#late,
      rejected: this.#rejected,
      skips: this.#skips,
      holds: this.#holds,
      shifts: this.#shifts,
    };
  }

  /** The percentile and the median of the window (nearest rank; 1e-9 keeps 0.07 × 100 at rank 7), and the target from them. */
  #retarget(): void {
    const n = this.#count;
    this.#pHigh = this.#sorted[Math.min(n, Math.max(1, Math.ceil(this.#percentile * n - 1e-9))) - 1]!;
    this.#p50 = this.#sorted[Math.max(1, Math.ceil(0.5 * n)) - 1]!;
    this.#target = Math.max(this.#pHigh + this.#interval + this.#margin, this.#interval);
  }

  /** Lets go of the oldest sample, in the ring and in the sorted copy. */
  #dropOldest(): void {
    const value = this.#lateness[this.#first]!;
    const sorted = this.#sorted;
    const n = this.#count;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    sorted.copyWithin(lo, lo + 1, n);
    this.#first = (this.#first + 1) % CAPACITY;
    this.#count--;
  }

  /** Puts a new lateness into the sorted copy of the window (before #count grows). */
  #insertSorted(value: number): void {
    const sorted = this.#sorted;
    const n = this.#count;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! <= value) lo = mid + 1;
      else hi = mid;
    }
    sorted.copyWithin(lo + 1, lo, n);
    sorted[lo] = value;
  }
}
