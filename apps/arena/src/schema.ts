import { defineSchema } from 'steadyframe';

/**
 * What crosses from the worker to the page, per entity. Imported by both sides. Entity 0 is always the
 * ship (it is never despawned, so `despawn`'s swap-with-last never moves it).
 */
export const schema = defineSchema({
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
  /** x y z w; rocks tumble in 3D, the ship and bullets turn about +z. */
  rotation: { width: 4, kind: 'quaternion', velocity: 'spin' },
  spin: { width: 3, kind: 'linear' },
  /** Per-axis scale for the rock mesh: 0 hides the ship and bullets there (they are drawn on their own). */
  size: { width: 3, kind: 'linear' },
  /** SHIP, ROCK or BULLET; and for rocks the tier, for bullets the seconds left. `none`: never blended. */
  kind: { width: 1, kind: 'none' },
  tier: { width: 1, kind: 'none' },
  // game fields: one number for the whole world, published with the entities, so the HUD shows the score of the
  // very tick the picture shows (counts are `none`: they change with the first frame that moves toward the tick)
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
});
export type ArenaSchema = typeof schema;

export const KIND = { ship: 0, rock: 1, bullet: 2, dead: 3 } as const;

export const CAPACITY = 4096;
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
