/**
 * The app API of the page side: `createRuntime`'s options, the runtime, its frames, events and stats. Types
 * only; `createRuntime` (main/runtime.ts) and `createNodeRuntime` (node/) make runtimes of these types, through
 * the composition root (compose/runtime.ts).
 */
import type { Remote } from 'comlink';
import type { Clock } from '../core/clock.ts';
import type { EventVisitor, FrameEvents } from '../core/event-reader.ts';
import type { InputWriter } from '../core/input-writer.ts';
import type { Layout, SharedViews } from '../core/layout.ts';
import type { FieldViews, GameState, Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { ReadLockStats } from '../core/slot-reader.ts';
import type { ClockSkew, FrameClockStats, FramePacerOptions, FrameTables, InterpolationOptions, PacerChange, SampleStats, StateReader } from './frames.ts';
import type { VisibilityHook } from './host.ts';
import type { SessionControls } from './recording.ts';
import type { SimulationInfo, SimulationRemote, TransportKind, WorkerStats } from './remote.ts';
import type { Transport } from './transport.ts';

export type { FrameClockStats } from './frames.ts';
export type { PresentedFrame, RuntimeEvents } from './runtime-events.ts';
import type { RuntimeEvents } from './runtime-events.ts';

/**
 * `createRuntime`'s options: a DOM `Worker` and the options every host shares (`RuntimeOptionsBase`), with
 * `setup` required where the simulation's `Setup` type has no room for undefined.
 */
export type RuntimeOptions<S extends Schema, Setup = unknown> = RuntimeOptionsBase<S> &
  SetupOption<Setup> & {
    /** A module Worker whose script calls `exposeSimulation` from 'steadyframe/worker' with the same schema. */
    readonly worker: Worker;
  };

/**
 * Set-up data for the simulation's `init(world, setup)`: counts, bounds, a seed, a level. Structured-cloned to
 * the worker once, at attach (a value that cannot be cloned throws at set-up); `restart('scratch')` hands `init`
 * the same value again. Type it with the worker's `export type Setup` as the third type argument of
 * `createRuntime<typeof schema, Commands, Setup>`: then it is required, unless `Setup` allows undefined.
 */
export type SetupOption<Setup> = undefined extends Setup ? { readonly setup?: Setup } : { readonly setup: Setup };

/** The options of a runtime on any host: what the simulation is, and how frames are made from it. */
export interface RuntimeOptionsBase<S extends Schema> {
  readonly schema: S;
  /** Most entities the world can hold. Fixed for the runtime's life. */
  readonly capacity: number;
  /** Called once per animation frame after `start()`, with the interpolated state (hosts with animation frames). */
  readonly draw?: (frame: Frame<S>) => void;
  /** Called once if the simulation faults (its step threw). Default: console.error. */
  readonly onError?: (error: Error) => void;
  /** compareExchange attempts per frame before giving up on the lock (then the frame repeats the last state). */
  readonly maxSpins?: number;
  /** How frames are made from ticks: mode, render delay, what a late frame shows, snapping. */
  readonly interpolation?: InterpolationOptions<S>;
  /**
   * The adaptive render interval (ARCHITECTURE.md, "Frames: pacing and sampling"): frames are presented every n-th display refresh, n growing
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
   * The event ring from the worker: the events steps emit (`tick.emit`), each presented with the first frame that
   * shows its tick (`frame.events`). `capacity` is a power of two (default 4,096: the events of the ticks the page
   * has not shown yet, plus the last frame's), `payloadWidth` the numbers per event (default 4); false for none
   * (`tick.emit` then returns false). A full ring loses events, counted and reported as an EVENTS_LOST event.
   */
  readonly events?: { readonly capacity?: number; readonly payloadWidth?: number } | false;
  /**
   * Where the runtime learns that the page is hidden, so the worker can sleep (its `whenHidden`). Default: the
   * document's `visibilitychange`; null to never tell the worker.
   */
  readonly visibility?: VisibilityHook | null;
  /**
   * How states reach this thread. 'shared' (the fast path: one SharedArrayBuffer, needs a cross-origin
   * isolated page), 'message' (transferred ArrayBuffers, works anywhere), the kind of a transport of your own
   * (`transports`), or 'auto' (default): the first available of `transports` and then shared, message.
   * `runtime.transport` says which is in use.
   */
  readonly transport?: 'auto' | TransportKind;
  /**
   * Transports of your own (a network transport, say), tried before the library's under 'auto'. The worker
   * module must pass the same ones to `exposeSimulation(definition, { transports })`.
   */
  readonly transports?: readonly Transport[];
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
   * it rejects, naming the likely cause. A number above 0, default 10,000; `Infinity` waits forever. Real time,
   * less any the page itself was held (a long task on the main thread): the answer may be waiting behind it.
   */
  readonly attachTimeout?: number;
  /**
   * The seed of the simulation's generator (`tick.random()`, `init`'s `context.random()`): a whole number from 0
   * to 2^32 − 1. Default: a new one from the platform's cryptographic generator each runtime; `runtime.info.seed`
   * says which. The same seed, setup and inputs give the same run on every machine.
   */
  readonly seed?: number;
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
  /**
   * The events this frame presents: every event of a tick up to the one it shows (`tick` once the frame has left
   * `previousTick`, that is alpha above 0; `previousTick` at alpha 0) that no frame presented before, in tick
   * order, each exactly once. Filled by the frames that count (`frame`, the `draw` loop, `frameAt`); `sample`
   * leaves them as they were. Read during the draw: the next frame hands them back to the worker.
   */
  readonly events: FrameEvents;
  /**
   * The game's state at the frame's time: one number per game field of the schema (`scope: 'game'`), from the
   * same two states as the entities, blended by its kind (`none` by the discrete rule: the current state's value
   * once alpha is above 0; `linear`; `angle`). The same object every frame, written in place.
   */
  readonly state: GameState<S>;
  /**
   * The schema's entity tables (`defineTables`), by name: each table's fields at the frame's time as zero-based
   * views over its range of `fields`, its count in the state drawn, and its entities' handles
   * (`handle(i)`, `indexOf(handle)`: the same handle follows an entity through despawns). Empty for a plain schema.
   */
  readonly tables: FrameTables<S>;
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
  /**
   * The event ring: events presented with frames or taken (`delivered`), committed and not yet presented
   * (`pending`), and lost to a full ring (`lost`, each loss also reported by an EVENTS_LOST event). Zeros without one.
   */
  readonly events: { readonly delivered: number; readonly pending: number; readonly lost: number };
  readonly worker: WorkerStats;
}

export interface Runtime<S extends Schema, C extends object = Record<never, never>> extends SessionControls {
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
   * The frame's time: inside an animation frame's callbacks (a `requestAnimationFrame` loop, three.js's
   * `setAnimationLoop`, a ticker), the animation frame's own time when you pass no timestamp, or one at or after
   * it and not in the future (a `performance.now()` read after a slow update): that is the time the worker was
   * told to simulate to. Outside one (a timer, a message handler, Node), the timestamp you pass, or now. The
   * runtime knows it is inside an animation frame from frame hooks of its own, so create it before you start
   * your loop; a loop that began earlier gets the timestamp it passes, or now (pass rAF's timestamp then).
   * Timestamps are shared-clock ms (this thread's `performance.now()` timeline). A frame is never drawn earlier
   * than the frame before it, whatever timestamps arrive: `frame.time`, `runtime.frameTime` and the time the
   * worker is told are that clamped time. None is drawn from a state older than the worker could have published
   * (it holds for an announced frame only `FRAME_HOLD_MS`, then follows the clock). For a time of your own
   * choosing, drawn as it is (a virtual clock, a replay, a test), use `frameAt`.
   *
   * Before `start()` it draws the state `init` made (tick 0), at whatever time: the simulation is not running.
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
   * Takes every event the worker has published and no frame has presented, now, whatever the frames show: for
   * code that prefers latency to sync (a network relay, a log), or a page that draws nothing for a while. Each
   * event goes to `visitor` (one reused object: copy out what you keep) and will not come with a frame; the last
   * frame's `events` are empty after it. Returns how many. Allocates nothing.
   */
  takeEvents(visitor: EventVisitor): number;
  /**
   * The events the newest frame presented (`frame`, the `draw` loop, `frameAt`, and `pace`, whose game draws from
   * the states itself): that frame's `events`. Valid until the next frame.
   */
  readonly events: FrameEvents;
  /** The game state of the newest frame (`frame`, the `draw` loop, `frameAt`, `pace`): that frame's `state`. */
  readonly state: GameState<S>;
  /**
   * Draws the world at exactly `time` (shared-clock ms), unpaced, for frames at times of your own choosing: a
   * fixed virtual clock, a replay, a test, a server loop. Like `frame`, it makes sure of the worker's states up to
   * `time` first (ringing a sleeping worker and waiting, bounded, as a late animation frame does), raises the
   * events, and tells the worker when the next frame comes: `next`, by default `time` plus the gap since the
   * previous `frameAt` (one refresh period the first time), so that the worker simulates to it. A `time` earlier
   * than the previous frame's is drawn at the previous frame's time (the picture never goes back). The worker
   * never runs more than its `maxLeadTicks` ahead of the real clock: a time further ahead than that is drawn
   * late (`frame.late`), holding the newest state.
   */
  frameAt(time: number, next?: number): Frame<S>;
  /**
   * Samples the world at shared-clock `time` (default: now) into the render buffer by the interpolation
   * options and returns the frame, without telling the worker anything (no frame is counted, none paced, and
   * `frameTime` stays). For the newest state as it is, set `mode: 'latest'` (`sample(Infinity)` also gives it
   * under the default `whenLate: 'hold'`).
   */
  sample(time?: number): Frame<S>;
  /**
   * Tells the worker when the next frame will be drawn, so it simulates just past it (the low-level half of
   * `frameAt`, for renderers that sample with `sample` or read the raw states with `reader` at times of their own).
   */
  expectFrame(time: number): void;
  /** Changes how frames are made (some options; the others stay). Throws for bad values. */
  setInterpolation(options: InterpolationOptions<S>): void;
  /** The interpolation options in effect: one frozen object until `setInterpolation` (cheap to read every frame). */
  readonly interpolation: Required<InterpolationOptions<S>>;
  /** Listens to an event; returns the unsubscribe function. */
  on<K extends keyof RuntimeEvents<S>>(type: K, listener: (event: RuntimeEvents<S>[K]) => void): () => void;
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
