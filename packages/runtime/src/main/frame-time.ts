/**
 * The time a frame is drawn at, whatever timestamp the game passes to `runtime.frame()` / `runtime.pace()`.
 *
 * Inside a `requestAnimationFrame` callback, `document.timeline.currentTime` is the animation frame's own
 * timestamp (the one rAF passes; verified in Chromium by test/browser/frame-clock.test.ts), updated once per
 * animation frame before the callbacks. It is the time the pacer announced to the worker for this refresh, so
 * the worker simulated just past it. A time read later in the callback (`performance.now()`, after a stall
 * before it) falls past those states: drawn from them, the frame is stale. So the first frame of each
 * animation frame is drawn at that frame's time when the game passes none or one at or after it:
 *
 * ```text
 *  animation frame begins (timeline = T)      callback: stall ...... frame(performance.now() = T + 30)
 *      worker simulated to just past T ─────────────────────────────▶ drawn at T: the states around T are there
 * ```
 *
 * Otherwise (no document, as in a worker; the same animation frame again; a timestamp before it) the
 * timestamp as given, or now when there is none.
 */
export function frameTimeFor(timestamp: number, animationTime: number | null, previousAnimationTime: number, now: number): number {
  const none = Number.isNaN(timestamp);
  // a new animation frame, not in the future: the frame being made is this one
  if (animationTime !== null && animationTime > previousAnimationTime && animationTime <= now) {
    if (none || (timestamp >= animationTime && timestamp <= now)) return animationTime;
  }
  return none ? now : timestamp;
}

/** The current animation frame's time where the realm has one (`document.timeline.currentTime`), else null. */
export function animationFrameTime(): number | null {
  const time = (globalThis as { document?: { timeline?: { currentTime?: unknown } } }).document?.timeline?.currentTime;
  return typeof time === 'number' ? time : null;
}
