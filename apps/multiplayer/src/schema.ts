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

const disc = {
  position: { width: 2, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 2, kind: 'linear' },
  heading: { width: 1, kind: 'angle' },
} as const;

export const schema = defineTables(
  {
    /** The orbs, always all of them (entities 0 .. ORBS - 1: an orb caught goes elsewhere, never away). */
    orbs: { capacity: ORBS, fields: disc },
    players: {
      capacity: MAX_PLAYERS,
      fields: {
        ...disc,
        /** The id its page picked (and draws itself by). */
        id: { width: 1, kind: 'none' },
        /** Orbs it has caught. */
        score: { width: 1, kind: 'none' },
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
