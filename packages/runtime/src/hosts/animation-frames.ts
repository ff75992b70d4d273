/**
 * Animation frames on a browser page, and the signal of which one is running: two frame hooks of the runtime's
 * own (ARCHITECTURE.md, "The frame clock"), never `document.timeline` (Chromium moves that in timer tasks too,
 * on an estimated grid that trails now; it is read only to tell, inside an animation frame, whether that frame's
 * hooks already ran).
 *
 * ```text
 *                  frame N's rAF callbacks, in the order they were registered
 *  [ start hook: current = T_N ] [ the game's loop ... frame() ] [ end hook: current = null ]
 *    re-registers first thing:     re-registers itself             re-registers itself, after the loop:
 *    stays first                                                   stays after it
 *
 *  a frame() with current() null (a loop the hooks do not enclose yet) ──▶ a microtask after that callback
 *     moves the end hook after the loop's next registration; a marker task after the frame moves it again,
 *     after every callback registered in the frame
 * ```
 *
 * Callbacks run in the order they were registered. The start hook re-registers itself as its first act, so
 * once it runs before a game's loop it stays before it. The end hook re-registers itself too, after the loop has
 * (a loop re-registers in its callback), so it stays after it. A loop that started after the hooks (registered
 * from a task) runs after the end hook at first: its frame finds `current()` null, the frame loop says so
 * (`missed`), and the end hook is registered again after that loop, which is enclosed from its next frame on.
 * Twice: in a microtask, which runs as soon as the loop's callback returns (its next frame already requested),
 * and in a marker task after the frame, which also passes callbacks other callbacks registered later in it. The
 * microtask is what makes the next frame enclosed: WebKit, on a loaded machine, ran the next animation frame
 * before the marker task (seen in CI: the loop's second frame unenclosed). The microtask moves the end hook only
 * when this animation frame's end hook has run: `document.timeline` reads this frame's time, that is the start
 * hook's (Chromium, Firefox); or, where the timeline reads now instead (WebKit), less than half the last frame
 * interval has passed since the start hook's time (the next frame's callbacks come about an interval after it).
 * In a loop that runs before the start hook, moving it would cancel this frame's end hook and leave `current()`
 * set until the marker; there, and off the page, the marker alone moves it. At most one pair every
 * MARKER_EVERY frames: a loop that runs before the start hook cannot be enclosed, and a marker a frame costs the
 * page a measurable share of its frame. Between the two hooks `current()` is the frame's time; anywhere else (a
 * timer, a message handler, a callback the hooks do not enclose) it is null: never a guess.
 *
 * A pending animation frame callback keeps the browser making frames, which an idle page otherwise would not:
 * while the simulation does not run (`expect(false)`: attached and not started, paused, stopped), after
 * QUIET_FRAMES frames in which nobody asked `current()` the hooks stop; `expect(true)` (start, resume) starts them
 * again, from its task, so a loop the game starts after it is enclosed. A loop that kept running across such a
 * pause without making frames runs before the restarted start hook: its frames get the timestamp passed, or now.
 */
import type { FrameSource } from '../contracts/host.ts';
import { CLOCK_GRAIN_MS } from '../core/frame-catch-up.ts';

/** Frames without a `current()` before the hooks stop (about a second at 60 Hz). */
export const QUIET_FRAMES = 60;
/** Frames between two markers at most. */
export const MARKER_EVERY = 30;

export function createAnimationFrames(): FrameSource {
  let current: number | null = null;
  let closed = false;
  /** The hooks are registered. */
  let running = false;
  /** The simulation runs: frames are expected, the hooks never stop for quiet. */
  let expected = false;
  let startHandle = 0;
  let endHandle = 0;
  /** `current()` was asked since the last end hook. */
  let asked = false;
  /** End hooks in a row with no `current()` asked. */
  let quiet = 0;
  /** End hooks since the last marker was posted (a marker is posted only past MARKER_EVERY). */
  let sinceMarker = MARKER_EVERY;
  const marker = new MessageChannel();
  /** The time of the last animation frame whose start hook ran, and of the one before it. */
  let started = Number.NaN;
  let startedBefore = Number.NaN;
  const start = (time: number): void => {
    startHandle = requestAnimationFrame(start);
    // rAF's timestamp is on this thread's performance.now() timeline: a shared-clock time (core/clock.ts)
    current = time;
    startedBefore = started;
    started = time;
  };
  const end = (): void => {
    current = null;
    sinceMarker++;
    quiet = asked ? 0 : quiet + 1;
    asked = false;
    if (quiet >= QUIET_FRAMES && !expected) {
      stop();
      return;
    }
    endHandle = requestAnimationFrame(end);
  };
  const begin = (): void => {
    running = true;
    quiet = 0;
    // the interval between two start hooks is measured afresh: not across a stop
    started = startedBefore = Number.NaN;
    startHandle = requestAnimationFrame(start);
    endHandle = requestAnimationFrame(end);
  };
  const stop = (): void => {
    running = false;
    current = null;
    cancelAnimationFrame(startHandle);
    cancelAnimationFrame(endHandle);
  };
  /** Registers the end hook again: after every callback registered so far. */
  const reorder = (): void => {
    if (closed || !running) return;
    cancelAnimationFrame(endHandle);
    endHandle = requestAnimationFrame(end);
  };
  /** The microtask's move: only inside the animation frame whose start (and so end) hook already ran. */
  const reorderInFrame = (): void => {
    const timeline = typeof document === 'undefined' ? null : document.timeline?.currentTime;
    if (typeof timeline !== 'number' || current !== null) return;
    const since = performance.now() - started;
    // the timeline at the frame's time; or live (WebKit), and this frame began less than half an interval ago
    if (Math.abs(timeline - started) <= CLOCK_GRAIN_MS || (Math.abs(timeline - started - since) <= CLOCK_GRAIN_MS && since < (started - startedBefore) / 2)) reorder();
  };
  marker.port1.onmessage = () => {
    current = null;
    reorder();
  };
  begin();
  return {
    request: (callback) => requestAnimationFrame(callback),
    cancel: (handle) => cancelAnimationFrame(handle),
    current() {
      asked = true;
      return current;
    },
    expect(frames) {
      expected = frames;
      if (frames && !running && !closed) begin();
    },
    missed() {
      if (closed) return;
      if (!running) begin();
      if (sinceMarker < MARKER_EVERY) return;
      sinceMarker = 0;
      queueMicrotask(reorderInFrame);
      marker.port2.postMessage(0);
    },
    close() {
      if (closed) return;
      closed = true;
      stop();
      marker.port1.close();
    },
  };
}
