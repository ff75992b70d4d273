/**
 * How a replay's frames compare with the truth (net-judder.measure.ts).
 *
 * - **Delay**: for each drawn entity, the time whose true position is nearest the drawn point (orbits.ts's
 *   `timeOfPoint`); the server's time at the frame minus that is how far behind the entity is drawn. The
 *   pipeline's delay D is the median over every frame and entity scored.
 * - **Judder**: how far each frame's motion is from the true motion over the same frame, at that delay:
 *   |(p_f − p_f−1) − (truth(s_f − D) − truth(s_f−1 − D))|, in % of the entity's motion between two snapshots
 *   (its speed × the send interval). A constant delay costs nothing here; a frame that stands still, jumps,
 *   speeds up or cuts a corner does. A held frame at 60 Hz with 20 Hz snapshots is 33%; drawing each snapshot
 *   as it comes is 67% on most frames and 100% on the frames it jumps.
 *
 * Frames are scored from `fromMs` (true time) on, once the pipeline draws. The delay a replay's judder is
 * measured at is its own median; pooled replays (`summarize`) report the percentiles of all their samples.
 */
import { speedAt, timeOfPoint, writeOrbit } from './orbits.ts';
import { SEND_INTERVAL_MS, type Drawn } from './replay.ts';
import type { Trace } from './trace.ts';

export interface Score {
  /** Frames scored (drawn, past the warm-up). */
  readonly frames: number;
  /** Median ms behind the server's clock. */
  readonly delayMs: number;
  /** The delay's 1st and 99th percentiles (how much it moved). */
  readonly delayP01: number;
  readonly delayP99: number;
  /** Judder, % of a snapshot's motion. */
  readonly judderP50: number;
  readonly judderP99: number;
  readonly judderMax: number;
  /** Share of entity-frames that did not move at all (held). */
  readonly held: number;
}

/** The nearest-rank percentile of a sorted array. */
export function percentileOf(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** The raw samples of one replay: every scored entity-frame's delay and judder. */
export interface Samples {
  readonly frames: number;
  readonly delays: Float64Array;
  readonly errors: Float64Array;
  readonly held: number;
}

/** Several replays' samples (one condition over several link seeds) as one score. */
export function summarize(samples: readonly Samples[]): Score {
  const join = (pick: (s: Samples) => Float64Array) => {
    const all = new Float64Array(samples.reduce((n, s) => n + pick(s).length, 0));
    let at = 0;
    for (const s of samples) {
      all.set(pick(s), at);
      at += pick(s).length;
    }
    return all.sort();
  };
  const delays = join((s) => s.delays);
  const errors = join((s) => s.errors);
  return {
    frames: samples.reduce((n, s) => n + s.frames, 0),
    delayMs: percentileOf(delays, 0.5),
    delayP01: percentileOf(delays, 0.01),
    delayP99: percentileOf(delays, 0.99),
    judderP50: percentileOf(errors, 0.5),
    judderP99: percentileOf(errors, 0.99),
    judderMax: errors.length === 0 ? Number.NaN : errors[errors.length - 1]!,
    held: samples.reduce((n, s) => n + s.held, 0) / Math.max(1, errors.length),
  };
}

export function score(trace: Trace, drawn: Drawn, fromMs: number): Samples {
  const orbits = trace.orbits;
  const n = orbits.length;
  const scored: number[] = [];
  for (let f = 1; f < drawn.times.length; f++) if (drawn.times[f]! >= fromMs && drawn.drawn[f] === 1 && drawn.drawn[f - 1] === 1) scored.push(f);
  // delays, each entity searched from where it was found the frame before
  const delays = new Float64Array(scored.length * n);
  const guess = new Float64Array(n).fill(Number.NaN);
  scored.forEach((f, k) => {
    const s = drawn.serverTimes[f]!;
    for (let i = 0; i < n; i++) {
      const from = Number.isNaN(guess[i]!) ? s - 200 : guess[i]! + (drawn.times[f]! - drawn.times[scored[Math.max(0, k - 1)]!]!);
      const at = timeOfPoint(orbits[i]!, drawn.position[2 * (f * n + i)]!, drawn.position[2 * (f * n + i) + 1]!, from);
      guess[i] = at;
      delays[k * n + i] = s - at;
    }
  });
  const sortedDelays = delays.slice().sort();
  const delay = percentileOf(sortedDelays, 0.5);
  const errors = new Float64Array(scored.length * n);
  const a = new Float64Array(2 * n);
  const b = new Float64Array(2 * n);
  let held = 0;
  scored.forEach((f, k) => {
    const s = drawn.serverTimes[f]! - delay;
    const sBefore = drawn.serverTimes[f - 1]! - delay;
    for (let i = 0; i < n; i++) {
      writeOrbit(orbits[i]!, s, a, i);
      writeOrbit(orbits[i]!, sBefore, b, i);
      const p = 2 * (f * n + i);
      const q = p - 2 * n;
      const dx = drawn.position[p]! - drawn.position[q]!;
      const dy = drawn.position[p + 1]! - drawn.position[q + 1]!;
      if (dx === 0 && dy === 0) held++;
      const motion = (speedAt(orbits[i]!, s) * SEND_INTERVAL_MS) / 1000;
      errors[k * n + i] = (100 * Math.hypot(dx - (a[2 * i]! - b[2 * i]!), dy - (a[2 * i + 1]! - b[2 * i + 1]!))) / motion;
    }
  });
  return { frames: scored.length, delays, errors, held };
}
