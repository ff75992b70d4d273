/**
 * The fixed-step core: time in, steps and alpha out. No timers, no globals; the worker's loop and the tests
 * both drive it with their own clocks.
 *
 * The simulation runs ahead of the wall clock, just far enough that the state for the next frame exists when
 * the frame is drawn (ARCHITECTURE.md, Source notes: "The worked timeline"). Render interval 16 ms, tick 5 ms,
 * a render costs 3 ms, a tick 1 ms:
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
  return frameExpected(now, nextFrame, hold) ? nextFrame : now;
}

/** Whether a frame is expected at `nextFrame`: ahead of `now`, or overdue by no more than `hold` ms (see `stepTarget`). */
export function frameExpected(now: number, nextFrame: number, hold = 0): boolean {
  return nextFrame > now || now - nextFrame <= hold;
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
 * would decide ticks before the input that should shape them (ARCHITECTURE.md, Source notes: "Simulating ahead
 * and input").
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

/*
 * The loop's decision after each pass. One pass of the worker's loop plans, runs its ticks, then chooses what
 * comes next; the choice is here, a pure function of numbers, so a table test covers every branch:
 *
 * ```text
 *   plan ─▶ ticks (at most BURST_MS of them) ─▶ decide ─┬─ REPLAN      plan again at once (clock on the due instant)
 *                                                        ├─ YIELD       a turn of the event loop (comlink, heartbeat)
 *                                                        ├─ TICK_EARLY  run the tick due within WARM_UP_MS now
 *                                                        └─ SLEEP       wait on the doorbell, with its last `spin` ms spun
 * ```
 */

/** What the loop does after a pass. */
export const LOOP_ACTION = { REPLAN: 0, YIELD: 1, TICK_EARLY: 2, SLEEP: 3 } as const;
export type LoopAction = (typeof LOOP_ACTION)[keyof typeof LOOP_ACTION];

/** The loop gives its event loop a turn at least this often, ms, however busy or precise its waits. */
export const YIELD_EVERY_MS = 4;
/**
 * Most ms of ticks one pass runs back to back (the first tick always runs): past it the loop yields and plans
 * again, so a slow step's catch-up burst cannot starve comlink calls and timers. A burst cut short this way
 * still counts toward `maxCatchUpSteps` (see `LoopBurst`).
 */
export const BURST_MS = YIELD_EVERY_MS;
/** Most times in a row the loop plans again at once, without sleeping or yielding, on a clock at the due instant. */
export const MAX_REPLANS = 100;
/**
 * How early a precise sleep ends, ms: the loop plans again (no tick is due yet) and spins the rest in a second,
 * short sleep. After a long sleep the thread's code and data are cold and a first pass through the planning is
 * slow (this margin is sized to cover it); the second pass runs warm, so the tick starts just after it is due
 * (ARCHITECTURE.md, "Measurements behind the code", has both figures).
 */
export const WARM_UP_MS = 0.05;
/** Just past an instant, ms: a tick planned for the moment the clock passes it. */
export const TICK_EPSILON_MS = 0.001;

/** The spin before a timed wake, ms: `spinMs` if the game set it, else 6% of a tick (at most 1 ms); never over half a tick. */
export function loopSpin(spinMs: number | undefined, tickLength: number): number {
  return Math.min(spinMs ?? Math.min(1, 0.06 * tickLength), 0.5 * tickLength);
}

/**
 * Ticks run toward one `maxCatchUpSteps` cap, across passes that `BURST_MS` cut short. The worker keeps one.
 */
export interface LoopBurst {
  /** Ticks already run in this burst by passes cut short. */
  ran: number;
}

/** The cap for the next pass's plan: what is left of `maxCatchUpSteps` in the current burst (at least 1). */
export function burstBudget(burst: LoopBurst, maxCatchUpSteps: number): number {
  return Math.max(1, maxCatchUpSteps - burst.ran);
}

/**
 * After a pass ran `ran` of `plan.steps` ticks under cap `budget`: whether more may be due at once (the pass
 * was cut short, or hit its cap), and whether the plan's overload is to be settled now (only once the whole
 * burst ran: a cut burst goes on after a yield). Updates `burst`.
 */
export function endOfPass(burst: LoopBurst, plan: StepPlan, ran: number, budget: number): { busy: boolean; settle: boolean } {
  const cut = ran < plan.steps;
  if (cut) burst.ran += ran;
  else burst.ran = 0;
  PASS.busy = cut || plan.steps === budget;
  PASS.settle = !cut && plan.overloaded;
  return PASS;
}
const PASS = { busy: false, settle: false };

/** Where the loop stands after a pass: the inputs of `decideLoop`. */
export interface LoopPass {
  /** Ms from now until the planned wake (0 or less: due now). */
  wait: number;
  /** More ticks may be due at once (see `endOfPass`). */
  busy: boolean;
  /** Ticks this pass ran. */
  steps: number;
  /** Passes in a row that planned again at once. */
  replans: number;
  /** Ms since the event loop last had a turn (a yield or an asynchronous wait). */
  sinceYield: number;
  /** Ms of the wait that may be spun (`loopSpin`). */
  spin: number;
  /** The host can block synchronously (`SimulationHost.blockSync`). */
  canBlock: boolean;
}

/**
 * What the loop does next:
 * - REPLAN: woken on the very instant the newest state stands for, when no tick is due yet: the next one is due
 *   a clock step later (performance.now() moves in 5 µs steps), so plan again at once rather than give the
 *   event loop a turn first (a turn costs several clock steps: ARCHITECTURE.md, "Measurements behind the
 *   code"); at most MAX_REPLANS in a row. A clock still on that instant after them stands still (a manual clock
 *   between two moves): the loop sleeps until it moves or a frame rings (a real host's sleep of no length
 *   returns at once), unless the event loop is owed a turn.
 * - YIELD: a turn of the event loop for comlink calls and timers: when more ticks may be due or one is due this
 *   very moment (a zero-length wait would only spin through microtasks), and once YIELD_EVERY_MS have passed
 *   since the last turn, deferred while a tick falls due within the spin (then right after it, not between the
 *   precise wake and its tick), but never past twice that.
 * - TICK_EARLY: a tick falls due, on time, within the warm-up (the precise sleep ended that early): run it now,
 *   with its code warm, spinning inside it to the due instant right before the step.
 * - SLEEP: wait for the doorbell or the wake time.
 * `ticksOnTime` says whether the loop, planning at the wake (`wakeAt`), would run a tick on time: it is asked
 * only on the warm-up path (see `ticksOnTimeAt`).
 */
export function decideLoop(pass: LoopPass, ticksOnTime: () => boolean): LoopAction {
  const { wait, spin, sinceYield } = pass;
  if (wait <= 0 && !pass.busy && pass.steps === 0) {
    if (pass.replans < MAX_REPLANS) return LOOP_ACTION.REPLAN;
    if (sinceYield <= YIELD_EVERY_MS) return LOOP_ACTION.SLEEP;
  }
  if (wait <= 0 || pass.busy || (sinceYield > YIELD_EVERY_MS && (wait > spin || sinceYield > 2 * YIELD_EVERY_MS))) return LOOP_ACTION.YIELD;
  if (wait <= WARM_UP_MS && wait <= spin && pass.canBlock && pass.steps === 0 && ticksOnTime()) return LOOP_ACTION.TICK_EARLY;
  return LOOP_ACTION.SLEEP;
}

/**
 * Whether the loop, planning at `when` with the frame expected at `nextFrame`, would run a tick then, on time:
 * not more than a tick behind the clock (then the backlog policy has its say first, on the normal path).
 * Plans into `probe`.
 */
export function ticksOnTimeAt(timeline: Timeline, when: number, nextFrame: number, maxLead: number, probe: StepPlan): boolean {
  if (when - timeOfTick(timeline) > timeline.tickLength) return false;
  return planSteps(timeline, when, stepTarget(when, nextFrame, FRAME_HOLD_MS), 1, maxLead, probe).steps > 0;
}
