/** The render worker of the demo's "draw in: render worker" mode: the blue panel, drawn by panel-renderer.ts. */
import { exposeRenderer } from 'steadyframe/render-worker';
import { PANEL_RENDERER_CHANNEL, panelRenderer } from './panel-renderer.ts';
import { RIGHT_PALETTE } from './view.ts';

// the page's status line names the renderer this worker got (WebKit has no WebGL in workers: Canvas2D here)
const told = new BroadcastChannel(PANEL_RENDERER_CHANNEL);
exposeRenderer(panelRenderer(RIGHT_PALETTE, self.name === 'canvas2d' ? 'canvas2d' : 'webgl2', (kind) => told.postMessage(kind)));
