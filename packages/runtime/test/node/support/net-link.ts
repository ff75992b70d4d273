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
  readonly #at: number[] = [];
  readonly #run: Array<() => void> = [];

  schedule(at: number, run: () => void): void {
    let i = this.#at.length;
    while (i > 0 && this.#at[i - 1]! > at) i--;
    this.#at.splice(i, 0, at);
    this.#run.splice(i, 0, run);
  }

  /** Runs every event due at or before `t`, including those the events schedule within it. */
  runUntil(t: number): void {
    while (this.#at.length > 0 && this.#at[0]! <= t) {
      this.#at.shift();
      this.#run.shift()!();
    }
  }

  get pending(): number {
    return this.#at.length;
  }
}

/** 60 Hz frames, ms. */
export const FRAME_MS = 1000 / 60;

/** The nearest-rank percentile of `values` (a sorted copy). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length - 1e-9))) - 1]!;
}
