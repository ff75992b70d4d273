/**
 * The shared world, one schema for the server's simulation and every client: two tables of discs that move, orbs
 * on circles and players steered by their keys, each with its velocity (so clients bridge a lost snapshot with
 * Hermite and extrapolate a moment past the newest) and a heading; a player also has its id and score. And the
 * game's own state (game fields, one number each for the world): where the coin lies, and how many coins have
 * been collected.
 */
import { defineTables, tablesCapacity } from 'steadyframe';

/** The arena, in world units. */
export const WIDTH = 1000;
export const HEIGHT = 600;
export const PLAYER_RADIUS = 18;
export const ORB_RADIUS = 9;
export const COIN_RADIUS = 12;
export const ORBS = 24;
/** Most players at once. */
export const MAX_PLAYERS = 16;

/**
 * How each field crosses the network (`quantize`: the server rounds every value to these steps and each client draws
 * the same rounded values; unchanged ones cost next to nothing, since each snapshot is a delta against the newest
 * state the client acknowledged). One range serves both axes of a field:
 * - position: a hundredth of a unit (a 1000-unit arena drawn on a page about 1000 pixels wide: a hundredth of a
 *   pixel) over −100..1100, the arena's 1000 × 600 with a 100-unit margin on every side (every disc stays inside the
 *   arena; a value past the range would be drawn at its edge): 120,000 steps, 17 bits.
 * - velocity: a hundredth of a unit a second over ±1000. A held key takes a player to about 640 units a second on
 *   each axis (900 units/s² against a damping to a quarter each second) and an orb at most 288 (radius 160, 1.8
 *   rad/s). Velocity only shapes the curve between two snapshots and the extrapolation past the newest: a hundredth
 *   of a unit a second is a two-thousandth of a unit over a 50 ms interval. 200,000 steps, 18 bits.
 * - heading: 12 bits, a turn in 4,096 steps (0.09°): the heading mark on a player's 18-unit disc moves 0.03 units
 *   a step.
 */
const disc = {
  position: { width: 2, kind: 'linear', velocity: 'velocity', quantize: { min: -100, max: 1100, precision: 0.01 } },
  velocity: { width: 2, kind: 'linear', quantize: { min: -1000, max: 1000, precision: 0.01 } },
  heading: { width: 1, kind: 'angle', quantize: { bits: 12 } },
} as const;

export const schema = defineTables(
  {
    /** The orbs, always all of them (entities 0 .. ORBS - 1: an orb caught goes elsewhere, never away). */
    orbs: { capacity: ORBS, fields: disc },
    players: {
      capacity: MAX_PLAYERS,
      fields: {
        ...disc,
        /** The id its page picked (and draws itself by): a whole number under a million, exact in whole steps (20 bits). */
        id: { width: 1, kind: 'none', quantize: { min: 0, max: 2 ** 20 - 1, precision: 1 } },
        /** Orbs it has caught: whole, exact up to 2^24 − 1 (the largest run of whole numbers a float32 holds). */
        score: { width: 1, kind: 'none', quantize: { min: 0, max: 2 ** 24 - 1, precision: 1 } },
      },
    },
  },
  {
    /** The coin: any player that touches it collects it, and it appears elsewhere (none: it jumps). */
    coinX: { kind: 'none', scope: 'game' },
    coinY: { kind: 'none', scope: 'game' },
    /** Coins collected, by all players. */
    coins: { kind: 'none', scope: 'game' },
  },
);
export type GameSchema = typeof schema;
/** Entities in all: both tables' capacities. */
export const CAPACITY = tablesCapacity(schema);

/** The input codes a page sends: steer (payload dx, dy in −1..1), and hello (payload: the id it picked). */
export const INPUT = { STEER: 0, HELLO: 1 } as const;
export const INPUT_CODES = 2;
/**
 * The event the server's step emits when a player collects the coin, sent to every page (the publisher's
 * default): payload the coin's x, y, and the collector's id. Each page plays a sound with the frame that shows it.
 */
export const EVENT = { PICKUP: 0 } as const;
/** Server ticks a second, and every how many ticks a snapshot goes out (20 a second). */
export const TICK_RATE = 60;
export const SEND_EVERY = 3;
