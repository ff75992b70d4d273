/**
 * The worker contract: the one interface both `Comlink.expose` (worker) and `Comlink.wrap` (main thread)
 * are typed with, and what crosses at attach. Control goes through these calls; the per-tick data never does: it
 * goes through the transport (the shared buffer, or its own messages). Types only.
 */
import type { BacklogPolicy } from '../core/fixed-step.ts';
import type { STATUS_NAMES, StatusCode } from '../core/layout.ts';
import type { FlipStats } from '../core/slot-writer.ts';

/**
 * How states reach the page: the library's transports ('shared': one SharedArrayBuffer; 'message': transferred
 * ArrayBuffers, no cross-origin isolation needed) or an app's own (`Transport.kind`).
 */
export type TransportKind = 'shared' | 'message' | (string & {});

/**
 * A clock the page moves by hand (a test, a replay): the worker reads its time from `buffer` instead of
 * `performance`, and settles after each move (ARCHITECTURE.md, "The manual clock").
 */
export interface ManualClockConfig {
  readonly kind: 'manual';
  readonly buffer: SharedArrayBuffer;
}

/**
 * What the main thread hands the worker once, at set-up, tagged by the transport that made it: every transport's
 * config extends this, and the worker finds its half of the transport by `kind`.
 */
export interface AttachConfig<K extends TransportKind = TransportKind> {
  readonly kind: K;
  /** `schemaSignature` of the main thread's schema; the worker refuses a different one. */
  readonly signature: string;
  readonly capacity: number;
  /** `createRuntime`'s `setup` (structured-cloned): handed to the definition's `init`, again on restart('scratch'). */
  readonly setup?: unknown;
  /** A manual clock both sides read (tests, replays); absent: the real clock. */
  readonly clock?: ManualClockConfig;
  /** The seed of the simulation's generator (core/random.ts); absent: the worker picks one. */
  readonly seed?: number;
  /**
   * True where the page side has no animation frames (Node: a frame comes only when the app calls `frame()` or
   * `frameAt()`; a server makes none): with no frame expected, the loop runs each tick at its time rather than
   * ahead (worker/settings.ts, `leadTicks`). Absent: a page's frames.
   */
  readonly frameless?: boolean;
}

/** The shared transport's config: the buffer laid out by layout.ts for this schema and capacity. */
export interface SharedAttachConfig extends AttachConfig<'shared'> {
  readonly buffer: SharedArrayBuffer;
  /**
   * The WebAssembly.Memory whose buffer `buffer` is, when the page made it one (for the SIMD kernels): the worker
   * then lays out `memory.buffer` and publishes with `memory.copy` (publish-copy.ts).
   */
  readonly memory?: WebAssembly.Memory;
  /** The input ring (see input-ring.ts), if the runtime has one. */
  readonly input?: SharedArrayBuffer;
  /** The event ring (see event-ring.ts), if the runtime has one. */
  readonly events?: SharedArrayBuffer;
}

/**
 * The message transport's config (no cross-origin isolation): a port over which states, frame times and input
 * travel (transports/message), the clock anchor, and the input ring's size (null: none).
 */
export interface MessageAttachConfig extends AttachConfig<'message'> {
  readonly port: MessagePort;
  readonly clockAnchor: number;
  readonly inputRing: { readonly capacity: number; readonly payloadWidth: number } | null;
  /** The event ring's size (null: none): the worker stages into a ring of its own and sends each tick's events with its state. */
  readonly eventRing: { readonly capacity: number; readonly payloadWidth: number } | null;
}

/** The configs of the library's own transports, a union tagged by `kind`. */
export type BuiltInAttachConfig = SharedAttachConfig | MessageAttachConfig;

/** The simulation's settings as the worker runs them, returned by `attach`. */
export interface SimulationInfo {
  readonly tickRate: number;
  readonly timeScale: number;
  readonly maxCatchUpSteps: number;
  /**
   * Most ticks the newest state may be ahead of the wall clock while a frame is expected. A frameless host
   * (`AttachConfig.frameless`) with none expected runs none ahead, unless the game set `maxLeadTicks`.
   */
  readonly maxLeadTicks: number;
  readonly backlog: BacklogPolicy;
  /** Under 'catch-up', the most backlog (ms) kept to be caught up. */
  readonly maxBacklog: number;
  readonly whenHidden: 'pause' | 'run';
  /** The worker realm's `crossOriginIsolated`. */
  readonly crossOriginIsolated: boolean;
  /** The transport in use. */
  readonly transport: TransportKind;
  /** The seed of the simulation's generator (`tick.random()`): `createRuntime`'s `seed`, or the one picked. */
  readonly seed: number;
}

/** What the simulation is doing: STATUS's codes by name (core/layout.ts). */
export type SimulationStatus = (typeof STATUS_NAMES)[StatusCode];

/** A snapshot of the worker's counters. Each call copies them; it is not for every frame. */
export interface WorkerStats extends FlipStats {
  readonly status: SimulationStatus;
  /** Whether the main thread last said the page is hidden. */
  readonly hidden: boolean;
  /** Shared-clock ms spent hidden since attach. */
  readonly hiddenMs: number;
  /** The newest tick. */
  readonly tick: number;
  readonly tickRate: number;
  readonly timeScale: number;
  /** The catch-up cap in effect (the default follows the tick length: a quarter second's worth). */
  readonly maxCatchUpSteps: number;
  /** Simulated seconds since tick 0 (scaled time, unaffected by pauses; the unit of `tick.time`). */
  readonly simSeconds: number;
  /** Times backlog was dropped (see the `backlog` policy). */
  readonly overloads: number;
  /** Shared-clock ms of backlog dropped. */
  readonly droppedMs: number;
  /** Ms the user's step took: the last one, and the most since attach. */
  readonly lastStepMs: number;
  readonly maxStepMs: number;
  /**
   * Times the loop slept: each an Atomics.waitAsync, a block and spin, or a short spin (a precise wake takes
   * two: the block and spin ends 50 µs early and a short spin follows, planned warm).
   */
  readonly sleeps: number;
  /** Ms spent spinning for precise wakes (see `spinMs`). */
  readonly spunMs: number;
  /**
   * Timed wakes (not rung by a frame or a call) that came more than 1 ms after the time the loop planned, and
   * the latest of any, ms: the OS ran the worker thread late (a loaded machine). Frames that wait for the worker
   * (`stats().frameClock`) wait at least this long.
   */
  readonly lateWakes: number;
  readonly maxWakeLateMs: number;
  /** Input events handed to steps. */
  readonly inputs: number;
  /**
   * Message transport only: input events the worker's own ring refused (it was full). The page's flow control
   * keeps this 0: the page refuses what the worker could not hold (`RuntimeStats.inputRejected`).
   */
  readonly inputRejected: number;
  /** Message transport only: state buffers in circulation between the threads (at most 4); 0 with shared memory. */
  readonly stateBuffers: number;
  /** Of those, events that arrived after the tick they belonged to had been made (see TickInput.late). */
  readonly lateInputs: number;
  /** Non-finite components written by steps to live entities, and ticks that had any (see `nonFinite`). */
  readonly nonFiniteValues: number;
  readonly nonFiniteTicks: number;
  /** Times `restart` was called. */
  readonly restarts: number;
  /**
   * Lag compensation (the definition's `rewind`): `tick.rewind` calls, and those whose time lay outside the
   * history (older than its window, or past its newest state), clamped to its end. 0 without a history.
   */
  readonly rewinds: number;
  readonly rewindsClamped: number;
  /** The error that stopped the simulation, if it faulted. */
  readonly error: { readonly message: string; readonly stack: string | undefined } | null;
}

/** The calls the main thread may make. All are cheap and return once the worker has acted. */
export interface SimulationRemote {
  /** Lays the world over the buffer, runs `init`, publishes tick 0. Once per worker. */
  // served asynchronously (exposeSimulation loads the transport's worker half first); a Simulation's own is synchronous
  attach(config: BuiltInAttachConfig | AttachConfig): SimulationInfo | Promise<SimulationInfo>;
  /** The worker's shared clock now; the main thread brackets it with its own readings to measure skew. */
  clockProbe(): number;
  /** Subtracts `ms` from the worker's shared clock (it read that far ahead of the page's). */
  setClockOffset(ms: number): void;
  /** Runs the loop (from idle, paused or stopped). No effect when running. */
  start(): void;
  /** Stops the loop; the last state stays published. `start` continues from it. */
  stop(): void;
  /** Holds the simulation at its current tick. */
  pause(): void;
  /** Continues after `pause`, without a jump: the next tick starts from now. Same as `start`. */
  resume(): void;
  /** Runs exactly one tick. Only while paused, idle or stopped. */
  stepOnce(): void;
  /** Scales simulated time per wall-clock time: 2 runs twice as fast, 0.5 half. Must be > 0. */
  setTimeScale(scale: number): void;
  /** Ticks per simulated second. */
  setTickRate(hz: number): void;
  /** The page was hidden or shown: with `whenHidden: 'pause'` the loop sleeps until it shows again. */
  setHidden(hidden: boolean): void;
  /** After a fault (or any time): held again, from the last published state or from scratch. */
  restart(from: 'last' | 'scratch'): void;
  /** Stops the heartbeat and the loop before the worker is terminated. */
  detach(): void;
  stats(): WorkerStats;
  /**
   * Starts recording every tick from the state as it stands (`runtime.record`). The record-and-replay calls are
   * asynchronous in the worker too: their code loads at the first (worker/session-parts.ts).
   */
  recordStart(options?: RecordOptions): Promise<void>;
  /** Stops recording and returns the recording. */
  recordStop(): Uint8Array;
  /** Replays a recording on the held simulation. */
  replay(recording: Uint8Array): Promise<ReplayReport>;
  /** Plays a recording back live (held first; running after): a tick of the recording per tick. */
  playStart(recording: Uint8Array): Promise<void>;
  /** Resolves when the playback `playStart` began ends: at the recording's end, or cut short. */
  playEnd(): Promise<ReplayReport>;
  /** The simulation between two ticks, as a recording with no ticks (its head). */
  snapshot(): Promise<Uint8Array>;
  /** Puts a snapshot back, held. */
  restore(snapshot: Uint8Array): Promise<void>;
}

export interface RecordOptions {
  /**
   * A keyframe (every live value of the published fields) every this many ticks, so that a replay that diverges
   * names the entity, field and both values (default 60; 0: none, hashes only).
   */
  readonly keyframeEvery?: number;
  /**
   * Records this many ticks, then stops by itself (the ticks after it are not recorded; `stopRecording()`, called
   * at any time after, returns these): a recording of an exact length, wherever the call to stop lands. Default:
   * every tick until `stopRecording()`.
   */
  readonly ticks?: number;
}

/** Calls a replay's steps made to a source of difference: how many, and the first tick that did. */
export interface ReplayTrap {
  calls: number;
  firstTick: number | null;
}

/** The first value a replay made otherwise than the recording says. */
export interface ReplayDifference {
  /** The tick after which the two states were compared (a keyframe's, or the start's). */
  readonly tick: number;
  /** The entity (-1 when the counts differ, or for a game field). */
  readonly entity: number;
  /**
   * The schema field (an entity field or a game field), 'generation', 'count', a private field as 'private.<name>',
   * or 'events': the step's events (`tick.emit`) differ, `recorded` and `replayed` then their counts (equal counts:
   * their codes or payloads differ).
   */
  readonly field: string;
  /** Which float of the field's width. */
  readonly component: number;
  readonly recorded: number;
  readonly replayed: number;
}

/** What `runtime.replay` found. */
export interface ReplayReport {
  /** Ticks replayed. */
  readonly ticks: number;
  /** The whole recording was replayed (false: a playback ended early, or a step threw in one run only). */
  readonly complete: boolean;
  /** Every tick's hash, every keyframe and the start state came out as recorded, and every step threw where it did. */
  readonly matched: boolean;
  /** Ticks whose state hash differed. */
  readonly mismatches: number;
  /** The first tick whose hash differed, with both hashes (hex), or null. */
  readonly firstDivergence: { readonly tick: number; readonly recordedHash: string; readonly replayedHash: string } | null;
  /** The first value that differed, at the first keyframe (or start state) that shows one, or null. */
  readonly difference: ReplayDifference | null;
  /** Calls of `Math.random`, `Date.now` and `performance.now` from `init` and the steps. */
  readonly nondeterminism: Readonly<Record<'Math.random' | 'Date.now' | 'performance.now', ReplayTrap>>;
  /** Steps that threw when recorded and in the replay, and the first mismatch in words (the replay stops there). */
  readonly faults: { readonly recorded: number; readonly replayed: number; readonly unexpected: string | null };
  /** Wall-clock ms the replay took. */
  readonly ms: number;
}
