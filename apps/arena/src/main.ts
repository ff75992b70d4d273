/**
 * The page: starts the runtime, draws every paced frame, sends keys and touches (the same input events), and
 * keeps the HUD and `window.arena` (hooks for the e2e test) up to date.
 *
 * ```text
 *  rAF(ts) ─▶ runtime.pace()      draw on this refresh? (and tells the worker when the next frame is due)
 *          ─▶ rocks.update()       GPU path: copy the newest pair, set alpha; the vertex shader blends
 *          ─▶ runtime.sample(runtime.frameTime)   CPU: the ships and the bullets tables, a handful of entities
 * ```
 *
 * The HUD and the sounds answer `runtime.on('present')`: each presented frame's tick, game state (score, lives:
 * the schema's game fields) and events (shots, bursts), so the score, the sound and the flash of a burst come with
 * the frame that shows the rock gone, never a poll's quarter second later. No call to the worker per frame: only
 * the slow stats the HUD shows (interval, refresh; frames with a render worker) twice a second.
 *
 * ```text
 *  rAF ─▶ pace() ─▶ 'present' { tick, state, events } ─▶ HUD (changed text only), sounds (≤ 2 voices a frame)
 *               ─▶ view.draw(…, runtime.events)        ─▶ a flash at each burst, in the same picture
 * ```
 *
 * Under the HUD, a tape deck (tape.ts) records the game, saves and loads `.sfr` files, and plays them back.
 *
 * With `?draw=worker` the same scene (arena-renderer.ts) is drawn in a render worker instead, flashes included:
 * the page keeps the keys, the HUD and the sounds (from the render worker's `present` reports), and reads no
 * frames (the render worker is the buffer's one reader).
 */
import {
  createRenderWorkerRuntime, createRuntime, type GameState, type RenderWorkerRuntime, type RenderWorkerRuntimeStats, type Runtime, type RuntimeEvents,
} from 'steadyframe';
import { setupArena } from './arena-renderer.ts';
import { glRenderer, probeGlRenderer, type GlRenderer } from './gl-renderer.ts';
import { createHud } from './hud.ts';
import type { GameState as WorkerGame } from './game.ts';
import { bindKeyboard } from './keyboard.ts';
import { bindTouch, type TouchElements } from './touch.ts';
import { createScene } from './scene.ts';
import { createSound } from './sound.ts';
import { createTape, type TapeHooks } from './tape.ts';
import { CAPACITY, EVENT, schema, type ArenaSchema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

/** One presented frame, as the e2e test reads it: what it showed, what the HUD showed, what it answered. */
export interface PresentLog {
  /** The frame's index and the tick it shows. */
  index: number;
  tick: number;
  /** The tick whose game state the HUD showed after the frame, and the score and best its text read. */
  hudTick: number;
  score: number;
  best: number;
  /** The score in the frame's game state (what the HUD's text should read). */
  state: number;
  /** Each burst the frame presented: its tick, its sequence and the score its step counted, three numbers apiece. */
  bursts: number[];
  shots: number;
  /** Voices started and flashes started for them (flashes: the page's scene; 0 with the render worker). */
  voices: number;
  flashes: number;
}

export interface ArenaHooks {
  ready: boolean;
  /** The runtime when the page draws; null while the render worker draws (`?draw=worker`). */
  runtime: Runtime<ArenaSchema, Commands> | null;
  /** Where frames are drawn, and why not in the render worker when it was asked for. */
  drawnIn: 'main' | 'worker';
  renderFallback: string | null;
  frames: number;
  /** Bullets drawn in the last frame, and the most drawn in one frame so far. */
  bullets: number;
  maxBullets: number;
  /** The ship's interpolated position at the last drawn frame. */
  ship: { x: number; y: number };
  /** The game state (the schema's game fields) of the last presented frame and the tick it showed; null before. */
  game: ({ -readonly [K in keyof GameState<ArenaSchema>]: number } & { tick: number }) | null;
  interval: number;
  /** With the render worker: where it draws and how it is (`stats().render`); null when the page draws. */
  render: RenderWorkerRuntimeStats['render'] | null;
  /** The tape deck (record, save, load, watch) when the page draws; null with the render worker. */
  tape: TapeHooks | null;
  /** The sounds: the AudioContext's state ('none' before the first key, touch or click) and voices started. */
  audio: { state: string; voices: number };
  /**
   * For tests: the worker's own record (inputs read, presses per button), by a comlink call. The page never
   * calls it: its HUD reads the frames.
   */
  worker(): Promise<WorkerGame>;
  /** Set to [] to log every presented frame (the e2e test); null (default): nothing logged, nothing allocated. */
  log: PresentLog[] | null;
}

declare global {
  interface Window {
    arena?: ArenaHooks;
  }
}

type Presented = RuntimeEvents<ArenaSchema>['present'];

const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'arena' });
const canvas = document.getElementById('view') as HTMLCanvasElement;
const inWorker = new URLSearchParams(location.search).get('draw') === 'worker';
const hud = createHud(document.getElementById('hud')!);
const sound = createSound();
const touch: TouchElements = { root: document.getElementById('field')!, pad: document.getElementById('pad')!, fire: document.getElementById('fire')! };
const scoreText = document.getElementById('score')!;
const bestText = document.getElementById('best')!;
/** The schema's game fields, copied into `window.arena.game` every presented frame. */
const GAME_KEYS = Object.keys(schema).filter((name) => !name.startsWith('$') && (schema as Record<string, { scope?: string }>)[name]!.scope === 'game') as Array<keyof GameState<ArenaSchema>>;
let fps = 0;
/** The GL renderer, for the HUD: the page's own context, or a probe's while the render worker draws. */
let gl: GlRenderer | null = null;
if (inWorker) await drawInRenderWorker();
else await drawOnPage();

function newHooks(runtime: ArenaHooks['runtime'], commands: Pick<Runtime<ArenaSchema, Commands>, 'commands'>): ArenaHooks {
  return {
    ready: false,
    runtime,
    drawnIn: 'main',
    renderFallback: null,
    frames: 0,
    bullets: 0,
    maxBullets: 0,
    ship: { x: 0, y: 0 },
    game: null,
    interval: 0,
    render: null,
    tape: null,
    audio: { state: 'none', voices: 0 },
    worker: () => commands.commands.state(),
    log: null,
  };
}

/** The arena as it always ran: the page samples and draws every paced frame. */
async function drawOnPage(): Promise<void> {
  const runtime = await createRuntime<ArenaSchema, Commands>({ worker, schema, capacity: CAPACITY });
  const view = createScene(runtime, canvas);
  addEventListener('resize', () => view.resize());
  gl = glRenderer(view.renderer.getContext());
  bindKeyboard(runtime);
  bindTouch(runtime, touch);

  const tape = createTape(document.getElementById('hud')!.appendChild(document.createElement('div')), runtime);
  const hooks = newHooks(runtime, runtime);
  hooks.tape = tape;
  window.arena = hooks;
  runtime.on('interval', (change) => (hooks.interval = change.to));
  runtime.on('present', (p) => answer(p, hooks));

  let fpsFrames = 0;
  let fpsSince = performance.now();
  await runtime.start();
  view.renderer.setAnimationLoop((ts) => {
    if (!runtime.pace()) return; // a frame that presents has answered 'present' by now: HUD and sounds
    const frame = runtime.sample(runtime.frameTime); // the frame's time (ts here)
    const drawn = view.draw(runtime.frameTime, frame, runtime.events); // the events pace() presented: flashes
    const entry = hooks.log?.at(-1);
    if (entry !== undefined) entry.flashes = drawn.flashes;
    hooks.bullets = drawn.bullets;
    hooks.maxBullets = Math.max(hooks.maxBullets, hooks.bullets);
    hooks.ship.x = frame.tables.ships.fields.position[0]!;
    hooks.ship.y = frame.tables.ships.fields.position[1]!;
    hooks.frames++;
    hooks.ready = true;
    fpsFrames++;
    if (ts - fpsSince >= 500) {
      fps = (1000 * fpsFrames) / (ts - fpsSince);
      fpsFrames = 0;
      fpsSince = ts;
    }
  });
  pollStats(runtime, hooks, () => {});
}

/** `?draw=worker`: the scene in a render worker; frames, fps and pacing come from its stats. */
async function drawInRenderWorker(): Promise<void> {
  const runtime: RenderWorkerRuntime<ArenaSchema, Commands> = await createRenderWorkerRuntime<ArenaSchema, Commands>({
    worker,
    renderWorker: new Worker(new URL('./arena.render.ts', import.meta.url), { type: 'module', name: 'arena-render' }),
    canvas,
    schema,
    capacity: CAPACITY,
    fallback: setupArena,
  });
  gl = probeGlRenderer();
  bindKeyboard(runtime);
  bindTouch(runtime, touch);
  const hooks = newHooks(null, runtime);
  hooks.drawnIn = runtime.renderer;
  hooks.renderFallback = runtime.renderFallback;
  window.arena = hooks;
  // each frame the render worker drew, as its report reaches the page: the HUD and the sounds of that frame
  runtime.on('present', (p) => answer(p, hooks));
  await runtime.start();
  let framesAt = { frames: 0, at: performance.now() };
  pollStats(runtime, hooks, (frames) => {
    const now = performance.now();
    fps = (1000 * (frames - framesAt.frames)) / (now - framesAt.at);
    framesAt = { frames, at: now };
    hooks.frames = frames;
    hooks.ready = frames > 0;
  });
}

/** A presented frame's answer: the HUD shows its game state, its shots and bursts sound. Allocates only for the log. */
function answer(p: Presented, hooks: ArenaHooks): void {
  hud.game(p.tick, p.state);
  const heard = sound.answer(p.events);
  const game = (hooks.game ??= { ...p.state, tick: p.tick });
  for (const key of GAME_KEYS) game[key] = p.state[key];
  game.tick = p.tick;
  hooks.audio.state = sound.state;
  hooks.audio.voices = sound.started;
  if (hooks.log === null) return;
  const bursts: number[] = [];
  for (let i = 0; i < p.events.length; i++) {
    if (p.events.code(i) === EVENT.burst) bursts.push(p.events.tick(i), p.events.sequence(i), p.events.payload(i, 3));
  }
  hooks.log.push({
    index: p.index,
    tick: p.tick,
    hudTick: hud.tick,
    score: Number(scoreText.textContent),
    best: Number(bestText.textContent),
    state: p.state.score,
    bursts,
    shots: heard.shots,
    voices: heard.voices,
    flashes: 0,
  });
}

/**
 * The HUD's stats that are not game state (transport, interval, refresh, fps; frames with a render worker), twice
 * a second. `stats()` asks the worker for its own stats too: a call twice a second, never one per frame.
 */
function pollStats(runtime: Pick<Runtime<ArenaSchema, Commands>, 'stats' | 'transport'>, hooks: ArenaHooks, onFrames: (frames: number) => void): void {
  const once = async (): Promise<void> => {
    const stats = await runtime.stats();
    onFrames(stats.frames);
    hooks.interval = stats.pacing.interval;
    if ('render' in stats) hooks.render = (stats as RenderWorkerRuntimeStats).render;
    hud.stats({ transport: runtime.transport, interval: stats.pacing.interval, refresh: stats.pacing.refreshPeriod, fps, gl });
  };
  void once().catch((error: unknown) => console.error(error));
  setInterval(() => void once().catch((error: unknown) => console.error(error)), 500);
}
