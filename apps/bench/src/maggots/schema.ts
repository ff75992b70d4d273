/**
 * The PixiJS "particle container" example (maggots wandering over the screen), ported onto steadyframe from the
 * READMEs alone: what the page and the worker agree on. See suites/pixi-port.ts for the source and the licence.
 */
import { defineSchema } from 'steadyframe/worker';

/** Published and drawn: where each maggot is, which way it faces, how it is stretched. */
export const maggotSchema = defineSchema({
  position: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle' },
  scale: { width: 2, kind: 'linear' },
});

/** Set-up data from the page (`createRuntime({ setup })`, init's second argument). */
export interface MaggotSetup {
  readonly count: number;
  /** The screen the maggots wander over, px (the example's `app.screen`). */
  readonly width: number;
  readonly height: number;
}

/** The example's constants. */
export const MAGGOT = {
  /** The bounds the maggots wrap around: the screen and this much more on every side, px. */
  boundsPadding: 100,
  /** The example moves them once per frame and assumes 60 frames a second. */
  frameRate: 60,
} as const;
