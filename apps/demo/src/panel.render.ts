/** The render worker of the demo's "draw in: render worker" mode: the blue panel, drawn by panel-renderer.ts. */
import { exposeRenderer } from 'steadyframe/render-worker';
import { panelRenderer } from './panel-renderer.ts';
import { RIGHT_PALETTE } from './view.ts';

exposeRenderer(panelRenderer(RIGHT_PALETTE, self.name === 'canvas2d' ? 'canvas2d' : 'webgl2'));
