/**
 * The time a frame is drawn at, whatever timestamp the game passes to `runtime.frame()` / `runtime.pace()`: a
 * pure rule over what the page host knows (ARCHITECTURE.md, "The frame clock").
 *
 * Inside an animation frame's callbacks the host knows the frame's time for sure (its own frame hooks). That is
 * the time the pacer announced to the worker for this refresh, so the worker simulated just past it; a time read
 * later in the callback (`performance.now()` after a stall before it) falls past those states, and a frame drawn
 * at it would be stale. So the first frame of each animation frame is drawn at that frame's time when the game
 * passes none, or one at or after it (less CLOCK_GRAIN_MS: WebKit rounds rAF timestamps to whole ms, so a
 * `performance.now()` read in the callback can be a fraction of a ms before them) and not in the future:
 *
 * ```text
 *  animation frame begins (T)      callback: stall ...... frame(performance.now() = T + 30)
 *      worker simulated to just past T ──────────────────▶ drawn at T: the states around T are there
 * ```
 *
 * Anywhere else (a timer, a message handler, a second frame in the same animation frame, a host without
 * animation frames) the timestamp as given, or now when there is none. And never earlier than the frame before:
 * a game that draws more than once between animation frames, or a clock coarser than its frames, cannot send
 * the picture back in time.
 */
import { CLOCK_GRAIN_MS } from '../core/frame-catch-up.ts';

/**
 * `timestamp`: the game's (NaN: none). `animation`: the time of the animation frame running now whose first
 * frame this is, or null (outside one, or a frame of it was already drawn). `previous`: the last frame's time
 * (NaN before the first).
 */
export function frameTimeFor(timestamp: number, animation: number | null, now: number, previous: number): number {
  const none = Number.isNaN(timestamp);
  let time = none ? now : timestamp;
  // a timestamp read in this animation frame: at or after its time, which an engine that rounds rAF timestamps
  // (WebKit: to whole ms) may have put up to CLOCK_GRAIN_MS past the clock
  if (animation !== null && (none || (timestamp >= animation - CLOCK_GRAIN_MS && timestamp <= now))) time = animation;
  // never backwards (with no frame before, `previous` is NaN and the comparison is false)
  return time < previous ? previous : time;
}
