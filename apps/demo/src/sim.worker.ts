/**
 * The demo's simulation: bodies bouncing in a box under gravity, each spinning about itself, and one big
 * spinner turning in the middle. Bounces are sudden changes of course, so extrapolation visibly overshoots
 * the walls; the spinner's angle wraps at ±π every half turn, which the `angle` kind blends the short way.
 *
 * It runs at a deliberately low tick rate (10 Hz), so the difference between the drawing modes shows. The
 * `load` and `jank` commands burn worker time on purpose, to show what late states look like.
 */
import { exposeSimulation, type World } from 'steadyframe/worker';
import { BOX_X, BOX_Y, CAPACITY, DEFAULT_COUNT, DEFAULT_TICK_RATE, SPINNER_SPIN, schema, type DemoSchema } from './schema.ts';
import { TickLogWriter } from './tick-log.ts';

/** Units per simulated second squared, downward. */
const GRAVITY = 1.5;
/** A jank spike is one long step at most this often (wall clock). */
const JANK_EVERY_MS = 2000;
const TAU = 2 * Math.PI;

let wanted = DEFAULT_COUNT;
let loadMs = 0;
let jankMs = 0;
let lastJank = 0;
let log: TickLogWriter | null = null;
/** Subtracted from `timeOrigin + now()` to give the page's shared clock (its time origin, and the skew). */
let clockBase = 0;
let restored: SavedState | null = null;

/** The published fields of some bodies, to carry the scene over to a new runtime. */
export interface SavedState {
  readonly count: number;
  readonly position: Float32Array;
  readonly velocity: Float32Array;
  readonly angle: Float32Array;
  readonly spin: Float32Array;
}

/** A number in [0, 1) from a body's index and a salt: every run and every re-spawn shows the same sky. */
function hash01(i: number, salt: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

function placeBody(world: World<DemoSchema>, i: number): void {
  const { position, velocity, angle, spin } = world.fields;
  if (i === 0) {
    position[0] = 0;
    position[1] = 0;
    velocity[0] = 0;
    velocity[1] = 0;
    angle[0] = 0;
    spin[0] = SPINNER_SPIN;
    return;
  }
  position[2 * i] = (hash01(i, 0) * 2 - 1) * BOX_X * 0.97;
  position[2 * i + 1] = (hash01(i, 1) * 2 - 1) * BOX_Y * 0.97;
  const heading = hash01(i, 2) * TAU;
  const speed = 0.45 + 1.1 * hash01(i, 3);
  velocity[2 * i] = Math.cos(heading) * speed;
  velocity[2 * i + 1] = Math.sin(heading) * speed;
  angle[i] = hash01(i, 4) * TAU - Math.PI;
  spin[i] = (hash01(i, 5) - 0.5) * 12;
}

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // burning the worker's time on purpose: the `load` and `jank` controls
  }
}

const commands = {
  /** How many bodies live (the spinner included); applied at the next tick. */
  setCount(n: number): void {
    wanted = Math.max(1, Math.min(CAPACITY, Math.floor(n)));
  },
  /** Busy-waits this many ms in every step: a heavier simulation. */
  setLoad(ms: number): void {
    loadMs = Math.max(0, ms);
  },
  /** One step in every two seconds busy-waits this many ms: a GC pause or a level load. 0 turns it off. */
  setJank(ms: number): void {
    jankMs = Math.max(0, ms);
  },
  /** Where to log each tick's timing, and the page's time origin and the measured clock skew. */
  setTickLog(buffer: SharedArrayBuffer, pageTimeOrigin: number, skew: number): void {
    log = new TickLogWriter(buffer);
    clockBase = pageTimeOrigin + skew;
  },
  /** Takes the bodies over from an earlier runtime at the next tick; they snap there rather than blend. */
  restore(state: SavedState): void {
    restored = state;
  },
};
export type Commands = typeof commands;

function applyRestore(world: World<DemoSchema>, state: SavedState): void {
  const count = Math.max(1, Math.min(CAPACITY, state.count));
  const { position, velocity, angle, spin } = world.fields;
  position.set(state.position.subarray(0, 2 * count));
  velocity.set(state.velocity.subarray(0, 2 * count));
  angle.set(state.angle.subarray(0, count));
  spin.set(state.spin.subarray(0, count));
  world.count = count;
  for (let i = 0; i < count; i++) world.snap(i);
}

exposeSimulation({
  schema,
  tickRate: DEFAULT_TICK_RATE,
  commands,
  init(world) {
    for (let i = 0; i < wanted; i++) placeBody(world, i);
    world.count = wanted;
  },
  step(world, tick) {
    const started = performance.now();
    if (restored !== null) {
      applyRestore(world, restored);
      wanted = world.count;
      restored = null;
    }
    // bodies a larger count brings in start fresh; the runtime snaps them on their first tick
    for (let i = world.count; i < wanted; i++) placeBody(world, i);
    world.count = wanted;

    const { position, velocity, angle, spin } = world.fields;
    const dt = tick.dt;
    const fall = GRAVITY * dt;
    angle[0] = wrap(angle[0]! + spin[0]! * dt);
    for (let i = 1, n = world.count; i < n; i++) {
      const px = 2 * i;
      const py = px + 1;
      let vx = velocity[px]!;
      let vy = velocity[py]! - fall;
      let x = position[px]! + vx * dt;
      let y = position[py]! + vy * dt;
      let s = spin[i]!;
      // walls reflect the body and its velocity; a bounce also reverses its spin, like a rolling ball's
      if (x > BOX_X) {
        x = 2 * BOX_X - x;
        vx = -vx;
        s = -s;
      } else if (x < -BOX_X) {
        x = -2 * BOX_X - x;
        vx = -vx;
        s = -s;
      }
      if (y < -BOX_Y) {
        y = -2 * BOX_Y - y;
        vy = -vy;
        s = -s;
      } else if (y > BOX_Y) {
        y = 2 * BOX_Y - y;
        vy = -vy;
      }
      position[px] = x;
      position[py] = y;
      velocity[px] = vx;
      velocity[py] = vy;
      spin[i] = s;
      angle[i] = wrap(angle[i]! + s * dt);
    }

    if (loadMs > 0) busyWait(loadMs);
    if (jankMs > 0 && started - lastJank >= JANK_EVERY_MS) {
      lastJank = started;
      busyWait(jankMs);
    }
    if (log !== null) {
      const now = performance.timeOrigin + performance.now() - clockBase;
      log.append(tick.tick, tick.at, tick.at - now, performance.now() - started);
    }
  },
});

/** An angle in [-π, π): what the `angle` kind expects, and why the spinner's angle jumps every half turn. */
function wrap(a: number): number {
  return a - TAU * Math.floor((a + Math.PI) / TAU);
}
