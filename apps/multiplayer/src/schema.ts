/**
 * The shared world, one schema for the server's simulation, every client's prediction and every page: a plain
 * schema of fixed slots (lag compensation's `tick.rewind` keeps plain schemas), orbs first, then a slot per ship.
 *
 * ```text
 *  entity   0 ............ ORBS − 1 │ ORBS ........... ORBS + MAX_PLAYERS − 1
 *           orbs: drift and curve     ship slots: owner 0 = empty, else the server's player number + 1
 *  game     score0 ... score7: each ship slot's score (one number each, published with the entities)
 * ```
 *
 * Everything the step reads is a field here, on the wire's grid: the step ends by quantising the world
 * (`quantizeFields`), so the server's truth is what each client decodes, bit for bit, and a client that predicts
 * its own ship steps from the same numbers as the server.
 */
import { defineSchema } from 'steadyframe';

/** The arena, in world units. */
export const WIDTH = 1000;
export const HEIGHT = 600;
export const SHIP_RADIUS = 16;
export const ORB_RADIUS = 10;
export const ORBS = 12;
/** Most ships at once: the ship slots. */
export const MAX_PLAYERS = 8;
/** Entity `SHIPS + s` is ship slot s. */
export const SHIPS = ORBS;
/** Every entity, always: the world's count (an empty ship slot is an entity whose owner is 0). */
export const CAPACITY = ORBS + MAX_PLAYERS;

/**
 * Each ship slot's score, a game field: not a field of the ship, which the client predicts (a prediction would
 * guess at hits the server decides), but game state, which every page draws as the server made it, with the
 * frame that presents the shot that scored.
 */
export const SCORES = ['score0', 'score1', 'score2', 'score3', 'score4', 'score5', 'score6', 'score7'] as const;
type ScoreFields = { readonly [K in (typeof SCORES)[number]]: { readonly kind: 'none'; readonly scope: 'game' } };
const scores = Object.fromEntries(SCORES.map((name) => [name, { kind: 'none', scope: 'game' }])) as ScoreFields;

/**
 * How each field crosses the network (`quantize`: the server rounds every value to these steps at the end of its
 * step, and each client gets exactly them). One range serves both axes of a field:
 * - position: a hundredth of a unit over −100..1100 (the arena and a margin; an empty slot parks at −50): 17 bits.
 * - velocity: a hundredth of a unit a second over ±1000 (a ship tops out near 640 a second, 890 with a shot's
 *   knock on top; an orb at 180): 18 bits.
 * - heading: 12 bits, a turn in 4,096 steps.
 * - spin: an orb's turn rate, rad/s, in steps of 1/4096 (exact in a float32) over ±4: 15 bits.
 * - steer: the keys a ship's player holds, in hundredths over −1..1 (keys send −1, 0, 1; a thumb hundredths).
 * - owner, id: whole numbers under 2^20 (the server's player number + 1; the id the page picked).
 * - reload: whole ticks until the ship may fire again.
 */
export const schema = defineSchema({
  position: { width: 2, kind: 'linear', velocity: 'velocity', quantize: { min: -100, max: 1100, precision: 0.01 } },
  velocity: { width: 2, kind: 'linear', quantize: { min: -1000, max: 1000, precision: 0.01 } },
  heading: { width: 1, kind: 'angle', quantize: { bits: 12 } },
  spin: { width: 1, kind: 'none', quantize: { min: -4, max: 4, precision: 1 / 4096 } },
  steer: { width: 2, kind: 'none', quantize: { min: -1, max: 1, precision: 0.01 } },
  owner: { width: 1, kind: 'none', quantize: { min: 0, max: 2 ** 20 - 1, precision: 1 } },
  id: { width: 1, kind: 'none', quantize: { min: 0, max: 2 ** 20 - 1, precision: 1 } },
  reload: { width: 1, kind: 'none', quantize: { min: 0, max: 255, precision: 1 } },
  ...scores,
});
export type GameSchema = typeof schema;

/**
 * The input codes. A page sends the first three: steer (payload dx, dy in −1..1), hello (payload: the id it
 * picked; the server gives it a ship), shoot (payload: the aim, dx, dy). The server's own host sends leave when a
 * connection closes (the publisher takes codes 0 to INPUT_CODES − 1 from pages, so no page sends it).
 * On the server each payload starts with the player and the input's made time (INPUT_PLAYER, INPUT_MADE_TIME).
 */
export const INPUT = { STEER: 0, HELLO: 1, SHOOT: 2, LEAVE: 3 } as const;
export const INPUT_CODES = 3;
/** Payload values a page's input carries, and the server's (the player and the made time first). */
export const PAGE_INPUT_WIDTH = 2;
export const SERVER_INPUT_WIDTH = 2 + PAGE_INPUT_WIDTH;

/**
 * The event the server's step emits for every shot, to every page: payload the shooter's slot, where the beam
 * ended (x, y: at the target it hit, or at its range), and the entity hit (−1: none). Each page draws the beam
 * and plays a sound with the frame that shows the shot's tick, the score with it.
 */
export const EVENT = { SHOT: 0 } as const;
/** Server ticks a second, and every how many ticks a snapshot goes out (20 a second). */
export const TICK_RATE = 60;
export const SEND_EVERY = 3;

/** The orbs' seed: the same orbs every time a server (or a room) starts. */
export const SEED = 12345;
/** The Colyseus room's name, as colyseus-server.ts defines it and each page's worker joins it (matchmaking by name). */
export const ROOM = 'game';
