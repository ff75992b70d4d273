/**
 * Which engine a browser test runs in. vitest.workspace.ts makes one instance of each browser project per engine
 * (Chromium, Firefox, WebKit twice: as WebKitGTK ships, without SharedArrayBuffer, and as Safari runs an
 * isolated page, with it) and provides these two values to it. A test that only holds in some engines says so
 * with `it.runIf(...)` and the reason beside it; nothing else here is engine-specific.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine of this instance. */
    engine: 'chromium' | 'firefox' | 'webkit';
    /** Whether the engine was started with SharedArrayBuffer (only WebKit is started both ways). */
    sharedArrayBuffer: boolean;
  }
}

export const engine = inject('engine');
export const engineSharesMemory = inject('sharedArrayBuffer');

/** Only Chromium's provider (playwright) speaks the Chrome DevTools Protocol: a test that emulates through it. */
export const hasCdp = engine === 'chromium';

/** What a dedicated worker of this engine can draw with on an OffscreenCanvas (asked once, in a worker). */
export async function workerCanvasSupport(): Promise<{ webgl2: boolean; webgl: boolean; canvas2d: boolean; animationFrames: boolean }> {
  const source = `
    const can = (kind) => { try { return new OffscreenCanvas(1, 1).getContext(kind) !== null; } catch { return false; } };
    postMessage({ webgl2: can('webgl2'), webgl: can('webgl'), canvas2d: can('2d'), animationFrames: typeof requestAnimationFrame === 'function' });`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  try {
    return await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(`the probe worker failed: ${event.message}`));
    });
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
}
