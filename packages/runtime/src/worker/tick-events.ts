/**
 * `tick.emit` and `tick.emitPayload`: a step's events, staged in the event ring for the tick being made
 * (core/event-writer.ts; committed by that tick's publish). Bound once per TickInfo: nothing allocated per event.
 */
import type { EventWriter } from '../core/event-writer.ts';
import type { TickInfo } from './definition.ts';

type Emitters = Pick<TickInfo, 'emit' | 'emitPayload'>;

/** A placeholder until `tickEmitters` binds the real ones (the info object must exist first). */
export const NO_EMIT = (): boolean => false;

/**
 * The emitters of `info`, staging into `events` at `info.tick`; with no ring (`events: false`, or a replay whose
 * events go nowhere), they check the code and return `sinkResult`.
 */
export function tickEmitters(info: { readonly tick: number }, events: EventWriter | null, sinkResult = false): Emitters {
  if (events === null) {
    const sink = (code: number): boolean => {
      if (!(code >= 0)) throw new RangeError(`steadyframe: tick.emit(code) takes a game code of 0 or more; got ${String(code)} (negative codes are the library's, such as EVENTS_LOST)`);
      return sinkResult;
    };
    return { emit: sink, emitPayload: sink };
  }
  return {
    emit: (code, p0, p1, p2, p3) => events.emit(info.tick, code, p0, p1, p2, p3),
    emitPayload: (code, payload) => events.emitPayload(info.tick, code, payload),
  };
}
