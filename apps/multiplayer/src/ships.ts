/**
 * The ships: a slot each (schema.ts), taken by a player's hello and given back by its leave, steered by the keys
 * its player holds (the `steer` field), slowed by drag, bounced off the walls and off each other.
 *
 * Everything here reads the world's fields and nothing else (no clock, no module state, no generator), with plain
 * arithmetic and a square root (exact in IEEE 754: the same on every engine) for the motion, so a client that
 * predicts its own ship with this code and the same inputs steps to the server's numbers exactly. The heading's
 * `Math.atan2` only turns the ship as drawn (V8 computes it alike in Node and Chromium).
 *
 * ```text
 *  each tick, per live ship:   v += steer × ACCELERATION × dt;  v ×= KEEP;  |v| < STOP with no key: v = 0
 *                              p += v × dt; off a wall: reflected, v's component turned round
 *  then every overlapping pair: pushed apart along the line between them, their speeds along it exchanged
 * ```
 */
import type { World } from 'steadyframe/worker';
import { HEIGHT, MAX_PLAYERS, SHIP_RADIUS, SHIPS, type GameSchema, SCORES, WIDTH } from './schema.ts';

type GameWorld = World<GameSchema>;

/** Units per second² a held key accelerates by. */
export const ACCELERATION = 900;
/**
 * The share of velocity kept each tick at 60 Hz: 0.977^60 = 0.25, a quarter kept per second. A literal, not
 * `0.25 ** dt`: the same number on every engine without asking how each computes a power. A held key tops out
 * near 15 × 0.977 / 0.023 = 640 units a second.
 */
export const KEEP = 0.977;
/** Below this speed (units/s) an axis with no key held stops: drag alone would leave a crawl on the quantised grid. */
const STOP = 5;
/** Where an empty slot's ship waits, off the arena. */
const PARKED = -50;

/** The slot of `player`'s ship (its owner is player + 1), or −1. */
export function slotOf(world: GameWorld, player: number): number {
  const owner = world.fields.owner;
  for (let s = 0; s < MAX_PLAYERS; s++) if (owner[SHIPS + s] === player + 1) return s;
  return -1;
}

/** Where slot s's ship starts: two rows of four, so a new ship never lands on another's start. */
function spawnPoint(slot: number, out: Float32Array, at: number): void {
  out[at] = WIDTH * (0.125 + 0.25 * (slot % 4));
  out[at + 1] = HEIGHT * (slot < 4 ? 0.3 : 0.7);
}

/**
 * A hello: `player` takes the first empty slot (none empty: it watches), at rest at the slot's start, its score
 * 0; a player with a ship already keeps it (the page says hello again until it sees its ship) and its id.
 */
export function join(world: GameWorld, player: number, id: number): void {
  const f = world.fields;
  let slot = slotOf(world, player);
  if (slot < 0) {
    slot = f.owner.subarray(SHIPS, SHIPS + MAX_PLAYERS).indexOf(0);
    if (slot < 0) return;
    const e = SHIPS + slot;
    f.owner[e] = player + 1;
    spawnPoint(slot, f.position, 2 * e);
    f.velocity[2 * e] = f.velocity[2 * e + 1] = 0;
    f.steer[2 * e] = f.steer[2 * e + 1] = 0;
    f.heading[e] = 0;
    f.reload[e] = 0;
    world.state[SCORES[slot]!] = 0;
    world.snap(e); // from its start, not a streak from where the slot's ship waited
  }
  f.id[SHIPS + slot] = Number.isFinite(id) ? Math.max(0, Math.min(2 ** 20 - 1, Math.round(id))) : 0;
}

/** A leave: the slot is empty again. */
export function leave(world: GameWorld, player: number): void {
  const slot = slotOf(world, player);
  if (slot >= 0) emptySlot(world, slot);
}

/** Slot s empty: no owner, its ship parked off the arena at rest (snapped there: no streak across the arena). */
export function emptySlot(world: GameWorld, slot: number): void {
  const f = world.fields;
  const e = SHIPS + slot;
  f.owner[e] = f.id[e] = 0;
  f.position[2 * e] = f.position[2 * e + 1] = PARKED;
  f.velocity[2 * e] = f.velocity[2 * e + 1] = 0;
  f.steer[2 * e] = f.steer[2 * e + 1] = 0;
  f.reload[e] = 0;
  world.snap(e);
}

/** A page's steering value, clamped to −1..1 (anything not a number: 0). */
const unit = (x: number): number => (Number.isFinite(x) ? Math.max(-1, Math.min(1, x)) : 0);

/** The keys `player` holds now. */
export function steer(world: GameWorld, player: number, dx: number, dy: number): void {
  const slot = slotOf(world, player);
  if (slot < 0) return;
  world.fields.steer[2 * (SHIPS + slot)] = unit(dx);
  world.fields.steer[2 * (SHIPS + slot) + 1] = unit(dy);
}

/** Every live ship a tick of `dt` on: steered, dragged, moved, off the walls, then apart from each other. */
export function moveShips(world: GameWorld, dt: number): void {
  const { position: p, velocity: v, steer: keys, owner, heading, reload } = world.fields;
  for (let e = SHIPS; e < SHIPS + MAX_PLAYERS; e++) {
    if (owner[e] === 0) continue;
    for (let axis = 0; axis < 2; axis++) {
      const at = 2 * e + axis;
      let speed = (v[at]! + keys[at]! * ACCELERATION * dt) * KEEP;
      if (keys[at] === 0 && Math.abs(speed) < STOP) speed = 0;
      let x = p[at]! + speed * dt;
      const high = (axis === 0 ? WIDTH : HEIGHT) - SHIP_RADIUS;
      if (x < SHIP_RADIUS || x > high) {
        x = x < SHIP_RADIUS ? 2 * SHIP_RADIUS - x : 2 * high - x;
        speed = -speed;
      }
      v[at] = speed;
      p[at] = x;
    }
    if (Math.abs(v[2 * e]!) + Math.abs(v[2 * e + 1]!) > 5) heading[e] = Math.atan2(v[2 * e + 1]!, v[2 * e]!);
    if (reload[e]! > 0) reload[e] = reload[e]! - 1;
  }
  collide(world);
}

/** Overlapping ships pushed apart along the line between them, their velocities along it exchanged (equal masses). */
function collide(world: GameWorld): void {
  const { position: p, velocity: v, owner } = world.fields;
  for (let i = SHIPS; i < SHIPS + MAX_PLAYERS; i++) {
    if (owner[i] === 0) continue;
    for (let j = i + 1; j < SHIPS + MAX_PLAYERS; j++) {
      if (owner[j] === 0) continue;
      const dx = p[2 * j]! - p[2 * i]!;
      const dy = p[2 * j + 1]! - p[2 * i + 1]!;
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d >= 2 * SHIP_RADIUS || d === 0) continue;
      const nx = dx / d;
      const ny = dy / d;
      const push = (2 * SHIP_RADIUS - d) / 2;
      p[2 * i] = p[2 * i]! - nx * push;
      p[2 * i + 1] = p[2 * i + 1]! - ny * push;
      p[2 * j] = p[2 * j]! + nx * push;
      p[2 * j + 1] = p[2 * j + 1]! + ny * push;
      const along = (v[2 * j]! - v[2 * i]!) * nx + (v[2 * j + 1]! - v[2 * i + 1]!) * ny;
      if (along >= 0) continue;
      v[2 * i] = v[2 * i]! + along * nx;
      v[2 * i + 1] = v[2 * i + 1]! + along * ny;
      v[2 * j] = v[2 * j]! - along * nx;
      v[2 * j + 1] = v[2 * j + 1]! - along * ny;
    }
  }
}
