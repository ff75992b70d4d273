/**
 * The worker side: a simulation and its control calls, as the page calls them over comlink. What a call does to
 * the clock is re-timing (retime.ts); the loop is loop.ts, one tick tick.ts, the assembly at attach attach.ts.
 */
import type { WorkerHost } from '../contracts/host.ts';
import type { AttachConfig, BuiltInAttachConfig, RecordOptions, ReplayReport, SimulationInfo, SimulationRemote, WorkerStats } from '../contracts/remote.ts';
import type { Transport, WorkerHalf } from '../contracts/transport.ts';
import { describeValue } from '../core/describe-value.ts';
import { META, STATUS, STATUS_NAMES, type StatusCode } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { browserWorkerHost } from '../hosts/browser-worker.ts';
import { findTransport, transportList, WORKER_TRANSPORTS } from '../transports/registry.ts';
import { attachSimulation, runInit, type WorkerParts } from './attach.ts';
import { checkTickRate, checkTimeScale, type SimulationDefinition } from './definition.ts';
import { runLoop } from './loop.ts';
import { repin, shiftClock } from './retime.ts';
import { checkDefinition } from './settings.ts';
import { SimulationState, type Attached } from './state.ts';
import { runTick } from './tick.ts';
import type { PrivateFieldSpec } from './world.ts';

/**
 * The record-and-replay code (worker/session-parts.ts), loaded at the first call that needs it: a worker that
 * never records, replays or takes a snapshot never loads it. The calls are asynchronous for it (the page's are
 * anyway, over comlink); what they do happens after the load, to the state as it stands then.
 */
const sessionParts = () => import('./session-parts.ts');

/** What a simulation may be given besides its definition. */
export interface SimulationOptions {
  /** The loop's platform. Default: the browser worker host (Atomics waits; Node's worker_threads alike). */
  readonly host?: WorkerHost;
  /** Transports of the app's own, besides the library's (the page must offer the same: `createRuntime({ transports })`). */
  readonly transports?: readonly Transport[];
}

/** A simulation, not yet attached to a buffer. `exposeSimulation` serves one over comlink. */
export class Simulation<S extends Schema> implements SimulationRemote {
  readonly #state: SimulationState<S>;
  /** The report of the last playback started, when it ends. */
  #playing: Promise<ReplayReport> | null = null;
  readonly #host: WorkerHost;
  readonly #transports: readonly WorkerHalf[];
  /** The manual clock's worker half, once `prepare` has loaded it. */
  #manualClock: WorkerParts['manualClock'] = null;
  /** The rewind history's class, once `prepare` has loaded it (a definition with `rewind`). */
  #rewindHistory: WorkerParts['rewindHistory'] = null;

  constructor(definition: SimulationDefinition<S, unknown, PrivateFieldSpec>, options: SimulationOptions = {}) {
    this.#state = new SimulationState(definition, checkDefinition(definition));
    this.#host = options.host ?? browserWorkerHost();
    this.#transports = transportList(options.transports, WORKER_TRANSPORTS);
  }

  /**
   * Loads what `attach(config)` will need that is not loaded yet: the transport's worker half, and the manual
   * clock's for a page that attaches with one (each a chunk of its own in a bundled worker, loaded on demand).
   */
  async prepare(config: BuiltInAttachConfig | AttachConfig): Promise<void> {
    await findTransport(this.#transports, config).load?.();
    if (config.clock !== undefined) this.#manualClock ??= (await import('../hosts/manual-clock/worker.ts')).connectManualClock;
    if (this.#state.settings.rewindMs !== null) this.#rewindHistory ??= (await import('./rewind-history.ts')).RewindHistory;
  }

  /** Lays the world over the page's buffer and publishes tick 0; after `prepare(config)` (exposeSimulation's attach does both). */
  attach(config: BuiltInAttachConfig | AttachConfig): SimulationInfo {
    return attachSimulation(this.#state, config, { transports: this.#transports, host: this.#host, manualClock: this.#manualClock, rewindHistory: this.#rewindHistory });
  }

  /** The worker's shared clock now: the main thread compares it with its own to measure their skew. */
  clockProbe(): number {
    return this.#require('clockProbe').clock();
  }

  /** Corrects the worker's shared clock by the skew the main thread measured (ms the worker reads ahead). */
  setClockOffset(ms: number): void {
    const a = this.#require('setClockOffset');
    if (!Number.isFinite(ms)) throw new RangeError(`steadyframe: a clock offset is a finite number of ms; got ${describeValue(ms)}`);
    this.#state.clockOffset += ms;
    shiftClock(a, ms);
  }

  start(): void {
    const a = this.#require('start');
    if (this.#state.status === STATUS.RUNNING) return;
    this.#state.setStatus(STATUS.RUNNING);
    this.#continueFromNow(a);
  }

  resume(): void {
    this.start();
  }

  pause(): void {
    this.#halt(STATUS.PAUSED, 'pause');
  }

  stop(): void {
    this.#halt(STATUS.STOPPED, 'stop');
  }

  stepOnce(): void {
    const a = this.#require('stepOnce');
    if (this.#state.status === STATUS.RUNNING) {
      throw new Error('steadyframe: stepOnce() runs one tick of a held simulation; call pause() first');
    }
    repin(a, this.#state.tickLength);
    runTick(this.#state, a);
  }

  setTimeScale(scale: number): void {
    this.#state.timeScale = checkTimeScale(scale);
    this.#state.recorder?.scale(this.#state.timeScale);
    this.#retime();
  }

  setTickRate(hz: number): void {
    this.#state.tickRate = checkTickRate(hz);
    this.#state.recorder?.rate(this.#state.tickRate);
    this.#retime();
  }

  /** Starts recording (worker/recorder.ts): from the state as it stands, every tick on. */
  async recordStart(options: RecordOptions = {}): Promise<void> {
    const { Recorder } = await sessionParts();
    const a = this.#require('record', true);
    if (this.#state.recorder !== null) throw new Error('steadyframe: record() while already recording; stopRecording() first');
    if (this.#state.playback !== null) throw new Error('steadyframe: record() while a recording plays: its ticks are that recording\'s (restart() or restore() ends the playback)');
    this.#state.recorder = new Recorder(this.#state, a, options);
  }

  /** Stops recording; returns the recording (core/recording.ts). */
  recordStop(): Uint8Array {
    const recorder = this.#state.recorder;
    if (recorder === null) throw new Error('steadyframe: stopRecording() without record()');
    this.#state.recorder = null;
    return recorder.finish();
  }

  /** Replays a recording on this held simulation (worker/replay.ts) and says whether every tick came out the same. */
  async replay(recording: Uint8Array): Promise<ReplayReport> {
    const { replayRecording } = await sessionParts();
    const a = this.#require('replay', true);
    this.#state.endPlayback();
    return replayRecording(this.#state, a, recording);
  }

  /**
   * Plays a recording back live (worker/playback.ts): set to its start (held meanwhile: a recording that does
   * not fit throws, and the simulation is as it was), published, then running. `playEnd` has the report.
   */
  async playStart(recording: Uint8Array): Promise<void> {
    const { Playback } = await sessionParts();
    const state = this.#state;
    const a = this.#require('play', true);
    if (state.recorder !== null) throw new Error('steadyframe: play() while recording; stopRecording() first');
    state.endPlayback();
    const playback = new Playback(state, a, recording); // a damaged recording, or another simulation's, throws here before any change
    a.transport.events?.abandon();
    state.generation++;
    state.error = null;
    state.playback = playback;
    state.stepsSinceInit = 1;
    // the start, published as a tick of its own, every entity snapping to it; then the recorded ticks
    repin(a, state.tickLength);
    runTick(state, a, false, Number.NEGATIVE_INFINITY, true);
    state.setStatus(STATUS.RUNNING);
    this.#continueFromNow(a);
    this.#playing = playback.ended;
  }

  /** The report of the playback `playStart` began, when it ends (rejects if none was started). */
  playEnd(): Promise<ReplayReport> {
    if (this.#playing === null) return Promise.reject(new Error('steadyframe: no playback was started'));
    return this.#playing;
  }

  /** The simulation between two ticks (worker/snapshot.ts). */
  async snapshot(): Promise<Uint8Array> {
    const { takeSnapshot } = await sessionParts();
    return takeSnapshot(this.#state, this.#require('snapshot', true));
  }

  /** Puts a snapshot back, held (call start after). */
  async restore(snapshot: Uint8Array): Promise<void> {
    const { restoreSnapshot } = await sessionParts();
    const a = this.#require('restore', true);
    this.#state.endPlayback();
    this.#state.counters.restarts++;
    restoreSnapshot(this.#state, a, snapshot);
  }

  setHidden(hidden: boolean): void {
    const state = this.#state;
    const a = this.#require('setHidden', true);
    if (hidden === state.hidden) return;
    state.hidden = hidden;
    if (hidden) state.hiddenSince = a.clock();
    else state.hiddenMs += a.clock() - state.hiddenSince;
    if (!state.settings.pauseWhenHidden) return;
    if (hidden) {
      // a running loop ends and sleeps no more; it restarts when the page shows again
      state.generation++;
      state.wake();
    } else if (state.status === STATUS.RUNNING) {
      this.#continueFromNow(a);
    }
  }

  /**
   * Makes a faulted (or any) simulation runnable again, held: from the last published state (the world as the
   * main thread last saw it, undoing a step that threw halfway; the generator as it was then) or from scratch
   * (`init` runs again on an empty world, the generator from its seed again; tick numbers go on, simulated time
   * starts again at 0, every entity snaps). Call `start` after.
   */
  restart(from: 'last' | 'scratch'): void {
    const state = this.#state;
    const a = state.attached;
    if (a === null) throw new Error('steadyframe: restart() before attach(); createRuntime() attaches the simulation to its buffer');
    if (from !== 'last' && from !== 'scratch') {
      throw new RangeError(`steadyframe: restart from 'last' or 'scratch'; got ${JSON.stringify(from)}`);
    }
    state.endPlayback();
    state.generation++;
    state.error = null;
    state.setStatus(STATUS.IDLE);
    state.counters.restarts++;
    state.recorder?.restart(from);
    // events staged for ticks the page never got (publishes skipped for a reader stall) go with those ticks
    a.transport.events?.abandon();
    const front = a.views.blocks[a.writer.front].current;
    if (from === 'last') {
      a.world.restore(front, a.writer.frontMeta(META.COUNT));
      a.world.takeSnaps();
      state.random.restore(state.randomAtPublish);
      return;
    }
    a.world.clear();
    state.stepsSinceInit = 0;
    state.random.seed(state.seed);
    runInit(state, a.world, { clock: a.clock, random: state.random.next });
    state.simTime = 0;
    // publish the fresh world as a tick of its own, every entity snapping to it
    repin(a, state.tickLength);
    runTick(state, a, false);
  }

  /** Stops the heartbeat and the loop; the worker can then be garbage collected or terminated. */
  detach(): void {
    this.#state.stopHeartbeat();
    this.#state.generation++;
  }

  stats(): WorkerStats {
    const state = this.#state;
    const a = state.attached;
    const c = state.counters;
    return {
      status: STATUS_NAMES[state.status],
      hidden: state.hidden,
      hiddenMs: state.hiddenMs + (state.hidden && a !== null ? a.clock() - state.hiddenSince : 0),
      tick: a?.timeline.tick ?? 0,
      tickRate: state.tickRate,
      timeScale: state.timeScale,
      maxCatchUpSteps: state.maxCatchUpSteps,
      simSeconds: state.simTime / 1000,
      overloads: c.overloads,
      droppedMs: c.droppedMs,
      lastStepMs: c.lastStepMs,
      maxStepMs: c.maxStepMs,
      sleeps: c.sleeps,
      error: state.error,
      publishes: a?.writer.stats.publishes ?? 0,
      flipWaits: a?.writer.stats.flipWaits ?? 0,
      flipWaitMs: a?.writer.stats.flipWaitMs ?? 0,
      readerStalls: a?.writer.stats.readerStalls ?? 0,
      spunMs: c.spunMs,
      lateWakes: c.lateWakes,
      maxWakeLateMs: c.maxWakeLateMs,
      inputs: c.inputs,
      inputRejected: a?.transport.inputRejected() ?? 0,
      stateBuffers: a?.transport.stateBuffers() ?? 0,
      lateInputs: c.lateInputs,
      nonFiniteValues: c.nonFiniteValues,
      nonFiniteTicks: c.nonFiniteTicks,
      restarts: c.restarts,
      rewinds: state.rewind?.rewinds ?? 0,
      rewindsClamped: state.rewind?.rewindsClamped ?? 0,
    };
  }

  #require(call: string, whenFaulted = false): Attached<S> {
    const state = this.#state;
    if (state.status === STATUS.FAULTED && !whenFaulted) {
      throw new Error(`steadyframe: ${call}() on a simulation that faulted (${state.error?.message ?? 'unknown error'}); call restart() first`);
    }
    if (state.attached === null) {
      throw new Error(`steadyframe: ${call}() before attach(); createRuntime() attaches the simulation to its buffer`);
    }
    return state.attached;
  }

  /** Starts a loop from the current tick, shown from now on (no burst for the time it was held). */
  #continueFromNow(a: Attached<S>): void {
    const state = this.#state;
    repin(a, state.tickLength);
    if (state.hidden && state.settings.pauseWhenHidden) return; // setHidden(false) starts it
    void runLoop(state, ++state.generation);
  }

  #halt(status: StatusCode, call: string): void {
    this.#require(call, true);
    const state = this.#state;
    if (state.status !== STATUS.FAULTED) state.setStatus(status); // a fault stays reported until restart()
    state.generation++;
    state.wake();
  }

  /** A new tick length: the picture keeps its place and goes on at the new pace. */
  #retime(): void {
    const state = this.#state;
    const a = state.attached;
    if (a === null) return;
    repin(a, state.tickLength);
    state.wake();
  }
}
