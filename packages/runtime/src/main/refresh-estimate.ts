/**
 * The refresh-period estimator under the frame pacer (frame-pacer.ts): from the rAF gaps the pacer judges usable,
 * the display's refresh period (their median over a window) and whether the display's rate has changed. Pure:
 * it is fed gaps and reads no clock.
 */

/** Gaps outside this range (ms) are not refreshes: a hidden tab, a debugger or GC pause. */
export const MIN_PERIOD = 2;
export const MAX_PERIOD = 250;
/** Gaps in the window. 31 at 60 Hz is half a second; a new rate moves the median once 16 of its gaps are in. */
const WINDOW = 31;
/** Gaps before the median replaces `initialPeriod`; the median of 5 shrugs off 2 outliers. */
const WARM_UP = 5;
/**
 * How far the median must move from the settled rate to be a new display: RETUNE of the rate, or NOISE standard
 * errors of the median (from the settled window's spread) if that is more, so timestamp jitter never reads as a
 * new display however large it is. The closest common rates (144 and 165 Hz) are 13% apart; with vsync-aligned
 * timestamps (sub-millisecond jitter) the 5% floor decides. At +-3 ms of jitter on 60 Hz the bar is about 20%:
 * 60 -> 120 Hz is still reported, and a change smaller than the bar is followed, just not reported.
 */
const RETUNE = 0.05;
const NOISE = 6;

/**
 * The refresh period: the median of the last WINDOW usable rAF gaps. It follows the median silently (a better
 * measurement is not news) and reports a new display rate, judged against the rate the window last settled on.
 * The display moves from 60 to 120 Hz at `|`:
 *
 * ```text
 *  gaps     16.6 16.8 16.7 16.5 ... 16.7 | 8.4  8.2  8.3 ... 8.4 (16 of them) 8.3  8.3 ...
 *  period   guess, then the median: 16.7 | 16.6 16.6 16.5 ... the median falls into the 8.x gaps: a new rate
 *  window   31 gaps in: settled at 16.7  | the 60 Hz gaps are dropped, the median of the rest (8.3) reported;
 *                                          it is followed again, silently, until the window settles anew
 * ```
 *
 * The first window is judged against `initialPeriod` when it settles (a 144 Hz display is reported then); the
 * window after a change settles without being judged.
 */
export interface RefreshEstimate {
  /** The current estimate, ms. */
  readonly period: number;
  /** The settled rate before the last reported change, ms. */
  readonly previous: number;
  /** Adds one gap; true when it reveals a new display rate. */
  observe(gap: number): boolean;
}

export function createRefreshEstimate(initial: number): RefreshEstimate {
  // the window in arrival order (a ring), and the same gaps sorted for the median
  const ring = new Float64Array(WINDOW);
  const sorted = new Float64Array(WINDOW);
  let count = 0;
  let head = 0; // the next slot of the ring
  let period = initial;
  let settledRate = initial; // the rate a change is judged against; the guess until the first window settles
  let bar = 0; // how far the median must move from settledRate: see RETUNE, NOISE
  let fresh = 0; // gaps since the start or the last change; the window settles when it reaches WINDOW
  let settled = false;
  let judgeGuess = true; // the first window is judged against the guess when it settles
  let previous = initial;

  function insertSorted(gap: number): void {
    let i = count;
    while (i > 0 && sorted[i - 1]! > gap) {
      sorted[i] = sorted[i - 1]!;
      i--;
    }
    sorted[i] = gap;
    count++;
  }

  function push(gap: number): void {
    if (count === WINDOW) {
      const old = ring[head]!;
      let i = 0;
      while (i < count - 1 && sorted[i] !== old) i++;
      for (; i < count - 1; i++) sorted[i] = sorted[i + 1]!;
      count--;
    }
    ring[head] = gap;
    head = head + 1 === WINDOW ? 0 : head + 1;
    insertSorted(gap);
  }

  /** Keeps, in arrival order, only the gaps nearer `rate` than `old`: the new display's. */
  function keepNearer(rate: number, old: number): void {
    const start = (head - count + WINDOW) % WINDOW;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const gap = ring[(start + i) % WINDOW]!;
      if (Math.abs(gap - rate) < Math.abs(gap - old)) sorted[kept++] = gap; // sorted is scratch until rebuilt
    }
    for (let i = 0; i < kept; i++) ring[i] = sorted[i]!;
    head = kept % WINDOW;
    count = 0;
    for (let i = 0; i < kept; i++) insertSorted(ring[i]!);
  }

  return {
    get period() {
      return period;
    },
    get previous() {
      return previous;
    },
    observe(gap) {
      push(gap);
      if (fresh < WINDOW) fresh++;
      if (count < WARM_UP) return false;
      const mid = count >> 1;
      period = sorted[mid]!;
      if (fresh < WINDOW) return false; // converging
      if (!settled) {
        settled = true;
        // settling: what the window holds now is the rate, and its spread says how far noise can move the median
        const spread = (sorted[(count * 3) >> 2]! - sorted[count >> 2]!) / 1.35; // interquartile range as a sd
        bar = Math.max(period * RETUNE, (NOISE * 1.25 * spread) / Math.sqrt(count));
        previous = settledRate;
        settledRate = period;
        const judged = judgeGuess;
        judgeGuess = false;
        return judged && Math.abs(period - previous) > bar;
      }
      if (Math.abs(period - settledRate) <= bar) return false;
      // a new rate. The window still holds the old rate's gaps at one end; the new rate is the median of the
      // other end, the half the median has just moved into. Drop the old gaps and converge on the rest.
      const side = period < settledRate ? sorted[mid >> 1]! : sorted[mid + ((count - mid) >> 1)]!;
      keepNearer(side, settledRate);
      period = sorted[count >> 1]!;
      previous = settledRate;
      settledRate = period;
      fresh = count;
      settled = false;
      return true;
    },
  };
}
