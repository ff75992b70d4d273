/**
 * The shared world, simulated on the server (in a worker thread of `createNodeRuntime`): orbs circling (the
 * `orbs` table), and a disc per player that its page steers (the `players` table). A player that touches an orb
 * catches it (a point) and the orb appears somewhere else at once (`snap`: clients show the jump, never a
 * streak). Players arrive with their page's hello (the id it picked, which it draws itself by) and leave when
 * the server says their connection closed; the server follows each player's disc by its handle, which a
 * despawn of another player's disc does not change (`despawnHandle`, `indexOf`).
 *
 * The coin (game fields: one for the world) is collected by the first player to touch it: a point on the world's
 * count (`coins`), a PICKUP event to every page (`tick.emit`: the publisher carries it to each client until it
 * has it, and each plays it with the frame that shows the coin moving), and the coin goes elsewhere.
 *
 * Inputs arrive through the snapshot publisher: the player number (the server's, one per connection) in payload
 * 0, then the page's own values (steer: dx, dy; hello: its id).
 */
import { exposeSimulation, type TickInfo, type World } from 'steadyframe/worker';
import { COIN_RADIUS, EVENT, HEIGHT, INPUT, ORB_RADIUS, ORBS, PLAYER_RADIUS, schema, TICK_RATE, WIDTH } from './schema.ts';

type GameWorld = World<typeof schema>;

/** Units per second² a held key accelerates by, and the share of velocity kept per second. */
const ACCELERATION = 900;
const DAMPING = 0.25;

/** A seeded generator: the same world every time the server starts. */
let seed = 12345;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

/** Each orb's circle: centre, radius, angular speed (rad/s), phase. */
const orbs = Array.from({ length: ORBS }, () => ({ cx: 0, cy: 0, r: 0, w: 0, phase: 0 }));
/** Per player (the server's number for its connection): its disc's handle in the players table, and its steering. */
const players = new Map<number, { handle: number; steer: [number, number] }>();
/** A player disc's handle -> the player's number. */
const playerOf = new Map<number, number>();
let time = 0;

function placeOrb(i: number): void {
  const o = orbs[i]!;
  o.r = 40 + random() * 120;
  o.cx = o.r + ORB_RADIUS + random() * (WIDTH - 2 * (o.r + ORB_RADIUS));
  o.cy = o.r + ORB_RADIUS + random() * (HEIGHT - 2 * (o.r + ORB_RADIUS));
  o.w = (random() < 0.5 ? -1 : 1) * (0.6 + random() * 1.2);
  o.phase = random() * 2 * Math.PI - o.w * time;
}

function moveOrbs(world: GameWorld): void {
  const { position, velocity, heading } = world.tables.orbs.fields;
  for (let i = 0; i < ORBS; i++) {
    const o = orbs[i]!;
    const a = o.phase + o.w * time;
    position[2 * i] = o.cx + o.r * Math.cos(a);
    position[2 * i + 1] = o.cy + o.r * Math.sin(a);
    velocity[2 * i] = -o.r * o.w * Math.sin(a);
    velocity[2 * i + 1] = o.r * o.w * Math.cos(a);
    heading[i] = Math.atan2(velocity[2 * i + 1]!, velocity[2 * i]!);
  }
}

/** The index of `player`'s disc in the players table, or -1. */
function entityOf(world: GameWorld, player: number): number {
  const known = players.get(player);
  return known === undefined ? -1 : world.tables.players.indexOf(known.handle);
}

function join(world: GameWorld, player: number, id: number): void {
  const table = world.tables.players;
  let i = entityOf(world, player);
  if (i < 0) {
    i = table.spawn();
    if (i < 0) return; // full: the page watches, unseen
    const handle = table.handle(i);
    players.set(player, { handle, steer: [0, 0] });
    playerOf.set(handle, player);
    const { position, velocity, heading, score } = table.fields;
    position[2 * i] = PLAYER_RADIUS + random() * (WIDTH - 2 * PLAYER_RADIUS);
    position[2 * i + 1] = PLAYER_RADIUS + random() * (HEIGHT - 2 * PLAYER_RADIUS);
    velocity[2 * i] = 0;
    velocity[2 * i + 1] = 0;
    heading[i] = 0;
    score[i] = 0;
  }
  table.fields.id[i] = id;
}

function leave(world: GameWorld, player: number): void {
  const known = players.get(player);
  players.delete(player);
  if (known === undefined) return;
  playerOf.delete(known.handle);
  world.tables.players.despawnHandle(known.handle); // the last disc moves into its place, handle and all
}

function placeCoin(world: GameWorld): void {
  world.state.coinX = COIN_RADIUS + random() * (WIDTH - 2 * COIN_RADIUS);
  world.state.coinY = COIN_RADIUS + random() * (HEIGHT - 2 * COIN_RADIUS);
}

/** The first player touching the coin collects it: counted, told to every page, and the coin moves on. */
function collectCoin(world: GameWorld, tick: TickInfo): void {
  const { position, id } = world.tables.players.fields;
  const { coinX, coinY } = world.state;
  for (let i = 0; i < world.tables.players.count; i++) {
    if ((position[2 * i]! - coinX) ** 2 + (position[2 * i + 1]! - coinY) ** 2 > (PLAYER_RADIUS + COIN_RADIUS) ** 2) continue;
    world.state.coins += 1;
    tick.emit(EVENT.PICKUP, coinX, coinY, id[i]!);
    placeCoin(world);
    return;
  }
}

function movePlayers(world: GameWorld, dt: number): void {
  const table = world.tables.players;
  const { position, velocity, heading, score } = table.fields;
  const orbs = world.tables.orbs;
  const orb = orbs.fields.position;
  const keep = DAMPING ** dt;
  for (let i = 0; i < table.count; i++) {
    const steer = players.get(playerOf.get(table.handle(i))!)?.steer ?? [0, 0];
    for (let axis = 0; axis < 2; axis++) {
      const at = 2 * i + axis;
      let v = (velocity[at]! + steer[axis]! * ACCELERATION * dt) * keep;
      let p = position[at]! + v * dt;
      const high = (axis === 0 ? WIDTH : HEIGHT) - PLAYER_RADIUS;
      if (p < PLAYER_RADIUS || p > high) {
        p = p < PLAYER_RADIUS ? 2 * PLAYER_RADIUS - p : 2 * high - p; // bounce off the wall
        v = -v;
      }
      velocity[at] = v;
      position[at] = p;
    }
    if (Math.hypot(velocity[2 * i]!, velocity[2 * i + 1]!) > 5) heading[i] = Math.atan2(velocity[2 * i + 1]!, velocity[2 * i]!);
    // catching: an orb within reach goes elsewhere at once, and the player scores
    for (let o = 0; o < ORBS; o++) {
      const dx = orb[2 * o]! - position[2 * i]!;
      const dy = orb[2 * o + 1]! - position[2 * i + 1]!;
      if (dx * dx + dy * dy > (PLAYER_RADIUS + ORB_RADIUS) ** 2) continue;
      placeOrb(o);
      orbs.snap(o);
      score[i] = score[i]! + 1;
    }
  }
}

/** A page's steering value, clamped to −1..1 (anything not a number: 0). */
const unit = (x: number): number => (Number.isFinite(x) ? Math.max(-1, Math.min(1, x)) : 0);

const pendingLeaves: number[] = [];
/** Players the coin is to be put on (the e2e test's pickup on demand). */
const coinDrops: number[] = [];
const commands = {
  /** Puts the coin on `player`'s disc: collected at the next tick (for the e2e test: a pickup on demand). */
  dropCoin(player: number) {
    coinDrops.push(player);
  },
  /** The server's host says a player's connection closed: its disc goes at the next tick. */
  leave(player: number) {
    pendingLeaves.push(player);
  },
  /** The players in the world now: [player, id, score] each. */
  players(): Array<[number, number, number]> {
    return [...playersSeen];
  },
};
export type GameCommands = typeof commands;
let playersSeen: Array<[number, number, number]> = [];

exposeSimulation({
  schema,
  tickRate: TICK_RATE,
  commands,
  init(world) {
    world.tables.orbs.count = ORBS;
    for (let i = 0; i < ORBS; i++) placeOrb(i);
    moveOrbs(world);
    placeCoin(world);
  },
  step(world, tick) {
    time += tick.dt;
    for (const player of pendingLeaves.splice(0)) leave(world, player);
    for (let e = 0; e < tick.input.length; e++) {
      const player = tick.input.payload(e, 0);
      if (tick.input.code(e) === INPUT.HELLO && Number.isFinite(tick.input.payload(e, 1))) join(world, player, tick.input.payload(e, 1));
      const steer = players.get(player)?.steer;
      if (steer !== undefined && tick.input.code(e) === INPUT.STEER) {
        steer[0] = unit(tick.input.payload(e, 1));
        steer[1] = unit(tick.input.payload(e, 2));
      }
    }
    moveOrbs(world);
    movePlayers(world, tick.dt);
    for (const player of coinDrops.splice(0)) {
      const i = entityOf(world, player);
      if (i < 0) continue;
      world.state.coinX = world.tables.players.fields.position[2 * i]!;
      world.state.coinY = world.tables.players.fields.position[2 * i + 1]!;
    }
    collectCoin(world, tick);
    playersSeen = [];
    const table = world.tables.players;
    for (let i = 0; i < table.count; i++) playersSeen.push([playerOf.get(table.handle(i))!, table.fields.id[i]!, table.fields.score[i]!]);
  },
});
