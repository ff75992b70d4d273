/**
 * The frame pacer: the adaptive render interval (ARCHITECTURE.md, Source notes: "The adaptive render interval"),
 * on top of requestAnimationFrame. Pure: the runtime feeds it each rAF timestamp and each rendered frame's
 * measured cost; it answers whether to render on this callback and when the next rendered frame is due. It never
 * calls rAF and never reads a clock.
 *
 * Frames are presented on vsyncs, so the render interval is always a whole multiple `n` of the display's refresh
 * period: regular presentation means every n-th vsync, never "16 ms, then 33, then 16". A 60 Hz display,
 * R = rendered callback, . = skipped vsync, the number under it = the frame's cost in ms (an example):
 *
 * ```text
 *  vsync ms  0     16.7  33.3  50    66.7  83.3  100   ...   t-33  t-17  t     t+17  t+33
 *  rAF       R     R     R     .     R     .     R     ...   R     .     R     R     R
 *  cost      6     6     18          9           9           9           9     9     9
 *  n         1     1     1->2        2           2           2           2->1  1     1
 *                        |           |                                   |     |
 *                        |           next render = 33.3 + 2 * 16.7       |     next render = t + 1 * 16.7
 *                        |                                               |
 *                        overrun: 18 > 16.7, so                          spare: every frame since 66.7, at least
 *                        n = ceil(18 * 1.2 / 16.7) = 2                   250 ms of wall time (t - 66.7 >= 250),
 *                                                                        fit in fewer periods with 20% to spare:
 *                                                                        n = ceil(max cost 9 * 1.2 / 16.7) = 1
 * ```
 *
 * Growing is at once (the source rule's `frameTime * 1.2`); shrinking waits for a run of evidence measured in
 * wall time, never in rendered frames: at n = 4 frames come four times as slowly, so a cooldown counted in them
 * let one slow first frame hold the rate down for seconds (ARCHITECTURE.md, "Measurements behind the code",
 * has the case). After a run of `spareMs` (250 ms) in which every frame fits a smaller interval, n drops
 * straight to the one the run's costliest frame needs, so one outlier (a first frame, one GC pause) costs a
 * quarter second of reduced rate, whatever n it grew to. The hysteresis: a frame grows n when it exceeds the
 * interval (0% margin) but counts as spare only with 20% to spare, so costs alternating around a boundary never
 * shrink it; and a grow soon after a shrink (within four runs' time) shows the shrink was premature and doubles
 * the run a shrink needs, up to 16 times (4 s).
 *
 * A callback renders when its timestamp is at or after the next render time less half a refresh period, so a
 * vsync that arrives a little early (jitter) still renders and one that arrives a period early does not. The
 * refresh period is the median of recent rAF gaps (refresh-estimate.ts). The runtime drives it so:
 *
 * ```ts
 * function frame(timestamp: number): void {
 *   if (pacer.onAnimationFrame(timestamp)) {
 *     const start = clock();
 *     draw(timestamp);
 *     pacer.reportFrameCost(clock() - start);
 *   }
 *   publishNextFrame(pacer.nextRenderTime); // on skipped vsyncs too: a cost report or a new display moves it
 *   requestAnimationFrame(frame);
 * }
 * ```
 */
import { checkOptions, checkWhole, FRAME_PACER_DEFAULTS, type FramePacerOptions } from './frame-pacer-options.ts';
import type { PacerChange, PacerChangeReason } from '../contracts/frames.ts';
import { createRefreshEstimate, MAX_PERIOD, MIN_PERIOD } from './refresh-estimate.ts';

/** Kept for the importers of this path (index.ts, frame-loop.ts, runtime.ts, the render worker). */
export { FRAME_PACER_DEFAULTS, type FramePacerOptions } from './frame-pacer-options.ts';
export type { PacerChange, PacerChangeReason } from '../contracts/frames.ts';

export interface FramePacer {
  /**
   * Feeds one requestAnimationFrame timestamp; returns whether to render on this callback. Never throws or
   * allocates (a change record aside); a non-finite timestamp is answered true and otherwise ignored.
   */
  onAnimationFrame(timestamp: number): boolean;
  /**
   * The measured cost of the frame just rendered, ms: the render and the work around it. Call it after a
   * callback that returned true; other calls, and non-finite or negative costs, adapt nothing. May change the
   * interval, and then `nextRenderTime` (publish it again). `endedAfterMs`, if known: how long after the
   * callback's timestamp its task ended (the cost plus whatever the callback ran before the frame, a stall
   * included). A task that ended a period or more after its timestamp held the next callback back, so the gap
   * after it is not learned as a refresh (only the frame's own cost is seen otherwise).
   */
  reportFrameCost(ms: number, endedAfterMs?: number): void;
  readonly adaptive: boolean;
  /** Estimated display refresh period, ms. */
  readonly refreshPeriod: number;
  /** `n`: the render interval in refresh periods; always 1 when not adaptive. */
  readonly multiple: number;
  /** `multiple * refreshPeriod`, ms. */
  readonly interval: number;
  /** The rAF timestamp at which the next frame is expected to render; NaN before the first callback. */
  readonly nextRenderTime: number;
  readonly renderedFrames: number;
  /** Callbacks answered false. */
  readonly skippedVsyncs: number;
  /** Reported costs above the interval at the time (grown or not: at `maxMultiple` it cannot grow). */
  readonly overruns: number;
  readonly grows: number;
  readonly shrinks: number;
  readonly refreshChanges: number;
  /** How long frames must fit a smaller interval before a shrink, ms: `spareMs`, more while backing off. */
  readonly cooldown: number;
  readonly lastChange: PacerChange | null;
}

/** A gap counts only if the callback before it was busy for less than this share of a period: a longer one
 *  can have held the next rAF back, and the page's own slowness must not read as a slower display. */
const LEARN_SHARE = 0.75;
/** A callback within this share of a period before the next render time renders: jitter neither skips nor doubles. */
const RENDER_TOLERANCE = 0.5;
/** The source rule's `frameTime * 1.2`: an interval sized for the cost plus 20%, so the next frame has a chance. */
const GROW_MARGIN = 1.2;
/** Shrinking needs the same 20% headroom in the smaller interval, while growing fires at 0%: the band between
 *  the two is where neither happens, which is what keeps `n` from flapping. */
const SHRINK_MARGIN = 1.2;
/** A spare run also needs this many rendered frames, so a hidden tab's gap is no evidence on its own. */
const MIN_SPARE_FRAMES = 3;
/** A grow within this many spare runs after a shrink shows the shrink was premature (backs off). */
const PREMATURE_RUNS = 4;
/** Most the spare run can grow by backing off: 16 x 250 ms is 4 s. */
const MAX_BACKOFF = 16;
/** Absorbs float error in `cost * 1.2 / period` so an exact multiple does not round up one too many. */
const EPSILON = 1e-9;

/** The smallest n whose interval holds `cost` plus the grow margin, within [1, max]. */
function multipleFor(cost: number, period: number, max: number): number {
  const n = Math.ceil((cost * GROW_MARGIN) / period - EPSILON);
  return n < 1 ? 1 : n > max ? max : n;
}

export function createFramePacer(options: FramePacerOptions = {}): FramePacer {
  checkOptions(options);
  const adaptive = options.adaptive ?? FRAME_PACER_DEFAULTS.adaptive;
  const maxMultiple = checkWhole(
    'maxMultiple',
    options.maxMultiple ?? FRAME_PACER_DEFAULTS.maxMultiple,
    1,
    'the longest interval, in n',
  );
  const spareMs = options.spareMs ?? FRAME_PACER_DEFAULTS.spareMs;
  const onChange = options.onChange;

  const refresh = createRefreshEstimate(options.initialPeriod ?? FRAME_PACER_DEFAULTS.initialPeriod);
  let period = refresh.period;
  let multiple = 1;
  let interval = period;
  let lastTimestamp = Number.NaN;
  let lastRender = Number.NaN;
  let next = Number.NaN;
  let busy = 0; // cost reported in the current callback, if any
  let ended = 0; // how long after its timestamp the current callback's task ended, if reported
  let costPending = false; // the current callback rendered and its cost is not in yet
  let lastCost = 0;
  // the spare run: rendered frames in a row that fit a smaller interval with SHRINK_MARGIN to spare
  let runFrames = 0;
  let runStart = 0; // the rAF timestamp of its first frame
  let runMax = 0; // its costliest frame, ms
  let cooldown = spareMs; // how long the run must last: spareMs, doubled while shrinks keep failing
  let lastShrink = Number.NaN; // the rAF timestamp of the last shrink
  let pending: PacerChange | null = null;

  const counts = { renderedFrames: 0, skippedVsyncs: 0, overruns: 0, grows: 0, shrinks: 0, refreshChanges: 0 };
  let lastChange: PacerChange | null = null;

  function change(toPeriod: number, toMultiple: number, reason: PacerChangeReason, at: number, from = interval): void {
    const fromMultiple = multiple;
    period = toPeriod;
    multiple = toMultiple;
    interval = period * multiple;
    // the next render is one (new) interval after the last one: it moves with the interval, whatever n is
    if (!Number.isNaN(lastRender)) next = lastRender + interval;
    lastChange = pending = { from, to: interval, fromMultiple, toMultiple, refreshPeriod: period, reason, at };
  }

  function notify(): void {
    if (pending === null) return;
    const record = pending;
    pending = null;
    onChange?.(record);
  }

  /** Takes in one usable rAF gap: follows the estimate, and re-sizes n on a new display rate. */
  function learn(gap: number, at: number): void {
    if (refresh.observe(gap)) {
      // size n for the last measured cost on the new display, as if that cost had just overrun
      runFrames = 0;
      counts.refreshChanges++;
      const n = adaptive ? multipleFor(lastCost, refresh.period, maxMultiple) : 1;
      change(refresh.period, n, 'refresh-change', at, refresh.previous * multiple);
    } else if (refresh.period !== period) {
      // the same display, measured a little better: not a change to report
      period = refresh.period;
      interval = period * multiple;
      if (!Number.isNaN(lastRender)) next = lastRender + interval;
    }
  }

  return {
    onAnimationFrame(timestamp) {
      if (!Number.isFinite(timestamp)) return true;
      const previous = lastTimestamp;
      const held = busy;
      const heldUntil = ended;
      lastTimestamp = timestamp;
      busy = 0;
      ended = 0;
      costPending = false;
      if (!Number.isNaN(previous)) {
        const gap = timestamp - previous;
        if (gap >= MIN_PERIOD && gap <= MAX_PERIOD && held < period * LEARN_SHARE && heldUntil < period) learn(gap, timestamp);
      }
      // the first frame, a clock that went backwards (re-anchor), or the vsync at or after the scheduled one
      const render =
        !adaptive ||
        Number.isNaN(lastRender) ||
        timestamp < lastRender ||
        timestamp >= next - period * RENDER_TOLERANCE;
      if (render) {
        lastRender = timestamp;
        next = timestamp + interval;
        costPending = true;
        counts.renderedFrames++;
      } else {
        counts.skippedVsyncs++;
      }
      notify();
      return render;
    },

    reportFrameCost(ms, endedAfterMs = 0) {
      if (!(ms >= 0 && ms < Number.POSITIVE_INFINITY)) return;
      busy = ms > busy ? ms : busy;
      if (endedAfterMs > ended) ended = endedAfterMs; // NaN (no timestamp) is no evidence
      if (!costPending) return;
      costPending = false;
      lastCost = ms;
      const over = ms > interval;
      if (over) counts.overruns++;
      if (!adaptive) return;
      if (over) {
        runFrames = 0;
        const n = multipleFor(ms, period, maxMultiple);
        if (n > multiple) {
          // undoing a recent shrink: wait longer before the next one; a shrink that held: back to the base
          const premature = lastRender - lastShrink <= cooldown * PREMATURE_RUNS; // false while lastShrink is NaN
          cooldown = premature ? Math.min(cooldown * 2, spareMs * MAX_BACKOFF) : spareMs;
          counts.grows++;
          change(period, n, 'overrun', lastRender);
        }
      } else if (multiple > 1 && ms * SHRINK_MARGIN <= (multiple - 1) * period) {
        if (runFrames === 0) {
          runStart = lastRender;
          runMax = 0;
        }
        runFrames++;
        if (ms > runMax) runMax = ms;
        if (runFrames >= MIN_SPARE_FRAMES && lastRender - runStart >= cooldown) {
          // the run's costliest frame fits n - 1 with the margin, so this is at most n - 1
          const n = Math.max(1, Math.ceil((runMax * SHRINK_MARGIN) / period - EPSILON));
          runFrames = 0;
          lastShrink = lastRender;
          counts.shrinks++;
          change(period, n, 'spare', lastRender);
        }
      } else {
        runFrames = 0;
      }
      notify();
    },

    adaptive,
    get refreshPeriod() {
      return period;
    },
    get multiple() {
      return multiple;
    },
    get interval() {
      return interval;
    },
    get nextRenderTime() {
      return next;
    },
    get renderedFrames() {
      return counts.renderedFrames;
    },
    get skippedVsyncs() {
      return counts.skippedVsyncs;
    },
    get overruns() {
      return counts.overruns;
    },
    get grows() {
      return counts.grows;
    },
    get shrinks() {
      return counts.shrinks;
    },
    get refreshChanges() {
      return counts.refreshChanges;
    },
    get cooldown() {
      return cooldown;
    },
    get lastChange() {
      return lastChange;
    },
  };
}
