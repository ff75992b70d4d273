/**
 * The render worker's contract (the third thread: see ARCHITECTURE.md, "The render worker"), one file for both
 * sides: what the page calls in the render worker (`RenderWorkerRemote`, comlink on the render worker's scope),
 * what the render worker calls back on the page (`RenderHostRemote`, comlink on a transferred MessagePort), and
 * the one `init` message.
 */
import type { SimulationInfo, WorkerStats } from './remote.ts';
import type { Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { RuntimeStats } from './app.ts';

/** What the render worker can do, asked before the canvas is transferred (a canvas transferred cannot come back). */
export interface RenderProbe {
  /** `requestAnimationFrame` exists in the render worker's scope. */
  readonly animationFrames: boolean;
  /** The render worker realm's `crossOriginIsolated`. */
  readonly crossOriginIsolated: boolean;
}

/** Everything the render worker needs, sent once with the canvas and the host port transferred. */
export interface RenderInit<S extends Schema> {
  readonly canvas: OffscreenCanvas;
  /** The page's end of the host channel: events and the simulation's stats go back over it. */
  readonly host: MessagePort;
  /** The state buffer the simulation worker publishes into (the WebAssembly memory's buffer with SIMD). */
  readonly buffer: SharedArrayBuffer;
  /**
   * The page's shared WebAssembly.Memory that `buffer` is the buffer of (it posts between threads like the
   * buffer), so the render worker blends with the same SIMD kernels over the same memory; null where the page
   * made none (`kernels: 'js'`, no SIMD): the JS kernels then.
   */
  readonly memory: WebAssembly.Memory | null;
  /**
   * The event ring (event-ring.ts) the simulation worker commits into, or null for none: the render worker, the
   * buffer's one reader, presents its events with the frames it draws and reports them to the page.
   */
  readonly events: SharedArrayBuffer | null;
  /** The render beat (render-beat.ts): the render worker counts its finished frames there for the page's watch. */
  readonly beat: SharedArrayBuffer;
  readonly schema: S;
  readonly capacity: number;
  readonly maxSpins: number;
  /** Ms of heartbeat silence before `unresponsive`; Infinity: never. */
  readonly heartbeatTimeout: number;
  /** The interpolation and pacing options (structured-clone-safe: no functions). */
  readonly interpolation: unknown;
  readonly pacing: unknown;
  readonly info: SimulationInfo;
  /** The canvas's CSS size and the page's devicePixelRatio at set-up. */
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

/** The render worker's frame counters: the page's `RuntimeStats` fields that live there, and its own two. */
export type RenderStats = Pick<RuntimeStats, 'frames' | 'lock' | 'sampling' | 'pacing' | 'frameClock' | 'events'> & {
  /** Frames drawn (the renderer's draw called). */
  readonly drawn: number;
  /** The render worker realm's `crossOriginIsolated`. */
  readonly crossOriginIsolated: boolean;
  /** The blend kernels the render worker's sampler runs: the page's wasm SIMD ones over the handed-over memory, or JS. */
  readonly kernels: BlendBackend;
  /** Calls the wasm kernels ran, and handed to the JS ones (BlendKernels.calls): 0 and 0 with the JS kernels. */
  readonly kernelCalls: { readonly wasm: number; readonly fallback: number };
  /** The OffscreenCanvas's backing size now (CSS size times the device pixel ratio, as the last resize set it). */
  readonly canvas: { readonly width: number; readonly height: number };
};

/** The page's calls into the render worker. */
export interface RenderWorkerRemote {
  probe(): RenderProbe;
  /** Builds the frame machinery over the buffer and runs the renderer's `setup`; resolves once it has returned. */
  init(config: RenderInit<Schema>): Promise<void>;
  /** The render worker's shared clock now (for `alignClocks`), and its correction. */
  clockProbe(): number;
  setClockOffset(ms: number): void;
  /** Starts / stops the animation-frame loop. */
  start(): void;
  stop(): void;
  /** Hidden: no frames are requested until shown again. */
  setHidden(hidden: boolean): void;
  /** The canvas's CSS size and the device pixel ratio changed. */
  resize(width: number, height: number, dpr: number): void;
  setInterpolation(options: unknown): void;
  /** Whether the page listens to `present`: the render worker then reports each frame that presents. */
  setPresent(on: boolean): void;
  stats(): RenderStats;
}

/**
 * A frame the render worker presented, as it reports it to the page: the tick it shows, its time and index, the
 * game fields (`layout.game` order) and the events, packed (`recordWords` float64s each: tick, code, sequence,
 * payload; the event ring's records).
 */
export interface PresentedReport {
  readonly tick: number;
  readonly time: number;
  readonly index: number;
  readonly state: Float64Array;
  readonly events: Float64Array;
  readonly count: number;
  readonly recordWords: number;
}

/** The render worker's calls back to the page (over the host port). */
export interface RenderHostRemote {
  /** An event for the page's `runtime.on` (fault, overload, interval, unresponsive, responsive, readerStall). */
  emit(type: string, event: unknown): void;
  /** The simulation worker's stats (a fault's error, an overload's figures): only the page can ask it. */
  workerStats(): Promise<WorkerStats>;
  /** A frame the render worker presented (sent only while the page listens to `present`). */
  present(report: PresentedReport): void;
}
