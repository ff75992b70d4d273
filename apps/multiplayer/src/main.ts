/**
 * The page: a runtime whose simulation worker is the network client (client.worker.ts), drawn every animation
 * frame on a 2D canvas with `runtime.frame()`, exactly as a single-player game draws its own worker's states.
 * The keys (or a thumb on the field) steer this page's disc: each change is an input event, which the worker
 * sends on to the server stamped with the render time it was made at. The HUD shows the link (`watchNetwork`).
 * The coin and the count of coins collected are the server's game state (`frame.state`); a pickup is the server's
 * event (`frame.events`), which comes with the frame that shows the coin jump, and plays a sound (Web Audio,
 * synthesised: one AudioContext, made and resumed at the first key or touch, as browsers require).
 *
 * The server is `?server=ws://...` when given (the e2e test's shaped relay), else this page's own `/play`.
 */
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { watchNetwork, type NetworkCommands, type NetworkStats } from 'steadyframe/network';
import { CAPACITY, COIN_RADIUS, EVENT, HEIGHT, INPUT, ORB_RADIUS, ORBS, PLAYER_RADIUS, schema, WIDTH, type GameSchema } from './schema.ts';

export interface MultiplayerHooks {
  /** A frame of the server's world has been drawn. */
  ready: boolean;
  runtime: Runtime<GameSchema, NetworkCommands>;
  /** The id this page picked (its disc's `id`). */
  id: number;
  frames: number;
  network: NetworkStats | null;
  events: string[];
  /** Set true to keep each drawn frame's time and orb positions in `recorded` (the e2e test's oracle). */
  recording: boolean;
  recorded: number[][];
  /** Each pickup event a frame presented: [coin x, coin y, collector's id, coins collected as that frame shows]. */
  pickups: number[][];
  /** Pickup sounds played (0 until a key or touch has allowed audio). */
  sounds: number;
}

declare global {
  interface Window {
    multiplayer?: MultiplayerHooks;
  }
}

const params = new URLSearchParams(location.search);
const url = params.get('server') ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/play`;
const worker = new Worker(new URL('./client.worker.ts', import.meta.url), { type: 'module', name: 'network client' });
const runtime = await createRuntime<GameSchema, NetworkCommands, { url: string }>({ worker, schema, capacity: CAPACITY, setup: { url }, input: { payloadWidth: 2 } });
const id = 1 + Math.floor(Math.random() * 999_999);
const hooks: MultiplayerHooks = { ready: false, runtime, id, frames: 0, network: null, events: [], recording: false, recorded: [], pickups: [], sounds: 0 };
window.multiplayer = hooks;

const canvas = document.getElementById('view') as HTMLCanvasElement;
const context = canvas.getContext('2d')!;
const hud = document.getElementById('hud')!;

function resize(): void {
  const ratio = devicePixelRatio;
  canvas.width = Math.round(canvas.clientWidth * ratio);
  canvas.height = Math.round(canvas.clientHeight * ratio);
}
addEventListener('resize', resize);
resize();

function disc(x: number, y: number, r: number, fill: string): void {
  context.fillStyle = fill;
  context.beginPath();
  context.arc(x, y, r, 0, 2 * Math.PI);
  context.fill();
}

function draw(frame: Frame<GameSchema>): void {
  const scale = canvas.width / WIDTH;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.setTransform(scale, 0, 0, scale, 0, 0);
  // each table from its own range and count: the orbs, each in the hue of its index (an orb is never despawned)
  const orbs = frame.tables.orbs;
  for (let i = 0; i < orbs.count; i++) disc(orbs.fields.position[2 * i]!, orbs.fields.position[2 * i + 1]!, ORB_RADIUS, `hsl(${(i * 47) % 360} 70% 60%)`);
  // the players, each in the hue of its page's id: its heading, and a ring and its score for this page's own disc
  const { position, heading, id: ids, score } = frame.tables.players.fields;
  context.font = '16px system-ui, sans-serif';
  context.textAlign = 'center';
  for (let i = 0; i < frame.tables.players.count; i++) {
    const x = position[2 * i]!;
    const y = position[2 * i + 1]!;
    const who = ids[i]!;
    const r = PLAYER_RADIUS;
    disc(x, y, r, `hsl(${(who * 137) % 360} 70% 55%)`);
    context.strokeStyle = '#0d1117';
    context.lineWidth = 3;
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x + r * Math.cos(heading[i]!), y + r * Math.sin(heading[i]!));
    context.stroke();
    if (who === id) {
      context.strokeStyle = '#fff';
      context.lineWidth = 2;
      context.beginPath();
      context.arc(x, y, r + 5, 0, 2 * Math.PI);
      context.stroke();
    }
    context.fillStyle = '#d6dde6';
    context.fillText(String(score[i]!), x, y - r - 8);
  }
  // the coin: the server's game state, from the same two ticks as the discs
  context.fillStyle = '#f5c542';
  context.beginPath();
  context.arc(frame.state.coinX, frame.state.coinY, COIN_RADIUS, 0, 2 * Math.PI);
  context.fill();
  context.strokeStyle = '#2a3644';
  context.lineWidth = 2;
  context.strokeRect(1, 1, WIDTH - 2, HEIGHT - 2);
}

// the pickup sound: one AudioContext, made and resumed at the first gesture (browsers keep audio off until one)
let audio: AudioContext | null = null;
function allowAudio(): void {
  audio ??= new AudioContext();
  if (audio.state !== 'running') void audio.resume();
}
addEventListener('pointerdown', allowAudio);
addEventListener('keydown', allowAudio);
/** A coin's chime, synthesised: two quick rising tones under a short envelope. */
function chime(): void {
  if (audio === null || audio.state !== 'running') return;
  const t = audio.currentTime;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
  gain.connect(audio.destination);
  const tone = audio.createOscillator();
  tone.type = 'triangle';
  tone.frequency.setValueAtTime(988, t);
  tone.frequency.setValueAtTime(1319, t + 0.07);
  tone.connect(gain);
  tone.start(t);
  tone.stop(t + 0.26);
  hooks.sounds++;
}

// steering: the keys held, or a thumb on the field (the direction it slid from where it pressed)
const held = new Set<string>();
let steer = [0, 0];
function sendSteer(dx: number, dy: number): void {
  if (dx === steer[0] && dy === steer[1]) return;
  steer = [dx, dy];
  runtime.sendInput(INPUT.STEER, dx, dy);
}
const KEYS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0], ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1] };
function fromKeys(): void {
  let dx = 0;
  let dy = 0;
  for (const code of held) {
    dx += KEYS[code]![0];
    dy += KEYS[code]![1];
  }
  sendSteer(Math.sign(dx), Math.sign(dy));
}
addEventListener('keydown', (event) => {
  if (!(event.code in KEYS)) return;
  event.preventDefault();
  held.add(event.code);
  fromKeys();
});
addEventListener('keyup', (event) => {
  held.delete(event.code);
  fromKeys();
});
addEventListener('blur', () => {
  held.clear();
  fromKeys();
});
const pad = document.getElementById('pad')!;
let touchFrom: [number, number] | null = null;
pad.addEventListener('pointerdown', (event) => {
  touchFrom = [event.clientX, event.clientY];
  pad.setPointerCapture(event.pointerId);
});
pad.addEventListener('pointermove', (event) => {
  if (touchFrom === null) return;
  const dx = event.clientX - touchFrom[0];
  const dy = event.clientY - touchFrom[1];
  const length = Math.hypot(dx, dy);
  if (length < 12) sendSteer(0, 0);
  else sendSteer(Math.round((100 * dx) / length) / 100, Math.round((100 * dy) / length) / 100);
});
const release = (): void => {
  touchFrom = null;
  sendSteer(0, 0);
};
pad.addEventListener('pointerup', release);
pad.addEventListener('pointercancel', release);

function showLink(n: NetworkStats | null): void {
  if (n === null) return;
  const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');
  hud.textContent = [
    n.connected ? 'connected' : 'reconnecting…',
    `round trip  ${ms(n.roundTrip)}`,
    `delay       ${ms(n.delay)}`,
    `jitter      ${ms(n.jitter)}`,
    `loss        ${(100 * n.loss).toFixed(1)}%`,
    `late        ${n.late}`,
    `snapshots   ${n.snapshots}`,
    `coins       ${coins}`,
    'you         the ringed disc',
  ].join('\n');
}

let coins = 0;
const link = watchNetwork(runtime, { intervalMs: 250 });
link.on('stats', (n) => {
  hooks.network = n;
  showLink(n);
});
link.on('disconnected', () => hooks.events.push('disconnected'));
link.on('reconnected', () => {
  hooks.events.push('reconnected');
  greet(); // a new connection is a new player on the server: say who we are again
});

// who we are: the server makes our disc with it; said every half second until the disc shows (an input made
// before the clock syncs is not sent, and a lossy link may lose one), and the steering again every 200 ms
let greeting: ReturnType<typeof setInterval> | undefined;
function greet(): void {
  clearInterval(greeting);
  greeting = setInterval(() => runtime.sendInput(INPUT.HELLO, id), 500);
}
setInterval(() => runtime.sendInput(INPUT.STEER, steer[0]!, steer[1]!), 200);

await runtime.start();
greet();
function onAnimationFrame(ts: number): void {
  requestAnimationFrame(onAnimationFrame);
  const frame = runtime.frame(ts);
  if (frame === null) return;
  draw(frame);
  // the server's pickups: each once, with the frame that shows the coin jump
  const events = frame.events;
  for (let i = 0; i < events.length; i++) {
    if (events.code(i) !== EVENT.PICKUP) continue;
    hooks.pickups.push([events.payload(i, 0), events.payload(i, 1), events.payload(i, 2), frame.state.coins]);
    chime();
  }
  coins = frame.state.coins;
  const { orbs, players } = frame.tables;
  if (orbs.count < ORBS) return; // nothing from the server yet
  if (hooks.recording) hooks.recorded.push([frame.time, ...orbs.fields.position.subarray(0, 2 * ORBS)]);
  hooks.frames++;
  hooks.ready = true;
  for (let i = 0; i < players.count; i++) if (players.fields.id[i] === id) clearInterval(greeting);
}
requestAnimationFrame(onAnimationFrame);
