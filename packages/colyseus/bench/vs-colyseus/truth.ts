/**
 * The server's record of player 0's disc, read the way each stack's prediction is indexed, so that a frame's own
 * disc can be held against where the server had it at the moment the frame shows (corrections in metrics.ts).
 *
 * ```text
 *  ours      the server's disc at every tick, by the tick's time; a frame's prediction shows server time s
 *            (ours-player.ts): the path over [s − 1 tick, s + 1 tick]
 *  Colyseus  the server's disc at every step, with how many of the client's inputs it had consumed; a frame's
 *            prediction has stepped n inputs (colyseus-player.ts): the path over the steps that had consumed n − 1
 *            to n + 1 (the reconciler draws between the states after inputs n − 1 and n)
 * ```
 *
 * Both windows are three ticks of the server's path wide, so neither stack's way of indexing is favoured.
 */
import type { SessionLog } from './colyseus-room.ts';
import { DISC_RADIUS, TICK_MS } from './game.ts';

export interface Truth {
  /** The server's path (x, y pairs, in order) a frame indexed `at` is held against. */
  window(at: number): number[];
  /** Steps in which the two players' discs touched, and the runs of them (collisions). */
  readonly contactSteps: number;
  readonly collisions: number;
  /** Whether a frame indexed `at` shows a moment from 100 ms before a contact to 500 ms after it. */
  nearContact(at: number): boolean;
  /** The largest distance the disc moved in one server step (its own motion and a push) in `[from, to)` of `at`. */
  largestStep(from: number, to: number): number;
}

/** Ours: poses [time, x, y, ...] of player 0 and player 1 (ours-server.ts). */
export function oursTruth(own: number[], other: number[] | undefined): Truth {
  const at = (k: number) => own[3 * k]!;
  const steps = own.length / 3;
  const point = (time: number, out: number[]) => {
    let k = 0;
    while (k + 1 < steps && at(k + 1) < time) k++;
    const span = at(k + 1) - at(k);
    const a = !(span > 0) ? 0 : Math.max(0, Math.min(1, (time - at(k)) / span));
    out.push(own[3 * k + 1]! + (own[3 * k + 4]! - own[3 * k + 1]!) * a, own[3 * k + 2]! + (own[3 * k + 5]! - own[3 * k + 2]!) * a);
  };
  return {
    window(time) {
      const out: number[] = [];
      point(time - TICK_MS, out);
      for (let k = 0; k < steps; k++) if (at(k) > time - TICK_MS && at(k) < time + TICK_MS) out.push(own[3 * k + 1]!, own[3 * k + 2]!);
      point(time + TICK_MS, out);
      return out;
    },
    ...contactsBy(contacts(own, 3, other, 3, 1).map(at), 100, 500),
    largestStep(from, to) {
      let largest = 0;
      for (let k = 1; k < steps; k++) {
        if (at(k) < from || at(k) >= to) continue;
        largest = Math.max(largest, Math.hypot(own[3 * k + 1]! - own[3 * k - 2]!, own[3 * k + 2]! - own[3 * k - 1]!));
      }
      return largest;
    },
  };
}

/** Colyseus's: the room's log of player 0 and player 1 (colyseus-room.ts: step, consumed, x, y, buffered). */
export function colyseusTruth(own: SessionLog, other: SessionLog | undefined): Truth {
  const s = own.steps;
  const steps = s.length / 5;
  return {
    window(n) {
      const out: number[] = [];
      for (let k = 0; k < steps; k++) if (s[5 * k + 1]! >= n - 1 && s[5 * k + 1]! <= n + 1) out.push(s[5 * k + 2]!, s[5 * k + 3]!);
      return out;
    },
    // inputs are a tick each: 6 before a contact, 30 after
    ...contactsBy(contacts(s, 5, other?.steps, 5, 2).map((k) => s[5 * k + 1]!), 6, 30),
    largestStep(from, to) {
      let largest = 0;
      for (let k = 1; k < steps; k++) {
        if (s[5 * k + 1]! < from || s[5 * k + 1]! >= to) continue;
        largest = Math.max(largest, Math.hypot(s[5 * k + 2]! - s[5 * k - 3]!, s[5 * k + 3]! - s[5 * k - 2]!));
      }
      return largest;
    },
  };
}

/** Rows of `a` (records of `stride` values: the step's key first, x at `xAt`) in whose step the discs of `a` and `b` touch. */
function contacts(a: number[], strideA: number, b: number[] | undefined, strideB: number, xAt: number): number[] {
  if (b === undefined) return [];
  const others = new Map<number, number>();
  for (let k = 0; k < b.length; k += strideB) others.set(b[k]!, k);
  const rows: number[] = [];
  for (let k = 0; k < a.length; k += strideA) {
    const j = others.get(a[k]!);
    if (j === undefined) continue;
    if (Math.hypot(a[k + xAt]! - b[j + xAt]!, a[k + xAt + 1]! - b[j + xAt + 1]!) < 2 * DISC_RADIUS + 1e-3) rows.push(k / strideA);
  }
  return rows;
}

/** The contact steps (by their index on the truth's own scale, in order): how many, how many runs, and who is near one. */
function contactsBy(keys: number[], before: number, after: number) {
  let collisions = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const key of keys) {
    if (key - last > before) collisions++;
    last = key;
  }
  return {
    contactSteps: keys.length,
    collisions,
    nearContact: (at: number) => keys.some((key) => at >= key - before && at <= key + after),
  };
}

/** The distance from (x, y) to the path through `points` (x, y pairs); Infinity for none. */
export function distanceToPath(x: number, y: number, points: number[]): number {
  if (points.length < 2) return Number.POSITIVE_INFINITY;
  let best = Math.hypot(x - points[0]!, y - points[1]!);
  for (let k = 2; k + 1 < points.length; k += 2) {
    const ax = points[k - 2]!;
    const ay = points[k - 1]!;
    const bx = points[k]! - ax;
    const by = points[k + 1]! - ay;
    const l = bx * bx + by * by;
    const u = l === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * bx + (y - ay) * by) / l));
    best = Math.min(best, Math.hypot(x - ax - u * bx, y - ay - u * by));
  }
  return best;
}
