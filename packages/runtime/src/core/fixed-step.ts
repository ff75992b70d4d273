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
 * The time the simulation wants its newest state to reach before it sleeps: the next frame the main thread
 * expects; or, when that frame is overdue by more than `hold` ms (no frames are coming: none published yet, a
 * hidden page, a game that stopped drawing), now.
 *
 * Within `hold` of an overdue frame the target stays on that frame rather than following the wall clock: its
 * rAF callback is running late, but it will draw at its own timestamp, so the states around that time must
 * still be in the front slot when it reads it. Running on would publish past them (an "overtaken" frame:
 * alpha clamps to 0 and the picture jumps).
 */
export function stepTarget(now: number, nextFrame: number, hold = 0): number {
  return nextFrame > now || now - nextFrame <= hold ? nextFrame : now;
}

/** How long the simulation waits for an overdue frame before it follows the wall clock again, ms. */
export const FRAME_HOLD_MS = 50;

export interface StepPlan {
  /** Ticks to run now. */
  steps: number;
  /**
   * True when the catch-up cap stopped the plan while the simulation is still behind the wall clock. The
   * caller settles the backlog by its policy (see `settleBacklogAfter`) and reports it.
   */
  overloaded: boolean;
}

/**
 * The accumulator: how many ticks bring the newest state to or just past `target`, at most `maxSteps`, and
 * never so many that the newest state would be more than `maxLead` ms ahead of `now`. Running further ahead
 * would decide ticks before the input that should shape them (note 003's closing warning).
 * `result` is filled in and returned, so the hot loop allocates nothing.
 */
export function planSteps(
  timeline: Timeline,
  now: number,
  target: number,
  maxSteps: number,
  maxLead: number,
  result: StepPlan,
): StepPlan {
  const time = timeOfTick(timeline);
  const length = timeline.tickLength;
  const due = target > time ? Math.ceil((target - time) / length) : 0;
  const allowed = Math.max(0, Math.floor((now + maxLead - time) / length));
  result.steps = Math.min(due, allowed, maxSteps);
  result.overloaded = result.steps === maxSteps && due > maxSteps && timeOfTick(timeline, timeline.tick + result.steps) < now;
  return result;
}

/**
 * Lets go of time the simulation is behind the wall clock, keeping at most `keep` ms of it: the current tick
 * is re-pinned to `now - keep`, so the game loses that time instead of bursting through it. Returns the ms
 * dropped.
 */
export function dropBacklog(timeline: Timeline, now: number, keep = 0): number {
  const behind = now - timeOfTick(timeline);
  if (behind <= keep) return 0;
  reanchor(timeline, now - keep);
  return behind - keep;
}

/**
 * What happens to time the simulation falls behind by, after a stall (a long GC, a busy main thread, a
 * throttled tab) or under a step too slow for its tick rate:
 *
 * | policy     | after a stall                                              | under steady overload              |
 * |------------|------------------------------------------------------------|------------------------------------|
 * | `catch-up` | runs extra ticks, `maxCatchUpSteps` per wake, until caught | keeps `maxBacklog` ms, drops more  |
 * |            | up; backlog beyond `maxBacklog` ms is dropped              |                                    |
 * | `slow`     | one wake's worth of extra ticks, then drops the rest       | the game runs in slow motion       |
 * | `drop`     | drops all of it at once: no extra ticks at all             | the game runs in slow motion       |
 *
 * Dropped time is never simulated: the game's clock loses it, as if paused. Every drop is counted.
 */
export type BacklogPolicy = 'catch-up' | 'slow' | 'drop';
export const BACKLOG_POLICIES: readonly BacklogPolicy[] = ['catch-up', 'slow', 'drop'];

/** Before planning: under `drop`, a backlog of more than one tick is let go at once. Returns the ms dropped. */
export function settleBacklogBefore(policy: BacklogPolicy, timeline: Timeline, now: number): number {
  if (policy !== 'drop' || now - timeOfTick(timeline) <= timeline.tickLength) return 0;
  return dropBacklog(timeline, now);
}

/** After the capped steps of an overloaded plan: what to keep of the remaining backlog. Returns the ms dropped. */
export function settleBacklogAfter(policy: BacklogPolicy, timeline: Timeline, now: number, maxBacklog: number): number {
  return dropBacklog(timeline, now, policy === 'catch-up' ? maxBacklog : 0);
}

/**
 * When to look again if nothing else (a new frame, a control call) wakes the simulation: when the next tick is
 * both due (`target` past the newest state, which the wall clock makes true once it passes it) and allowed by
 * the lead cap (`now + maxLead` reaches the next tick's time). While holding for an overdue frame (`target`
 * behind `now`), not before the hold runs out at `target + hold`.
 */
export function nextWakeTime(timeline: Timeline, target: number, maxLead: number, now = Number.NEGATIVE_INFINITY, hold = 0): number {
  const time = timeOfTick(timeline);
  const allowedAt = time + timeline.tickLength - maxLead;
  const wake = target > time ? allowedAt : Math.max(time, allowedAt);
  return target < now ? Math.max(wake, target + hold) : wake;
}

/** How far a frame at `time` lies between the previous state and the current one, clamped to [0, 1]. */
export function alphaAt(time: number, previousTime: number, currentTime: number): number {
  const span = currentTime - previousTime;
  if (!(span > 0)) return 1;
  const alpha = (time - previousTime) / span;
  return alpha <= 0 ? 0 : alpha >= 1 ? 1 : alpha;
}

/** Default cap on ticks run in one go: a quarter second of wall-clock time (a long GC, a busy frame), at least 4. */
export function defaultMaxCatchUpSteps(tickLength: number): number {
  return Math.max(4, Math.ceil(250 / tickLength));
}
