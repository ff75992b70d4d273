import { defineTables, tablesCapacity } from 'steadyframe';

/** Where a thing is and how it moves (`velocity`: so a late frame carries it on); every table has both. */
const motion = {
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
} as const;
/** Which way the ship and a bullet point: radians about +z (the ship turns; a bullet keeps its ship's). */
const heading = { width: 1, kind: 'angle' } as const;

/**
 * What crosses from the worker to the page: three tables, each with only the fields it needs, and the game
 * fields. Imported by both sides. The rocks come last: a publish copies entities up to the end of the last
 * table's live ones, and the rocks are the many (the ship's and the bullets' few dead ones before them cost
 * nothing worth saving).
 */
export const schema = defineTables(
  {
    /** The player's ship (one: it is never despawned, a crash puts it back in the middle). */
    ships: {
      capacity: 1,
      fields: {
        ...motion,
        heading,
        /** Seconds it stays safe after a crash (the page blinks it). `none`: never blended. */
        safe: { width: 1, kind: 'none' },
      },
    },
    bullets: {
      capacity: 32,
      fields: {
        ...motion,
        heading,
        /** Seconds left before it fades. */
        life: { width: 1, kind: 'none' },
      },
    },
    /** The rocks, thousands of them, tumbling in 3D: drawn by one instanced mesh, blended on the GPU. */
    rocks: {
      capacity: 4000,
      fields: {
        ...motion,
        /** x y z w. */
        rotation: { width: 4, kind: 'quaternion', velocity: 'spin' },
        spin: { width: 3, kind: 'linear' },
        /** Per-axis scale of the rock mesh. */
        size: { width: 3, kind: 'linear' },
        /** 0 small .. 2 big: its radius and its points. */
        tier: { width: 1, kind: 'none' },
      },
    },
  },
  {
    // game fields: one number for the whole world, published with the entities, so the HUD shows the score of
    // the very tick the picture shows (counts are `none`: they change with the first frame that moves toward it)
    score: { kind: 'none', scope: 'game' },
    best: { kind: 'none', scope: 'game' },
    lives: { kind: 'none', scope: 'game' },
    rocks: { kind: 'none', scope: 'game' },
    bullets: { kind: 'none', scope: 'game' },
    shots: { kind: 'none', scope: 'game' },
    hits: { kind: 'none', scope: 'game' },
    crashes: { kind: 'none', scope: 'game' },
    /** Seconds the ship stays safe after a crash (the HUD's shield countdown): a timer, so it blends. */
    shield: { kind: 'linear', scope: 'game' },
  },
);
export type ArenaSchema = typeof schema;

/** Entities in all: the tables' capacities added up. */
export const CAPACITY = tablesCapacity(schema);
export const TICK_RATE = 30;
/** Rocks the worker keeps alive: new big ones drift in from the edges when shots thin them out. */
export const ROCK_TARGET = 2400;

/** The arena, in world units: x in [-HALF_W, HALF_W], y in [-HALF_H, HALF_H] (y up); everything wraps. */
export const HALF_W = 140;
export const HALF_H = 88;

/** Rock radius per tier (0 small .. 2 big) and points for a hit. */
export const ROCK_RADIUS = [0.6, 1.0, 1.7] as const;
export const ROCK_POINTS = [30, 20, 10] as const;
export const SHIP_RADIUS = 1.6;

/**
 * Event codes of `tick.emit`, answered by the page in the frame that shows their tick (a sound, a flash):
 * burst (x, y, tier, the score after it), a rock gone to a shot or a ram; shot (x, y), a bullet fired.
 */
export const EVENT = { burst: 0, shot: 1 } as const;

/** Input codes for `runtime.sendInput(code, button)`. */
export const INPUT = { down: 1, up: 2 } as const;
/** Buttons, the payload of a down or up event. */
export const BUTTON = { left: 0, right: 1, up: 2, down: 3, fire: 4 } as const;
export const BUTTONS = 5;
