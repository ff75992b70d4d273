/**
 * `tick.emit` and `tick.emitPayload`: a step's events, staged in the event ring for the tick being made
 * (core/event-writer.ts; committed by that tick's publish). Bound once per TickInfo: nothing allocated per event.
 */
import type { EventWriter } from '../core/event-writer.ts';
import type { EventDigest } from '../core/event-digest.ts';
import type { TickInfo } from './definition.ts';

type Emitters = Pick<TickInfo, 'emit' | 'emitPayload'>;

/** A placeholder until `tickEmitters` binds the real ones (the info object must exist first). */
export const NO_EMIT = (): boolean => false;

/** Where a recording or a replay digests a step's events (EventDigest), when one is on. */
export interface DigestSlot {
  current: EventDigest | null;
}

/**
 * The emitters of `info`, staging into `events` at `info.tick`, and into `digest.current` when a recording or a
 * replay wants them digested; with no ring (`events: false`, or a replay whose events go to no page), they check
 * the code and return `sinkResult`.
 */
export function tickEmitters(info: { readonly tick: number }, events: EventWriter | null, sinkResult = false, digest: DigestSlot = { current: null }): Emitters {
  const check = (code: number): void => {
    if (!(code >= 0)) throw new RangeError(`steadyframe: tick.emit(code) takes a game code of 0 or more; got ${String(code)} (negative codes are the library's, such as EVENTS_LOST)`);
  };
  return {
    emit: (code, p0, p1, p2, p3) => {
      check(code);
      digest.current?.mix(code, p0, p1, p2, p3);
      return events === null ? sinkResult : events.emit(info.tick, code, p0, p1, p2, p3);
    },
    emitPayload: (code, payload) => {
      check(code);
      digest.current?.mixPayload(code, payload);
      return events === null ? sinkResult : events.emitPayload(info.tick, code, payload);
    },
  };
}
