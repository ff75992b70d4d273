/**
 * The app API of a runtime that draws in a render worker (`createRenderWorkerRuntime`): its options, the
 * runtime and its stats. Types only.
 */
import type { Remote } from 'comlink';
import type { Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { RenderWorkerRemote } from '../render-worker/protocol.ts';
import type { RendererSetup } from '../render-worker/renderer.ts';
import type { Runtime, RuntimeOptions, RuntimeStats } from './app.ts';

export interface RenderWorkerRuntimeOptions<S extends Schema> extends Omit<RuntimeOptions<S>, 'draw' | 'transport' | 'transports'> {
  /** A module Worker whose script calls `exposeRenderer` from 'steadyframe/render-worker'. */
  readonly renderWorker: Worker;
  /** The canvas to draw into. With a render worker its control moves there: the page can no longer draw on it. */
  readonly canvas: HTMLCanvasElement;
  /**
   * The same setup the render worker module hands `exposeRenderer`, run on this thread when the render worker
   * cannot be used (no OffscreenCanvas, no requestAnimationFrame in workers, no cross-origin isolation). Without
   * it, those cases reject naming the reason.
   */
  readonly fallback?: RendererSetup<S>;
  /**
   * Ms without a finished frame in the render worker (the runtime started, the page visible) before
   * `renderUnresponsive`; false: never. Default 5000: one frame is one long task there (a first frame that
   * compiles shaders on a software GPU under load can take seconds), unlike the simulation's heartbeat, which
   * beats inside long bursts (`heartbeatTimeout`).
   */
  readonly renderTimeout?: number | false;
  /** Where to draw: 'auto' (default: the render worker where it can), 'worker' (reject where it cannot), 'main'. */
  readonly renderIn?: 'auto' | 'worker' | 'main';
  /**
   * Forward the canvas's CSS size and devicePixelRatio to the renderer as they change (a ResizeObserver, and a
   * resolution media query for a ratio change alone), in the render worker or on the page. Default true.
   */
  readonly autoResize?: boolean;
}

export interface RenderWorkerRuntimeStats extends RuntimeStats {
  readonly render: {
    /** Where frames are drawn. */
    readonly thread: 'worker' | 'main';
    /** Why not in the render worker (null when they are). */
    readonly fallback: string | null;
    /** Frames the renderer drew. */
    readonly drawn: number;
    /** The drawing realm's `crossOriginIsolated`. */
    readonly crossOriginIsolated: boolean;
    /** The blend kernels the drawing thread's sampler runs ('wasm-simd' in the render worker too, where the page's memory could be handed over). */
    readonly kernels: BlendBackend;
    /** Calls the wasm kernels ran and calls they handed to the JS ones, in the drawing thread (0 and 0 with JS kernels; on the page, not counted: 0 and 0). */
    readonly kernelCalls: { readonly wasm: number; readonly fallback: number };
    /** The canvas's backing size (its CSS size times the device pixel ratio, as the last resize set it). */
    readonly canvas: { readonly width: number; readonly height: number };
    /** Errors the render worker threw after set-up (its `error` events: a throwing draw, say); 0 on the page. */
    readonly errors: number;
    /** The last one's message, or null. */
    readonly lastError: string | null;
    /** The render worker finished no frame for `renderTimeout` ms while it should have (see `renderUnresponsive`). */
    readonly unresponsive: boolean;
  };
}

/** The page's runtime with a render worker: `Runtime` without the frame calls (the render worker reads, not the page). */
export interface RenderWorkerRuntime<S extends Schema, C extends object = Record<never, never>>
  extends Pick<
    Runtime<S, C>,
    | 'schema'
    | 'capacity'
    | 'layout'
    | 'info'
    | 'clock'
    | 'remote'
    | 'commands'
    | 'transport'
    | 'now'
    | 'input'
    | 'sendInput'
    | 'on'
    | 'pause'
    | 'resume'
    | 'stepOnce'
    | 'setTimeScale'
    | 'setTickRate'
    | 'restart'
  > {
  /** Where frames are drawn: 'worker' (the render worker) or 'main' (the fallback). */
  readonly renderer: 'worker' | 'main';
  /** Why frames are not drawn in the render worker, or null when they are. */
  readonly renderFallback: string | null;
  /** The render worker's comlink proxy (null in the fallback). */
  readonly renderRemote: Remote<RenderWorkerRemote> | null;
  /** Starts the simulation and the frames (in the render worker, or on the page). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Changes how frames are made, where they are made. */
  setInterpolation(options: NonNullable<RuntimeOptions<S>['interpolation']>): Promise<void>;
  /** The canvas's CSS size or the device pixel ratio changed (automatic with `autoResize`). */
  resize(width: number, height: number, dpr: number): Promise<void>;
  stats(): Promise<RenderWorkerRuntimeStats>;
  /** Stops everything and terminates both workers. */
  dispose(): void;
}

