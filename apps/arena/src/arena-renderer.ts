/**
 * The arena's drawing as a `RendererSetup`: the same scene in the render worker (arena.render.ts, `?draw=worker`)
 * or on the page (the fallback).
 */
import type { RendererSetup } from 'steadyframe';
import { createScene, type CssSize } from './scene.ts';
import type { ArenaSchema } from './schema.ts';

export const setupArena: RendererSetup<ArenaSchema> = (context) => {
  let size: CssSize = { width: context.width, height: context.height, dpr: context.dpr };
  const view = createScene(context, context.canvas, () => size);
  return {
    draw(frame, time) {
      view.draw(time, frame, frame.events); // the events this frame presents: its bursts flash
    },
    resize(width, height, dpr) {
      size = { width, height, dpr };
      view.resize();
    },
  };
};
