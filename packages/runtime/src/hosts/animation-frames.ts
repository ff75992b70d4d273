/**
 * Animation frames on a browser page, and the signal of which one is running: two frame hooks of the runtime's
 * own (ARCHITECTURE.md, "The frame clock"), never `document.timeline` (Chromium moves that in timer tasks too,
 * on an estimated grid that trails now).
 *
 * ```text
 *                  frame N's rAF callbacks, in the order they were registered
 *  [ start hook: current = T_N ] [ the game's loop ... frame() ] [ end hook: current = null ]
 *    re-registers first thing:     re-registers itself             re-registers itself, after the loop:
 *    stays first                                                   stays after it
 *
 *  a frame() with current() null (a loop the hooks do not enclose yet) ──▶ marker task after this frame:
 *                                     the end hook moved after every callback registered in the frame
 * ```
 *
 * Callbacks run in the order they were registered. The start hook re-registers itself as its first act, so
 * once it runs before a game's loop it stays before it. The end hook re-registers itself too, after the loop has
 * (a loop re-registers in its callback), so it stays after it. A loop that started after the hooks (registered
 * from a task) runs after the end hook at first: its frame finds `current()` null, the frame loop says so
 * (`missed`), and a marker task after the frame cancels the end hook and registers it again, after that loop,
 * which is enclosed from its next frame on. Between the two hooks `current()` is the frame's time; anywhere else
 * (a timer, a message handler, a callback the hooks do not enclose) it is null: never a guess. Costs two
 * callbacks a frame, and a message only while a frame is made outside them.
 */
import type { FrameSource } from '../contracts/host.ts';

export function createAnimationFrames(): FrameSource {
  let current: number | null = null;
  let closed = false;
  let startHandle = 0;
  let endHandle = 0;
  /** A marker is posted and has not run yet. */
  let marking = false;
  const marker = new MessageChannel();
  const start = (time: number): void => {
    startHandle = requestAnimationFrame(start);
    // rAF's timestamp is on this thread's performance.now() timeline: a shared-clock time (core/clock.ts)
    current = time;
  };
  const end = (): void => {
    endHandle = requestAnimationFrame(end);
    current = null;
  };
  marker.port1.onmessage = () => {
    marking = false;
    current = null;
    if (closed) return;
    cancelAnimationFrame(endHandle);
    endHandle = requestAnimationFrame(end);
  };
  startHandle = requestAnimationFrame(start);
  endHandle = requestAnimationFrame(end);
  return {
    request: (callback) => requestAnimationFrame(callback),
    cancel: (handle) => cancelAnimationFrame(handle),
    current: () => current,
    missed() {
      if (marking || closed) return;
      marking = true;
      marker.port2.postMessage(0);
    },
    close() {
      if (closed) return;
      closed = true;
      current = null;
      cancelAnimationFrame(startHandle);
      cancelAnimationFrame(endHandle);
      marker.port1.close();
    },
  };
}
