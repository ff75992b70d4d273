/**
 * Re-timing the front slot (ARCHITECTURE.md, "The clock": re-pinning): when the pace changes (start, resume,
 * `stepOnce`, a new scale or rate, a corrected clock), the picture neither jumps nor stalls.
 */
import { alphaAt, reanchor, timeOfTick } from '../core/fixed-step.ts';
import { META } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { Attached } from './state.ts';

/**
 * Re-times the front slot around now so the picture neither jumps nor stalls: whatever fraction of the way
 * from the previous to the current state the main thread shows now, it keeps, and the rest of the way takes
 * `tickLength` from here. The timeline follows.
 *
 * If the page held the lock past READER_STALL_MS, the restamp is refused and the page goes on with the front
 * slot's old times: the timeline then keeps the current tick where the page sees it (or now, if that is past:
 * no catch-up for a pause) and only the pace changes, so the next state joins on to the picture, which neither
 * stalls nor jumps when the page lets go.
 *
 * ```text
 *   front slot  [P ........ C]            refused: C stays; ticks go on C, C + L', C + 2L', ...
 *   restamped   [now - αL' .... now + (1 - α)L']  ticks go on from there, L' apart
 * ```
 */
export function repin<S extends Schema>(a: Attached<S>, tickLength: number): void {
  const now = a.clock();
  const alpha = alphaAt(now, a.writer.frontMeta(META.PREV_TIME), a.writer.frontMeta(META.CUR_TIME));
  const currentTime = now + (1 - alpha) * tickLength;
  const previousTime = currentTime - tickLength;
  const restamped = restamp(a, previousTime, currentTime);
  reanchor(a.timeline, restamped ? currentTime : Math.max(timeOfTick(a.timeline), a.clock()), tickLength);
}

/** Re-times the front slot; false if the page held the lock past READER_STALL_MS (nothing changed). */
export function restamp<S extends Schema>(a: Attached<S>, previousTime: number, currentTime: number): boolean {
  if (!a.writer.restamp(previousTime, currentTime)) return false;
  a.transport.restamped(a.writer.front);
  return true;
}

/**
 * The worker's clock read `ms` ahead of the page's: what was published so far was stamped by the old clock, so
 * move it onto the corrected one. Refused (a reader stall), the page goes on with the old stamps, so the
 * timeline keeps them too and the next state joins on.
 */
export function shiftClock<S extends Schema>(a: Attached<S>, ms: number): void {
  if (restamp(a, a.writer.frontMeta(META.PREV_TIME) - ms, a.writer.frontMeta(META.CUR_TIME) - ms)) {
    reanchor(a.timeline, timeOfTick(a.timeline) - ms);
  }
}
