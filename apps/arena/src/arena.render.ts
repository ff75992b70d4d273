/** The arena's render worker (`?draw=worker`): the scene drawn into an OffscreenCanvas on this worker's frames. */
import { exposeRenderer } from 'steadyframe/render-worker';
import { setupArena } from './arena-renderer.ts';

exposeRenderer(setupArena);
