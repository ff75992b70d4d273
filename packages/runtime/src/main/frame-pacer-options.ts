/** The frame pacer's options, their defaults and their set-up checks (frame-pacer.ts applies them). */
import type { PacerChange } from './pacer-change.ts';
import { MAX_PERIOD, MIN_PERIOD } from './refresh-estimate.ts';

export interface FramePacerOptions {
  /** False: render on every callback, interval = the refresh period estimate. Default true. */
  readonly adaptive?: boolean;
  /** Largest `n`. Default 4: a quarter of the display rate (15 fps at 60 Hz) is about where motion stops reading
   *  as motion; past it, frames simply render as soon as the last one lets them (counted as overruns). */
  readonly maxMultiple?: number;
  /** How long, in wall time (ms), every rendered frame must fit a smaller interval with 20% to spare before
   *  n shrinks (to the smallest n the costliest of them fits with that margin). Default 250: one outlier costs
   *  a quarter second of reduced rate. A grow within four such runs after a shrink doubles it, up to 16 times
   *  (4 s), so a load that keeps proving too heavy is not tried again every quarter second. Wall time, not
   *  rendered frames: at a reduced rate frames come slowly, and recovery must not wait for them. */
  readonly spareMs?: number;
  /** Refresh period assumed until rAF timestamps say otherwise, ms. Default 1000 / 60. */
  readonly initialPeriod?: number;
  /** Called synchronously after each change, once the pacer's state is complete. Must not throw. */
  readonly onChange?: (change: PacerChange) => void;
}

/** The defaults of the options above. */
export const FRAME_PACER_DEFAULTS = {
  adaptive: true,
  maxMultiple: 4,
  spareMs: 250,
  initialPeriod: 1000 / 60,
} as const;

/** A whole-number option of at least `min`, or a RangeError naming it and what it means. */
export function checkWhole(name: string, value: unknown, min: number, meaning: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(
      `steadyframe: frame pacer ${name} must be a whole number of at least ${min} (${meaning}); got ${String(value)}`,
    );
  }
  return value;
}

/** Throws at set-up for a bad option, naming it and what it takes (and what replaced the frame-counted ones). */
export function checkOptions(options: FramePacerOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `steadyframe: frame pacer options must be an object, such as { maxMultiple: 4 }; got ${String(options)}`,
    );
  }
  if (options.adaptive !== undefined && typeof options.adaptive !== 'boolean') {
    throw new TypeError(`steadyframe: frame pacer adaptive must be true or false; got ${String(options.adaptive)}`);
  }
  if (options.onChange !== undefined && typeof options.onChange !== 'function') {
    throw new TypeError('steadyframe: frame pacer onChange must be a function (change) => void; leave it out for none');
  }
  for (const old of ['spareFrames', 'cooldownFrames'] as const) {
    if ((options as Record<string, unknown>)[old] !== undefined) {
      throw new TypeError(
        `steadyframe: frame pacer ${old} is gone: recovery is measured in wall time now, not rendered frames ` +
          `(which come slowly at a reduced rate); use spareMs (default ${FRAME_PACER_DEFAULTS.spareMs})`,
      );
    }
  }
  const spare = options.spareMs;
  if (spare !== undefined && !(typeof spare === 'number' && spare >= 0 && spare < Number.POSITIVE_INFINITY)) {
    throw new RangeError(
      `steadyframe: frame pacer spareMs must be a duration in ms of at least 0 (how long frames must have time ` +
        `to spare before the interval shrinks); got ${String(spare)}`,
    );
  }
  const period = options.initialPeriod;
  if (period !== undefined && !(typeof period === 'number' && period >= MIN_PERIOD && period <= MAX_PERIOD)) {
    throw new RangeError(
      `steadyframe: frame pacer initialPeriod must be a refresh period in ms from ${MIN_PERIOD} to ${MAX_PERIOD} ` +
        `(1000 / 60 for 60 Hz); got ${String(period)}`,
    );
  }
}
