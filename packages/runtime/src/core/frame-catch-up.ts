/**
 * Catching the worker up to a frame it was not told about: the pure decision. The page announces each frame's
 * time to the worker before it comes (NEXT_FRAME, the pacer's next render time), and the worker, once its
 * states reach that time, sleeps, holding there while the frame is overdue (fixed-step.ts, `stepTarget`,
 * FRAME_HOLD_MS) so that a callback running late still finds the states around its own time. But an
 * animation frame can come a refresh or more later than announced: after a main-thread stall, rAF gives the
 * next callback the timestamp of a vsync that passed during the stall. That frame finds states older than
 * it (a late frame: stale by up to the stall), although the worker, asleep, could have made them at once.
 *
 * ```text
 *  announced 1438.7 ─ vsync 1455.4 ─────── callback (ts 1455.4) runs at 1471.5
 *   worker: states to ~1440, asleep, holding ──▶ frame 1455.4 past them: late by 15 ms     (before)
 *   frame: rings with 1455.4, spins ≤ CATCH_UP_WAIT_MS ─▶ worker wakes, ticks to 1456.7, sleeps: COVERED ≥ 1455.4
 *                                                        ─▶ frame blends the pair around 1455.4   (now)
 * ```
 *
 * The main thread never blocks (Atomics.wait throws there), so the wait is a spin, bounded, on COVERED (the
 * newest state's time, which the worker writes when it goes back to sleep) and on PUBLISH_SEQ (then a look at
 * the front slot under the lock). Steady frames never wait: the worker sleeps with COVERED at or past the frame
 * it was told of, and the check is one sequence-locked read.
 */
import { FRAME_HOLD_MS } from './fixed-step.ts';

/**
 * Longest a frame spins for the worker, ms. A sleeping worker woken by `Atomics.notify` runs well within this
 * alone on a machine, but a loaded machine can take longer (ARCHITECTURE.md, "Measurements behind the code");
 * the ticks it then runs take the game's step times. A quarter of a 60 Hz refresh: a frame that waits that
 * long has still spent less than the stall before it.
 */
export const CATCH_UP_WAIT_MS = 4;

/**
 * Waits in a row that give up before frames stop waiting for CATCH_UP_BACKOFF_MS. One that gives up is a
 * worker thread the OS did not run in time (a loaded machine); several in a row are a worker that cannot keep
 * up (a step slower than its tick), which would otherwise cost every frame the whole wait.
 */
export const CATCH_UP_GIVE_UP = 3;

/**
 * Ms without waits after CATCH_UP_GIVE_UP of them in a row gave up. The first wait after such a spell is a probe:
 * if it gives up too, the next spell is twice as long, up to CATCH_UP_MAX_BACKOFF_MS; a wait that reaches the
 * worker ends it all. A worker that never keeps up then costs the page one wait every 8 s, not three a second
 * (which, at the few frames a second of a scene that overloads its worker, was most of the page's frame).
 */
export const CATCH_UP_BACKOFF_MS = 1000;
export const CATCH_UP_MAX_BACKOFF_MS = 8000;

/**
 * How far an animation frame's timestamp may lie past `performance.now()` read in its own callbacks, ms. WebKit
 * rounds rAF timestamps to whole milliseconds (to the nearest: up to half a ms ahead of the clock, measured up to
 * 0.4 ms) while its clock is finer; a frame that far "in the future" is the animation frame's own time, not a
 * time made up, and is treated as now: drawn at it, waited for (the worker's lead cap of two ticks reaches it).
 */
export const CLOCK_GRAIN_MS = 1;

/**
 * Whether a frame at `time` should make sure of the worker's states before it is drawn, given the clock `now`
 * and COVERED as read (`covered`: the newest state's time while the worker sleeps; -Infinity while it is
 * awake, NaN while it is being rewritten): when the worker does not say its states reach the frame, the frame
 * is not in the future (the worker's lead cap would refuse it; within CLOCK_GRAIN_MS of now is now), and it is
 * overdue by no more than `hold` (the worker holds its target on such a frame, so the pair it makes is the
 * frame's; past that it follows the wall clock instead, and a ring would only make the frame overtaken rather
 * than late). The caller then looks at the front slot, and rings and waits only if it falls short.
 */
export function needsCatchUp(time: number, now: number, covered: number, hold = FRAME_HOLD_MS): boolean {
  return !(covered >= time) && time <= now + CLOCK_GRAIN_MS && now - time <= hold;
}
