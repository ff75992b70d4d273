/**
 * The worker side: runs the user's fixed-tick `step` and publishes each tick into the shared double buffer.
 *
 * The loop, each time it wakes:
 *   1. reads when the main thread expects its next frame (NEXT_FRAME);
 *   2. runs ticks until the newest state is just past that time (capped: `maxCatchUpSteps`, `maxLead`);
 *   3. sleeps on the FRAME_SEQ doorbell with `Atomics.waitAsync` until the next frame is published, the
 *      next tick falls due, or a control call rings it. The worker's event loop stays free while it sleeps,
 *      so comlink calls are served at once, and an idle simulation burns no CPU.
 */
import { createSharedClock, type Clock } from '../core/clock.ts';
import {
  createTimeline,
  defaultMaxCatchUpSteps,
  dropBacklog,
  nextWakeTime,
  planSteps,
  reanchor,
  stepTarget,
  timeOfTick,
  type StepPlan,
  type Timeline,
} from '../core/fixed-step.ts';
import { createSharedViews, fieldViews, F64, I32, STATUS, type SharedViews, type StatusCode } from '../core/layout.ts';
import type { AttachConfig, SimulationInfo, SimulationRemote, SimulationStatus, WorkerStats } from '../core/protocol.ts';
import { schemaSignature, validateSchema, type FieldViews, type Schema } from '../core/schema.ts';
import { readNextFrame, SlotWriter, type PublishMeta } from '../core/slots.ts';

/** The world the user's `init` and `step` write: the simulation's private copy of the entity fields. */
export interface World<S extends Schema> {
  /** One view per schema field; stable for the life of the simulation, so they may be cached. */
  readonly fields: FieldViews<S>;
  readonly capacity: number;
  /** Live entities: indices 0 .. count - 1 are published. Setting it outside 0..capacity throws. */
  count: number;
  /** Adds an entity at index `count` and returns it, or returns -1 when the world is full. */
  spawn(): number;
}

/** What one tick is about. The same object every tick: read it, do not keep it. */
export interface TickInfo {
  /** Number of the tick being produced (the first `step` produces tick 1; `init` is tick 0). */
  readonly tick: number;
  /** Simulated seconds this tick advances: 1 / tickRate. Not affected by the time scale. */
  readonly dt: number;
  /** Simulated seconds since tick 0 at the end of this tick. */
  readonly time: number;
}

export interface SimulationDefinition<S extends Schema> {
  readonly schema: S;
  /** Ticks per simulated second. */
  readonly tickRate: number;
  /** Fills the world for tick 0. Runs once, when the main thread attaches. */
  init?(world: World<S>): void;
  /** Advances the world by one tick of `tick.dt` seconds, in place. */
  step(world: World<S>, tick: TickInfo): void;
  /** Most ticks run in one go before backlog is dropped. Default: a quarter second's worth, at least 4. */
  readonly maxCatchUpSteps?: number;
  /** Most ms the simulation may run ahead of the wall clock to meet the next frame. Default 100. */
  readonly maxLead?: number;
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
  /** Resolves after `ms`, or earlier once `i32[index]` is no longer `value` (or is notified). */
  sleep(i32: Int32Array, index: number, value: number, ms: number): Promise<unknown>;
  /** Resolves after pending messages (comlink calls) have had a turn. */
  yieldToEvents(): Promise<void>;
}

export const MAX_TICK_RATE = 100_000;
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

/** The default host: real shared clock, `Atomics.waitAsync` sleeps, MessageChannel yields. */
export function browserHost(): SimulationHost {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return {
    clock: createSharedClock,
    sleep(i32, index, value, ms) {
      if (typeof Atomics.waitAsync === 'function') {
        const result = Atomics.waitAsync(i32, index, value, Math.max(0, ms));
        return result.async ? result.value : Promise.resolve(result.value);
      }
      // no waitAsync (older engines): a timer, so the loop still yields; frames may wake it up to 4 ms late
      return new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(ms, 4))));
    },
    yieldToEvents() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(0);
      });
    },
  };
}

interface Attached<S extends Schema> {
  readonly views: SharedViews<S>;
  readonly writer: SlotWriter<S>;
  readonly clock: Clock;
  readonly world: World<S>;
  readonly timeline: Timeline;
}

/** A simulation, not yet attached to a buffer. `exposeSimulation` serves one over comlink. */
export class Simulation<S extends Schema> implements SimulationRemote {
  readonly #definition: SimulationDefinition<S>;
  readonly #host: SimulationHost;
  #attached: Attached<S> | null = null;
  #status: StatusCode = STATUS.IDLE;
  /** Bumped whenever the loop must end; a sleeping loop that wakes with an old generation exits. */
  #generation = 0;
  #tickRate: number;
  #timeScale = 1;
  readonly #maxCatchUpSteps: number;
  readonly #maxLead: number;
  #simTime = 0;
  #overloads = 0;
  #droppedMs = 0;
  #lastStepMs = 0;
  #maxStepMs = 0;
  #sleeps = 0;
  #error: WorkerStats['error'] = null;
  readonly #plan: StepPlan = { steps: 0, overloaded: false };
  readonly #tickInfo = { tick: 0, dt: 0, time: 0 };
  readonly #meta: PublishMeta = { previousTick: 0, currentTick: 0, previousTime: 0, currentTime: 0, count: 0, simTime: 0 };

  constructor(definition: SimulationDefinition<S>, host: SimulationHost = browserHost()) {
    validateSchema(definition.schema);
    if (typeof definition.step !== 'function') {
      throw new TypeError('steadyframe: a simulation needs a step(world, tick) function');
    }
    this.#definition = definition;
    this.#host = host;
    this.#tickRate = checkTickRate(definition.tickRate);
    const cap = definition.maxCatchUpSteps ?? defaultMaxCatchUpSteps(this.#tickRate);
    if (!Number.isInteger(cap) || cap < 1) {
      throw new RangeError(`steadyframe: maxCatchUpSteps must be a whole number of at least 1; got ${String(cap)}`);
    }
    this.#maxCatchUpSteps = cap;
    const lead = definition.maxLead ?? 100;
    if (!Number.isFinite(lead) || lead < 0) {
      throw new RangeError(`steadyframe: maxLead must be a finite number of ms, at least 0; got ${String(lead)}`);
    }
    this.#maxLead = lead;
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
    const views = createSharedViews(config.buffer, schema, config.capacity);
    const clock = this.#host.clock(views.f64[F64.CLOCK_ANCHOR]!);
    const worldBuffer = new Float32Array(views.layout.blockBytes / 4);
    const world = createWorld(fieldViews<S>(worldBuffer.buffer, 0, views.layout), config.capacity);
    const writer = new SlotWriter(views, worldBuffer, clock, 50, config.fault ?? 'none');
    this.#definition.init?.(world);
    const now = clock();
    const timeline = createTimeline(0, now, this.#tickLength);
    this.#attached = { views, writer, clock, world, timeline };
    this.#fillMeta(0, now);
    writer.publishInitial(this.#meta);
    return {
      tickRate: this.#tickRate,
      timeScale: this.#timeScale,
      maxCatchUpSteps: this.#maxCatchUpSteps,
      maxLead: this.#maxLead,
      crossOriginIsolated: globalThis.crossOriginIsolated === true,
    };
  }

  start(): void {
    const a = this.#require('start');
    if (this.#status === STATUS.RUNNING) return;
    // no jump: the current tick is shown from now on, the next one falls due a tick later
    reanchor(a.timeline, Math.max(a.clock(), timeOfTick(a.timeline)));
    this.#setStatus(STATUS.RUNNING);
    void this.#run(++this.#generation);
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
    reanchor(a.timeline, Math.max(a.clock(), timeOfTick(a.timeline)));
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

  stats(): WorkerStats {
    const a = this.#attached;
    return {
      status: STATUS_NAMES[this.#status],
      tick: a?.timeline.tick ?? 0,
      tickRate: this.#tickRate,
      timeScale: this.#timeScale,
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
    };
  }

  #require(call: string): Attached<S> {
    if (this.#status === STATUS.FAULTED) {
      throw new Error(`steadyframe: ${call}() on a simulation that faulted (${this.#error?.message ?? 'unknown error'}); create a new runtime`);
    }
    if (this.#attached === null) {
      throw new Error(`steadyframe: ${call}() before attach(); createRuntime() attaches the simulation to its buffer`);
    }
    return this.#attached;
  }

  #halt(status: StatusCode, call: string): void {
    this.#require(call);
    this.#setStatus(status);
    this.#generation++;
    this.#wake();
  }

  /** Keeps the current tick where it is on the clock and spaces the following ones at the new tick length. */
  #retime(): void {
    const a = this.#attached;
    if (a === null) return;
    reanchor(a.timeline, timeOfTick(a.timeline), this.#tickLength);
    this.#wake();
  }

  #setStatus(status: StatusCode): void {
    this.#status = status;
    if (this.#attached !== null) Atomics.store(this.#attached.views.i32, I32.STATUS, status);
  }

  /** Rings our own doorbell, so a sleeping loop re-reads its settings now. */
  #wake(): void {
    if (this.#attached !== null) Atomics.notify(this.#attached.views.i32, I32.FRAME_SEQ);
  }

  async #run(generation: number): Promise<void> {
    const a = this.#attached!;
    const { i32 } = a.views;
    const plan = this.#plan;
    while (generation === this.#generation) {
      // read the doorbell before the frame time, so a frame published after this read cuts the sleep short
      const doorbell = Atomics.load(i32, I32.FRAME_SEQ);
      const nextFrame = readNextFrame(a.views);
      const now = a.clock();
      planSteps(a.timeline, now, stepTarget(now, nextFrame, this.#maxLead), this.#maxCatchUpSteps, plan);
      for (let i = 0; i < plan.steps; i++) {
        if (!this.#tick(a)) return;
      }
      if (plan.overloaded) {
        this.#overloads++;
        this.#droppedMs += dropBacklog(a.timeline, a.clock());
      }
      if (plan.steps === this.#maxCatchUpSteps) {
        // more may be due: let comlink calls in, then plan again
        await this.#host.yieldToEvents();
        continue;
      }
      const wait = nextWakeTime(a.timeline, nextFrame, this.#maxLead) - a.clock();
      this.#sleeps++;
      await this.#host.sleep(i32, I32.FRAME_SEQ, doorbell, wait);
    }
  }

  /** Runs one tick and publishes it. Returns false (and faults) if the user's step threw. */
  #tick(a: Attached<S>): boolean {
    const { timeline, world, clock } = a;
    const previousTick = timeline.tick;
    const previousTime = timeOfTick(timeline);
    const dt = 1 / this.#tickRate;
    const info = this.#tickInfo;
    info.tick = previousTick + 1;
    info.dt = dt;
    info.time = (this.#simTime + dt * 1000) / 1000;
    const started = clock();
    try {
      this.#definition.step(world, info);
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
    this.#simTime += dt * 1000;
    timeline.tick = previousTick + 1;
    this.#fillMeta(previousTick, previousTime);
    a.writer.publish(this.#meta);
    return true;
  }

  #fillMeta(previousTick: number, previousTime: number): void {
    const a = this.#attached!;
    const meta = this.#meta;
    meta.previousTick = previousTick;
    meta.currentTick = a.timeline.tick;
    meta.previousTime = previousTime;
    meta.currentTime = timeOfTick(a.timeline);
    meta.count = a.world.count;
    meta.simTime = this.#simTime;
  }
}

function createWorld<S extends Schema>(fields: FieldViews<S>, capacity: number): World<S> {
  let count = 0;
  return {
    fields,
    capacity,
    get count() {
      return count;
    },
    set count(n: number) {
      if (!Number.isInteger(n) || n < 0 || n > capacity) {
        throw new RangeError(`steadyframe: world.count must be a whole number from 0 to the capacity ${capacity}; got ${String(n)}`);
      }
      count = n;
    },
    spawn() {
      if (count >= capacity) return -1;
      return count++;
    },
  };
}
