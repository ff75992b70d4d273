/**
 * Where a render worker cannot be used: the renderer's `setup` run on the page over its canvas, through
 * `createRuntime`, said once on the console; and the calls a render-worker runtime forwards to the page's runtime
 * either way.
 */
import type { Frame, Runtime } from '../contracts/app.ts';
import type { RenderWorkerRuntime, RenderWorkerRuntimeOptions } from '../contracts/render.ts';
import type { Clock } from '../core/clock.ts';
import type { InputWriter } from '../core/input-writer.ts';
import type { Layout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationInfo, TransportKind } from '../contracts/remote.ts';
import { rendererParts, sizeCanvas } from '../render-worker/renderer.ts';
import { followCanvasSize, canvasSize } from './canvas-size.ts';
import type { ClockSkew } from './clock-align.ts';
import { createRuntime } from './runtime.ts';

const warned = new Set<string>();
export function warnRenderFallback(reason: string): void {
  if (warned.has(reason)) return;
  warned.add(reason);
  console.warn(`steadyframe: drawing on the main thread, not in the render worker: ${reason}`);
}


/** The calls both kinds forward to the page's runtime unchanged. */
export function forward<S extends Schema, C extends object>(runtime: Runtime<S, C>) {
  return {
    schema: runtime.schema,
    capacity: runtime.capacity,
    layout: runtime.layout as Layout,
    info: runtime.info as SimulationInfo,
    clock: runtime.clock as ClockSkew,
    remote: runtime.remote,
    commands: runtime.commands,
    transport: runtime.transport as TransportKind,
    now: runtime.now as Clock,
    input: runtime.input as InputWriter | null,
    sendInput: (code: number, p0?: number, p1?: number, p2?: number, p3?: number) => runtime.sendInput(code, p0, p1, p2, p3),
    pause: () => runtime.pause(),
    resume: () => runtime.resume(),
    stepOnce: () => runtime.stepOnce(),
    setTimeScale: (scale: number) => runtime.setTimeScale(scale),
    setTickRate: (hz: number) => runtime.setTickRate(hz),
    restart: (from?: 'last' | 'scratch') => runtime.restart(from),
  };
}

/** The fallback: `createRuntime` with the renderer's `setup` run on this thread over the page's canvas. */
export async function createMainThreadRenderer<S extends Schema, C extends object>(
  options: RenderWorkerRuntimeOptions<S>,
  reason: string,
): Promise<RenderWorkerRuntime<S, C>> {
  if (options.fallback === undefined) {
    throw new Error(`steadyframe: the render worker cannot be used: ${reason}; pass fallback (the renderer's setup) to draw on the main thread instead`);
  }
  warnRenderFallback(reason);
  let parts: ReturnType<typeof rendererParts<S>> | null = null;
  let drawn = 0;
  const draw = (frame: Frame<S>): void => {
    if (parts === null) return;
    drawn++;
    parts.draw(frame, frame.time);
  };
  const runtime = await createRuntime<S, C>({ ...options, draw });
  const { canvas } = options;
  const size = canvasSize(canvas);
  sizeCanvas(canvas, size.width, size.height, size.dpr);
  parts = rendererParts(
    await options.fallback({
      canvas,
      schema: options.schema,
      capacity: options.capacity,
      layout: runtime.layout,
      reader: runtime.reader,
      now: runtime.now,
      info: runtime.info,
      ...size,
      thread: 'main',
      get interpolation() {
        return runtime.interpolation;
      },
    }),
  );
  if (!parts.sample) {
    // the GPU path reads the states itself: pace only, and hand it the frame's time
    const gpu = parts;
    // not refreshed on this path (the renderer reads the states itself), as in the render worker
    const stale = runtime.sample();
    let handle = 0;
    const onFrame = (timestamp: number): void => {
      handle = requestAnimationFrame(onFrame);
      if (runtime.pace(timestamp)) {
        drawn++;
        gpu.draw(stale, timestamp);
      }
    };
    const start = runtime.start.bind(runtime);
    const stop = runtime.stop.bind(runtime);
    return mainThreadRuntime(runtime, reason, () => drawn, async () => {
      await start();
      if (handle === 0) handle = requestAnimationFrame(onFrame);
    }, async () => {
      cancelAnimationFrame(handle);
      handle = 0;
      await stop();
    }, parts.resize, canvas, options.autoResize !== false);
  }
  return mainThreadRuntime(runtime, reason, () => drawn, () => runtime.start(), () => runtime.stop(), parts.resize, canvas, options.autoResize !== false);
}

function mainThreadRuntime<S extends Schema, C extends object>(
  runtime: Runtime<S, C>,
  reason: string,
  drawn: () => number,
  start: () => Promise<void>,
  stop: () => Promise<void>,
  onResize: (width: number, height: number, dpr: number) => void,
  canvas: HTMLCanvasElement,
  autoResize: boolean,
): RenderWorkerRuntime<S, C> {
  const resize = async (width: number, height: number, dpr: number): Promise<void> => {
    sizeCanvas(canvas, width, height, dpr);
    onResize(width, height, dpr);
  };
  const unfollow = autoResize ? followCanvasSize(canvas, (next) => void resize(next.width, next.height, next.dpr)) : () => {};
  return {
    ...forward(runtime),
    on: (type, listener) => runtime.on(type, listener),
    renderer: 'main',
    renderFallback: reason,
    renderRemote: null,
    start,
    stop,
    setInterpolation: async (interpolation) => runtime.setInterpolation(interpolation),
    resize,
    async stats() {
      const stats = await runtime.stats();
      return {
        ...stats,
        render: {
          thread: 'main',
          fallback: reason,
          drawn: drawn(),
          crossOriginIsolated: globalThis.crossOriginIsolated === true,
          kernels: runtime.kernels,
          kernelCalls: { wasm: 0, fallback: 0 },
          canvas: { width: canvas.width, height: canvas.height },
          errors: 0,
          lastError: null,
          unresponsive: false,
        },
      };
    },
    dispose() {
      unfollow();
      runtime.dispose();
    },
  };
}
