// shared by the worker and the page; imports only the worker entry (no page code in the worker's bundle)
import { defineSchema } from 'steadyframe/worker';

/**
 * What crosses from the worker to the page, per body: Rapier's pose (@steadyframe/rapier/2d copies each body's
 * translation into `position` and its angle into `angle`, as `schema2d` has them), and how the body looks,
 * written once when it is added (`none` fields: drawn as the newest tick has them, never blended).
 */
export const schema = defineSchema({
  position: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle' },
  /** The picture's width and height in pixels. */
  size: { width: 2, kind: 'none' },
  /** Which picture: a LOOK. */
  look: { width: 1, kind: 'none' },
});
export type PlatformsSchema = typeof schema;

/** The pictures, frames of one sheet: the level's blocks, crates, balls. */
export const LOOK = { block: 0, crate: 1, ball: 2 } as const;
export type Look = (typeof LOOK)[keyof typeof LOOK];

/**
 * The world is simulated in pixels, y down, as Phaser draws it: no conversion on the page. Rapier's tolerances
 * are for metres, so its `lengthUnit` says how many pixels make one (and densities are per square metre).
 */
export const WORLD = { width: 800, height: 600 } as const;
export const METRE = 50;
export const GRAVITY = 9.81 * METRE;
export const TICK_RATE = 60;
export const CAPACITY = 2000;
/** Bodies dropped at the start (`?bodies=N` overrides it, up to CAPACITY - LEVEL_BODIES). */
export const START_BODIES = 120;
/** Bodies one click drops. */
export const DROP = 30;
/** A body whose centre falls below this (off the ground's open ends) is removed. */
export const FALL_Y = WORLD.height + 100;
/** Input events the page sends (`runtime.sendInput`): they are recorded, so a session replays. */
export const INPUT = {
  /** DROP bodies around a point: payload x, y in pixels. */
  drop: 1,
  /** Start over with as many bodies as the setup asked. */
  reset: 2,
} as const;
/**
 * Events the worker emits (@steadyframe/rapier's contact events, under this code): a contact start of
 * IMPACT_MIN_IMPULSE or more, payload the two entity indices and the impulse.
 */
export const EVENT = { impact: 1, parted: 2 } as const;
/** N·s (kg of a body a metre across, times pixels a second): a knock you would see, not a body settling. */
export const IMPACT_MIN_IMPULSE = 40;
export const EVENT_CAPACITY = 4096;
