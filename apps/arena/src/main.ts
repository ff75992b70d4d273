/**
 * The page: starts the runtime, draws every paced frame, sends keys, and keeps the HUD and `window.arena`
 * (hooks for the e2e test) up to date.
 *
 * ```text
 *  rAF(ts) ─▶ runtime.pace()       draw on this refresh? (and tells the worker when the next frame is due)
 *          ─▶ rocks.update(ts)     GPU path: copy the newest pair, set alpha; the vertex shader blends
 *          ─▶ runtime.sample(ts)   CPU: the ship and the bullets, a handful of entities
 * ```
 */
import { createRuntime, type Runtime } from 'steadyframe';
import { createHud } from './hud.ts';
import type { GameState } from './game.ts';
import { bindKeyboard } from './keyboard.ts';
import { createScene } from './scene.ts';
import { CAPACITY, schema, type ArenaSchema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

export interface ArenaHooks {
  ready: boolean;
  runtime: Runtime<ArenaSchema, Commands>;
  frames: number;
  /** Bullets drawn in the last frame, and the most drawn in one frame so far. */
  bullets: number;
  maxBullets: number;
  /** The ship's interpolated position at the last drawn frame. */
  ship: { x: number; y: number };
  /** The worker's game state, polled a few times a second. */
  game: GameState | null;
  interval: number;
}

declare global {
  interface Window {
    arena?: ArenaHooks;
  }
}

const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'arena' });
const runtime = await createRuntime<ArenaSchema, Commands>({ worker, schema, capacity: CAPACITY });
const canvas = document.getElementById('view') as HTMLCanvasElement;
const view = createScene(runtime, canvas);
addEventListener('resize', () => view.resize());
bindKeyboard(runtime);

const hooks: ArenaHooks = { ready: false, runtime, frames: 0, bullets: 0, maxBullets: 0, ship: { x: 0, y: 0 }, game: null, interval: 0 };
window.arena = hooks;
runtime.on('interval', (change) => (hooks.interval = change.to));

let fps = 0;
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

const hud = createHud(document.getElementById('hud')!);
async function poll(): Promise<void> {
  const [stats, game] = await Promise.all([runtime.stats(), runtime.commands.state()]);
  hooks.game = game;
  hooks.interval = stats.pacing.interval;
  hooks.ready = hooks.frames > 0;
  hud({ transport: runtime.transport, interval: stats.pacing.interval, refresh: stats.pacing.refreshPeriod, fps, game });
}
setInterval(() => void poll().catch((error: unknown) => console.error(error)), 250);
