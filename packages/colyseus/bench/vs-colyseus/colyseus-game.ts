/**
 * The benchmark game (game.ts) in Colyseus's terms, shared by its room (colyseus-room.ts, on the server) and its
 * client (the reconciler's `step`), as Colyseus's netcode guide shares `applyInput`: the state and the input as
 * schemas, and one input applied to a player over the fixed step. The input is the held key and, on one step, a
 * shot (its number, 0 for none, and the unit direction it goes).
 */
import { schema, t, type SchemaType } from '@colyseus/schema';
import { moveAxis, SPEED } from './game.ts';

export const Disc = schema({ x: t.number().default(0), y: t.number().default(0) });
export type Disc = SchemaType<typeof Disc>;

export const GameState = schema({
  players: t.map(Disc),
  target: Disc,
  orbs: t.map(Disc),
});
export type GameState = SchemaType<typeof GameState>;

export const MoveInput = schema({
  moveX: t.number().default(0),
  moveY: t.number().default(0),
  shot: t.number().default(0),
  aimX: t.number().default(0),
  aimY: t.number().default(0),
});
export type MoveInput = SchemaType<typeof MoveInput>;

/** One input over one fixed step: the SAME function the room runs and the client's reconciler predicts with. */
export function applyInput(player: { x: number; y: number }, input: { moveX: number; moveY: number }, dt: number): void {
  player.x = moveAxis(player.x, SPEED * input.moveX, dt);
  player.y = moveAxis(player.y, SPEED * input.moveY, dt);
}
