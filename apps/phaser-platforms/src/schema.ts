// shared by the worker and the page; imports only the worker entry (no page code in the worker's bundle)
import { defineTables, tablesCapacity } from 'steadyframe/worker';

/** What every table's bodies carry: Rapier's pose (@steadyframe/rapier/2d writes it) and the picture's size. */
const body = {
  position: { width: 2, kind: 'linear' },
  angle: { width: 1, kind: 'angle' },
  /** The picture's width and height in pixels, written once when the body is added (`none`: never blended). */
  size: { width: 2, kind: 'none' },
} as const;

/**
 * Three tables, one Rapier world: the level's fixed blocks, and the crates and balls dropped on them. Each table
 * is drawn by a Phaser group of its own picture, a member per entity kept by handle (`bindGroup` with a
 * `table`): a swap-remove within one table never shows another's picture. Blocks come first (a table few and
 * never removed); the busy tables last.
 */
export const schema = defineTables({
  blocks: { capacity: 8, fields: body },
  crates: { capacity: 1000, fields: body },
  balls: { capacity: 1000, fields: body },
});
export type PlatformsSchema = typeof schema;
export const CAPACITY = tablesCapacity(schema);

/** The pictures, frames of one sheet: one per table. */
export const LOOK = { block: 0, crate: 1, ball: 2 } as const;

/**
 * The world is simulated in pixels, y down, as Phaser draws it: no conversion on the page. Rapier's tolerances
 * are for metres, so its `lengthUnit` says how many pixels make one (and densities are per square metre).
 */
export const WORLD = { width: 800, height: 600 } as const;
export const METRE = 50;
export const GRAVITY = 9.81 * METRE;
export const TICK_RATE = 60;
/** Dynamic bodies at most: the crates' and balls' tables. */
export const MAX_BODIES = schema.$crates.table.capacity + schema.$balls.table.capacity;
/** Bodies dropped at the start (`?bodies=N` overrides it, up to MAX_BODIES). */
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
 * Events the worker emits: @steadyframe/rapier's contact events, a code per pair of tables (the first table's
 * entity is payload 0, its handle payload 3), for a contact start of IMPACT_MIN_IMPULSE or more. Ends are off
 * (nothing shows them), but each pair names an end code all the same.
 */
export const IMPACT = {
  crateOnBlock: 1,
  crateOnCrate: 2,
  crateOnBall: 3,
  ballOnBlock: 4,
  ballOnBall: 5,
} as const;
/** The contact pairs that report, each a knock of the first table's body. */
export const IMPACT_PAIRS = [
  { tables: ['crates', 'blocks'], codes: { start: IMPACT.crateOnBlock, end: 101 } },
  { tables: ['crates', 'crates'], codes: { start: IMPACT.crateOnCrate, end: 102 } },
  { tables: ['crates', 'balls'], codes: { start: IMPACT.crateOnBall, end: 103 } },
  { tables: ['balls', 'blocks'], codes: { start: IMPACT.ballOnBlock, end: 104 } },
  { tables: ['balls', 'balls'], codes: { start: IMPACT.ballOnBall, end: 105 } },
] as const;
/** N·s (kg of a body a metre across, times pixels a second): a knock you would see, not a body settling. */
export const IMPACT_MIN_IMPULSE = 40;
export const EVENT_CAPACITY = 4096;
