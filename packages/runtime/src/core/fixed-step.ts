/**
 * The fixed-step core: time in, steps and alpha out. No timers, no globals; the worker's loop and the tests
 * both drive it with their own clocks.
 *
 * The simulation runs ahead of the wall clock, just far enough that the state for the next frame exists when
 * the frame is drawn (source note 003). Render interval 16 ms, tick 5 ms, a render costs 3 ms, a tick 1 ms:
 *
 * ```text
 *  ms    0  1  2  3  4  5  6  7 ...   16 17 18 19 20 21 22 ...   32
 *        R0 ------->U5 U10 U15 U20 wait R16 ---->U25 U30 U35 wait R32
 *                   |  |   |   |        |
 *                   ticks until the state passes the next frame (16): 20 >= 16, stop and sleep
 *                                       render at 16 between 15 and 20: alpha = (16 - 15) / 5 = 0.2
 * ```
 *
 * Each tick stands for a point on the shared clock. Tick `k` is at `anchorTime + (k - anchorTick) *
 * tickLength`; pausing, resuming, a new time scale or a dropped backlog move the anchor, never the tick count,
 * so no error accumulates from adding tick lengths.
 */

/** Where the simulation stands on the shared clock. The worker owns one and mutates it through these functions. */
export interface Timeline {
  /** The current (newest) tick. */
  tick: number;
  /** A tick whose shared-clock time is known exactly... */
  anchorTick: number;
  /** ...and that time, in shared-clock ms. */
  anchorTime: number;
  /** Shared-clock ms between two ticks: the simulated step divided by the time scale. */
  tickLength: number;
}

export function createTimeline(tick: number, time: number, tickLength: number): Timeline {
  return { tick, anchorTick: tick, anchorTime: time, tickLength };
}

/** Shared-clock time that tick `tick` (default: the current one) stands for. */
export function timeOfTick(timeline: Timeline, tick: number = timeline.tick): number {
  return timeline.anchorTime + (tick - timeline.anchorTick) * timeline.tickLength;
}

/** Pins the current tick to `time` and keeps later ticks `tickLength` apart from there. */
export function reanchor(timeline: Timeline, time: number, tickLength: number = timeline.tickLength): void {
  timeline.anchorTick = timeline.tick;
  timeline.anchorTime = time;
  timeline.tickLength = tickLength;
}

/**
 * The time the simulation should reach before it sleeps: the next frame the main thread expects, or now if
 * there is none (or it is in the past), but never more than `maxLead` ms ahead of now. Reaching further would
 * decide ticks before the input that should shape them has happened (note 003's closing warning).
 */
export function stepTarget(now: number, nextFrame: number, maxLead: number): number {
  return nextFrame > now ? Math.min(nextFrame, now + maxLead) : now;
}

export interface StepPlan {
  /** Ticks to run now. */
  steps: number;
  /**
   * True when even after `steps` ticks the simulation would still be behind the wall clock: the catch-up cap
   * was hit. The caller drops the backlog (see `dropBacklog`) and reports it.
   */
  overloaded: boolean;
}

/**
 * The accumulator: how many ticks bring the current state to or past `target`, at most `maxSteps`.
 * `result` is filled in and returned, so the hot loop allocates nothing.
 */
export function planSteps(timeline: Timeline, now: number, target: number, maxSteps: number, result: StepPlan): StepPlan {
  const time = timeOfTick(timeline);
  const due = target > time ? Math.ceil((target - time) / timeline.tickLength) : 0;
  result.steps = Math.min(due, maxSteps);
  result.overloaded = due > maxSteps && timeOfTick(timeline, timeline.tick + result.steps) < now;
  return result;
}

/**
 * After an overload, lets go of the time the simulation could not catch up: the current tick is re-pinned to
 * `now`, so the game runs slower than the wall clock for a moment instead of bursting. Returns the ms dropped.
 */
export function dropBacklog(timeline: Timeline, now: number): number {
  const behind = now - timeOfTick(timeline);
  if (behind <= 0) return 0;
  reanchor(timeline, now);
  return behind;
}

/**
 * When to look again if nothing else wakes the simulation: the earliest time at which `stepTarget` can pass
 * the current tick without a new frame being published.
 */
export function nextWakeTime(timeline: Timeline, nextFrame: number, maxLead: number): number {
  const time = timeOfTick(timeline);
  // a frame beyond the current tick is only out of reach because of the lead cap, which now + maxLead outgrows
  return nextFrame > time ? time - maxLead : time;
}

/** How far a frame at `time` lies between the previous state and the current one, clamped to [0, 1]. */
export function alphaAt(time: number, previousTime: number, currentTime: number): number {
  const span = currentTime - previousTime;
  if (!(span > 0)) return 1;
  const alpha = (time - previousTime) / span;
  return alpha <= 0 ? 0 : alpha >= 1 ? 1 : alpha;
}

/** Default cap on ticks run in one go: enough to absorb a 250 ms stall, and at least 4. */
export function defaultMaxCatchUpSteps(tickRate: number): number {
  return Math.max(4, Math.ceil(tickRate / 4));
}
