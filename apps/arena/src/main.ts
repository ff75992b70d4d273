/**
 * The page: starts the runtime, draws every paced frame, sends keys and touches (the same input events), and
 * keeps the HUD and `window.arena` (hooks for the e2e test) up to date.
 *
 * ```text
 *  rAF(ts) ─▶ runtime.pace()      draw on this refresh? (and tells the worker when the next frame is due)
 *          ─▶ rocks.update()       GPU path: copy the newest pair, set alpha; the vertex shader blends
 *          ─▶ runtime.sample(runtime.frameTime)   CPU: the ship and the bullets, a handful of entities
 * ```
 *
 * Under the HUD, a tape deck (tape.ts) records the game, saves and loads `.sfr` files, and plays them back.
 *
 * With `?draw=worker` the same scene (arena-renderer.ts) is drawn in a render worker instead: the page keeps the
 * keys, the HUD and the game state, and reads no frames (the render worker is the buffer's one reader).
 */
import { createRenderWorkerRuntime, createRuntime, type RenderWorkerRuntime, type RenderWorkerRuntimeStats, type Runtime } from 'steadyframe';
import { setupArena } from './arena-renderer.ts';
import { glRenderer, probeGlRenderer, type GlRenderer } from './gl-renderer.ts';
import { createHud } from './hud.ts';
import type { GameState } from './game.ts';
import { bindKeyboard } from './keyboard.ts';
import { bindTouch, type TouchElements } from './touch.ts';
import { createScene } from './scene.ts';
import { createTape, type TapeHooks } from './tape.ts';
import { CAPACITY, schema, type ArenaSchema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

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
  /** The worker's game state, polled a few times a second. */
  game: GameState | null;
  interval: number;
  /** With the render worker: where it draws and how it is (`stats().render`); null when the page draws. */
  render: RenderWorkerRuntimeStats['render'] | null;
  /** The tape deck (record, save, load, watch) when the page draws; null with the render worker. */
  tape: TapeHooks | null;
}

declare global {
  interface Window {
    arena?: ArenaHooks;
  }
}

const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'arena' });
const canvas = document.getElementById('view') as HTMLCanvasElement;
const inWorker = new URLSearchParams(location.search).get('draw') === 'worker';
const hud = createHud(document.getElementById('hud')!);
const touch: TouchElements = { root: document.getElementById('field')!, pad: document.getElementById('pad')!, fire: document.getElementById('fire')! };
let fps = 0;
/** The GL renderer, for the HUD: the page's own context, or a probe's while the render worker draws. */
let gl: GlRenderer | null = null;
if (inWorker) await drawInRenderWorker();
else await drawOnPage();

/** The arena as it always ran: the page samples and draws every paced frame. */
async function drawOnPage(): Promise<void> {
  const runtime = await createRuntime<ArenaSchema, Commands>({ worker, schema, capacity: CAPACITY });
  const view = createScene(runtime, canvas);
  addEventListener('resize', () => view.resize());
  gl = glRenderer(view.renderer.getContext());
  bindKeyboard(runtime);
  bindTouch(runtime, touch);

  const tape = createTape(document.getElementById('hud')!.appendChild(document.createElement('div')), runtime);
  const hooks: ArenaHooks = { ready: false, runtime, drawnIn: 'main', renderFallback: null, frames: 0, bullets: 0, maxBullets: 0, ship: { x: 0, y: 0 }, game: null, interval: 0, render: null, tape };
  window.arena = hooks;
  runtime.on('interval', (change) => (hooks.interval = change.to));

  let fpsFrames = 0;
  let fpsSince = performance.now();
  await runtime.start();
  view.renderer.setAnimationLoop((ts) => {
    if (!runtime.pace()) return;
    const frame = runtime.sample(runtime.frameTime); // the frame's time (ts here)
    hooks.bullets = view.draw(runtime.frameTime, frame);
    hooks.maxBullets = Math.max(hooks.maxBullets, hooks.bullets);
    hooks.ship.x = frame.fields.position[0]!;
    hooks.ship.y = frame.fields.position[1]!;
    hooks.frames++;
    fpsFrames++;
    if (ts - fpsSince >= 500) {
      fps = (1000 * fpsFrames) / (ts - fpsSince);
      fpsFrames = 0;
      fpsSince = ts;
    }
  });
  poll(runtime, hooks, () => {});
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
  const hooks: ArenaHooks = {
    ready: false,
    runtime: null,
    drawnIn: runtime.renderer,
    renderFallback: runtime.renderFallback,
    frames: 0,
    bullets: 0,
    maxBullets: 0,
    ship: { x: 0, y: 0 },
    game: null,
    interval: 0,
    render: null,
    tape: null,
  };
  window.arena = hooks;
  await runtime.start();
  let framesAt = { frames: 0, at: performance.now() };
  poll(runtime, hooks, (frames) => {
    const now = performance.now();
    fps = (1000 * (frames - framesAt.frames)) / (now - framesAt.at);
    framesAt = { frames, at: now };
    hooks.frames = frames;
  });
}

/** The HUD and the hooks, four times a second. */
function poll(runtime: Pick<Runtime<ArenaSchema, Commands>, 'stats' | 'commands' | 'transport'>, hooks: ArenaHooks, onFrames: (frames: number) => void): void {
  const once = async (): Promise<void> => {
    const [stats, game] = await Promise.all([runtime.stats(), runtime.commands.state()]);
    onFrames(stats.frames);
    hooks.game = game;
    hooks.interval = stats.pacing.interval;
    if ('render' in stats) hooks.render = (stats as RenderWorkerRuntimeStats).render;
    hooks.ready = hooks.frames > 0;
    hud({ transport: runtime.transport, interval: stats.pacing.interval, refresh: stats.pacing.refreshPeriod, fps, game, gl });
  };
  setInterval(() => void once().catch((error: unknown) => console.error(error)), 250);
}
