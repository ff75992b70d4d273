/**
 * Babylon.js thin instances from a worker simulation: 20,000 bodies (`?instances=N`) orbit at 30 Hz in a Web
 * Worker (./swarm.worker.ts) and are drawn as one box mesh's thin instances, blended on the GPU to each frame's
 * time by @steadyframe/babylon: the page copies each published state to the GPU once and moves nothing itself.
 *
 * `?engine=webgpu`: Babylon's WebGPU engine (the WGSL blend) where the browser has an adapter. A click or tap
 * throws in a burst of 2,000 new bodies. Drag to orbit the camera. `window.swarm` is for the e2e test.
 */
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { createInterpolatedThinInstances, type InterpolatedThinInstances } from '@steadyframe/babylon';
import { createRuntime, type Runtime } from 'steadyframe';
import { createEngine, createSwarmScene, fitCamera, type EngineChoice } from './scene.ts';
import { CAPACITY, INPUT_BURST, schema, START_INSTANCES, TICK_RATE, type SwarmSchema } from './schema.ts';
import type { Commands, Setup } from './swarm.worker.ts';

/** What the page shows the e2e test. */
export interface SwarmHooks {
  runtime: Runtime<SwarmSchema, Commands> | null;
  engine: AbstractEngine | null;
  scene: Scene | null;
  blended: InterpolatedThinInstances | null;
  /** Frames drawn (paced by the runtime). */
  rendered: number;
  /** 'WebGL2' or 'WebGPU': the engine that draws. */
  engineName: string;
}

declare global {
  interface Window {
    swarm?: SwarmHooks;
  }
}

const params = new URLSearchParams(location.search);
const asked = Number(params.get('instances') ?? START_INSTANCES);
const instances = Number.isInteger(asked) ? Math.max(0, Math.min(CAPACITY, asked)) : START_INSTANCES;
const choice: EngineChoice = params.get('engine') === 'webgpu' ? 'webgpu' : 'webgl';
const hooks: SwarmHooks = { runtime: null, engine: null, scene: null, blended: null, rendered: 0, engineName: '' };
window.swarm = hooks;

const canvas = document.querySelector<HTMLCanvasElement>('#scene')!;
const hud = document.querySelector<HTMLDivElement>('#hud')!;
const engine = await createEngine(canvas, choice);
const { scene, bodies, camera } = createSwarmScene(engine);
fitCamera(camera, engine);
const runtime = await createRuntime<SwarmSchema, Commands, Setup>({
  worker: new Worker(new URL('./swarm.worker.ts', import.meta.url), { type: 'module', name: 'swarm' }),
  schema,
  capacity: CAPACITY,
  setup: { instances },
});
runtime.start();
const blended = createInterpolatedThinInstances(runtime, bodies, { position: 'position', rotation: 'rotation', scale: 'scale' });
Object.assign(hooks, { runtime, engine, scene, blended, engineName: engine.isWebGPU ? 'WebGPU' : 'WebGL2' });

engine.runRenderLoop(() => {
  if (!runtime.pace()) return; // the runtime paces (and tells the worker when the next frame is due)
  blended.update(); // one upload per publish, the alpha of this frame's time
  scene.render();
  hooks.rendered++;
});
window.addEventListener('resize', () => {
  engine.resize();
  fitCamera(camera, engine);
});

// a tap (not a drag: that orbits the camera) throws a burst in
let down: { x: number; y: number } | null = null;
canvas.addEventListener('pointerdown', (e) => (down = { x: e.clientX, y: e.clientY }));
canvas.addEventListener('pointerup', (e) => {
  if (down !== null && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 6) runtime.sendInput(INPUT_BURST);
  down = null;
});

// the HUD, four times a second
let frames = 0;
let since = performance.now();
setInterval(() => {
  const now = performance.now();
  const fps = ((hooks.rendered - frames) * 1000) / (now - since);
  frames = hooks.rendered;
  since = now;
  hud.textContent = `${blended.count.toLocaleString('en')} thin instances · ${TICK_RATE} Hz worker\nblended on the GPU (${hooks.engineName}) · ${fps.toFixed(0)} fps\ntap: 2,000 more · drag: orbit`;
}, 250);
