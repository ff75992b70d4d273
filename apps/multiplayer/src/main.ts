/**
 * The page: a runtime whose simulation worker is the network client (client.worker.ts, predicting this page's
 * ship), drawn every animation frame on a 2D canvas with `runtime.frame()`, as a single-player game draws its own
 * worker's states. The keys steer this page's ship and a click (or Space, or a tap) fires; each is an input event
 * the worker predicts at once and sends on to the server, stamped with the render time it was made at (what the
 * server judges the shot by). The shots and the scores are the server's: its SHOT events (`frame.events`) come
 * with the frame that shows their tick, the scores (`frame.state`) with them.
 *
 * The server is `?server=...` when given (ws://: a bare game server, the e2e test's shaped relays; http://: a
 * Colyseus process), else one of the Colyseus processes `npm run multiplayer` started (it tells Vite their ports,
 * VITE_MULTIPLAYER_COLYSEUS), else this page's own `/play`.
 */
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { watchNetwork, type NetworkCommands, type NetworkStats } from 'steadyframe/network';
import { bindControls } from './controls.ts';
import { drawFrame, hueOf, type Effect } from './draw.ts';
import { createHud } from './hud.ts';
import { CAPACITY, EVENT, INPUT, MAX_PLAYERS, ORBS, PAGE_INPUT_WIDTH, schema, SCORES, SHIPS, type GameSchema } from './schema.ts';
import { RANGE } from './shots.ts';
import { createSounds } from './sound.ts';

/** What the page shows the e2e test (`window.multiplayer`). */
export interface MultiplayerHooks {
  /** A frame of the server's world, with this page's ship in it, has been drawn. */
  ready: boolean;
  runtime: Runtime<GameSchema, NetworkCommands>;
  /** The id this page picked (its ship's `id`), and the slot its ship has (−1: none yet). */
  id: number;
  slot: number;
  frames: number;
  network: NetworkStats | null;
  /** The link's events: 'disconnected', 'reconnected'. */
  events: string[];
  /**
   * Set true to keep, for each drawn frame, its time, whether it was overtaken (1: its callback ran so late that
   * the worker had published past it, and it shows the nearest state at hand) and the orbs' positions in
   * `recorded` (held to the server's states by the test), and its time, ticks and this page's ship in `own`: [time, previousTick, tick,
   * currentTime, x, y, vx, vy, drawn at] (`runtime.now()` as the frame was drawn: a late callback draws a frame
   * whose time is before an input the worker has already taken).
   */
  recording: boolean;
  recorded: number[][];
  own: number[][];
  /** `runtime.now()` at each change of the steering this page sent, and the steering: [at, dx, dy]. */
  steered: number[][];
  /** This page's shots: [made at (`runtime.now()`), aim dx, aim dy, the frame time it was drawn from]. */
  fired: number[][];
  /** Each SHOT event a frame presented: [slot, x, y, entity hit, the slot's score in that frame, its time]. */
  shots: number[][];
  sounds: number;
  /** Fires along (dx, dy) from this page's ship, as a click does; false while it reloads or has no ship. */
  fire(dx: number, dy: number): boolean;
  /** Called with each frame drawn, after the drawing (the e2e test aims from it). */
  onFrame: ((frame: Frame<GameSchema>) => void) | null;
}

declare global {
  interface Window {
    multiplayer?: MultiplayerHooks;
  }
}

const params = new URLSearchParams(location.search);
/** The ports of the Colyseus processes `npm run multiplayer` started (none: its game server is this page's `/play`). */
const colyseusPorts = String(import.meta.env.VITE_MULTIPLAYER_COLYSEUS ?? '').split(',').filter((port) => port !== '');
/** One of them, at random: whichever a page asks, matchmaking seats it in the room, on whichever process holds it. */
const colyseusPort = colyseusPorts[Math.floor(Math.random() * colyseusPorts.length)];
const url =
  params.get('server') ??
  (colyseusPort !== undefined ? `${location.protocol}//${location.hostname}:${colyseusPort}` : `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/play`);
const worker = new Worker(new URL('./client.worker.ts', import.meta.url), { type: 'module', name: 'network client' });
const runtime = await createRuntime<GameSchema, NetworkCommands, { url: string }>({ worker, schema, capacity: CAPACITY, setup: { url }, input: { payloadWidth: PAGE_INPUT_WIDTH } });
const id = 1 + Math.floor(Math.random() * 999_999);

const canvas = document.getElementById('view') as HTMLCanvasElement;
const context = canvas.getContext('2d')!;
const hud = createHud(document.getElementById('scores')!, document.getElementById('link')!);
const sounds = createSounds(window);
/** Beams and bursts on screen. */
const effects: Effect[] = [];
/** The newest frame drawn, and where this page's ship is in it (its slot; −1: not in the world yet). */
let last: Frame<GameSchema> | null = null;
let slot = -1;
/** The steering this page sends (again every 200 ms). */
let steering = [0, 0];

const hooks: MultiplayerHooks = {
  ready: false,
  runtime,
  id,
  slot: -1,
  frames: 0,
  network: null,
  events: [],
  recording: false,
  recorded: [],
  own: [],
  steered: [],
  fired: [],
  shots: [],
  sounds: 0,
  fire,
  onFrame: null,
};
window.multiplayer = hooks;

function resize(): void {
  canvas.width = Math.round(canvas.clientWidth * devicePixelRatio);
  canvas.height = Math.round(canvas.clientHeight * devicePixelRatio);
}
addEventListener('resize', resize);
resize();

/** A shot along (dx, dy) from this page's ship: its beam drawn at once, the shot judged on the server. */
function fire(dx: number, dy: number): boolean {
  if (last === null || slot < 0) return false;
  const e = SHIPS + slot;
  const length = Math.hypot(dx, dy);
  // the predicted ship's reload: the server's, a prediction ahead
  if (last.fields.reload[e]! > 0 || !(length > 0)) return false;
  const x = last.fields.position[2 * e]!;
  const y = last.fields.position[2 * e + 1]!;
  if (!runtime.sendInput(INPUT.SHOOT, dx, dy)) return false;
  hooks.fired.push([runtime.now(), dx, dy, last.time]);
  effects.push({ kind: 'beam', from: [x, y], to: [x + (dx / length) * RANGE, y + (dy / length) * RANGE], hue: hueOf(id), at: last.time });
  sounds.shot(false);
  return true;
}

bindControls(document.getElementById('pad')!, canvas, {
  steer(dx, dy) {
    steering = [dx, dy];
    hooks.steered.push([runtime.now(), dx, dy]);
    runtime.sendInput(INPUT.STEER, dx, dy);
  },
  fireAt(x, y) {
    if (last === null || slot < 0) return;
    const e = SHIPS + slot;
    fire(x - last.fields.position[2 * e]!, y - last.fields.position[2 * e + 1]!);
  },
  fireAhead() {
    if (last === null || slot < 0) return;
    const heading = last.fields.heading[SHIPS + slot]!;
    fire(Math.cos(heading), Math.sin(heading));
  },
});

const link = watchNetwork(runtime, { intervalMs: 250 });
link.on('stats', (n) => {
  hooks.network = n;
  hud.link(n);
});
link.on('disconnected', () => hooks.events.push('disconnected'));
link.on('reconnected', () => {
  hooks.events.push('reconnected');
  greet(); // a new connection is a new player on the server: say who we are again
});

// who we are: the server gives us a ship with it; said every half second until our ship shows (an input made
// before the clock syncs is not sent), and the steering again every 200 ms
let greeting: ReturnType<typeof setInterval> | undefined;
function greet(): void {
  clearInterval(greeting);
  greeting = setInterval(() => runtime.sendInput(INPUT.HELLO, id), 500);
}
setInterval(() => runtime.sendInput(INPUT.STEER, steering[0]!, steering[1]!), 200);

/** The server's shots this frame presents: beams (this page's own drew at the click), bursts, sounds. */
function presentShots(frame: Frame<GameSchema>): void {
  const events = frame.events;
  for (let i = 0; i < events.length; i++) {
    if (events.code(i) !== EVENT.SHOT) continue;
    const shooter = events.payload(i, 0);
    const to: [number, number] = [events.payload(i, 1), events.payload(i, 2)];
    const hit = events.payload(i, 3);
    const e = SHIPS + shooter;
    const hue = hueOf(frame.fields.id[e]!);
    if (shooter !== slot) effects.push({ kind: 'beam', from: [frame.fields.position[2 * e]!, frame.fields.position[2 * e + 1]!], to, hue, at: frame.time });
    if (hit >= 0) effects.push({ kind: 'burst', from: to, to, hue, at: frame.time });
    if (shooter !== slot || hit >= 0) sounds.shot(hit >= 0);
    hooks.shots.push([shooter, to[0], to[1], hit, frame.state[SCORES[shooter]!], frame.time]);
  }
  hooks.sounds = sounds.played;
}

await runtime.start();
greet();
function onAnimationFrame(ts: number): void {
  requestAnimationFrame(onAnimationFrame);
  const frame = runtime.frame(ts);
  if (frame === null) return;
  last = frame;
  slot = -1;
  for (let s = 0; s < MAX_PLAYERS; s++) if (frame.fields.owner[SHIPS + s] !== 0 && frame.fields.id[SHIPS + s] === id) slot = s;
  hooks.slot = slot;
  drawFrame(context, frame, id, effects);
  presentShots(frame);
  hud.scores(frame, id);
  if (frame.count < CAPACITY) return; // nothing from the server yet
  if (hooks.recording) {
    hooks.recorded.push([frame.time, frame.overtaken ? 1 : 0, ...frame.fields.position.subarray(0, 2 * ORBS)]);
    if (slot >= 0) {
      const e = SHIPS + slot;
      const { position: p, velocity: v } = frame.fields;
      hooks.own.push([frame.time, frame.previousTick, frame.tick, frame.currentTime, p[2 * e]!, p[2 * e + 1]!, v[2 * e]!, v[2 * e + 1]!, runtime.now()]);
    }
  }
  hooks.frames++;
  if (slot >= 0) {
    clearInterval(greeting);
    hooks.ready = true;
  }
  hooks.onFrame?.(frame);
}
requestAnimationFrame(onAnimationFrame);
