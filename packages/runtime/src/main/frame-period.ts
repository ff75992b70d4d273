/**
 * Estimates the time between animation frames from requestAnimationFrame timestamps, so the main thread can
 * tell the worker when the next frame is due. Pure: deltas in, an estimate out.
 */

/** Frame gaps outside this range (ms) are not display refreshes: a hidden tab, a debugger pause. */
const MIN_PERIOD = 2;
const MAX_PERIOD = 250;
/** Weight of each new gap in the running average: about the last 10 frames count. */
const SMOOTHING = 0.1;

export interface FramePeriod {
  /** Current estimate in ms; 1000 / 60 until the first frames are seen. */
  readonly value: number;
  /** Feeds the gap between two consecutive frames. */
  observe(delta: number): void;
}

export function createFramePeriod(initial = 1000 / 60): FramePeriod {
  let value = initial;
  let seen = 0;
  return {
    get value() {
      return value;
    },
    observe(delta) {
      if (!(delta >= MIN_PERIOD && delta <= MAX_PERIOD)) return;
      // the first gap replaces the guess; later ones are averaged in
      value = seen++ === 0 ? delta : value + (delta - value) * SMOOTHING;
    },
  };
}
