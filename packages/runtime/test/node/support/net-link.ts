/**
 * A simulated network for the client's clock and playout tests (server-clock.test.ts, playout.test.ts): seeded
 * one-way links (delay, jitter, loss, reordering), the two clocks as functions of a true time, and a queue of
 * timed events. Every run replays from its seed; no wall clock anywhere.
 *
 * ```text
 *  true time t ──────────────────────────────────────────────▶
 *  server clock  s(t) = t + serverOffset(t)     (a restart steps it)
 *  client clock  c(t) = clientAt(t)             (drift: (1 + ppm·1e-6)·t; a sleep holds it)
 *  packet sent at t arrives at t + delay(), or never (lost)
 * ```
 */
import { mulberry32 } from 'steadyframe/testing';

export interface LinkOptions {
  /** The route's one-way delay, ms. */
  readonly baseMs: number;
  /** Each packet takes baseMs plus a uniform draw in [−jitterMs, +jitterMs] (never below 0). */
  readonly jitterMs?: number;
  /** Share of packets lost. */
  readonly loss?: number;
  /** Share of packets held back `reorderMs` more, so that later ones overtake them. */
  readonly reorder?: number;
  readonly reorderMs?: number;
}

/** One direction of a link: each call is one packet's delay in ms, or null if it is lost. */
export function createLink(seed: number, options: LinkOptions): () => number | null {
  const random = mulberry32(seed);
  const { baseMs, jitterMs = 0, loss = 0, reorder = 0, reorderMs = 0 } = options;
  return () => {
    const lost = random() < loss;
    const held = random() < reorder;
    const delay = Math.max(0, baseMs + (random() * 2 - 1) * jitterMs + (held ? reorderMs : 0));
    return lost ? null : delay;
  };
}

/** Timed callbacks in true time, run in order (equal times in the order they were scheduled). */
export class EventQueue {
  /** The time of the event running, or the last `runUntil`'s (never going back). */
  now = 0;
  readonly #events: Array<{ readonly at: number; readonly id: number; readonly run: () => void }> = [];
  #ids = 0;

  /** Schedules `run` at `at`; returns an id for `cancel`. */
  schedule(at: number, run: () => void): number {
    let i = this.#events.length;
    while (i > 0 && this.#events[i - 1]!.at > at) i--;
    this.#events.splice(i, 0, { at, id: ++this.#ids, run });
    return this.#ids;
  }

  /** Drops a scheduled event (an id already run or unknown: nothing). */
  cancel(id: unknown): void {
    const i = this.#events.findIndex((e) => e.id === id);
    if (i >= 0) this.#events.splice(i, 1);
  }

  /** Runs every event due at or before `t`, including those the events schedule within it, each at its own `now`. */
  runUntil(t: number): void {
    while (this.#events.length > 0 && this.#events[0]!.at <= t) {
      const event = this.#events.shift()!;
      this.now = Math.max(this.now, event.at);
      event.run();
    }
    this.now = Math.max(this.now, t);
  }

  get pending(): number {
    return this.#events.length;
  }
}

/** 60 Hz frames, ms. */
export const FRAME_MS = 1000 / 60;

/** The nearest-rank percentile of `values` (a sorted copy). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length - 1e-9))) - 1]!;
}
