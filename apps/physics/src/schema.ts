// from the worker entry, so the worker's bundle and type-check need nothing of the main thread's
import { defineSchema } from 'steadyframe/worker';

/**
 * What crosses from the worker to the page, per body. Rapier's poses go to `position` and `rotation`
 * (@steadyframe/rapier's copy pass); `box` and `ball` are written once per body, when it is added, and
 * choose its mesh: a box has `box` = its size and `ball` = 0, a sphere the other way round (a zero scale
 * hides an instance in the other mesh).
 */
export const schema = defineSchema({
  position: { width: 3, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
  box: { width: 3, kind: 'linear' },
  ball: { width: 1, kind: 'linear' },
});
export type PhysicsSchema = typeof schema;

export const CAPACITY = 12_000;
export const TICK_RATE = 60;
/** Bodies dropped at the start (the page's `?bodies=` overrides it). */
export const START_BODIES = 3000;
/** The floor's half size; four low walls stand on its edges. Bodies that fall below FALL_Y are removed. */
export const HALF_FLOOR = 16;
export const WALL_HEIGHT = 3;
export const FALL_Y = -30;
/** What a shape key asks for. */
export const SHAPES = { mixed: 0, boxes: 1, spheres: 2 } as const;
export type Shape = (typeof SHAPES)[keyof typeof SHAPES];
/** Input events the page sends (`runtime.sendInput`): they are recorded, so a session replays. */
export const INPUT = {
  /** A heap: payload n, x, z, shape. */
  drop: 1,
  /** Start over: payload n (bodies), or -1 for as many as the last reset (or the setup) asked. */
  reset: 2,
} as const;
/** The floor and four walls: entities 0 .. ARENA_BODIES - 1, added first and never removed. */
export const ARENA_BODIES = 5;
/**
 * Events the worker emits (@steadyframe/rapier's contact events, under these codes): a contact start between two
 * bodies, payload the two entity indices and the impulse (N·s). Only starts of IMPACT_MIN_IMPULSE or more.
 */
export const EVENT = { impact: 1, parted: 2 } as const;
/**
 * The smallest impulse reported, N·s: a settling pile makes and breaks hundreds of feather-light contacts a tick
 * (a 3,000-body heap: ~300 starts a tick at its peak, half under 1 N·s), which nobody would hear.
 */
export const IMPACT_MIN_IMPULSE = 1;
/** The page's event ring: a heap landing reports up to ~100 impacts a tick, and a software-GL page draws a few frames a second. */
export const EVENT_CAPACITY = 16_384;
