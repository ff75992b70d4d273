/**
 * The blue panel's renderer as a `RendererSetup`: the same function draws in the render worker (panel.render.ts,
 * into an OffscreenCanvas) and, where a render worker cannot be used, on the page (the runtime's `fallback`).
 * WebGL2 where there is one, Canvas2D otherwise (or when `?renderer=canvas2d` asked for it).
 */
import type { RendererSetup } from 'steadyframe';
import { create2dRenderer } from './renderer-2d.ts';
import { createGlRenderer } from './renderer-gl.ts';
import type { DemoSchema } from './schema.ts';
import type { CssSize, Palette } from './view.ts';

/** Where the panel says which renderer it got: the render worker cannot set the page's status line itself. */
export const PANEL_RENDERER_CHANNEL = 'steadyframe-demo-panel-renderer';

/** `onRenderer` hears which renderer the panel got (WebGL2 can be missing in a worker where the page has it). */
export function panelRenderer(palette: Palette, wanted: 'webgl2' | 'canvas2d', onRenderer: (kind: 'webgl2' | 'canvas2d') => void = () => {}): RendererSetup<DemoSchema> {
  return ({ canvas, width, height, dpr }) => {
    let size: CssSize = { width, height, dpr };
    const cssSize = () => size;
    const body = (wanted === 'canvas2d' ? null : createGlRenderer(canvas, palette, cssSize)) ?? create2dRenderer(canvas, palette, cssSize);
    onRenderer(body.kind);
    return {
      draw(frame) {
        if (frame.fresh) body.draw(frame.fields, frame.count);
      },
      resize(w, h, d) {
        size = { width: w, height: h, dpr: d };
      },
    };
  };
}
