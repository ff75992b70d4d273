/**
 * Animation frames on a browser page, and the signal of which one is running: two frame hooks of the runtime's
 * own (ARCHITECTURE.md, "The frame clock"), never `document.timeline` (Chromium moves that in timer tasks too,
 * on an estimated grid that trails now).
 *
 * ```text
 *                  frame N's rAF callbacks, in the order they were registered                     task
 *  [ start hook: current = T_N ] [ the game's loop ... frame() ] [ end hook: current = null ] ──▶ marker
 *    re-registers first thing:     re-registers itself             re-registers itself (after the   moves the end hook
 *    stays first                                                    loop's), posts the marker        after every callback
 *                                                                                                    registered in frame N
 * ```
 *
 * Callbacks run in the order they were registered. The start hook re-registers itself as its first act, so
 * once it runs before a game's loop it stays before it. The end hook re-registers itself too, after the loop has
 * (a loop re-registers in its callback), so it stays after it; and a marker task after each frame cancels it
 * and registers it again, which puts it after any loop that started since (registered from a task). A task
 * that runs late (after a long one, Chromium may draw the overdue frame first) leaves the end hook where it
 * was: still after the loops of the frame before. Between the two hooks `current()` is the frame's time;
 * anywhere else (a timer, a message handler, a callback the hooks do not enclose) it is null: never a guess.
 * Costs two callbacks and one message a frame.
 */
import type { FrameSource } from '../contracts/host.ts';

export function createAnimationFrames(): FrameSource {
  let current: number | null = null;
  let closed = false;
  let startHandle = 0;
  let endHandle = 0;
  const marker = new MessageChannel();
  const start = (time: number): void => {
    startHandle = requestAnimationFrame(start);
    // rAF's timestamp is on this thread's performance.now() timeline: a shared-clock time (core/clock.ts)
    current = time;
  };
  const end = (): void => {
    endHandle = requestAnimationFrame(end);
    current = null;
    marker.port2.postMessage(0);
  };
  marker.port1.onmessage = () => {
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
