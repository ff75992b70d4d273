/**
 * The page: starts the runtime, draws every paced frame, turns clicks and keys into commands, and keeps the HUD
 * and `window.pile` (hooks for the e2e test) up to date. Rapier never loads here: it runs in the worker.
 *
 * ```text
 *  rAF(ts) ─▶ runtime.pace()     draw on this refresh? (then runtime.events: the impacts of the ticks it shows)
 *          ─▶ scene.draw(ts)     two GPU-blended meshes: copy the newest pair, set alpha, render
 *          ─▶ sounds.present()   the frame's loudest impacts, heard with the picture that shows them
 * ```
 *
 * `?renderer=webgpu` draws with three.js's WebGPURenderer (renderers.ts), where the browser has WebGPU.
 */
import { createRuntime, type Runtime } from 'steadyframe';
import { softwareNote, type GlRenderer } from './gl-renderer.ts';
import { createImpactSounds, type ImpactSounds } from './impact-sounds.ts';
import { askedRenderer, createPileRenderer, type PileRenderer } from './renderers.ts';
import { createPileScene } from './scene.ts';
import { chooseScene, type Scene } from './scenes.ts';
import { CAPACITY, EVENT_CAPACITY, HALF_FLOOR, INPUT, SHAPES, schema, type PhysicsSchema, type Shape } from './schema.ts';
import type { Commands, PileState, Setup } from './sim.worker.ts';

export interface PileHooks {
  ready: boolean;
  runtime: Runtime<PhysicsSchema, Commands>;
  frames: number;
  /** The worker's counts, polled a few times a second. */
  state: PileState | null;
  /** The GL renderer (or WebGPU adapter), and whether it rasterises in software (then fps is its rate, not the runtime's). */
  gl: GlRenderer;
  /** What draws: WebGL or WebGPU, why WebGL where WebGPU was asked for, whether a WebGPU device was lost. */
  gpu: Pick<PileRenderer, 'api' | 'fellBack' | 'lost'>;
  /** The scene running: the pile, or the rain a software GL gets (scenes.ts). */
  scene: Scene;
  /** Frames a second over the last two seconds, as the HUD shows it. */
  fps: number;
  /** The impact sounds: contact starts presented with drawn frames, knocks chosen. */
  sounds: ImpactSounds;
}

declare global {
  interface Window {
    pile?: PileHooks;
  }
}

const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'physics' });
const canvas = document.getElementById('view') as HTMLCanvasElement;
const params = new URLSearchParams(location.search);
// `?renderer=webgpu|webgl`: made before the scene is chosen, since which GPU draws (software or not) chooses it
const gpu = await createPileRenderer(askedRenderer(params), canvas);
const gl = gpu.device;
// `?scene=pile|rain`, else the one that moves visibly here; `?bodies=N` its start count: init gets it as set-up data
const scene = chooseScene(params, gl.software, CAPACITY - 8);
const bodies = scene.bodies;
// `?seed=N` (0 .. 2^32 - 1) draws the same heaps on every load: a pile that settles the same way each time
const seeded = params.get('seed');
const seed = seeded === null || !/^\d+$/.test(seeded) || Number(seeded) > 0xffff_ffff ? undefined : Number(seeded);
const runtime = await createRuntime<PhysicsSchema, Commands, Setup>({
  worker,
  schema,
  capacity: CAPACITY,
  setup: { bodies },
  events: { capacity: EVENT_CAPACITY, payloadWidth: 4 },
  ...(seed === undefined ? {} : { seed }),
});
const view = createPileScene(runtime, canvas, gpu);
addEventListener('resize', () => view.resize());

const sounds = createImpactSounds();
const status = { api: gpu.api, fellBack: gpu.fellBack, get lost() { return gpu.lost; } }; // not the renderer itself
const hooks: PileHooks = { ready: false, runtime, frames: 0, state: null, gl, gpu: status, scene, fps: 0, sounds };
window.pile = hooks;

canvas.addEventListener('pointerdown', (event) => {
  const at = view.floorPoint(event.clientX, event.clientY);
  if (at === null) return;
  drop(200, at.x, at.z, SHAPES.mixed); // the worker keeps a heap inside the walls
});
/** Heaps and resets are input events (recorded with a session), read by the tick they fall in. */
const drop = (n: number, x: number, z: number, shape: Shape): void => void runtime.sendInput(INPUT.drop, n, x, z, shape);
const spot = () => (Math.random() - 0.5) * HALF_FLOOR;
/** Key code -> its command; the help line's key buttons (`data-code`) run the same, for a touch screen. */
const ACTIONS: Record<string, () => void> = {
  Space: () => drop(500, spot(), spot(), SHAPES.mixed),
  KeyB: () => drop(300, spot(), spot(), SHAPES.boxes),
  KeyS: () => drop(300, spot(), spot(), SHAPES.spheres),
  KeyR: () => void runtime.sendInput(INPUT.reset, -1), // as many bodies as the pile started with
  KeyM: () => sounds.toggle(),
};
addEventListener('keydown', (event) => {
  const action = ACTIONS[event.code];
  if (event.repeat || action === undefined) return;
  action();
  event.preventDefault();
});
for (const button of document.querySelectorAll<HTMLButtonElement>('#help button[data-code]')) {
  button.addEventListener('click', () => {
    ACTIONS[button.dataset.code!]?.();
    button.blur(); // a focused button would also take the next space or enter
  });
}
// the help line's renderer switch: this page again, on the renderer that does not draw it now (chosen at load)
const other = gpu.api === 'WebGPU' ? 'webgl' : 'webgpu';
const switchTo = new URLSearchParams(params);
switchTo.set('renderer', other);
const rendererLink = document.querySelector<HTMLAnchorElement>('#renderer-switch');
if (rendererLink !== null) {
  rendererLink.href = `?${switchTo}`;
  rendererLink.textContent = other === 'webgpu' ? 'WebGPU' : 'WebGL';
}

/**
 * Frames a second over the last FPS_WINDOW_MS, read at any time: at a frame or two a second (a software GL) a
 * reading taken per frame over half a second rounded to 0, and stood still between frames.
 */
const FPS_WINDOW_MS = 2000;
const drawnAt: number[] = [];
const startedAt = performance.now();
const framesPerSecond = (now: number): number => {
  while (drawnAt.length > 0 && drawnAt[0]! <= now - FPS_WINDOW_MS) drawnAt.shift();
  return (1000 * drawnAt.length) / Math.min(FPS_WINDOW_MS, Math.max(1, now - startedAt));
};
await runtime.start();
view.renderer.setAnimationLoop(() => {
  if (!runtime.pace()) return;
  view.draw(runtime.frameTime); // the frame's time (ts here)
  sounds.present(runtime.events); // this frame's impacts: pace() presented them
  hooks.frames++;
  drawnAt.push(performance.now());
});

// the rain (scenes.ts): a heap now and then, a reset once the floor is full; input events, so a recording has them
const rain = scene.rain;
if (rain !== null) {
  setInterval(() => {
    if ((hooks.state?.bodies ?? 0) > rain.max) void runtime.sendInput(INPUT.reset, scene.bodies);
    else drop(rain.heap, spot() * 0.6, spot() * 0.6, SHAPES.mixed);
  }, rain.everyMs);
}

const hud = document.getElementById('hud')!;
/** " (every refresh)", " (every 3 refreshes)": the pacer's n; nothing before the refresh period is known. */
const everyNth = (interval: number, refresh: number): string => {
  if (!(refresh > 0)) return '';
  const n = Math.round(interval / refresh);
  return n <= 1 ? ' (every refresh)' : ` (every ${n} refreshes)`;
};
const SOUND = { waiting: 'after a click or a key', on: 'on (M: off)', off: 'off (M: on)' } as const;
const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
// the GPU under the renderer: "GL" on WebGL (as before), "WebGPU" on WebGPU (its adapter)
const glRow = `<dt>${gpu.api === 'WebGL' ? 'GL' : 'WebGPU'}</dt><dd id="gl" title="${escape(gl.name)}">${gl.software === null ? 'GPU' : `software (${escape(gl.software)})`}</dd>`;
/** "WebGL", "WebGPU", "WebGL (no WebGPU adapter)": why WebGL draws where WebGPU was asked for; or a lost device. */
const rendererRow = (): string => {
  const reading = gpu.lost !== null
    ? `${gpu.api}: device lost`
    : gpu.fellBack === null ? gpu.api : `${gpu.api} (${gpu.fellBack})`;
  return `<dt>renderer</dt><dd id="renderer" title="${escape(gpu.lost ?? gpu.fellBack ?? gl.name)}">${escape(reading)}</dd>`;
};
hud.textContent = '';
const readings = hud.appendChild(document.createElement('div'));
if (gl.software !== null) {
  // what fps means on a software GL: open where there is room beside the pile, folded on a phone
  const note = hud.appendChild(document.createElement('details'));
  note.className = 'note';
  note.open = matchMedia('(min-width: 700px)').matches;
  note.innerHTML = `<summary>software ${gpu.api === 'WebGL' ? 'GL' : 'WebGPU'}: fps is what it can rasterise</summary><p>${escape(softwareNote(gl.software, scene.name))}</p>`;
}
async function poll(): Promise<void> {
  const [stats, state] = await Promise.all([runtime.stats(), runtime.commands.state()]);
  hooks.state = state;
  hooks.ready = hooks.frames > 0;
  const fps = (hooks.fps = framesPerSecond(performance.now()));
  readings.innerHTML = `<dl>
    <dt>transport</dt><dd id="transport">${runtime.transport}</dd>
    <dt>bodies</dt><dd>${state.bodies} (${state.sleeping} asleep)</dd>
    <dt>fallen off</dt><dd>${state.fallen}</dd>
    <dt>sound</dt><dd id="sound">${SOUND[sounds.sound]}</dd>
    <dt>tick</dt><dd>${state.tick}</dd>
    <dt>fps</dt><dd id="fps">${fps.toFixed(fps < 10 ? 1 : 0)}</dd>
    <dt>interval</dt><dd>${stats.pacing.interval.toFixed(1)} ms${everyNth(stats.pacing.interval, stats.pacing.refreshPeriod)}</dd>
    ${rendererRow()}
    ${glRow}
  </dl>`;
}
setInterval(() => void poll().catch((error: unknown) => console.error(error)), 250);
