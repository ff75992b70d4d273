/**
 * The e2e test's oracle: the server's own states, tick by tick. This process samples the server runtime's newest
 * state every few ms (a tick is 16.7 ms), so it knows, for nearly every server tick, every entity's position and
 * velocity, which player owns each ship slot, and the scores; and it places a page's drawn frame at the server
 * time whose state it shows (the tick pair and blend that fit its orbs best).
 */
import type { Runtime } from 'steadyframe';
import { MAX_PLAYERS, ORBS, SCORES, SHIPS, TICK_RATE, type GameSchema } from '../src/schema.ts';

export interface ServerState {
  readonly tick: number;
  /** Every entity's position and velocity (x, y each), the ships' owners (player + 1), the slots' scores. */
  readonly position: Float32Array;
  readonly velocity: Float32Array;
  readonly owner: Float32Array;
  readonly scores: number[];
}

export interface ServerTruth {
  /** The states sampled, by tick. */
  readonly states: Map<number, ServerState>;
  /** The newest state sampled. */
  newest(): ServerState;
  /** The state of `tick`, or the newest sampled before it (a tick this process was too busy to sample). */
  at(tick: number): ServerState;
  /** The first tick at or after `from` whose state has slot `slot`'s score at `score` or more. */
  tickScored(slot: number, score: number, from?: number): number;
  /** The server time a frame's orbs show (`orbs`: x, y each), searched near `near` first; and the median orb's distance off. */
  placeFrame(orbs: readonly number[], near?: number): { at: number; error: number };
  stop(): void;
}

export function watchServer(runtime: Runtime<GameSchema>): ServerTruth {
  const states = new Map<number, ServerState>();
  const sorted: number[] = [];
  const sampling = setInterval(() => {
    const f = runtime.sample(Number.POSITIVE_INFINITY);
    if (states.has(f.tick) || f.count < SHIPS + MAX_PLAYERS) return;
    const { position, velocity, owner } = f.fields;
    states.set(f.tick, { tick: f.tick, position: position.slice(0, 2 * f.count), velocity: velocity.slice(0, 2 * f.count), owner: owner.slice(0, f.count), scores: SCORES.map((name) => f.state[name]) });
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
      // ticks this process did not sample (its event loop was busy) are bridged by their neighbours
      if (sorted[j + 1]! - sorted[j]! > 10) continue;
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
    tickScored(slot, score, from = 0) {
      for (let i = lowerBound(from); i < sorted.length; i++) if (states.get(sorted[i]!)!.scores[slot]! >= score) return sorted[i]!;
      return -1;
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
