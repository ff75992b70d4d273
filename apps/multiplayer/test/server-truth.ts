/**
 * The e2e test's oracle: the server's own states, tick by tick. This process samples the server runtime's newest
 * state every few ms (a tick is 16.7 ms), so it knows, for most server ticks, every entity's position and
 * velocity, which player owns each ship slot, and the scores; and it places a page's drawn frame at the server
 * time whose state it shows (the tick pair and blend that fit its orbs best).
 *
 * A tick it missed (this process runs the server's main thread and both relays too, and a loaded machine stalls
 * it for a third of a second) gets its orbs from the sample before, stepped on with the game's own `moveOrbs` and
 * quantised as the server's step does: an orb's motion reads its own fields alone, so these are the server's
 * numbers (an orb shot meanwhile excepted: the median over the orbs lets one go).
 */
import type { Runtime } from 'steadyframe';
import { quantizeFields, type World } from 'steadyframe/worker';
import { moveOrbs } from '../src/orbs.ts';
import { MAX_PLAYERS, ORBS, SCORES, schema, SHIPS, TICK_RATE, type GameSchema } from '../src/schema.ts';

export interface ServerState {
  readonly tick: number;
  /** Every entity's position and velocity (x, y each), the ships' owners (player + 1), the slots' scores. */
  readonly position: Float32Array;
  readonly velocity: Float32Array;
  readonly owner: Float32Array;
  readonly scores: number[];
  /** Not sampled: the orbs stepped on from the sample before (the rest is that sample's). */
  readonly filled: boolean;
}

export interface ServerTruth {
  /** The states sampled, by tick. */
  readonly states: Map<number, ServerState>;
  /** The newest state sampled. */
  newest(): ServerState;
  /** The state of `tick`, or the newest before it (only orbs are filled in for a tick missed: see `filled`). */
  at(tick: number): ServerState;
  /**
   * Where slot `slot`'s score reached `score`: the first sampled state with it (`after`), and the last sampled one
   * before (`before`): the tick that scored is past `before` and at most `after` (the same tick when no tick
   * between them was missed), and its step started from `before`'s state or a later one.
   */
  scored(slot: number, score: number): { before: ServerState; after: ServerState } | null;
  /** The server time a frame's orbs show (`orbs`: x, y each), searched near `near` first; and the median orb's distance off. */
  placeFrame(orbs: readonly number[], near?: number): { at: number; error: number };
  stop(): void;
}

export function watchServer(runtime: Runtime<GameSchema>): ServerTruth {
  const states = new Map<number, ServerState>();
  const sorted: number[] = [];
  /** The newest sample's entity fields (a copy): where the orbs of the ticks after it, if missed, are stepped from. */
  let last: Record<string, Float32Array> | null = null;
  const sampling = setInterval(() => {
    const f = runtime.sample(Number.POSITIVE_INFINITY);
    if (states.has(f.tick) || f.count < SHIPS + MAX_PLAYERS || (sorted.length > 0 && f.tick < sorted.at(-1)!)) return;
    const fields = Object.fromEntries(Object.entries(f.fields).map(([name, view]) => [name, (view as Float32Array).slice()]));
    // the ticks missed since the last sample: its orbs stepped on as the server stepped them
    for (let tick = (sorted.at(-1) ?? f.tick) + 1; last !== null && tick < f.tick; tick++) {
      moveOrbs({ fields: last } as unknown as World<GameSchema>, 1 / TICK_RATE);
      quantizeFields(schema, last as never, ORBS);
      const previous = states.get(sorted.at(-1)!)!;
      const position = previous.position.slice();
      position.set(last.position!.subarray(0, 2 * ORBS));
      states.set(tick, { ...previous, tick, position, filled: true });
      sorted.push(tick);
    }
    last = fields;
    states.set(f.tick, { tick: f.tick, position: fields.position!, velocity: fields.velocity!, owner: fields.owner!, scores: SCORES.map((name) => f.state[name]), filled: false });
    sorted.push(f.tick);
  }, 2);
  const lowerBound = (tick: number): number => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < tick) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** placeFrame's search over the pairs of sorted[from, to). */
  const placeAmong = (orbs: readonly number[], from: number, to: number): { at: number; error: number } => {
    let best = { at: Number.NaN, error: Number.POSITIVE_INFINITY };
    const off = new Float64Array(ORBS);
    for (let j = from; j + 1 < to; j++) {
      const a = states.get(sorted[j]!)!.position;
      const b = states.get(sorted[j + 1]!)!.position;
      // the blend of the pair nearest the frame, by least squares over every orb
      let num = 0;
      let den = 0;
      for (let i = 0; i < 2 * ORBS; i++) {
        num += (orbs[i]! - a[i]!) * (b[i]! - a[i]!);
        den += (b[i]! - a[i]!) ** 2;
      }
      const alpha = den > 0 ? Math.min(1, Math.max(0, num / den)) : 0;
      for (let o = 0; o < ORBS; o++) {
        off[o] = Math.hypot(orbs[2 * o]! - (a[2 * o]! + alpha * (b[2 * o]! - a[2 * o]!)), orbs[2 * o + 1]! - (a[2 * o + 1]! + alpha * (b[2 * o + 1]! - a[2 * o + 1]!)));
      }
      // the median: an orb shot (placed elsewhere at once) near this time does not pull the fit
      const error = off.sort()[ORBS >> 1]!;
      if (error < best.error) best = { at: sorted[j]! + alpha, error };
    }
    return best;
  };
  return {
    states,
    newest: () => states.get(sorted.at(-1)!)!,
    at(tick) {
      const i = lowerBound(tick + 1) - 1;
      return states.get(sorted[Math.max(0, i)]!)!;
    },
    scored(slot, score) {
      let before: ServerState | null = null;
      for (const tick of sorted) {
        const state = states.get(tick)!;
        if (state.filled) continue;
        if (state.scores[slot]! >= score) return before === null ? null : { before, after: state };
        before = state;
      }
      return null;
    },
    placeFrame(orbs, near = Number.NaN) {
      // first among the pairs within a second of `near` (a page's frames move on through server time): the whole
      // search for every frame once took this process (the server's too) seconds under load
      if (!Number.isNaN(near)) {
        const local = placeAmong(orbs, Math.max(0, lowerBound(near - TICK_RATE)), lowerBound(near + TICK_RATE + 1));
        if (local.error < 0.5) return local;
      }
      return placeAmong(orbs, 0, sorted.length);
    },
    stop: () => clearInterval(sampling),
  };
}
