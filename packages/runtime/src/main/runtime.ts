/**
 * The main-thread side's public face: `createRuntime`, its options, the runtime, frames, events and stats.
 * Set-up is in runtime-setup.ts, the runtime object in main-runtime.ts, the frames in frame-loop.ts, the watch
 * over the worker in watchdog.ts. The main thread never changes simulation state and never blocks.
 */
import type { Remote } from 'comlink';
import type { Clock } from '../core/clock.ts';
import type { InputWriter } from '../core/input-ring.ts';
import type { Layout, SharedViews } from '../core/layout.ts';
import type { SimulationInfo, SimulationRemote, TransportKind, WorkerStats } from '../core/protocol.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { ReadLockStats } from '../core/slots.ts';
import type { ClockSkew } from './clock-align.ts';
import type { FramePacerOptions, PacerChange } from './frame-pacer.ts';
import type { FrameClockStats } from './frame-loop.ts';
import { setUpRuntime } from './runtime-setup.ts';
import type { InterpolationOptions, SampleStats } from './sampler.ts';
import type { StateReader } from './state-reader.ts';
import type { VisibilityHook } from './visibility.ts';

export { ISOLATION_REQUIRED } from './runtime-setup.ts';
export type { ClockSkew } from './clock-align.ts';
export type { StateReader } from './state-reader.ts';

export interface RuntimeOptions<S extends Schema, Setup = unknown> {
  /** A module Worker whose script calls `exposeSimulation` from 'steadyframe/worker' with the same schema. */
  readonly worker: Worker;
  readonly schema: S;
  /** Most entities the world can hold. Fixed for the runtime's life. */
  readonly capacity: number;
  /**
   * Set-up data for the simulation's `init(world, setup)`: counts, bounds, a seed, a level. Structured-cloned
   * to the worker once, at attach (a value that cannot be cloned throws at set-up); `restart('scratch')` hands
   * `init` the same value again. Type it with the worker's `export type Setup` as the third type argument of
   * `createRuntime<typeof schema, Commands, Setup>`. Default: undefined.
   */
  readonly setup?: Setup;
  /** Called once per animation frame after `start()`, with the interpolated state. */
  readonly draw?: (frame: Frame<S>) => void;
  /** Called once if the simulation faults (its step threw). Default: console.error. */
  readonly onError?: (error: Error) => void;
  /** compareExchange attempts per frame before giving up on the lock (then the frame repeats the last state). */
  readonly maxSpins?: number;
  /** How frames are made from ticks: mode, render delay, what a late frame shows, snapping. */
  readonly interpolation?: InterpolationOptions<S>;
  /**
   * The adaptive render interval (source note 003): frames are presented every n-th display refresh, n growing
   * when frames overrun and shrinking slowly when there is time to spare. `{ adaptive: false }` renders on
   * every animation frame. Changes are `interval` events.
   */
  readonly pacing?: Omit<FramePacerOptions, 'onChange'>;
  /**
   * The input ring to the worker: events stamped with the shared clock, handed to the tick they fall in.
   * `capacity` is a power of two (default 1024), `payloadWidth` the numbers per event (default 4); false for none.
   */
  readonly input?: { readonly capacity?: number; readonly payloadWidth?: number } | false;
  /**
   * Where the runtime learns that the page is hidden, so the worker can sleep (its `whenHidden`). Default: the
   * document's `visibilitychange`; null to never tell the worker.
   */
  readonly visibility?: VisibilityHook | null;
  /**
   * How states reach this thread. 'shared' (the fast path: one SharedArrayBuffer, needs a cross-origin
   * isolated page), 'message' (transferred ArrayBuffers, works anywhere), or 'auto' (default): shared when
   * the page is isolated, message otherwise. `runtime.transport` says which is in use.
   */
  readonly transport?: 'auto' | TransportKind;
  /**
   * The blend kernels for linear, quaternion and angle fields: 'wasm-simd' (default where the engine has
   * WebAssembly SIMD, with the shared transport: the shared buffer is then a WebAssembly memory) or 'js'.
   * `runtime.kernels` says which run.
   */
  readonly kernels?: BlendBackend;
  /**
   * Ms without a worker heartbeat (it beats every 250 ms and every tick) before an `unresponsive` event: a
   * number above 0, default 2000; `false` (or `Infinity`) turns the watchdog off.
   */
  readonly heartbeatTimeout?: number | false;
  /**
   * Ms `createRuntime` waits for the worker to attach (its module loaded and called `exposeSimulation`) before
   * it rejects, naming the likely cause. A number above 0, default 10,000; `Infinity` waits forever.
   */
  readonly attachTimeout?: number;
}

/** The events `runtime.on` offers. */
export interface RuntimeEvents {
  /** The simulation's step threw; the simulation stopped and the last good state stays on screen. */
  fault: Error;
  /** The worker dropped backlog (see its `backlog` policy); counts since attach. */
  overload: { readonly overloads: number; readonly droppedMs: number };
  /** The page was hidden or shown (as the visibility hook says). */
  visibility: { readonly hidden: boolean };
  /** The render interval changed, and why. */
  interval: PacerChange;
  /**
   * The worker's heartbeat stopped for `heartbeatTimeout` ms (it died, was terminated, or one step is taking
   * that long). Frames keep showing the last good state and stop taking the lock meanwhile.
   */
  unresponsive: { readonly silentMs: number };
  /** The heartbeat came back after `unresponsive`. */
  responsive: { readonly silentMs: number };
  /**
   * The page held the shared lock past 500 ms (a frame stuck between acquire and release), so the worker gave
   * up publishes rather than wait: the page's fault, not the worker's, which goes on beating. `stalls` counts
   * them since attach (READER_STALLS).
   */
  readerStall: { readonly stalls: number };
  /**
   * With a render worker (`createRenderWorkerRuntime`) only: it threw after set-up (its `error` event: a draw,
   * or a callback of the renderer's). Its loop schedules the next frame before it draws, so frames go on where
   * they can; `stats().render.errors` counts them, and the console gets each distinct message once.
   */
  renderFault: Error;
  /**
   * With a render worker only: it finished no frame for `renderTimeout` ms while the page was visible and the
   * runtime started (a draw that never returns, a worker terminated or crashed): the picture is frozen. The
   * console gets a warning naming the fix.
   */
  renderUnresponsive: { readonly silentMs: number };
  /** With a render worker only: its frames came back after `renderUnresponsive`. */
  renderResponsive: { readonly silentMs: number };
}

/**
 * One rendered frame. The runtime reuses this object and its views: read them during `draw` (or right after
 * `sample`), do not keep them.
 */
export interface Frame<S extends Schema> {
  /** Interpolated fields for entities 0 .. count - 1. A plain (unshared) buffer, ready for a GPU upload. */
  readonly fields: FieldViews<S>;
  /** Live entities in the state drawn. */
  readonly count: number;
  /**
   * Where `time` falls between the previous state (0) and the current one (1): clamped to [0, 1], except a
   * late frame under `whenLate: 'extrapolate'` (up to 1 + `maxPrediction`).
   */
  readonly alpha: number;
  /** Shared-clock ms this frame shows the world at (a clock time: ms, like every `...Time` here). */
  readonly time: number;
  /** Tick numbers of the two states blended. */
  readonly previousTick: number;
  readonly tick: number;
  /** Shared-clock ms those two states stand for. */
  readonly previousTime: number;
  readonly currentTime: number;
  /**
   * Simulated seconds since tick 0 at the current state (the unit of `tick.time` and `tick.dt` in the worker).
   * Simulated time is in seconds everywhere; clock times (`time`, `previousTime`, `currentTime`) are
   * shared-clock ms.
   */
  readonly simSeconds: number;
  /** The frame's time was past the newest state (the worker was late); `whenLate` decided what it shows. */
  readonly late: boolean;
  /**
   * The worker had published past the frame's time (its callback ran late) and the main thread had not kept
   * the two states around it: the frame shows the nearest it has (the oldest state at hand, or a blend across
   * ticks it never read), not its exact pair. After one whose pair the main thread had read whole, recent
   * states are kept for a while (1 s after a lone one, 1.5 times the gap when they recur, up to 10 s) and
   * overtaken frames whose pair was read blend it exactly (`stats().sampling.recovered`); overtakes no copy
   * could serve (frames farther apart than ticks) keep none.
   */
  readonly overtaken: boolean;
  /** Entities drawn snapped rather than blended (spawned, teleported, or past `snapDistance`). */
  readonly snapped: number;
  /** False when the lock could not be taken this frame: the fields repeat the last good frame. */
  readonly fresh: boolean;
  /** Frames sampled so far, this one included. */
  readonly index: number;
}

export interface RuntimeStats {
  /** Frames sampled. */
  readonly frames: number;
  /** Lock contention seen from the main thread. */
  readonly lock: Readonly<ReadLockStats>;
  /** Late frames, extrapolated frames, history gaps, snaps, overtaken and recovered frames. */
  readonly sampling: Readonly<SampleStats>;
  /** The adaptive render interval: where it stands and how often it moved. */
  readonly pacing: {
    readonly adaptive: boolean;
    readonly refreshPeriod: number;
    readonly multiple: number;
    readonly interval: number;
    readonly renderedFrames: number;
    readonly skippedVsyncs: number;
    readonly overruns: number;
    readonly grows: number;
    readonly shrinks: number;
    readonly lastChange: PacerChange | null;
  };
  /**
   * How rendered frames' times met what the worker was told: frames that came at another time than announced
   * (rAF's, after a stall), and the spins of frames that rang a worker sleeping short of them and waited for
   * its states (see "Which timestamp?" in the README).
   */
  readonly frameClock: Readonly<FrameClockStats>;
  /** Input events the ring refused because it was full (never silently dropped: `sendInput` returned false). */
  readonly inputRejected: number;
  readonly worker: WorkerStats;
}

export interface Runtime<S extends Schema, C extends object = Record<never, never>> {
  readonly schema: S;
  readonly capacity: number;
  readonly layout: Layout;
  /** The settings the worker runs with. */
  readonly info: SimulationInfo;
  /** The worker's clock skew as measured (and corrected) at set-up. */
  readonly clock: ClockSkew;
  /** The typed comlink proxy of the worker, for calls the runtime does not wrap. */
  readonly remote: Remote<SimulationRemote>;
  /**
   * The simulation's own `commands` (see `SimulationDefinition.commands`), called over comlink. They run in the
   * worker between ticks. Type them with `createRuntime<typeof schema, Commands>` where the worker module
   * exports `type Commands = typeof commands`.
   */
  readonly commands: Remote<C>;
  /** The transport in use: 'shared' (SharedArrayBuffer) or 'message' (no cross-origin isolation). */
  readonly transport: TransportKind;
  /** The blend kernels in use for linear, quaternion and angle fields. */
  readonly kernels: BlendBackend;
  /** The shared buffer's views (null with the message transport). Read slots through `reader`, never directly. */
  readonly views: SharedViews<S> | null;
  /**
   * The raw published states, for renderers that blend on their own: `reader.read((pair, publishCount) => ...)`
   * runs its function with the newest pair under the lock and releases it after, `reader.publishCount()`,
   * `reader.stats`.
   */
  readonly reader: StateReader<S>;
  /** Shared-clock ms now (equals `performance.now()` on this thread). */
  readonly now: Clock;
  /** Starts the simulation and, if `draw` was given, the animation-frame loop. */
  start(): Promise<void>;
  /** Stops the frame loop and the simulation; the last state stays. `start()` continues. */
  stop(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** One tick, while paused or stopped. */
  stepOnce(): Promise<void>;
  setTimeScale(scale: number): Promise<void>;
  setTickRate(hz: number): Promise<void>;
  stats(): Promise<RuntimeStats>;
  /**
   * One animation frame's work, for games that run their own loop (e.g. three.js `setAnimationLoop`): paces
   * (returns null on a refresh the render interval skips: draw nothing then), samples the world at the frame's
   * time, tells the worker when the next frame is due, and raises fault and overload events. The time until the
   * end of the current task (your draw) counts as the frame's cost. `start()` with `draw` calls it for you.
   * With the shared transport it allocates nothing; the message transport posts a message a frame.
   *
   * Call it with no argument: the frame's time is then the animation frame's timestamp (inside a
   * `requestAnimationFrame` callback or a loop driven by one, `document.timeline.currentTime`), or now where
   * there is none (outside a callback, in a worker). A timestamp you pass (rAF's, a ticker's,
   * `performance.now()`) is shared-clock ms (this thread's `performance.now()` timeline); in the first frame of
   * an animation frame, one at or after that animation frame's time (a `performance.now()` read after a slow
   * update) counts as the animation frame's time, the one the worker simulated to (frame-time.ts); otherwise it
   * is used as given. None is ever drawn from a state older than the worker could have published (it holds for
   * an announced frame only `FRAME_HOLD_MS`, then follows the clock).
   */
  frame(timestamp?: number): Frame<S> | null;
  /**
   * `frame` without the sampling, for renderers that blend on the GPU from the raw states
   * (`reader.read(fn)`): paces, tells the worker when the next frame is due, raises events. Returns whether
   * to draw on this refresh. The time until the end of the current task counts as the frame's cost. The
   * timestamp is optional, as for `frame`.
   */
  pace(timestamp?: number): boolean;
  /**
   * The time of the newest frame `frame`, `pace` or the `draw` loop made, shared-clock ms (NaN before the
   * first): what a GPU renderer blends at after `pace()` (`@steadyframe/three`'s `update()` reads it).
   */
  readonly frameTime: number;
  /** The input ring's writer, or null if the runtime was made with `input: false`. */
  readonly input: InputWriter | null;
  /**
   * Sends an input event stamped now; the worker hands it to the tick it falls in (`tick.input`). Returns false
   * when the ring is full: the event was refused (and counted), never dropped silently or overwritten.
   */
  sendInput(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean;
  /**
   * Samples the world at shared-clock `time` (default: now) into the render buffer by the interpolation
   * options and returns the frame, without telling the worker anything. For the newest state as it is, set
   * `mode: 'latest'` (`sample(Infinity)` also gives it under the default `whenLate: 'hold'`).
   */
  sample(time?: number): Frame<S>;
  /** Tells the worker when the next frame will be presented, so it simulates just past it. */
  expectFrame(time: number): void;
  /** Changes how frames are made (some options; the others stay). Throws for bad values. */
  setInterpolation(options: InterpolationOptions<S>): void;
  /** The interpolation options in effect: one frozen object until `setInterpolation` (cheap to read every frame). */
  readonly interpolation: Required<InterpolationOptions<S>>;
  /** Listens to an event; returns the unsubscribe function. */
  on<K extends keyof RuntimeEvents>(type: K, listener: (event: RuntimeEvents[K]) => void): () => void;
  /**
   * After a fault: makes the simulation runnable again from the last published state (`'last'`, default: the
   * world as it was drawn, undoing the step that threw) or from scratch (`'scratch'`: `init` again), and starts
   * it if the runtime was started.
   */
  restart(from?: 'last' | 'scratch'): Promise<void>;
  /**
   * Stops everything, terminates the worker and frees the comlink proxy. The runtime is unusable after; calls
   * still waiting on the worker (`stats()`, `pause()`, ...) reject instead of never settling.
   */
  dispose(): void;
}

/**
 * Creates the shared buffer (or, on a page without cross-origin isolation, the message transport), attaches
 * the worker's simulation to it (which runs its `init` and publishes tick 0), aligns the two clocks and returns
 * the runtime. Throws at set-up for a bad schema, capacity or option, or `transport: 'shared'` on a page
 * without isolation; rejects for a worker that fails to load, has another schema, or does not attach within
 * `attachTimeout` (it never calls `exposeSimulation`).
 */
export function createRuntime<S extends Schema, C extends object = Record<never, never>, Setup = unknown>(
  options: RuntimeOptions<S, Setup>,
): Promise<Runtime<S, C>> {
  return setUpRuntime<S, C>(options);
}
