/**
 * A canvas's CSS size and the page's device pixel ratio, and a watch on both: what a renderer that cannot
 * measure its canvas (the render worker's OffscreenCanvas) is told, and the fallback's page canvas too.
 */

/** The canvas's CSS size (at least 1 x 1) and the page's device pixel ratio. */
export interface CanvasSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

export function canvasSize(canvas: HTMLCanvasElement): CanvasSize {
  return { width: Math.max(1, canvas.clientWidth || canvas.width), height: Math.max(1, canvas.clientHeight || canvas.height), dpr: globalThis.devicePixelRatio || 1 };
}

/**
 * Calls `onChange` with the new size whenever the canvas's CSS size changes (a ResizeObserver) or the device
 * pixel ratio does (a zoom, a window moved to another screen: no CSS size changes then, so a
 * `(resolution: Ndppx)` media query, re-armed at each new ratio, catches it). Returns the unsubscribe function.
 * Where neither exists, nothing is watched (call `runtime.resize` by hand).
 */
export function followCanvasSize(canvas: HTMLCanvasElement, onChange: (size: CanvasSize) => void): () => void {
  const changed = (): void => onChange(canvasSize(canvas));
  let observer: ResizeObserver | null = null;
  if (typeof ResizeObserver === 'function') {
    observer = new ResizeObserver(changed);
    observer.observe(canvas);
  }
  let query: MediaQueryList | null = null;
  const onRatio = (): void => {
    arm();
    changed();
  };
  const arm = (): void => {
    query?.removeEventListener('change', onRatio);
    query = typeof matchMedia === 'function' ? matchMedia(`(resolution: ${globalThis.devicePixelRatio || 1}dppx)`) : null;
    query?.addEventListener('change', onRatio);
  };
  arm();
  return () => {
    observer?.disconnect();
    query?.removeEventListener('change', onRatio);
  };
}
