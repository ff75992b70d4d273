/**
 * Animation frames on a browser page, and the signal of which one is running: two frame hooks of the runtime's
 * own (ARCHITECTURE.md, "The frame clock"), never `document.timeline` (Chromium moves that in timer tasks too,
 * on an estimated grid that trails now).
 *
 * ```text
 *  task between frames        frame N's rAF callbacks, in the order they were registered                 task
 *  marker: arm, register ──▶ [ start hook: current = T_N ] [ the game's loop ... frame() ] [ end hook ] ──▶ marker
 *  the end hook for N         (re-registered first thing: stays first)                     current = null
 * ```
 *
 * The start hook re-registers itself as its first act, so once it runs before a game's loop it stays before
 * it. The end hook is registered by a marker task after each frame, so it comes after every callback
 * registered during the frame before (where a loop re-registers). Between the two, `current()` is the frame's
 * time; anywhere else it is null. A frame with no end hook armed (the marker task had not run yet) leaves it
 * null too: never a guess. Costs two callbacks and one message a frame.
 */
import type { FrameSource } from '../contracts/host.ts';

export function createAnimationFrames(): FrameSource {
  let current: number | null = null;
  /** An end hook is registered for the coming frame. */
  let armed = false;
  let closed = false;
  let startHandle = 0;
  let endHandle = 0;
  const marker = new MessageChannel();
  const start = (time: number): void => {
    startHandle = requestAnimationFrame(start);
    // rAF's timestamp is on this thread's performance.now() timeline: a shared-clock time (core/clock.ts)
    current = armed ? time : null;
  };
  const end = (): void => {
    endHandle = 0;
    armed = false;
    current = null;
    marker.port2.postMessage(0);
  };
  marker.port1.onmessage = () => {
    current = null;
    if (closed || armed) return;
    armed = true;
    endHandle = requestAnimationFrame(end);
  };
  startHandle = requestAnimationFrame(start);
  marker.port2.postMessage(0);
  return {
    request: (callback) => requestAnimationFrame(callback),
    cancel: (handle) => cancelAnimationFrame(handle),
    current: () => current,
    close() {
      if (closed) return;
      closed = true;
      current = null;
      cancelAnimationFrame(startHandle);
      if (endHandle !== 0) cancelAnimationFrame(endHandle);
      marker.port1.close();
    },
  };
}
