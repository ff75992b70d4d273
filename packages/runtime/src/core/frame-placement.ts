/**
 * Where a frame falls against the two states it is drawn from, and what to draw there: one pure decision, time
 * in, numbers out, shared by every way the sampler draws (the front slot, the render-delay history, a frame
 * the worker overtook). No clocks, no state: the Node tests drive it with a table.
 *
 * ```text
 *                previousTime              currentTime
 *   ──────────────────┼─────────────────────────┼──────────────────▶ shared-clock ms
 *      overtaken      │  alpha = (t - p) / span  │  late: hold (alpha 1), or carry the last tick's
 *   (the worker       │  in [0, 1]               │  motion on up to maxPrediction ticks (alpha up
 *    published past   │                          │  to 1 + maxPrediction, whenLate 'extrapolate')
 *    it: alpha 0)     │                          │
 * ```
 *
 * A pair whose two states stand for the same time (tick 0; a tick held across a pause) has no span: alpha is 1
 * and nothing is late. `extrapolate` mode starts from the newer state at or before the frame's time (alpha 0 or
 * 1) and predicts `ahead` ms past it, at most `maxPrediction` ticks. `latest` shows the current state.
 */
import { alphaAt } from './fixed-step.ts';

export type InterpolationMode = 'interpolate' | 'extrapolate' | 'latest';
export type LatePolicy = 'hold' | 'extrapolate';

/** The part of the interpolation options the decision reads. */
export interface PlacementPolicy {
  readonly mode: InterpolationMode;
  readonly whenLate: LatePolicy;
  /** Most ticks past a state that a prediction reaches. */
  readonly maxPrediction: number;
}

/** The decision; `placeFrame` fills one in (the sampler keeps one: nothing is allocated per frame). */
export interface Placement {
  /**
   * The blend weight, 0 previous to 1 current (past 1: a late frame carried on). In `extrapolate` mode, the
   * state predicted from: 0 the previous one, 1 the current one.
   */
  alpha: number;
  /** The frame's time is past the current state, which is later than the previous one: the worker is late. */
  late: boolean;
  /** The frame's time is before the previous state: the pair around it is older than these two (never in `latest`). */
  overtaken: boolean;
  /** A late frame carried on past the current state (`whenLate: 'extrapolate'` in `interpolate` mode). */
  extrapolated: boolean;
  /** `extrapolate` mode: ms past the base state to predict, from 0 to `maxPrediction * tickLength`. */
  ahead: number;
}

export function createPlacement(): Placement {
  return { alpha: 1, late: false, overtaken: false, extrapolated: false, ahead: 0 };
}

/**
 * Places a frame at shared-clock `time` against a pair of states at `previousTime` and `currentTime`, by
 * `policy`. `tickLength` (ms) bounds `extrapolate` mode's prediction (the pair's own span may be 0). Fills
 * `out` and returns it.
 */
export function placeFrame(
  time: number,
  previousTime: number,
  currentTime: number,
  tickLength: number,
  policy: PlacementPolicy,
  out: Placement,
): Placement {
  const span = currentTime - previousTime;
  out.late = span > 0 && time > currentTime;
  out.overtaken = policy.mode !== 'latest' && time < previousTime;
  out.extrapolated = false;
  out.ahead = 0;
  if (policy.mode === 'latest') {
    out.alpha = 1;
  } else if (policy.mode === 'extrapolate') {
    const fromCurrent = time >= currentTime;
    out.alpha = fromCurrent ? 1 : 0;
    out.ahead = Math.min(Math.max(0, time - (fromCurrent ? currentTime : previousTime)), policy.maxPrediction * tickLength);
  } else if (out.late && policy.whenLate === 'extrapolate') {
    out.alpha = Math.min((time - previousTime) / span, 1 + policy.maxPrediction);
    out.extrapolated = true;
  } else {
    out.alpha = alphaAt(time, previousTime, currentTime);
  }
  return out;
}
