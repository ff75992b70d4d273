/**
 * Lag compensation's settings and the step's view of the past (worker/rewind-history.ts keeps the states): the
 * window a definition's `rewind` asks for, checked at set-up, and what `tick.rewind(time)` returns. Small on
 * purpose: a worker whose game keeps no history loads none of the history's code (the simulation's `prepare`
 * loads it for one that does).
 */
import { describeValue } from '../core/describe-value.ts';
import type { FieldViews, Schema } from '../core/schema.ts';

/** The window a history keeps by default, ms: a client on a 200 ms round trip draws about 250 ms behind. */
export const DEFAULT_REWIND_MS = 1000;
/** The longest window, ms: the publisher refuses inputs made more than `maxAgeMs` (2000 by default) before now. */
export const MAX_REWIND_MS = 2000;
/** The most memory a history may take, bytes: a larger schema or capacity needs a shorter window. */
export const MAX_REWIND_BYTES = 256 * 1024 * 1024;

/** `SimulationDefinition.rewind`: keep a history for lag compensation. */
export interface RewindOptions {
  /** Shared-clock ms of states kept behind the newest (default DEFAULT_REWIND_MS, at most MAX_REWIND_MS). */
  readonly rewindMs?: number;
}

/**
 * The world as it stood at a past time, blended: what `tick.rewind(time)` returns. One object, refilled by each
 * call: read it before the next, and do not write it (its fields are the history's, not the world's).
 */
export interface RewoundWorld<S extends Schema> {
  /** The time it shows: the time asked for, or the end of the history it was clamped to. */
  readonly time: number;
  /** Whether the time asked for lay outside the history (before its oldest state or past its newest). */
  readonly clamped: boolean;
  /** Entities live then (the later state's count of the pair). */
  readonly count: number;
  /** Each field's values then, entity i at i × width (capacity-long views; entities 0 .. count − 1 are meant). */
  readonly fields: FieldViews<S>;
}

/** How many states a window keeps at a tick rate: the window's ticks, one for its start's pair, and the newest. */
export function rewindStates(rewindMs: number, tickRate: number): number {
  return Math.ceil((rewindMs * tickRate) / 1000) + 2;
}

/** The checked window, ms, for a definition's `rewind` (true: the default). */
export function checkRewind(rewind: unknown): number | null {
  if (rewind === undefined || rewind === false) return null;
  if (rewind === true) return DEFAULT_REWIND_MS;
  if (typeof rewind !== 'object' || rewind === null) throw new TypeError(`steadyframe: rewind is true or { rewindMs }; got ${describeValue(rewind)}`);
  const ms = (rewind as RewindOptions).rewindMs ?? DEFAULT_REWIND_MS;
  if (typeof ms !== 'number' || !(ms > 0 && ms <= MAX_REWIND_MS)) {
    throw new RangeError(`steadyframe: rewind.rewindMs must be a number of ms above 0 and at most ${MAX_REWIND_MS}; got ${describeValue(ms)}`);
  }
  return ms;
}

/** A step's `tick.rewind`, over a history (null: the definition keeps none, and it says so). Made once. */
export function rewindOf<S extends Schema>(history: { rewind(time: number): RewoundWorld<S> } | null): (time: number) => RewoundWorld<S> {
  if (history !== null) return (time) => history.rewind(time);
  return () => {
    throw new Error("steadyframe: tick.rewind() needs a history of states: set rewind: true (or { rewindMs }) in the simulation's definition");
  };
}
