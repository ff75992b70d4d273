/**
 * The worker side: runs the user's fixed-tick `step` and publishes each tick through its transport (the shared
 * double buffer, or messages). This file holds the effects; what the loop decides is pure (core/fixed-step.ts)
 * and how it sleeps is the host's (worker/host.ts, browser-host.ts).
 *
 * The loop, each time it wakes:
 *   1. reads when the main thread expects its next frame (NEXT_FRAME);
 *   2. runs ticks until the newest state is just past that time, at most `maxLeadTicks` ahead of the wall
 *      clock and at most `maxCatchUpSteps` in one go, yielding to its event loop every BURST_MS of them;
 *      backlog beyond that follows the `backlog` policy;
 *   3. asks `decideLoop` what next: plan again, yield, run a tick due within the warm-up, or sleep on the
 *      FRAME_SEQ doorbell until the next frame is published, the next tick falls due, or a control call rings
 *      it. The worker's event loop stays free while it sleeps, so comlink calls are served at once, and an
 *      idle, paused or hidden simulation burns no CPU.
 */
import type { Clock } from '../core/clock.ts';
import { checkNumber, describeValue } from '../core/describe-value.ts';
import {
  alphaAt,
  BACKLOG_POLICIES,
  BURST_MS,
  burstBudget,
  createTimeline,
  decideLoop,
  endOfPass,
  FRAME_HOLD_MS,
  defaultMaxCatchUpSteps,
  LOOP_ACTION,
  loopSpin,
  nextWakeTime,
  planSteps,
  reanchor,
  settleBacklogAfter,
  settleBacklogBefore,
  stepTarget,
  TICK_EPSILON_MS,
  ticksOnTimeAt,
  timeOfTick,
  type BacklogPolicy,
  type LoopBurst,
  type LoopPass,
  type StepPlan,
  type Timeline,
} from '../core/fixed-step.ts';
import {
  F64,
  fieldViews,
  generationView,
  I32,
  META,
  STATUS,
  type SharedViews,
  type StatusCode,
} from '../core/layout.ts';
import type { AttachConfig, SimulationInfo, SimulationRemote, SimulationStatus, WorkerStats } from '../core/protocol.ts';
import { schemaSignature, validateSchema, type Schema } from '../core/schema.ts';
import { readNextFrame, writeCovered } from '../core/doorbell.ts';
import { SlotWriter, type PublishMeta } from '../core/slots.ts';
import { connectWorkerTransport, type WorkerTransport } from './transport.ts';
import type { SimulationHost } from './host.ts';
import { TickInputBuffer } from './tick-input.ts';
import { checkFinite, type NonFinitePolicy } from './finite-check.ts';
import { createWorld, type PrivateFieldSpec, type WorldInternals } from './world.ts';

export type { SleepReport } from './sleep-report.ts';
export type { SimulationHost } from './host.ts';
export { browserHost } from './browser-host.ts';

export type { World } from './world.ts';

import { checkTickRate, checkTimeScale, type SimulationDefinition, type TickInfo } from './definition.ts';

export type { SimulationDefinition, TickInfo } from './definition.ts';
export { MAX_TICK_RATE, MAX_TIME_SCALE } from './definition.ts';

/** How often the worker bumps HEARTBEAT, whatever it is doing, ms. */
export const HEARTBEAT_MS = 250;

/** A timed wake this much past its plan counts in `lateWakes`, ms: a loaded machine's scheduling, not the host's staging. */
const LATE_WAKE_MS = 1;

/** Most clock reads of the last spin inside a tick (about a few ms of them: a clock that stands still gives up). */
const SPIN_GUARD = 100_000;

const STATUS_NAMES: Record<StatusCode, SimulationStatus> = {
  [STATUS.IDLE]: 'idle',
  [STATUS.RUNNING]: 'running',
  [STATUS.PAUSED]: 'paused',
  [STATUS.STOPPED]: 'stopped',
  [STATUS.FAULTED]: 'faulted',
};

interface Attached<S extends Schema> {
  readonly views: SharedViews<S>;
  readonly writer: SlotWriter<S>;
  readonly clock: Clock;
  readonly world: WorldInternals<S, PrivateFieldSpec>;
  readonly timeline: Timeline;
  readonly input: TickInputBuffer;
  /** How states reach the page: the shared buffer, or messages. */
  readonly transport: WorkerTransport<S>;
}

/** A simulation, not yet attached to a buffer. `exposeSimulation` serves one over comlink. */
export class Simulation<S extends Schema> implements SimulationRemote {
  readonly #definition: SimulationDefinition<S, unknown, PrivateFieldSpec>;
  /** `createRuntime`'s `setup`, given at attach: `init` gets it, on attach and on restart('scratch'). */
  #setup: unknown = undefined;
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
  #lateWakes = 0;
  #maxWakeLateMs = 0;
  readonly #nonFinite: NonFinitePolicy;
  #nonFiniteValues = 0;
  #nonFiniteTicks = 0;
  #restarts = 0;
  #stopHeartbeat: () => void = () => {};
  /** Ms the worker's clock reads ahead of the page's (measured by the main thread), subtracted from it. */
  #clockOffset = 0;
  #error: WorkerStats['error'] = null;
  readonly #plan: StepPlan = { steps: 0, overloaded: false };
  /** A second plan, for asking what the loop would do at a later instant (`ticksOnTimeAt`). */
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

  constructor(definition: SimulationDefinition<S, unknown, PrivateFieldSpec>, host?: SimulationHost) {
    validateSchema(definition.schema);
    if (typeof definition.step !== 'function') {
      throw new TypeError('steadyframe: a simulation needs a step(world, tick) function');
    }
    this.#definition = definition;
    this.#host = host ?? null;
    this.#tickRate = checkTickRate(definition.tickRate);
    this.#defaultCatchUp = definition.maxCatchUpSteps === undefined;
    this.#maxCatchUpSteps = checkNumber('maxCatchUpSteps', definition.maxCatchUpSteps ?? defaultMaxCatchUpSteps(this.#tickLength), 1, { integer: true });
    this.#maxLeadTicks = checkNumber('maxLeadTicks', definition.maxLeadTicks ?? 2, 0);
    this.#maxBacklog = checkNumber('maxBacklog', definition.maxBacklog ?? 250, 0);
    this.#spinMs = definition.spinMs === undefined ? undefined : checkNumber('spinMs', definition.spinMs, 0);
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
    const transport = connectWorkerTransport(schema, config);
    const { views } = transport;
    const { layout } = views;
    // the world is laid out like one block, in the buffer's world region (only this thread touches it), so a
    // publish copies within one buffer, live entities only (core/publish-copy.ts)
    const worldBlock = new Float32Array(views.buffer, layout.worldOffset, layout.blockBytes / 4);
    const world = createWorld(
      layout,
      worldBlock,
      fieldViews<S>(views.buffer, layout.worldOffset, layout),
      generationView(views.buffer, layout.worldOffset, layout),
      this.#definition.privateFields ?? {},
    );
    let clock: Clock = () => 0; // set below, once the host is known
    const writer = this.createWriter(views, worldBlock, () => clock(), transport.memory);
    const host = (this.#host ??= transport.defaultHost());
    const raw = host.clock(views.f64[F64.CLOCK_ANCHOR]!);
    clock = () => raw() - this.#clockOffset;
    const input = new TickInputBuffer(transport.input);
    this.#tickInfo = { tick: 0, dt: 0, time: 0, at: 0, previousAt: 0, input };
    this.#setup = config.setup;
    this.#definition.init?.(world.world, this.#setup);
    world.takeSnaps(); // tick 0 has nothing to blend from anyway
    const now = clock();
    this.#attached = { views, writer, clock, world, input, transport, timeline: createTimeline(0, now, this.#tickLength) };
    this.#fillMeta(0, now, world.world.count, 0);
    writer.publishInitial(this.#meta);
    transport.published(writer.front);
    world.published();
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
      transport: transport.kind,
    };
  }

  /** The worker's shared clock now: the main thread compares it with its own to measure their skew. */
  clockProbe(): number {
    return this.#require('clockProbe').clock();
  }

  /** Corrects the worker's shared clock by the skew the main thread measured (ms the worker reads ahead). */
  setClockOffset(ms: number): void {
    const a = this.#require('setClockOffset');
    if (!Number.isFinite(ms)) throw new RangeError(`steadyframe: a clock offset is a finite number of ms; got ${describeValue(ms)}`);
    this.#clockOffset += ms;
    // what was published so far was stamped by the old clock: move it onto the corrected one. Refused (a reader
    // stall), the page goes on with the old stamps, so the timeline keeps them too and the next state joins on
    if (this.#restamp(a, a.writer.frontMeta(META.PREV_TIME) - ms, a.writer.frontMeta(META.CUR_TIME) - ms)) {
      reanchor(a.timeline, timeOfTick(a.timeline) - ms);
    }
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
    this.#definition.init?.(a.world.world, this.#setup);
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
      simSeconds: this.#simTime / 1000,
      overloads: this.#overloads,
      droppedMs: this.#droppedMs,
      lastStepMs: this.#lastStepMs,
      maxStepMs: this.#maxStepMs,
      sleeps: this.#sleeps,
      error: this.#error,
      publishes: a?.writer.stats.publishes ?? 0,
      flipWaits: a?.writer.stats.flipWaits ?? 0,
      flipWaitMs: a?.writer.stats.flipWaitMs ?? 0,
      readerStalls: a?.writer.stats.readerStalls ?? 0,
      spunMs: this.#spunMs,
      lateWakes: this.#lateWakes,
      maxWakeLateMs: this.#maxWakeLateMs,
      inputs: this.#inputs,
      inputRejected: a?.transport.inputRejected() ?? 0,
      stateBuffers: a?.transport.stateBuffers() ?? 0,
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
   *
   * If the page held the lock past READER_STALL_MS, the restamp is refused and the page goes on with the front
   * slot's old times: the timeline then keeps the current tick where the page sees it (or now, if that is past:
   * no catch-up for a pause) and only the pace changes, so the next state joins on to the picture, which neither
   * stalls nor jumps when the page lets go.
   *
   * ```text
   *   front slot  [P ........ C]            refused: C stays; ticks go on C, C + L', C + 2L', ...
   *   restamped   [now - αL' .... now + (1 - α)L']  ticks go on from there, L' apart
   * ```
   */
  #repin(a: Attached<S>, tickLength: number): void {
    const now = a.clock();
    const alpha = alphaAt(now, a.writer.frontMeta(META.PREV_TIME), a.writer.frontMeta(META.CUR_TIME));
    const currentTime = now + (1 - alpha) * tickLength;
    const previousTime = currentTime - tickLength;
    const restamped = this.#restamp(a, previousTime, currentTime);
    reanchor(a.timeline, restamped ? currentTime : Math.max(timeOfTick(a.timeline), a.clock()), tickLength);
  }

  #setStatus(status: StatusCode): void {
    this.#status = status;
    if (this.#attached === null) return;
    Atomics.store(this.#attached.views.i32, I32.STATUS, status);
    this.#attached.transport.headerChanged();
  }

  /** Rings our own doorbell, so a sleeping loop re-reads its settings now. */
  #wake(): void {
    if (this.#attached !== null) Atomics.notify(this.#attached.views.i32, I32.FRAME_SEQ);
    this.#host?.wake?.();
    this.#attached?.transport.wake();
  }

  #beat(): void {
    if (this.#attached === null) return;
    Atomics.add(this.#attached.views.i32, I32.HEARTBEAT, 1);
    this.#attached.transport.headerChanged();
  }

  #countDrop(a: Attached<S>, ms: number): void {
    if (ms <= 0) return;
    this.#overloads++;
    this.#droppedMs += ms;
    // tell the main thread: it raises an 'overload' event when this counter moves
    Atomics.add(a.views.i32, I32.OVERLOADS, 1);
    a.transport.headerChanged();
  }

  async #run(generation: number): Promise<void> {
    const a = this.#attached!;
    const host = this.#host!; // set at attach
    const { i32 } = a.views;
    const plan = this.#plan;
    const burst: LoopBurst = { ran: 0 };
    const pass: LoopPass = { wait: 0, busy: false, steps: 0, replans: 0, sinceYield: 0, spin: 0, canBlock: host.blockSync !== undefined };
    let lastYield = a.clock();
    let nextFrame = 0;
    let maxLead = 0;
    let wakeAt = 0;
    // asked only on the warm-up path: would a tick planned at the wake run then, on time?
    const ticksOnTime = (): boolean => ticksOnTimeAt(a.timeline, wakeAt + TICK_EPSILON_MS, nextFrame, maxLead, this.#probe);
    while (generation === this.#generation) {
      // read the doorbell before the frame time, so a frame published after this read cuts the sleep short
      const doorbell = Atomics.load(i32, I32.FRAME_SEQ);
      nextFrame = readNextFrame(a.views);
      maxLead = this.#maxLeadTicks * a.timeline.tickLength;
      let now = a.clock();
      const target = stepTarget(now, nextFrame, FRAME_HOLD_MS);
      // holding for an overdue frame falls behind the wall clock on purpose: that is not backlog to drop
      if (target >= now) this.#countDrop(a, settleBacklogBefore(this.#backlog, a.timeline, now));
      const budget = burstBudget(burst, this.#maxCatchUpSteps);
      planSteps(a.timeline, now, target, budget, maxLead, plan);
      // the ticks, back to back for at most BURST_MS (the first always runs): a slow step's catch-up goes on
      // after a turn of the event loop, so comlink calls and the heartbeat wait at most a step and a few ms
      let ran = 0;
      while (ran < plan.steps) {
        if (!this.#tick(a)) return;
        ran++;
        if (ran < plan.steps && a.clock() - now > BURST_MS) break;
      }
      const end = endOfPass(burst, plan, ran, budget);
      if (end.settle) {
        now = a.clock();
        this.#countDrop(a, settleBacklogAfter(this.#backlog, a.timeline, now, this.#maxBacklog));
      }
      wakeAt = end.busy ? now : nextWakeTime(a.timeline, target, maxLead, now, FRAME_HOLD_MS);
      const clockNow = a.clock();
      pass.wait = wakeAt - clockNow;
      pass.busy = end.busy;
      pass.steps = ran;
      pass.sinceYield = clockNow - lastYield;
      // at most half a tick of spinning, whatever spinMs asks: the rest of the wait sleeps or blocks
      pass.spin = loopSpin(this.#spinMs, a.timeline.tickLength);
      const action = decideLoop(pass, ticksOnTime);
      if (action === LOOP_ACTION.REPLAN) {
        pass.replans++;
        continue;
      }
      if (ran > 0) pass.replans = 0;
      if (action === LOOP_ACTION.YIELD) {
        await host.yieldToEvents();
        lastYield = a.clock();
        continue;
      }
      if (action === LOOP_ACTION.TICK_EARLY) {
        // spinning inside the tick to its due instant, right before the step (nothing else in between)
        if (!this.#tick(a, true, wakeAt + TICK_EPSILON_MS)) return;
        continue;
      }
      this.#sleeps++;
      // the newest state's time: frames up to it need not wake us (the wake planned here comes in time for them)
      writeCovered(a.views, timeOfTick(a.timeline));
      // a short wait synchronously where the host can (no promise on the precise path), else asynchronously
      const report = host.blockSync?.(i32, I32.FRAME_SEQ, doorbell, pass.wait, pass.spin) ?? (await host.sleep(i32, I32.FRAME_SEQ, doorbell, pass.wait, pass.spin));
      writeCovered(a.views, Number.NEGATIVE_INFINITY);
      // a wake the doorbell did not cut short: how late after the planned time did this thread run again?
      if (Atomics.load(i32, I32.FRAME_SEQ) === doorbell) this.#countWake(a.clock() - wakeAt);
      this.#spunMs += report.spunMs;
      if (report.yielded) lastYield = a.clock();
      pass.replans = 0;
    }
  }

  /** A timed wake `late` ms after its plan (negative: early, as the hosts' staged sleeps are on purpose). */
  #countWake(late: number): void {
    if (late > LATE_WAKE_MS) this.#lateWakes++;
    if (late > this.#maxWakeLateMs) this.#maxWakeLateMs = late;
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
      const found = checkFinite(a.views.layout, world.world.fields, world.world.count, last, a.writer.frontMeta(META.COUNT));
      if (found > 0) {
        this.#nonFiniteValues += found;
        this.#nonFiniteTicks++;
      }
    }
    timeline.tick = previousTick + 1;
    // a beat per tick as well as per HEARTBEAT_MS: a loop that ticks is alive, whatever its timers do
    Atomics.add(a.views.i32, I32.HEARTBEAT, 1);
    this.#fillMeta(previousTick, previousTime, previousCount, world.takeSnaps());
    // false: the page held the lock too long (a reader stall, counted); the next publish carries the world on
    if (a.writer.publish(this.#meta)) {
      a.transport.published(a.writer.front);
      world.published(); // the private fields as of this state, for restart('last')
    }
    return true;
  }

  /** Re-times the front slot; false if the page held the lock past READER_STALL_MS (nothing changed). */
  #restamp(a: Attached<S>, previousTime: number, currentTime: number): boolean {
    if (!a.writer.restamp(previousTime, currentTime)) return false;
    a.transport.restamped(a.writer.front);
    return true;
  }

  /** The slot writer over the transport's memory map. A seam for the test-only faulty disciplines (`steadyframe/testing`). */
  protected createWriter(views: SharedViews<S>, world: Float32Array, now: () => number, memory: WebAssembly.Memory | null): SlotWriter<S> {
    return new SlotWriter(views, world, now, undefined, undefined, memory);
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
