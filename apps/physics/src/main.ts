/**
 * The page: starts the runtime, draws every paced frame, turns clicks and keys into commands, and keeps the HUD
 * and `window.pile` (hooks for the e2e test) up to date. Rapier never loads here: it runs in the worker.
 *
 * ```text
 *  rAF(ts) ─▶ runtime.pace()     draw on this refresh? (then runtime.events: the impacts of the ticks it shows)
 *          ─▶ scene.draw(ts)     two GPU-blended meshes: copy the newest pair, set alpha, render
 *          ─▶ sounds.present()   the frame's loudest impacts, heard with the picture that shows them
 * ```
 */
import { createRuntime, type Runtime } from 'steadyframe';
import { glRenderer, softwareNote, type GlRenderer } from './gl-renderer.ts';
import { createImpactSounds, type ImpactSounds } from './impact-sounds.ts';
import { createPileScene } from './scene.ts';
import { CAPACITY, EVENT_CAPACITY, HALF_FLOOR, INPUT, SHAPES, START_BODIES, schema, type PhysicsSchema, type Shape } from './schema.ts';
import type { Commands, PileState, Setup } from './sim.worker.ts';

export interface PileHooks {
  ready: boolean;
  runtime: Runtime<PhysicsSchema, Commands>;
  frames: number;
  /** The worker's counts, polled a few times a second. */
  state: PileState | null;
  /** The GL renderer, and whether it rasterises in software (then fps is its rate, not the runtime's). */
  gl: GlRenderer;
  /** The impact sounds: contact starts presented with drawn frames, knocks chosen. */
  sounds: ImpactSounds;
}

declare global {
  interface Window {
    pile?: PileHooks;
  }
}

const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'physics' });
// `?bodies=N` starts with N bodies instead of START_BODIES: init gets it as set-up data
const asked = Number(new URLSearchParams(location.search).get('bodies') ?? START_BODIES);
const bodies = Number.isFinite(asked) ? Math.max(0, Math.min(CAPACITY - 8, asked)) : START_BODIES;
// `?seed=N` (0 .. 2^32 - 1) draws the same heaps on every load: a pile that settles the same way each time
const seeded = new URLSearchParams(location.search).get('seed');
const seed = seeded === null || !/^\d+$/.test(seeded) || Number(seeded) > 0xffff_ffff ? undefined : Number(seeded);
const runtime = await createRuntime<PhysicsSchema, Commands, Setup>({
  worker,
  schema,
  capacity: CAPACITY,
  setup: { bodies },
  events: { capacity: EVENT_CAPACITY, payloadWidth: 4 },
  ...(seed === undefined ? {} : { seed }),
});
const canvas = document.getElementById('view') as HTMLCanvasElement;
const view = createPileScene(runtime, canvas);
addEventListener('resize', () => view.resize());
const gl = glRenderer(view.renderer.getContext());

const sounds = createImpactSounds();
const hooks: PileHooks = { ready: false, runtime, frames: 0, state: null, gl, sounds };
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

let fps = 0;
let fpsFrames = 0;
let fpsSince = performance.now();
await runtime.start();
view.renderer.setAnimationLoop((ts) => {
  if (!runtime.pace()) return;
  view.draw(runtime.frameTime); // the frame's time (ts here)
  sounds.present(runtime.events); // this frame's impacts: pace() presented them
  hooks.frames++;
  fpsFrames++;
  if (ts - fpsSince >= 500) {
    fps = (1000 * fpsFrames) / (ts - fpsSince);
    fpsFrames = 0;
    fpsSince = ts;
  }
});

const hud = document.getElementById('hud')!;
/** " (every refresh)", " (every 3 refreshes)": the pacer's n; nothing before the refresh period is known. */
const everyNth = (interval: number, refresh: number): string => {
  if (!(refresh > 0)) return '';
  const n = Math.round(interval / refresh);
  return n <= 1 ? ' (every refresh)' : ` (every ${n} refreshes)`;
};
const SOUND = { waiting: 'after a click or a key', on: 'on (M: off)', off: 'off (M: on)' } as const;
const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const glRow = gl.software === null
  ? `<dt>GL</dt><dd id="gl" title="${escape(gl.name)}">GPU</dd>`
  : `<dt>GL</dt><dd id="gl" title="${escape(gl.name)}">software (${escape(gl.software)})</dd>`;
hud.textContent = '';
const readings = hud.appendChild(document.createElement('div'));
if (gl.software !== null) {
  // what fps means on a software GL: open where there is room beside the pile, folded on a phone
  const note = hud.appendChild(document.createElement('details'));
  note.className = 'note';
  note.open = matchMedia('(min-width: 700px)').matches;
  note.innerHTML = `<summary>software GL: fps is what it can rasterise</summary><p>${escape(softwareNote(gl.software))}</p>`;
}
async function poll(): Promise<void> {
  const [stats, state] = await Promise.all([runtime.stats(), runtime.commands.state()]);
  hooks.state = state;
  hooks.ready = hooks.frames > 0;
  readings.innerHTML = `<dl>
    <dt>transport</dt><dd id="transport">${runtime.transport}</dd>
    <dt>bodies</dt><dd>${state.bodies} (${state.sleeping} asleep)</dd>
    <dt>fallen off</dt><dd>${state.fallen}</dd>
    <dt>sound</dt><dd id="sound">${SOUND[sounds.sound]}</dd>
    <dt>tick</dt><dd>${state.tick}</dd>
    <dt>fps</dt><dd>${fps.toFixed(0)}</dd>
    <dt>interval</dt><dd>${stats.pacing.interval.toFixed(1)} ms${everyNth(stats.pacing.interval, stats.pacing.refreshPeriod)}</dd>
    ${glRow}
  </dl>`;
}
setInterval(() => void poll().catch((error: unknown) => console.error(error)), 250);
