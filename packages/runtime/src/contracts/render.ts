/**
 * The app API of a runtime that draws in a render worker (`createRenderWorkerRuntime`): its options, the
 * runtime and its stats, and what a renderer's `setup` gets and returns (in the render worker, or on the page
 * in the fallback). Types only.
 */
import type { Remote } from 'comlink';
import type { Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { Clock } from '../core/clock.ts';
import type { Layout } from '../core/layout.ts';
import type { Frame, Runtime, RuntimeOptions, RuntimeStats } from './app.ts';
import type { InterpolationOptions, StateReader } from './frames.ts';
import type { SimulationInfo } from './remote.ts';
import type { RenderWorkerRemote } from './render-worker.ts';

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

/** What a renderer's `setup` gets in the render worker (or on the page, in the fallback). */
export interface RenderContext<S extends Schema> {
  /** The canvas to draw into: an OffscreenCanvas in the render worker, the page's canvas in the fallback. */
  readonly canvas: OffscreenCanvas | HTMLCanvasElement;
  readonly schema: S;
  readonly capacity: number;
  readonly layout: Layout;
  /** The raw published states, for renderers that blend on the GPU (`createInterpolatedInstancedMesh`). */
  readonly reader: StateReader<S>;
  /** Shared-clock ms now. */
  readonly now: Clock;
  readonly info: SimulationInfo;
  /** The canvas's CSS size and the device pixel ratio at set-up (later ones come to `resize`). */
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
  /** Where this runs: 'worker' (the render worker) or 'main' (the fallback). */
  readonly thread: 'worker' | 'main';
  /**
   * The interpolation options in effect (live: `setInterpolation` replaces them), for renderers that blend on
   * the GPU: `@steadyframe/three` and `@steadyframe/pixi` take them to treat late frames as the sampler does.
   */
  readonly interpolation: Required<InterpolationOptions<S>>;
}

/** What `setup` returns: a draw function, or one with a resize hook and the GPU path's `sample: false`. */
export type Renderer<S extends Schema> =
  | ((frame: Frame<S>, time: number) => void)
  | {
      /** Called once per rendered frame; `time` is the frame's shared-clock time. */
      readonly draw: (frame: Frame<S>, time: number) => void;
      /** The canvas's CSS size or the device pixel ratio changed (the backing size is already set). */
      readonly resize?: (width: number, height: number, dpr: number) => void;
      /**
       * False for renderers that read the raw states themselves (`context.reader`, the GPU path): the loop then
       * only paces, and `frame` is not refreshed (use `time`). Default true.
       */
      readonly sample?: boolean;
    };

/** The game's render set-up: builds its scene on the canvas, returns how to draw a frame. */
export type RendererSetup<S extends Schema> = (context: RenderContext<S>) => Renderer<S> | Promise<Renderer<S>>;
