/**
 * The main-thread side: owns the shared buffer, reads the front slot each animation frame, interpolates it into
 * a render buffer and hands that to the game's draw. It never changes simulation state and never blocks.
 */
import { releaseProxy, transfer, wrap, type Remote } from 'comlink';
import { createSharedClock, currentTimeOrigin, type Clock } from '../core/clock.ts';
import { allocateSharedBuffer, computeLayout, createSharedViews, fieldViews, I32, initStateBuffer, STATUS, type Layout, type SharedViews } from '../core/layout.ts';
import { createBlendKernels, simdSupported, type BlendBackend, type BlendKernels } from '../core/simd-kernel.ts';
import type { AttachConfig, SimulationInfo, SimulationRemote, TransportKind, WorkerStats } from '../core/protocol.ts';
import { validateSchema, type FieldViews, type Schema } from '../core/schema.ts';
import { SlotReader, writeNextFrame, type ReadLockStats, type StateSource, type TestFault } from '../core/slots.ts';
import { MessageSource } from './message-source.ts';
import { warnIfNotIsolated } from './isolation-warning.ts';
import { Emitter } from './events.ts';
import { allocateInputRing, InputReader, InputWriter } from '../core/input-ring.ts';
import { createFramePacer, type FramePacer, type FramePacerOptions, type PacerChange } from './frame-pacer.ts';
import { Sampler, validateInterpolation, type InterpolationOptions, type SampleResult, type SampleStats } from './sampler.ts';
import { documentVisibility, type VisibilityHook } from './visibility.ts';

export interface RuntimeOptions<S extends Schema> {
  /** A module Worker whose script calls `exposeSimulation` from 'steadyframe/worker' with the same schema. */
  readonly worker: Worker;
  readonly schema: S;
  /** Most entities the world can hold. Fixed for the runtime's life. */
  readonly capacity: number;
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
  /** Ms without a worker heartbeat (it beats every 250 ms) before an `unresponsive` event. Default 2000. */
  readonly heartbeatTimeout?: number;
  /** Test-only fault injection, to prove the swap stress test can fail. Never set it in a game. */
  readonly testFault?: TestFault;
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
  /** Shared-clock ms this frame shows the world at. */
  readonly time: number;
  /** Tick numbers of the two states blended. */
  readonly previousTick: number;
  readonly tick: number;
  /** Shared-clock ms those two states stand for. */
  readonly previousTime: number;
  readonly currentTime: number;
  /** Simulated ms since tick 0 at the current state. */
  readonly simTime: number;
  /** The frame's time was past the newest state (the worker was late); `whenLate` decided what it shows. */
  readonly late: boolean;
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
  /** Late frames, extrapolated frames, history gaps, snaps. */
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
  /** The shared buffer's views (null with the message transport). */
  readonly views: SharedViews<S> | null;
  /** Where frames read states from: the shared buffer's lock-holding reader, or the message transport's. */
  readonly reader: StateSource<S>;
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
   * (returns null on a refresh the render interval skips: draw nothing then), samples the world at
   * `timestamp`, tells the worker when the next frame is due, and raises fault and overload events. The time
   * until the end of the current task (your draw) counts as the frame's cost. `start()` with `draw` calls it
   * for you. With the shared transport it allocates nothing; the message transport posts a message a frame.
   */
  frame(timestamp: number): Frame<S> | null;
  /**
   * `frame` without the sampling, for renderers that blend on the GPU from the raw states
   * (`reader.acquire()`): paces, tells the worker when the next frame is due, raises events. Returns whether
   * to draw on this refresh. The time until the end of the current task counts as the frame's cost.
   */
  pace(timestamp: number): boolean;
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

/** Why SharedArrayBuffer is missing, and what to do. */
export const ISOLATION_REQUIRED =
  'steadyframe: SharedArrayBuffer needs a cross-origin isolated page. Serve it with the headers ' +
  '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" ' +
  '(or "credentialless"); crossOriginIsolated is false here.';

/**
 * Creates the shared buffer (or, on a page without cross-origin isolation, the message transport), attaches
 * the worker's simulation to it (which runs its `init` and publishes tick 0), aligns the two clocks and returns
 * the runtime. Throws at set-up for a bad schema, capacity or option, a worker that does not load or has
 * another schema, or `transport: 'shared'` on a page without isolation.
 */
export async function createRuntime<S extends Schema, C extends object = Record<never, never>>(
  options: RuntimeOptions<S>,
): Promise<Runtime<S, C>> {
  const { worker, schema, capacity } = options;
  validateSchema(schema);
  const isolated = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated !== false;
  const wanted = options.transport ?? 'auto';
  if (wanted !== 'auto' && wanted !== 'shared' && wanted !== 'message') {
    throw new RangeError(`steadyframe: transport must be 'auto', 'shared' or 'message'; got ${JSON.stringify(wanted)}`);
  }
  if (wanted === 'shared' && !isolated) throw new Error(ISOLATION_REQUIRED);
  const transportKind: TransportKind = wanted === 'message' || !isolated ? 'message' : 'shared';
  warnIfNotIsolated(wanted, transportKind);
  if (typeof worker?.postMessage !== 'function') {
    throw new TypeError("steadyframe: options.worker must be a Worker, e.g. new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' })");
  }
  if (options.interpolation !== undefined) validateInterpolation(schema, options.interpolation);
  const maxSpins = options.maxSpins ?? 10_000;
  if (!Number.isInteger(maxSpins) || maxSpins < 1) {
    throw new RangeError(`steadyframe: maxSpins must be a whole number of at least 1; got ${String(maxSpins)}`);
  }
  const layout = computeLayout(schema, capacity);
  const anchor = currentTimeOrigin();
  const inputCapacity = options.input === false ? 0 : (options.input?.capacity ?? 1024);
  const inputWidth = options.input === false ? 0 : (options.input?.payloadWidth ?? 4);
  const shared = transportKind === 'shared';
  const inputRing = options.input === false ? undefined : allocateInputRing(inputCapacity, inputWidth, shared);
  const fault = options.testFault ?? 'none';
  let views: SharedViews<S> | null = null;
  let source: StateSource<S>;
  let config: AttachConfig;
  let simd: { kernels: BlendKernels; scratch: FieldViews<S> } | null = null;
  if (shared) {
    let buffer: SharedArrayBuffer;
    if ((options.kernels ?? 'wasm-simd') === 'wasm-simd' && simdSupported()) {
      // the shared buffer as a WebAssembly memory, with a scratch block for the kernels' output after the layout
      const pages = Math.ceil((layout.totalBytes + layout.blockBytes) / 65_536);
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      buffer = initStateBuffer(memory.buffer as unknown as SharedArrayBuffer, layout, anchor);
      // and, where the engine has multi-memory, a plain render memory the kernels write into directly
      const kernels = createBlendKernels({ memory, renderBytes: layout.blockBytes });
      if (kernels.backend === 'wasm-simd') simd = { kernels, scratch: fieldViews<S>(buffer, layout.totalBytes, layout) };
    } else {
      buffer = allocateSharedBuffer(layout, anchor);
    }
    views = createSharedViews(buffer, schema, capacity);
    source = new SlotReader(views, maxSpins, fault);
    config = { buffer, signature: layout.signature, capacity, fault, ...(inputRing === undefined ? {} : { input: inputRing as SharedArrayBuffer }) };
  } else {
    const channel = new MessageChannel();
    source = new MessageSource<S>(layout, channel.port1, inputRing === undefined ? null : new InputReader(inputRing));
    config = transfer(
      {
        port: channel.port2,
        clockAnchor: anchor,
        inputRing: inputRing === undefined ? null : { capacity: inputCapacity, payloadWidth: inputWidth },
        signature: layout.signature,
        capacity,
        fault,
      },
      [channel.port2],
    );
  }
  const remote = wrap<SimulationRemote>(worker);
  let info: SimulationInfo;
  let clock: ClockSkew;
  // a worker script that fails to load or throws at its top level never answers: fail instead of hanging
  let onError = (_: ErrorEvent) => {};
  const failed = new Promise<never>((_, reject) => {
    onError = (event) => {
      event.preventDefault();
      reject(new Error(`steadyframe: the worker failed before it attached: ${event.message || 'it did not load (check its URL and that it calls exposeSimulation)'}`));
    };
    worker.addEventListener('error', onError);
  });
  try {
    info = await Promise.race([remote.attach(config), failed]);
    clock = await alignClocks(remote, createSharedClock(anchor));
  } catch (error) {
    remote[releaseProxy]();
    throw error;
  } finally {
    worker.removeEventListener('error', onError);
  }
  const input = inputRing === undefined ? null : new InputWriter(inputRing);
  return new MainRuntime<S, C>(options, layout, transportKind, anchor, views, remote, info, clock, source, input, simd);
}

/** How far the worker's clock was from the page's, and how sure we are of it. */
export interface ClockSkew {
  /** Ms the worker's shared clock read ahead of the page's before it was corrected. */
  readonly skew: number;
  /** Half the shortest probe round trip: the skew is known to within this many ms. */
  readonly uncertainty: number;
}

/**
 * Each realm's `performance.timeOrigin` is taken separately, and they can disagree (by milliseconds after a
 * laptop sleep). Measures the worker's clock against the page's with a few round trips, keeps the one with the
 * shortest trip, and corrects the worker's clock when the gap is bigger than the measurement's own error.
 */
async function alignClocks(remote: Remote<SimulationRemote>, now: Clock): Promise<ClockSkew> {
  let best = { skew: 0, uncertainty: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 5; i++) {
    const before = now();
    const worker = await remote.clockProbe();
    const after = now();
    const uncertainty = (after - before) / 2;
    if (uncertainty < best.uncertainty) best = { skew: worker - (before + after) / 2, uncertainty };
  }
  if (Math.abs(best.skew) > best.uncertainty) await remote.setClockOffset(best.skew);
  return best;
}

type MutableFrame<S extends Schema> = { -readonly [K in keyof Frame<S>]: Frame<S>[K] } & SampleResult;

class MainRuntime<S extends Schema, C extends object> implements Runtime<S, C> {
  readonly schema: S;
  readonly capacity: number;
  readonly now: Clock;
  readonly commands: Remote<C>;
  readonly kernels: BlendBackend;
  readonly #frame: MutableFrame<S>;
  readonly #sampler: Sampler<S>;
  readonly #pacer: FramePacer;
  /** When the frame being drawn began, for its cost; NaN when no frame is being drawn. */
  #frameStart = Number.NaN;
  readonly #endFrame = (): void => {
    if (Number.isNaN(this.#frameStart)) return;
    this.#pacer.reportFrameCost(this.now() - this.#frameStart);
    this.#frameStart = Number.NaN;
    // a new interval moves the next render time: tell the worker (only then: the frame already told it)
    this.#expectFrameIfMoved();
  };
  /** The next frame time last published to the worker by the frame loop. */
  #expected = Number.NaN;
  #expectFrameIfMoved(): void {
    const next = this.#pacer.nextRenderTime;
    if (next === this.#expected) return;
    this.#expected = next;
    this.expectFrame(next);
  }
  readonly #events = new Emitter<RuntimeEvents>();
  readonly #draw: ((frame: Frame<S>) => void) | undefined;
  readonly #worker: Worker;
  readonly #unsubscribeVisibility: () => void;
  #rafHandle = 0;
  /** Whether the frame loop should run: set at once by start() and stop(), so a stop during start's await wins. */
  #framesWanted = false;
  #faultReported = false;
  #overloadsSeen = 0;
  #overloadPending = false;
  readonly #heartbeatTimeout: number;
  #lastBeat = 0;
  #lastBeatAt = Number.NaN;
  #unresponsive = false;
  readonly #onWorkerError = (event: ErrorEvent): void => {
    this.#emitSafely('fault', new Error(`steadyframe: the worker threw outside a step: ${event.message}`));
  };
  #disposed = false;

  /** The worker's header words: the shared buffer's own, or the message transport's mirror of them. */
  readonly #header: Int32Array;
  #inputFlushQueued = false;
  readonly #flushInput = (): void => {
    this.#inputFlushQueued = false;
    if (this.reader instanceof MessageSource) this.reader.flushInput();
  };

  constructor(
    options: RuntimeOptions<S>,
    readonly layout: Layout,
    readonly transport: TransportKind,
    anchor: number,
    readonly views: SharedViews<S> | null,
    readonly remote: Remote<SimulationRemote>,
    readonly info: SimulationInfo,
    readonly clock: ClockSkew,
    readonly reader: StateSource<S>,
    readonly input: InputWriter | null,
    simd: { readonly kernels: BlendKernels; readonly scratch: FieldViews<S> } | null,
  ) {
    this.schema = options.schema;
    this.capacity = options.capacity;
    this.#draw = options.draw;
    this.#worker = options.worker;
    this.#events.on('fault', options.onError ?? ((error) => console.error(error)));
    this.#heartbeatTimeout = options.heartbeatTimeout ?? 2000;
    this.#worker.addEventListener('error', this.#onWorkerError);
    this.commands = (remote as unknown as { commands: Remote<C> }).commands;
    this.now = createSharedClock(anchor);
    this.#header = views?.i32 ?? (reader as MessageSource<S>).header;
    // the render buffer: plain memory either way (the game hands it to APIs, and some refuse views of shared
    // memory: ImageData, TextDecoder; WebGL in Chromium 156 takes them); in the kernels' render memory
    // where they have one, so they blend straight into it
    const renderMemory = simd?.kernels.renderMemory ?? null;
    const render = fieldViews<S>(renderMemory === null ? new ArrayBuffer(layout.blockBytes) : (renderMemory.buffer as ArrayBuffer), 0, layout);
    this.#sampler = new Sampler(options.schema, layout, render, simd);
    this.kernels = simd === null ? 'js' : 'wasm-simd';
    this.#pacer = createFramePacer({ ...options.pacing, onChange: (change) => this.#events.emit('interval', change) });
    if (options.interpolation !== undefined) this.#sampler.configure(options.interpolation);
    this.#frame = {
      fields: render,
      count: 0,
      alpha: 1,
      time: 0,
      previousTick: 0,
      tick: 0,
      previousTime: 0,
      currentTime: 0,
      simTime: 0,
      late: false,
      snapped: 0,
      fresh: false,
      index: 0,
    };
    const visibility = options.visibility === undefined ? documentVisibility() : options.visibility;
    this.#unsubscribeVisibility = visibility === null ? () => {} : visibility.subscribe((hidden) => this.#onVisibility(hidden));
    if (visibility?.hidden === true) this.#onVisibility(true);
  }

  get interpolation(): Required<InterpolationOptions<S>> {
    return this.#sampler.options;
  }

  setInterpolation(options: InterpolationOptions<S>): void {
    this.#alive('setInterpolation');
    this.#sampler.configure(options);
  }

  on<K extends keyof RuntimeEvents>(type: K, listener: (event: RuntimeEvents[K]) => void): () => void {
    return this.#events.on(type, listener);
  }

  sample(time: number = this.now()): Frame<S> {
    const frame = this.#frame;
    frame.index++;
    // a worker that stopped beating may have died holding the lock: do not spin on it every frame
    const slot = this.#unresponsive ? null : this.reader.acquire();
    if (slot === null) {
      // the lock stayed busy: everything in the frame is still the last good sample's
      frame.fresh = false;
      return frame;
    }
    try {
      // the sampler reads the slot we hold; the worker cannot publish over it until release()
      this.#sampler.read(slot, time, frame);
    } finally {
      // never leave the worker locked out, whatever happened
      this.reader.release();
    }
    this.#sampler.finish(time, frame);
    frame.fresh = true;
    return frame;
  }

  expectFrame(time: number): void {
    this.#expected = time;
    if (this.views !== null) writeNextFrame(this.views, time);
    else (this.reader as MessageSource<S>).expectFrame(time);
  }

  async start(): Promise<void> {
    this.#alive('start');
    this.#framesWanted = true;
    await this.#call('start', this.remote.start());
    if (this.#framesWanted && !this.#disposed && this.#draw !== undefined && this.#rafHandle === 0) {
      this.#rafHandle = requestAnimationFrame(this.#onAnimationFrame);
    }
  }

  async stop(): Promise<void> {
    this.#alive('stop');
    this.#stopFrames();
    await this.#call('stop', this.remote.stop());
  }

  async pause(): Promise<void> {
    this.#alive('pause');
    await this.#call('pause', this.remote.pause());
  }

  async resume(): Promise<void> {
    this.#alive('resume');
    await this.#call('resume', this.remote.resume());
  }

  async stepOnce(): Promise<void> {
    this.#alive('stepOnce');
    await this.#call('stepOnce', this.remote.stepOnce());
  }

  async setTimeScale(scale: number): Promise<void> {
    this.#alive('setTimeScale');
    await this.#call('setTimeScale', this.remote.setTimeScale(scale));
  }

  async setTickRate(hz: number): Promise<void> {
    this.#alive('setTickRate');
    await this.#call('setTickRate', this.remote.setTickRate(hz));
  }

  async stats(): Promise<RuntimeStats> {
    this.#alive('stats');
    return {
      frames: this.#frame.index,
      lock: { ...this.reader.stats },
      sampling: { ...this.#sampler.stats },
      pacing: {
        adaptive: this.#pacer.adaptive,
        refreshPeriod: this.#pacer.refreshPeriod,
        multiple: this.#pacer.multiple,
        interval: this.#pacer.interval,
        renderedFrames: this.#pacer.renderedFrames,
        skippedVsyncs: this.#pacer.skippedVsyncs,
        overruns: this.#pacer.overruns,
        grows: this.#pacer.grows,
        shrinks: this.#pacer.shrinks,
        lastChange: this.#pacer.lastChange,
      },
      inputRejected: this.input?.rejected ?? 0,
      worker: await this.#call('stats', this.remote.stats()),
    };
  }

  async restart(from: 'last' | 'scratch' = 'last'): Promise<void> {
    this.#alive('restart');
    await this.#call('restart', this.remote.restart(from));
    this.#faultReported = false;
    if (this.#framesWanted) await this.#call('restart', this.remote.start());
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#stopFrames();
    this.#worker.removeEventListener('error', this.#onWorkerError);
    if (this.reader instanceof MessageSource) this.reader.close();
    this.#unsubscribeVisibility();
    this.remote[releaseProxy]();
    this.#worker.terminate();
    // a terminated worker answers nothing: calls still waiting on it fail now instead of never settling
    for (const fail of this.#pending) fail();
    this.#pending.clear();
  }

  #alive(call: string): void {
    if (this.#disposed) throw new Error(`steadyframe: ${call}() on a disposed runtime; create a new one`);
  }

  /** Calls still waiting on the worker: each rejects its caller when the runtime is disposed meanwhile. */
  readonly #pending = new Set<() => void>();

  /** A call to the worker that rejects, naming `call`, if the runtime is disposed before the worker answers. */
  #call<T>(call: string, answer: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (): void => reject(new Error(`steadyframe: ${call}() did not finish: the runtime was disposed meanwhile`));
      this.#pending.add(fail);
      answer.then(
        (value) => {
          this.#pending.delete(fail);
          resolve(value);
        },
        (error: unknown) => {
          this.#pending.delete(fail);
          reject(error);
        },
      );
    });
  }

  #stopFrames(): void {
    this.#framesWanted = false;
    if (this.#rafHandle !== 0) cancelAnimationFrame(this.#rafHandle);
    this.#rafHandle = 0;
  }

  frame(timestamp: number): Frame<S> | null {
    return this.#paced(timestamp, true) ? this.#frame : null;
  }

  pace(timestamp: number): boolean {
    return this.#paced(timestamp, false);
  }

  #paced(timestamp: number, sample: boolean): boolean {
    this.#endFrame(); // a frame whose task never ended (a throwing draw) still reports its cost
    const render = this.#pacer.onAnimationFrame(timestamp);
    if (render) {
      this.#frameStart = this.now();
      if (sample) this.sample(timestamp);
      // the cost runs until this task ends: the caller's draw included
      queueMicrotask(this.#endFrame);
    }
    // after the lock is released: the worker can now simulate up to the next frame while this one is drawn
    this.#expectFrameIfMoved();
    this.#checkWorker();
    return render;
  }

  sendInput(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean {
    if (this.input === null || !this.input.push(this.now(), code, p0, p1, p2, p3)) return false;
    if (this.views === null && !this.#inputFlushQueued) {
      // the message transport sends what was queued in one message, at the end of this task
      this.#inputFlushQueued = true;
      queueMicrotask(this.#flushInput);
    }
    return true;
  }

  readonly #onAnimationFrame = (timestamp: number): void => {
    // schedule first, so a throwing draw does not end the loop
    this.#rafHandle = requestAnimationFrame(this.#onAnimationFrame);
    // a rAF timestamp is on this thread's performance.now() timeline, which is the shared clock here
    const frame = this.frame(timestamp);
    if (frame !== null) this.#draw!(frame);
  };

  #onVisibility(hidden: boolean): void {
    if (this.#disposed) return;
    // no frames while hidden: the heartbeat's silence is measured from when we can see again
    this.#lastBeatAt = Number.NaN;
    void this.remote.setHidden(hidden);
    this.#events.emit('visibility', { hidden });
  }

  /** Once per frame: three Atomics loads, and an event (one comlink round trip) only when something happened. */
  #checkWorker(): void {
    const i32 = this.#header;
    const beat = Atomics.load(i32, I32.HEARTBEAT);
    const now = this.now();
    if (beat !== this.#lastBeat) {
      const silentMs = now - this.#lastBeatAt;
      this.#lastBeat = beat;
      this.#lastBeatAt = now;
      if (this.#unresponsive) {
        this.#unresponsive = false;
        this.#emitSafely('responsive', { silentMs });
      }
    } else if (Number.isNaN(this.#lastBeatAt)) {
      this.#lastBeatAt = now; // first frame, or first since the page showed again
    } else if (!this.#unresponsive && now - this.#lastBeatAt > this.#heartbeatTimeout) {
      this.#unresponsive = true;
      this.#emitSafely('unresponsive', { silentMs: now - this.#lastBeatAt });
    }
    if (!this.#faultReported && Atomics.load(i32, I32.STATUS) === STATUS.FAULTED) {
      this.#faultReported = true;
      void this.remote.stats().then((stats) => {
        const error = new Error(`steadyframe: the simulation's step threw: ${stats.error?.message ?? 'unknown error'}`);
        if (stats.error?.stack !== undefined) error.stack = stats.error.stack;
        this.#emitSafely('fault', error);
      });
    }
    const overloads = Atomics.load(i32, I32.OVERLOADS);
    if (overloads !== this.#overloadsSeen && !this.#overloadPending) {
      this.#overloadsSeen = overloads;
      if (!this.#events.has('overload')) return;
      this.#overloadPending = true;
      void this.remote.stats().then((stats) => {
        this.#overloadPending = false;
        this.#emitSafely('overload', { overloads: stats.overloads, droppedMs: stats.droppedMs });
      });
    }
  }

  /** Emits from a promise callback: a listener that throws is reported, not left as an unhandled rejection. */
  #emitSafely<K extends keyof RuntimeEvents>(type: K, event: RuntimeEvents[K]): void {
    try {
      this.#events.emit(type, event);
    } catch (error) {
      console.error(error);
    }
  }
}
