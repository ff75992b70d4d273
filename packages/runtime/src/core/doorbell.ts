/**
 * The doorbell: when the page expects its next frame (NEXT_FRAME, written by the main thread under FRAME_SEQ)
 * and how far the sleeping worker's states already reach (COVERED, written by the worker under PLAN_SEQ). The
 * worker sleeps on FRAME_SEQ; the page rings it (Atomics.notify) only for a frame the worker has not covered.
 * Both float64s travel as two Int32 halves under their sequence word (float64-words.ts).
 */
import { loadFloat64, readSeqFloat64, readSeqFloat64Whole, writeSeqFloat64 } from './float64-words.ts';
import { I32, type SharedViews } from './layout.ts';
import type { Schema } from './schema.ts';

/**
 * Reads NEXT_FRAME, which the main thread writes under the FRAME_SEQ sequence lock (float64-words.ts). Never
 * blocks: the writer is between its two increments for a few instructions at most.
 */
export function readNextFrame(views: Pick<SharedViews<Schema>, 'i32'>): number {
  return readSeqFloat64Whole(views.i32, I32.FRAME_SEQ, I32.NEXT_FRAME_LO);
}

/**
 * Main thread: publishes when it expects to present its next frame, and rings the worker's doorbell unless the
 * worker sleeps on a plan that already serves this frame (see `frameNeedsWake`). Returns whether it rang.
 */
export function writeNextFrame(views: Pick<SharedViews<Schema>, 'i32'>, time: number): boolean {
  const { i32 } = views;
  // the frame this one replaces (this thread is the only writer, so its own last write reads back whole)
  const replaced = loadFloat64(i32, I32.NEXT_FRAME_LO);
  writeSeqFloat64(i32, I32.FRAME_SEQ, I32.NEXT_FRAME_LO, time);
  // a worker not yet asleep sees the new sequence when it goes to wait, and does not wait; one asleep needs
  // this, unless its plan serves the frame. A frame earlier than the one it replaces always rings: a worker
  // holding for an overdue frame plans its return to the wall clock from that frame's time
  if (!(time < replaced) && !frameNeedsWake(views, time)) return false;
  Atomics.notify(i32, I32.FRAME_SEQ);
  return true;
}

/**
 * Whether a frame at `time` (no earlier than the frame it replaces) must wake the worker: not when it sleeps
 * and its newest state already reaches `time`. Such a frame moves the worker's target only within what it has
 * made, and no tick becomes due, by that frame, before the wake the worker planned (fixed-step.ts,
 * `planSteps`, `nextWakeTime`): frames past what it has made wake it. In doubt (COVERED being rewritten),
 * wake. A worker waking from this sleep re-reads the frame before it plans again, so a frame that slips in
 * between is never lost.
 */
export function frameNeedsWake(views: Pick<SharedViews<Schema>, 'i32'>, time: number): boolean {
  return !(time <= readCovered(views));
}

/**
 * COVERED as the worker last published it, through the PLAN_SEQ sequence lock: NaN when the sequence is odd or
 * moves during the read (the worker is rewriting it), so a caller in doubt wakes the worker.
 */
export function readCovered(views: Pick<SharedViews<Schema>, 'i32'>): number {
  return readSeqFloat64(views.i32, I32.PLAN_SEQ, I32.COVERED_LO);
}

/**
 * Worker: publishes COVERED under the PLAN_SEQ sequence lock: the newest state's time just before it sleeps
 * (frames up to it need not wake it), -Infinity once it is awake again (every frame rings).
 */
export function writeCovered(views: Pick<SharedViews<Schema>, 'i32'>, covered: number): void {
  writeSeqFloat64(views.i32, I32.PLAN_SEQ, I32.COVERED_LO, covered);
}
