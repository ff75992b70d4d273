/**
 * steadyframe/render-worker: the render worker's side (the third thread). Import it from the module Worker that
 * draws; the page makes the runtime with `createRenderWorkerRuntime` from 'steadyframe'.
 *
 * ```ts
 * import { exposeRenderer } from 'steadyframe/render-worker';
 * import { setupScene } from './scene'; // (context) => (frame) => { ... draw frame.fields ... }
 * exposeRenderer(setupScene);
 * ```
 *
 * @module steadyframe/render-worker
 */
import { expose, type Endpoint } from 'comlink';
import type { Schema } from '../core/schema.ts';
import { createRenderWorker, type RendererSetup } from './renderer.ts';

/**
 * Serves a renderer to the page over comlink (on `endpoint`, by default the worker's global scope). Call it once,
 * at the top level of the render worker module. `setup` runs once the page has handed over the canvas and the
 * state buffer; what it returns draws each frame, paced by this worker's requestAnimationFrame.
 */
export function exposeRenderer<S extends Schema>(setup: RendererSetup<S>, endpoint?: Endpoint): void {
  if (typeof setup !== 'function') throw new TypeError('steadyframe: exposeRenderer(setup) takes a function (context) => draw');
  expose(createRenderWorker(setup), endpoint ?? (globalThis as unknown as Endpoint));
}

export type { RenderContext, Renderer, RendererSetup } from './renderer.ts';
export type { Frame } from '../contracts/app.ts';
export type { RenderStats } from '../contracts/render-worker.ts';
