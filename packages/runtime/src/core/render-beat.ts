/**
 * The render beat: a 16-byte SharedArrayBuffer of its own, beside the state buffer, by which the render worker
 * shows the page it is alive. The state buffer's header stays as it is: the beat has a different writer (the
 * render worker, not the simulation) and exists only with a render worker.
 *
 * ```text
 *  byte 0 ┌─ Int32 words ──────────────────────────────────────────────────────────────┐
 *         │ 0 FRAMES  animation-frame callbacks the render worker ran to their end      │
 *         │ 1 DRAWN   frames its renderer drew (draw returned)                          │
 *         │ 2..3 reserved                                                               │
 *         └─────────────────────────────────────────────────────────────────────────────┘
 * ```
 *
 * Who writes what: the render worker alone, through Atomics (one add per word per frame, after the frame's draw
 * returned, so a draw that hangs or throws stops FRAMES). The page only loads them (render-watch.ts).
 */
export const BEAT = { FRAMES: 0, DRAWN: 1 } as const;
const BEAT_WORDS = 4;

/** Page: a new beat buffer (all zero), handed to the render worker in `init`. */
export function createRenderBeat(): Int32Array<SharedArrayBuffer> {
  return new Int32Array(new SharedArrayBuffer(BEAT_WORDS * 4));
}

/** Render worker: one animation-frame callback done, and whether it drew. */
export function beat(words: Int32Array, drew: boolean): void {
  // publish "this frame finished" to the page's watch (it only compares counts: no other data rides on it)
  Atomics.add(words, BEAT.FRAMES, 1);
  if (drew) Atomics.add(words, BEAT.DRAWN, 1);
}

/** Page: frames the render worker finished and drew so far (mod 2^32; can be late by the frame in progress). */
export function readBeat(words: Int32Array): { frames: number; drawn: number } {
  return { frames: Atomics.load(words, BEAT.FRAMES) >>> 0, drawn: Atomics.load(words, BEAT.DRAWN) >>> 0 };
}
