import { defineSchema } from 'steadyframe';

/**
 * What crosses from the worker to the page, per body: position and angle, each with the velocity that
 * extrapolation moves it on by (units and radians per simulated second). Imported by the page and the worker.
 */
export const schema = defineSchema({
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle', velocity: 'spin' },
  spin: { width: 1, kind: 'linear' },
});
export type DemoSchema = typeof schema;

/** Fixed for the runtime's life; the `bodies` control changes how many of them live. */
export const CAPACITY = 100_000;
export const DEFAULT_COUNT = 5_000;
export const DEFAULT_TICK_RATE = 10;

/** The box the bodies bounce in, in world units: x in [-BOX_X, BOX_X], y in [-BOX_Y, BOX_Y] (y up). */
export const BOX_X = 1.4;
export const BOX_Y = 1;

/** Entity 0 is the spinner: a big bar fixed at the middle, turning this many radians per simulated second. */
export const SPINNER_SPIN = 3.4;
