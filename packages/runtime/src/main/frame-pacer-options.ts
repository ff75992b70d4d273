/** The frame pacer's options, their defaults and their set-up checks (frame-pacer.ts applies them). */
import type { FramePacerOptions } from '../contracts/frames.ts';

export type { FramePacerOptions } from '../contracts/frames.ts';
import { MAX_PERIOD, MIN_PERIOD } from './refresh-estimate.ts';


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
