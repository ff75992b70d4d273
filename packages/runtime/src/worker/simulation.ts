/**
 * The worker side: runs the user's fixed-tick `step` and publishes each tick into the shared double buffer.
 *
 * The loop, each time it wakes:
 *   1. reads when the main thread expects its next frame (NEXT_FRAME);
 *   2. runs ticks until the newest state is just past that time, at most `maxLeadTicks` ahead of the wall
 *      clock and at most `maxCatchUpSteps` in one go; backlog beyond that follows the `backlog` policy;
 *   3. sleeps on the FRAME_SEQ doorbell with `Atomics.waitAsync` until the next frame is published, the
 *      next tick falls due, or a control call rings it. The worker's event loop stays free while it sleeps,
 *      so comlink calls are served at once, and an idle, paused or hidden simulation burns no CPU.
 */
import { createSharedClock, type Clock } from '../core/clock.ts';
import {
  alphaAt,
  BACKLOG_POLICIES,
  createTimeline,
  FRAME_HOLD_MS,
  defaultMaxCatchUpSteps,
  nextWakeTime,
  planSteps,
  reanchor,
  settleBacklogAfter,
  settleBacklogBefore,
  stepTarget,
  timeOfTick,
  type BacklogPolicy,
  type StepPlan,
  type Timeline,
} from '../core/fixed-step.ts';
import {
  allocateStateBuffer,
  computeLayout,
  createSharedViews,
  F64,
  fieldViews,
  generationView,
  I32,
  META,
  STATUS,
  type SharedViews,
  type StatusCode,
} from '../core/layout.ts';
import type { AttachConfig, SimulationInfo, SimulationRemote, SimulationStatus, TransportKind, WorkerStats } from '../core/protocol.ts';
import { schemaSignature, validateSchema, type Schema } from '../core/schema.ts';
import { readNextFrame, SlotWriter, writeCovered, type PublishMeta } from '../core/slots.ts';
import { allocateInputRing, InputReader, InputWriter } from '../core/input-ring.ts';
import { WorkerMessageTransport } from './message-transport.ts';
import { BLOCKED, SLEPT_ASYNC, type SleepReport } from './sleep-report.ts';
import { TickInputBuffer, type TickInput } from './tick-input.ts';
import { checkFinite, type NonFinitePolicy } from './finite-check.ts';
import { createWorld, type World, type WorldInternals } from './world.ts';

export type { SleepReport } from './sleep-report.ts';

export type { World } from './world.ts';

/** What one tick is about. The same object every tick: read it, do not keep it. */
export interface TickInfo {
  /** Number of the tick being produced (the first `step` produces tick 1; `init` is tick 0). */
  readonly tick: number;
  /** Simulated seconds this tick advances: 1 / tickRate. Not affected by the time scale. */
  readonly dt: number;
  /** Simulated seconds since tick 0 at the end of this tick. */
  readonly time: number;
  /** Shared-clock ms this tick's state stands for, and the previous state's (what the main thread blends). */
  readonly at: number;
  readonly previousAt: number;
  /** The input events for this tick, from `runtime.input` on the main thread (empty without an input ring). */
  readonly input: TickInput;
}

export interface SimulationDefinition<S extends Schema> {
  readonly schema: S;
  /** Ticks per simulated second. */
  readonly tickRate: number;
  /** Fills the world for tick 0. Runs once, when the main thread attaches. */
  init?(world: World<S>): void;
  /** Advances the world by one tick of `tick.dt` seconds, in place. */
  step(world: World<S>, tick: TickInfo): void;
  /** Most ticks run in one go. Default: a quarter second's worth, at least 4. */
  readonly maxCatchUpSteps?: number;
  /**
   * Most ticks the newest state may be ahead of the wall clock. Running ahead lets every frame be drawn at its
   * own time; running further decides ticks before the input that should shape them (note 003). Default 2.
   */
  readonly maxLeadTicks?: number;
  /** What happens to time the simulation falls behind by (see `BacklogPolicy`). Default 'catch-up'. */
  readonly backlog?: BacklogPolicy;
  /** Under 'catch-up', the most backlog in ms kept to be caught up; more is dropped. Default 250. */
  readonly maxBacklog?: number;
  /**
   * Most ms of each timed wait spent spinning rather than sleeping, for ticks that start on time: a timed
   * wait alone wakes 0.15 to 0.85 ms late. Spinning costs CPU: at most `spinMs` per tick (frames wake the
   * worker without it). Default: 6% of a tick, at most 1 ms (1 ms at 60 Hz: 6% of a core at most); never more
   * than half a tick, whatever is asked. 0: never.
   */
  readonly spinMs?: number;
  /** While the page is hidden: 'pause' sleeps and resumes without a burst (default); 'run' keeps ticking. */
  readonly whenHidden?: 'pause' | 'run';
  /**
   * NaN or infinite values a step writes to live entities: 'count' them (default; `stats().nonFiniteValues`),
   * 'hold' (count, and publish the entity's last finite value instead), or 'off' (no scan, for the last 1% of
   * speed: a scan costs about a nanosecond per float).
   */
  readonly nonFinite?: NonFinitePolicy;
  /**
   * The game's own calls, served over comlink as `runtime.commands` (functions of plain, cloneable values).
   * They run in the worker between ticks: record what they ask for and let `step` change the world.
   */
  readonly commands?: object;
}

/** How the loop sleeps and yields; injected so tests can drive it. */
export interface SimulationHost {
  /** The shared clock for a buffer with this anchor. */
  clock(anchor: number): Clock;
  /**
   * Resolves after `ms` (never, for Infinity), or earlier once `i32[index]` is not `value` or is notified.
   * The last `spinMs` of a wait may be spent spinning, for a precise wake. Reports what the wait did.
   */
  sleep(i32: Int32Array, index: number, value: number, ms: number, spinMs: number): Promise<SleepReport>;
  /**
   * Optional: the same wait done synchronously when it is short enough to block for (a worker may), returning
   * its report, or null when `ms` is too long for that (the loop then awaits `sleep`). On the precise path
   * this saves a promise and an await, so no allocation, nor a GC it could trigger, comes between the wake
   * and the tick. The report may be reused by the next call.
   */
  blockSync?(i32: Int32Array, index: number, value: number, ms: number, spinMs: number): SleepReport | null;
  /** Resolves after pending messages (comlink calls) have had a turn. */
  yieldToEvents(): Promise<void>;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Cuts a `sleep` short (hosts whose sleep is not an Atomics wait on the doorbell). */
  wake?(): void;
}

export const MAX_TICK_RATE = 100_000;
/** How often the worker bumps HEARTBEAT, whatever it is doing, ms. */
export const HEARTBEAT_MS = 250;
export const MAX_TIME_SCALE = 1_000;

const STATUS_NAMES: Record<StatusCode, SimulationStatus> = {
  [STATUS.IDLE]: 'idle',
  [STATUS.RUNNING]: 'running',
  [STATUS.PAUSED]: 'paused',
  [STATUS.STOPPED]: 'stopped',
  [STATUS.FAULTED]: 'faulted',
};

function checkTickRate(hz: unknown): number {
  if (typeof hz !== 'number' || !Number.isFinite(hz) || hz <= 0 || hz > MAX_TICK_RATE) {
    throw new RangeError(`steadyframe: tick rate must be a finite number of Hz above 0 and at most ${MAX_TICK_RATE}; got ${String(hz)}`);
  }
  return hz;
}

function checkTimeScale(scale: unknown): number {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0 || scale > MAX_TIME_SCALE) {
    throw new RangeError(
      `steadyframe: time scale must be a finite number above 0 and at most ${MAX_TIME_SCALE} (use pause() to stop time); got ${String(scale)}`,
    );
  }
  return scale;
}

function checkNumber(name: string, value: unknown, min: number, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new RangeError(`steadyframe: ${name} must be a finite ${integer ? 'whole ' : ''}number of at least ${min}; got ${String(value)}`);
  }
  return value;
}

/** How close to a due tick the default host stops sleeping with the event loop free and blocks instead, ms. */
const BLOCK_MS = 4;
/** The loop gives the event loop a turn at least this often, ms, however busy or precise its waits. */
const YIELD_EVERY_MS = 4;
/** Most times in a row the loop plans again at once, without sleeping or yielding, on a clock at the due instant. */
const MAX_REPLANS = 100;
/**
 * How early the default host's precise sleeps end, ms: the loop plans again (no tick is due yet) and spins the
 * rest in a second, short sleep. After a long sleep the thread's code and data are cold and a first pass through
 * the planning costs tens of µs; the second pass runs warm, so the tick starts microseconds after it is due.
 */
const WARM_UP_MS = 0.05;
/** Most clock reads of the last spin inside a tick (about a few ms of them: a clock that stands still gives up). */
const SPIN_GUARD = 100_000;
/** Just past an instant, ms: a tick planned for the moment the clock passes it. */
const TICK_EPSILON_MS = 0.001;

/** The default host: real shared clock, `Atomics.waitAsync` / `Atomics.wait` / spin sleeps, MessageChannel yields. */
export function browserHost(): SimulationHost {
  /** The report of a spin, reused: the precise path allocates nothing. */
  const spun = { yielded: false, spunMs: 0 };
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  const blockSync = (i32: Int32Array, index: number, value: number, ms: number, spinMs: number): SleepReport | null => {
    if (ms > spinMs + BLOCK_MS) return null;
    // close: block (a worker may; comlink calls wait at most BLOCK_MS), which wakes on time far more often,
    // then spin the last stretch in the same call, so nothing (not even a turn of the event loop) comes between
    // the precise wake and the tick it is for; a ring of the doorbell ends either stage at once. It ends
    // WARM_UP_MS early, once: the loop's next pass plans warm and spins the rest
    const until = performance.now() + (ms > 2 * WARM_UP_MS ? ms - WARM_UP_MS : ms);
    if (ms > spinMs && Atomics.wait(i32, index, value, ms - spinMs) !== 'timed-out') return BLOCKED;
    const spinFrom = performance.now();
    while (performance.now() < until && Atomics.load(i32, index) === value);
    spun.spunMs = performance.now() - spinFrom;
    return spun;
  };
  return {
    clock: createSharedClock,
    sleep(i32, index, value, ms, spinMs) {
      // Three stages toward a tick that falls due in `ms`. Measured in Chromium 156 on 2 vCPUs (docs/
      // benchmarks.md): a timed Atomics.waitAsync wakes 0.15 to 0.85 ms late (p99) and now and then 3 ms; a
      // blocking Atomics.wait 0.1 to 0.3 ms; a spin on the clock a few microseconds.
      const near = blockSync(i32, index, value, ms, spinMs);
      if (near !== null) return Promise.resolve({ ...near });
      if (typeof Atomics.waitAsync === 'function') {
        // far: sleep with the event loop free, waking early enough for the stage above
        const result = Atomics.waitAsync(i32, index, value, ms - spinMs - BLOCK_MS);
        return result.async ? result.value.then(() => SLEPT_ASYNC) : Promise.resolve(BLOCKED);
      }
      // no waitAsync (older engines): a timer, so the loop still yields; frames may wake it up to 4 ms late
      return new Promise((resolve) => setTimeout(() => resolve(SLEPT_ASYNC), Math.max(0, Math.min(ms - spinMs - BLOCK_MS, 4))));
    },
    blockSync,
    yieldToEvents() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(0);
      });
    },
    every(ms, fn) {
      const handle = setInterval(fn, ms);
      return () => clearInterval(handle);
    },
  };
}

interface Attached<S extends Schema> {
  readonly views: SharedViews<S>;
  readonly writer: SlotWriter<S>;
  readonly clock: Clock;
  readonly world: WorldInternals<S>;
  readonly timeline: Timeline;
  readonly input: TickInputBuffer;
  readonly transport: TransportKind;
  /** The message transport, when there is no shared memory. */
  readonly messages: WorkerMessageTransport<S> | null;
  /** The worker's own input ring (message transport), for its refusal count. */
  readonly inputWriter: InputWriter | null;
}

/** A simulation, not yet attached to a buffer. `exposeSimulation` serves one over comlink. */
export class Simulation<S extends Schema> implements SimulationRemote {
  readonly #definition: SimulationDefinition<S>;
  /** Given by the caller, or chosen at attach by the transport. */
  #host: SimulationHost | null;
  #attached: Attached<S> | null = null;
  #status: StatusCode = STATUS.IDLE;
  /** Bumped whenever a running loop must end; a sleeping loop that wakes with an old generation exits. */
  #generation = 0;
  #tickRate: number;
  #timeScale = 1;
  #maxCatchUpSteps: number;
  /** False when the game set maxCatchUpSteps; the default follows the tick length. */
  readonly #defaultCatchUp: boolean;
  readonly #maxLeadTicks: number;
  readonly #backlog: BacklogPolicy;
  readonly #maxBacklog: number;
  readonly #pauseWhenHidden: boolean;
  #hidden = false;
  #hiddenSince = 0;
  #hiddenMs = 0;
  #simTime = 0;
  #overloads = 0;
  #droppedMs = 0;
  #lastStepMs = 0;
  #maxStepMs = 0;
  #sleeps = 0;
  #inputs = 0;
  #lateInputs = 0;
  readonly #spinMs: number | undefined;
  #spunMs = 0;
  readonly #nonFinite: NonFinitePolicy;
  #nonFiniteValues = 0;
  #nonFiniteTicks = 0;
  #restarts = 0;
  #stopHeartbeat: () => void = () => {};
  /** Ms the worker's clock reads ahead of the page's (measured by the main thread), subtracted from it. */
  #clockOffset = 0;
  #error: WorkerStats['error'] = null;
  readonly #plan: StepPlan = { steps: 0, overloaded: false };
  /** A second plan, for asking what the loop would do at a later instant (#ticksAt). */
  readonly #probe: StepPlan = { steps: 0, overloaded: false };
  #tickInfo: { -readonly [K in keyof TickInfo]: TickInfo[K] } | null = null;
  readonly #meta: PublishMeta = {
    previousTick: 0,
    currentTick: 0,
    previousTime: 0,
    currentTime: 0,
    count: 0,
    previousCount: 0,
    simTime: 0,
    scale: 1,
    snaps: 0,
  };

  constructor(definition: SimulationDefinition<S>, host?: SimulationHost) {
    validateSchema(definition.schema);
    if (typeof definition.step !== 'function') {
      throw new TypeError('steadyframe: a simulation needs a step(world, tick) function');
    }
    this.#definition = definition;
    this.#host = host ?? null;
    this.#tickRate = checkTickRate(definition.tickRate);
    this.#defaultCatchUp = definition.maxCatchUpSteps === undefined;
    this.#maxCatchUpSteps = checkNumber('maxCatchUpSteps', definition.maxCatchUpSteps ?? defaultMaxCatchUpSteps(this.#tickLength), 1, true);
    this.#maxLeadTicks = checkNumber('maxLeadTicks', definition.maxLeadTicks ?? 2, 0, false);
    this.#maxBacklog = checkNumber('maxBacklog', definition.maxBacklog ?? 250, 0, false);
    this.#spinMs = definition.spinMs === undefined ? undefined : checkNumber('spinMs', definition.spinMs, 0, false);
    const backlog = definition.backlog ?? 'catch-up';
    if (!BACKLOG_POLICIES.includes(backlog)) {
      throw new RangeError(`steadyframe: backlog must be one of ${BACKLOG_POLICIES.join(', ')}; got ${JSON.stringify(backlog)}`);
    }
    this.#backlog = backlog;
    const whenHidden = definition.whenHidden ?? 'pause';
    if (whenHidden !== 'pause' && whenHidden !== 'run') {
      throw new RangeError(`steadyframe: whenHidden must be 'pause' or 'run'; got ${JSON.stringify(whenHidden)}`);
    }
    this.#pauseWhenHidden = whenHidden === 'pause';
    const nonFinite = definition.nonFinite ?? 'count';
    if (nonFinite !== 'count' && nonFinite !== 'hold' && nonFinite !== 'off') {
      throw new RangeError(`steadyframe: nonFinite must be 'count', 'hold' or 'off'; got ${JSON.stringify(nonFinite)}`);
    }
    this.#nonFinite = nonFinite;
  }

  /** Ms of shared-clock time per tick at the current rate and scale. */
  get #tickLength(): number {
    return 1000 / this.#tickRate / this.#timeScale;
  }

  attach(config: AttachConfig): SimulationInfo {
    if (this.#attached !== null) {
      throw new Error('steadyframe: this simulation is already attached to a buffer; start a new worker for a new runtime');
    }
    const { schema } = this.#definition;
    const mine = schemaSignature(schema);
    if (config.signature !== mine) {
      throw new TypeError(
        `steadyframe: the main thread's schema "${config.signature}" differs from the worker's "${mine}"; import one schema module in both`,
      );
    }
    let views: SharedViews<S>;
    let inputReader: InputReader | null = null;
    let inputWriter: InputWriter | null = null;
    const port = config.port;
    if (config.buffer !== undefined) {
      // the same memory as config.buffer; laid out through the WebAssembly.Memory when there is one, so the
      // publishes can copy with memory.copy
      views = createSharedViews(config.memory?.buffer ?? config.buffer, schema, config.capacity);
      if (config.input !== undefined) inputReader = new InputReader(config.input);
    } else if (port !== undefined) {
      // no shared memory: the same memory map in a buffer of our own, forwarded state by state
      const anchor = config.clockAnchor ?? 0;
      views = createSharedViews(allocateStateBuffer(computeLayout(schema, config.capacity), anchor, false), schema, config.capacity);
      if (config.inputRing != null) {
        const ring = allocateInputRing(config.inputRing.capacity, config.inputRing.payloadWidth, false);
        inputReader = new InputReader(ring);
        inputWriter = new InputWriter(ring);
      }
    } else {
      throw new TypeError('steadyframe: attach() needs a shared buffer or a message port; createRuntime() passes one');
    }
    const { layout } = views;
    // the world is laid out like one block, in the buffer's world region (only this thread touches it), so a
    // publish copies within one buffer, live entities only (core/publish-copy.ts)
    const worldBlock = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
    const world = createWorld(layout, worldBlock, fieldViews<S>(views.buffer, layout.worldOffset, layout), generationView(views.buffer, layout.worldOffset, layout));
    let clock: Clock = () => 0; // set below, once the host is known
    const writer = new SlotWriter(views, worldBlock, () => clock(), 50, config.fault ?? 'none', config.memory ?? null);
    const messages = port === undefined ? null : new WorkerMessageTransport(port, views, writer, inputWriter);
    const host = (this.#host ??= messages === null ? browserHost() : messages.host());
    const raw = host.clock(views.f64[F64.CLOCK_ANCHOR]!);
    clock = () => raw() - this.#clockOffset;
    const input = new TickInputBuffer(inputReader);
    this.#tickInfo = { tick: 0, dt: 0, time: 0, at: 0, previousAt: 0, input };
    this.#definition.init?.(world.world);
    world.takeSnaps(); // tick 0 has nothing to blend from anyway
    const now = clock();
    const transport: TransportKind = messages === null ? 'shared' : 'message';
    this.#attached = { views, writer, clock, world, input, transport, messages, inputWriter, timeline: createTimeline(0, now, this.#tickLength) };
    this.#fillMeta(0, now, world.world.count, 0);
    writer.publishInitial(this.#meta);
    this.#beat();
    // a heartbeat the main thread watches: a worker that stops beating is reported unresponsive
    this.#stopHeartbeat = host.every(HEARTBEAT_MS, () => this.#beat());
    return {
      tickRate: this.#tickRate,
      timeScale: this.#timeScale,
      maxCatchUpSteps: this.#maxCatchUpSteps,
      maxLeadTicks: this.#maxLeadTicks,
      backlog: this.#backlog,
      maxBacklog: this.#maxBacklog,
      whenHidden: this.#pauseWhenHidden ? 'pause' : 'run',
      crossOriginIsolated: globalThis.crossOriginIsolated === true,
      transport,
    };
  }

  /** The worker's shared clock now: the main thread compares it with its own to measure their skew. */
  clockProbe(): number {
    return this.#require('clockProbe').clock();
  }

  /** Corrects the worker's shared clock by the skew the main thread measured (ms the worker reads ahead). */
  setClockOffset(ms: number): void {
    const a = this.#require('setClockOffset');
    if (!Number.isFinite(ms)) throw new RangeError(`steadyframe: a clock offset is a finite number of ms; got ${String(ms)}`);
    this.#clockOffset += ms;
    // what was published so far was stamped by the old clock: move it onto the corrected one
    a.writer.restamp(a.writer.frontMeta(META.PREV_TIME) - ms, a.writer.frontMeta(META.CUR_TIME) - ms);
    reanchor(a.timeline, timeOfTick(a.timeline) - ms);
  }

  start(): void {
    const a = this.#require('start');
    if (this.#status === STATUS.RUNNING) return;
    this.#setStatus(STATUS.RUNNING);
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
    if (this.#status === STATUS.RUNNING) {
      throw new Error('steadyframe: stepOnce() runs one tick of a held simulation; call pause() first');
    }
    this.#repin(a, this.#tickLength);
    this.#tick(a);
  }

  setTimeScale(scale: number): void {
    this.#timeScale = checkTimeScale(scale);
    this.#retime();
  }

  setTickRate(hz: number): void {
    this.#tickRate = checkTickRate(hz);
    this.#retime();
  }

  setHidden(hidden: boolean): void {
    const a = this.#require('setHidden', true);
    if (hidden === this.#hidden) return;
    this.#hidden = hidden;
    if (hidden) this.#hiddenSince = a.clock();
    else this.#hiddenMs += a.clock() - this.#hiddenSince;
    if (!this.#pauseWhenHidden) return;
    if (hidden) {
      // a running loop ends and sleeps no more; it restarts when the page shows again
      this.#generation++;
      this.#wake();
    } else if (this.#status === STATUS.RUNNING) {
      this.#continueFromNow(a);
    }
  }


  /**
   * Makes a faulted (or any) simulation runnable again, held: from the last published state (the world as the
   * main thread last saw it, undoing a step that threw halfway) or from scratch (`init` runs again on an empty
   * world; tick numbers go on, simulated time starts again at 0, every entity snaps). Call `start` after.
   */
  restart(from: 'last' | 'scratch'): void {
    const a = this.#attached;
    if (a === null) throw new Error('steadyframe: restart() before attach(); createRuntime() attaches the simulation to its buffer');
    if (from !== 'last' && from !== 'scratch') {
      throw new RangeError(`steadyframe: restart from 'last' or 'scratch'; got ${JSON.stringify(from)}`);
    }
    this.#generation++;
    this.#error = null;
    this.#setStatus(STATUS.IDLE);
    this.#restarts++;
    const front = a.views.blocks[a.writer.front].current;
    if (from === 'last') {
      a.world.restore(front, a.writer.frontMeta(META.COUNT));
      a.world.takeSnaps();
      return;
    }
    a.world.clear();
    this.#definition.init?.(a.world.world);
    this.#simTime = 0;
    // publish the fresh world as a tick of its own, every entity snapping to it
    this.#repin(a, this.#tickLength);
    this.#tick(a, false);
  }

  /** Stops the heartbeat and the loop; the worker can then be garbage collected or terminated. */
  detach(): void {
    this.#stopHeartbeat();
    this.#generation++;
  }

  stats(): WorkerStats {
    const a = this.#attached;
    return {
      status: STATUS_NAMES[this.#status],
      hidden: this.#hidden,
      hiddenMs: this.#hiddenMs + (this.#hidden && a !== null ? a.clock() - this.#hiddenSince : 0),
      tick: a?.timeline.tick ?? 0,
      tickRate: this.#tickRate,
      timeScale: this.#timeScale,
      maxCatchUpSteps: this.#maxCatchUpSteps,
      simTime: this.#simTime,
      overloads: this.#overloads,
      droppedMs: this.#droppedMs,
      lastStepMs: this.#lastStepMs,
      maxStepMs: this.#maxStepMs,
      sleeps: this.#sleeps,
      error: this.#error,
      publishes: a?.writer.stats.publishes ?? 0,
      flipWaits: a?.writer.stats.flipWaits ?? 0,
      flipWaitMs: a?.writer.stats.flipWaitMs ?? 0,
      spunMs: this.#spunMs,
      inputs: this.#inputs,
      inputRejected: a?.inputWriter?.rejected ?? 0,
      lateInputs: this.#lateInputs,
      nonFiniteValues: this.#nonFiniteValues,
      nonFiniteTicks: this.#nonFiniteTicks,
      restarts: this.#restarts,
    };
  }

  #require(call: string, whenFaulted = false): Attached<S> {
    if (this.#status === STATUS.FAULTED && !whenFaulted) {
      throw new Error(
        `steadyframe: ${call}() on a simulation that faulted (${this.#error?.message ?? 'unknown error'}); call restart() first`,
      );
    }
    if (this.#attached === null) {
      throw new Error(`steadyframe: ${call}() before attach(); createRuntime() attaches the simulation to its buffer`);
    }
    return this.#attached;
  }

  /** Starts a loop from the current tick, shown from now on (no burst for the time it was held). */
  #continueFromNow(a: Attached<S>): void {
    this.#repin(a, this.#tickLength);
    if (this.#hidden && this.#pauseWhenHidden) return; // setHidden(false) starts it
    void this.#run(++this.#generation);
  }

  #halt(status: StatusCode, call: string): void {
    this.#require(call, true);
    if (this.#status !== STATUS.FAULTED) this.#setStatus(status); // a fault stays reported until restart()
    this.#generation++;
    this.#wake();
  }

  /** A new tick length: the picture keeps its place and goes on at the new pace. */
  #retime(): void {
    if (this.#defaultCatchUp) this.#maxCatchUpSteps = defaultMaxCatchUpSteps(this.#tickLength);
    const a = this.#attached;
    if (a === null) return;
    this.#repin(a, this.#tickLength);
    this.#wake();
  }

  /**
   * Re-times the front slot around now so the picture neither jumps nor stalls: whatever fraction of the way
   * from the previous to the current state the main thread shows now, it keeps, and the rest of the way takes
   * `tickLength` from here. The timeline follows. Used on start, resume, stepOnce and a new scale or rate.
   */
  #repin(a: Attached<S>, tickLength: number): void {
    const now = a.clock();
    const alpha = alphaAt(now, a.writer.frontMeta(META.PREV_TIME), a.writer.frontMeta(META.CUR_TIME));
    const currentTime = now + (1 - alpha) * tickLength;
    const previousTime = currentTime - tickLength;
    a.writer.restamp(previousTime, currentTime);
    reanchor(a.timeline, currentTime, tickLength);
  }

  #setStatus(status: StatusCode): void {
    this.#status = status;
    if (this.#attached === null) return;
    Atomics.store(this.#attached.views.i32, I32.STATUS, status);
    this.#attached.messages?.postHeader();
  }

  /** Rings our own doorbell, so a sleeping loop re-reads its settings now. */
  #wake(): void {
    if (this.#attached !== null) Atomics.notify(this.#attached.views.i32, I32.FRAME_SEQ);
    this.#host?.wake?.();
  }

  #beat(): void {
    if (this.#attached === null) return;
    Atomics.add(this.#attached.views.i32, I32.HEARTBEAT, 1);
    this.#attached.messages?.postHeader();
  }

  #countDrop(a: Attached<S>, ms: number): void {
    if (ms <= 0) return;
    this.#overloads++;
    this.#droppedMs += ms;
    // tell the main thread: it raises an 'overload' event when this counter moves
    Atomics.add(a.views.i32, I32.OVERLOADS, 1);
    a.messages?.postHeader();
  }

  async #run(generation: number): Promise<void> {
    const a = this.#attached!;
    const host = this.#host!; // set at attach
    const { i32 } = a.views;
    const plan = this.#plan;
    let lastYield = a.clock();
    let replans = 0;
    while (generation === this.#generation) {
      // read the doorbell before the frame time, so a frame published after this read cuts the sleep short
      const doorbell = Atomics.load(i32, I32.FRAME_SEQ);
      const nextFrame = readNextFrame(a.views);
      const maxLead = this.#maxLeadTicks * a.timeline.tickLength;
      let now = a.clock();
      const target = stepTarget(now, nextFrame, FRAME_HOLD_MS);
      // holding for an overdue frame falls behind the wall clock on purpose: that is not backlog to drop
      if (target >= now) this.#countDrop(a, settleBacklogBefore(this.#backlog, a.timeline, now));
      planSteps(a.timeline, now, target, this.#maxCatchUpSteps, maxLead, plan);
      for (let i = 0; i < plan.steps; i++) {
        if (!this.#tick(a)) return;
      }
      if (plan.overloaded) {
        now = a.clock();
        this.#countDrop(a, settleBacklogAfter(this.#backlog, a.timeline, now, this.#maxBacklog));
      }
      const busy = plan.steps === this.#maxCatchUpSteps; // more may be due
      const wakeAt = busy ? now : nextWakeTime(a.timeline, target, maxLead, now, FRAME_HOLD_MS);
      const wait = wakeAt - a.clock();
      if (wait <= 0 && !busy && plan.steps === 0 && replans < MAX_REPLANS) {
        // woken on the very instant the newest state stands for, when no tick is due yet: the next one is due
        // a clock step later (performance.now() moves in steps of 5 µs), so plan again at once rather than
        // give the event loop a turn first (which costs tens of µs); bounded, for a clock that stands still
        replans++;
        continue;
      }
      if (plan.steps > 0) replans = 0;
      // at most half a tick of spinning, whatever spinMs asks: the rest of the wait sleeps or blocks
      const spin = Math.min(this.#spinMs ?? Math.min(1, 0.06 * a.timeline.tickLength), 0.5 * a.timeline.tickLength);
      // Give comlink calls and timers (the heartbeat) a turn: when more ticks may be due, when one is due this
      // very moment (a zero-length wait would only spin through microtasks), and once YIELD_EVERY_MS have passed
      // since the last turn (the blocking and spinning waits do not yield), deferred while a tick falls due
      // within the spin (then right after it, not between the precise wake and its tick), but never past
      // twice that: a step that takes nearly a whole tick leaves every wait within the spin.
      const sinceYield = a.clock() - lastYield;
      if (wait <= 0 || (sinceYield > YIELD_EVERY_MS && (wait > spin || sinceYield > 2 * YIELD_EVERY_MS))) {
        await host.yieldToEvents();
        lastYield = a.clock();
        continue;
      }
      if (wait <= WARM_UP_MS && wait <= spin && host.blockSync !== undefined && plan.steps === 0 && this.#ticksAt(a, wakeAt + TICK_EPSILON_MS, nextFrame, maxLead)) {
        // a tick falls due within the warm-up (the precise sleep ended that early): run it now, with its code
        // warm, spinning inside it to the due instant right before the step (nothing else in between)
        if (!this.#tick(a, true, wakeAt + TICK_EPSILON_MS)) return;
        continue;
      }
      this.#sleeps++;
      // the newest state's time: frames up to it need not wake us (the wake planned here comes in time for them)
      writeCovered(a.views, timeOfTick(a.timeline));
      // a short wait synchronously where the host can (no promise on the precise path), else asynchronously
      const report = host.blockSync?.(i32, I32.FRAME_SEQ, doorbell, wait, spin) ?? (await host.sleep(i32, I32.FRAME_SEQ, doorbell, wait, spin));
      writeCovered(a.views, Number.NEGATIVE_INFINITY);
      this.#spunMs += report.spunMs;
      if (report.yielded) lastYield = a.clock();
      replans = 0;
    }
  }

  /**
   * Whether the loop, planning at `when` with this frame, would run a tick then, on time: not more than a tick
   * behind the clock (then the backlog policy has its say first, on the normal path). Plans with a probe.
   */
  #ticksAt(a: Attached<S>, when: number, nextFrame: number, maxLead: number): boolean {
    if (when - timeOfTick(a.timeline) > a.timeline.tickLength) return false;
    return planSteps(a.timeline, when, stepTarget(when, nextFrame, FRAME_HOLD_MS), 1, maxLead, this.#probe).steps > 0;
  }

  /**
   * Runs one tick and publishes it; with `step` false, publishes the world as it stands as the next tick (a
   * restart). Returns false (and faults) if the user's step threw.
   */
  #tick(a: Attached<S>, step = true, notBefore = Number.NEGATIVE_INFINITY): boolean {
    const { timeline, world, clock } = a;
    const previousTick = timeline.tick;
    const previousTime = timeOfTick(timeline);
    const previousCount = world.world.count;
    const dt = 1 / this.#tickRate;
    const info = this.#tickInfo!;
    info.tick = previousTick + 1;
    info.dt = dt;
    info.time = (this.#simTime + dt * 1000) / 1000;
    info.previousAt = previousTime;
    info.at = timeOfTick(timeline, previousTick + 1);
    let started = clock();
    try {
      if (step) {
        // a tick run a few µs before it is due (see #run) spins here, to its due instant, right before it takes
        // its input and steps (bounded: a clock that does not move gives up)
        const spinFrom = started;
        for (let n = 0; started < notBefore && n < SPIN_GUARD; n++) started = clock();
        this.#spunMs += started - spinFrom;
        // the events that happened up to this tick's time, and any that came too late for the ticks before
        this.#lateInputs += a.input.fill(previousTime, info.at);
        this.#inputs += a.input.length;
        this.#definition.step(world.world, info);
      }
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      this.#error = { message: e.message, stack: e.stack };
      this.#setStatus(STATUS.FAULTED);
      this.#generation++;
      return false;
    }
    const took = clock() - started;
    this.#lastStepMs = took;
    if (took > this.#maxStepMs) this.#maxStepMs = took;
    if (step) this.#simTime += dt * 1000;
    if (this.#nonFinite !== 'off') {
      const last = this.#nonFinite === 'hold' ? a.views.slots[a.writer.front].current : null;
      const found = checkFinite(a.views.layout, world.world.fields, world.world.count, last);
      if (found > 0) {
        this.#nonFiniteValues += found;
        this.#nonFiniteTicks++;
      }
    }
    timeline.tick = previousTick + 1;
    this.#fillMeta(previousTick, previousTime, previousCount, world.takeSnaps());
    a.writer.publish(this.#meta);
    return true;
  }

  #fillMeta(previousTick: number, previousTime: number, previousCount: number, snaps: number): void {
    const a = this.#attached!;
    const meta = this.#meta;
    meta.previousTick = previousTick;
    meta.currentTick = a.timeline.tick;
    meta.previousTime = previousTime;
    meta.currentTime = timeOfTick(a.timeline);
    meta.count = a.world.world.count;
    meta.previousCount = previousCount;
    meta.simTime = this.#simTime;
    meta.scale = this.#timeScale;
    meta.snaps = snaps;
  }
}
