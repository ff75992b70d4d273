/**
 * What a simulation holds between its control calls, its loop and its ticks (simulation.ts, loop.ts, tick.ts):
 * one mutable record, so that each of those files holds one concept and none reaches into another's privates.
 * Only the worker's thread touches it.
 */
import type { WorkerHost } from '../contracts/host.ts';
import type { WorkerStats } from '../contracts/remote.ts';
import type { WorkerTransport } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import type { StepPlan, Timeline } from '../core/fixed-step.ts';
import { I32, STATUS, type SharedViews, type StatusCode } from '../core/layout.ts';
import { SeededRandom } from '../core/random.ts';
import type { Schema } from '../core/schema.ts';
import type { PublishMeta, StateWriter } from '../core/slot-writer.ts';
import { tickLengthMs, type SimulationDefinition, type TickInfo } from './definition.ts';
import { catchUpSteps, type SimulationSettings } from './settings.ts';
import type { RewindHistory } from './rewind-history.ts';
import type { DigestSlot } from './tick-events.ts';
import type { TickInput, TickInputBuffer } from './tick-input.ts';
import type { PrivateFieldSpec, WorldInternals } from './world.ts';

/** Everything made at attach: the transport's half, the world, the writer, the clock and the timeline. */
export interface Attached<S extends Schema> {
  readonly views: SharedViews<S>;
  readonly writer: StateWriter<S>;
  /** The shared clock, corrected by the skew the page measured. */
  readonly clock: Clock;
  readonly host: WorkerHost;
  readonly world: WorldInternals<S, PrivateFieldSpec>;
  /** The world's block, in the buffer's world region (laid out like a published one). */
  readonly block: Float32Array;
  readonly timeline: Timeline;
  /** The page side has no animation frames (`AttachConfig.frameless`: Node): the lead is only for the frames it announces. */
  readonly frameless: boolean;
  readonly input: TickInputBuffer;
  /** How states reach the page: the shared buffer, messages, or an app's own. */
  readonly transport: WorkerTransport<S>;
}

/** What the loop and the control calls tell a recording (worker/recorder.ts implements it). */
export interface TickRecorder {
  /** A tick's step ran (`threw`: it threw, and nothing was published). */
  tick(at: number, previousAt: number, input: TickInput, threw?: boolean): void;
  rate(hz: number): void;
  scale(scale: number): void;
  restart(from: 'last' | 'scratch'): void;
  /** The recording, whole. */
  finish(): Uint8Array;
}

/** A recording played back live (worker/playback.ts): the ticks' steps are the recording's. */
export interface TickPlayback {
  /** Runs the next recorded tick's step in place of the live one; false at the end of the recording. */
  step(): boolean;
  /** Hands the report to `play()`'s caller. */
  end(): void;
}

/** The worker's counters (`stats()`): plain numbers, this thread only. */
export interface Counters {
  overloads: number;
  droppedMs: number;
  lastStepMs: number;
  maxStepMs: number;
  sleeps: number;
  inputs: number;
  lateInputs: number;
  spunMs: number;
  lateWakes: number;
  maxWakeLateMs: number;
  nonFiniteValues: number;
  nonFiniteTicks: number;
  restarts: number;
}

export class SimulationState<S extends Schema> {
  readonly definition: SimulationDefinition<S, unknown, PrivateFieldSpec>;
  readonly settings: SimulationSettings;
  attached: Attached<S> | null = null;
  status: StatusCode = STATUS.IDLE;
  /** Bumped whenever a running loop must end; a sleeping loop that wakes with an old generation exits. */
  generation = 0;
  tickRate: number;
  timeScale = 1;
  /** `createRuntime`'s `setup`, given at attach: `init` gets it, on attach and on restart('scratch'). */
  setup: unknown = undefined;
  hidden = false;
  hiddenSince = 0;
  hiddenMs = 0;
  /** Simulated ms since tick 0. */
  simTime = 0;
  /** Ms the worker's clock reads ahead of the page's (measured by the main thread), subtracted from it. */
  clockOffset = 0;
  /** The run's generator and its seed (restart('scratch') starts it again), and its state at the last publish (restart('last')). */
  readonly random = new SeededRandom(0);
  seed = 0;
  readonly randomAtPublish = new Uint32Array(4);
  /** Steps run since `init` last made the world (a recording started at 0 replays from `init`). */
  stepsSinceInit = 0;
  /** Where `tick.emit` digests the step's events while a recording is on (the recorder sets it). */
  readonly eventDigest: DigestSlot = { current: null };
  /** The recorder while `runtime.record()` is on (worker/recorder.ts). */
  recorder: TickRecorder | null = null;
  /** The playback while `runtime.play()` runs (worker/playback.ts). */
  playback: TickPlayback | null = null;
  /** Lag compensation's history (the definition's `rewind`; made at attach), or null. */
  rewind: RewindHistory<S> | null = null;
  error: WorkerStats['error'] = null;
  stopHeartbeat: () => void = () => {};
  readonly counters: Counters = {
    overloads: 0,
    droppedMs: 0,
    lastStepMs: 0,
    maxStepMs: 0,
    sleeps: 0,
    inputs: 0,
    lateInputs: 0,
    spunMs: 0,
    lateWakes: 0,
    maxWakeLateMs: 0,
    nonFiniteValues: 0,
    nonFiniteTicks: 0,
    restarts: 0,
  };
  readonly plan: StepPlan = { steps: 0, overloaded: false };
  /** A second plan, for asking what the loop would do at a later instant (`ticksOnTimeAt`). */
  readonly probe: StepPlan = { steps: 0, overloaded: false };
  tickInfo: { -readonly [K in keyof TickInfo<S>]: TickInfo<S>[K] } | null = null;
  readonly meta: PublishMeta = {
    previousTick: 0,
    currentTick: 0,
    previousTime: 0,
    currentTime: 0,
    count: 0,
    previousCount: 0,
    simTime: 0,
    scale: 1,
    snaps: 0,
    inputsThrough: 0,
  };

  constructor(definition: SimulationDefinition<S, unknown, PrivateFieldSpec>, settings: SimulationSettings) {
    this.definition = definition;
    this.settings = settings;
    this.tickRate = settings.tickRate;
  }

  /** Ms of shared-clock time per tick at the current rate and scale. */
  get tickLength(): number {
    return tickLengthMs(this.tickRate, this.timeScale);
  }

  /** The most ticks run in one go at the current tick length: the game's cap, or a quarter second's worth. */
  get maxCatchUpSteps(): number {
    return catchUpSteps(this.settings, this.tickLength);
  }

  /** The playback under way ends (a restart, a restore, its last tick): its report goes to `play()`'s caller. */
  endPlayback(): void {
    const playback = this.playback;
    if (playback === null) return;
    this.playback = null;
    playback.end();
  }

  /** Sets STATUS, in the header the page watches. */
  setStatus(status: StatusCode): void {
    this.status = status;
    const a = this.attached;
    if (a === null) return;
    Atomics.store(a.views.i32, I32.STATUS, status);
    a.transport.headerChanged();
  }

  /** Rings our own doorbell, so a sleeping loop re-reads its settings now. */
  wake(): void {
    const a = this.attached;
    if (a === null) return;
    Atomics.notify(a.views.i32, I32.FRAME_SEQ);
    a.host.wake?.();
    a.transport.wake();
  }

  /** A heartbeat (the page watches HEARTBEAT: a worker that stops beating is reported unresponsive). */
  beat(): void {
    const a = this.attached;
    if (a === null) return;
    Atomics.add(a.views.i32, I32.HEARTBEAT, 1);
    a.transport.headerChanged();
  }

  /** Backlog dropped: counted, and told to the page (OVERLOADS; it raises an 'overload' event). */
  countDrop(ms: number): void {
    const a = this.attached;
    if (ms <= 0 || a === null) return;
    this.counters.overloads++;
    this.counters.droppedMs += ms;
    Atomics.add(a.views.i32, I32.OVERLOADS, 1);
    a.transport.headerChanged();
  }
}
