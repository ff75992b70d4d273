/**
 * Replays a recording (core/recording.ts) through this worker's simulation: the recorded setup, seed and start
 * state, then each tick's step with its recorded times and input events, its state hashed and held against the
 * recorded hash, each keyframe compared value by value. `replay()` runs it on a held simulation as fast as the
 * CPU goes and publishes nothing; `play()` (worker/playback.ts) runs one recorded tick per live tick, drawn.
 *
 * ```text
 *  head ── from init: clear, seed, init(setup) ── compare with the recorded start state
 *       └─ then: load the start state, the simulation's own state (its load()), the generator's state
 *  TICK      step(world, { tick, dt, time, at, previousAt, input: the recorded events, random }) ── hash ── compare
 *  KEYFRAME  compare every live value: the first difference is named (tick, entity, field, component, both values)
 *  RATE, SCALE, RESTART   as the running simulation did them
 * ```
 *
 * While `init` or a step runs, `Math.random`, `Date.now` and `performance.now` are wrapped: they still answer,
 * and each call is counted with the first tick that made it (what breaks a replay most often).
 */
import { NO_EMIT, tickEmitters } from './tick-events.ts';
import { rewindOf } from './rewind.ts';
import type { ReplayDifference, ReplayReport, ReplayTrap } from '../contracts/remote.ts';
import { STATUS, type Layout } from '../core/layout.ts';
import { EventDigest } from '../core/event-digest.ts';
import { ByteReader, hashState, liveState, readRecords, RECORD, RecordingError, type RecordedEvent, type RecordEntry, type RecordingHead, type WorldState } from '../core/recording.ts';
import type { Schema } from '../core/schema.ts';
import { runInit } from './attach.ts';
import { tickLengthMs, type TickInfo } from './definition.ts';
import { repin } from './retime.ts';
import { loadHead, readHeadFor } from './snapshot.ts';
import type { Attached, SimulationState } from './state.ts';
import type { TickInput } from './tick-input.ts';

/** A tick's recorded events as the step reads them. */
class RecordedInput implements TickInput {
  events: readonly RecordedEvent[] = [];
  previousAt = 0;
  get length(): number {
    return this.events.length;
  }
  time(i: number): number {
    return this.events[i]?.time ?? Number.NaN;
  }
  code(i: number): number {
    return this.events[i]?.code ?? Number.NaN;
  }
  sequence(i: number): number {
    return this.events[i]?.sequence ?? Number.NaN;
  }
  payload(i: number, j: number): number {
    return this.events[i]?.payload[j] ?? Number.NaN;
  }
  late(i: number): boolean {
    return this.time(i) <= this.previousAt;
  }
}

type TrapName = 'Math.random' | 'Date.now' | 'performance.now';

/**
 * The platform's sources of difference, wrapped while a replayed `init` or step runs (nothing else on this
 * thread calls them meanwhile): each call still answers, and is counted with the tick being made.
 */
class Traps {
  readonly counts: Record<TrapName, ReplayTrap> = { 'Math.random': { calls: 0, firstTick: null }, 'Date.now': { calls: 0, firstTick: null }, 'performance.now': { calls: 0, firstTick: null } };
  /** The tick whose init or step is running. */
  #tick = 0;
  readonly #random = Math.random;
  readonly #dateNow = Date.now;
  readonly #perfNow = performance.now;
  readonly #own = Object.getOwnPropertyDescriptor(performance, 'now');
  // the wrappers, made once: installing them around every step allocates nothing
  readonly #wrapped = {
    random: () => (this.#count('Math.random'), this.#random()),
    dateNow: () => (this.#count('Date.now'), this.#dateNow()),
    perfNow: () => (this.#count('performance.now'), this.#perfNow.call(performance)),
  };

  install(tick: number): void {
    this.#tick = tick;
    Math.random = this.#wrapped.random;
    Date.now = this.#wrapped.dateNow;
    performance.now = this.#wrapped.perfNow;
  }

  uninstall(): void {
    Math.random = this.#random;
    Date.now = this.#dateNow;
    if (this.#own === undefined) delete (performance as { now?: unknown }).now;
    else Object.defineProperty(performance, 'now', this.#own);
  }

  #count(name: TrapName): void {
    const trap = this.counts[name];
    trap.calls++;
    trap.firstTick ??= this.#tick;
  }
}

/** The first value that differs between two states of one layout, or null. */
function firstDifference(
  layout: Layout,
  privateFields: ReadonlyArray<{ readonly name: string; readonly width: number }>,
  recorded: WorldState,
  replayed: WorldState,
  tick: number,
  generations: boolean,
): ReplayDifference | null {
  const at = (field: string, entity: number, component: number, a: number, b: number): ReplayDifference => ({ tick, entity, field, component, recorded: a, replayed: b });
  if (recorded.count !== replayed.count) return at('count', -1, 0, recorded.count, replayed.count);
  const n = recorded.count;
  const same = (a: number, b: number) => Object.is(a, b) || a === b;
  // each run, field after field: count × width values of one field
  const runs = (fields: ReadonlyArray<{ readonly name: string; readonly width: number }>, a: Float32Array, b: Float32Array, prefix: string) => {
    let offset = 0;
    for (const f of fields) {
      for (let i = 0; i < f.width * n; i++) {
        if (!same(a[offset + i]!, b[offset + i]!)) return at(prefix + f.name, Math.floor(i / f.width), i % f.width, a[offset + i]!, b[offset + i]!);
      }
      offset += f.width * n;
    }
    return null;
  };
  const field = runs(layout.fields, recorded.fields, replayed.fields, '');
  if (field !== null) return field;
  for (let i = 0; generations && i < n; i++) if (recorded.generations[i] !== replayed.generations[i]) return at('generation', i, 0, recorded.generations[i]!, replayed.generations[i]!);
  // the game fields: one value each, no entity (-1)
  for (const g of layout.game) {
    if (!same(recorded.game[g.index]!, replayed.game[g.index]!)) return at(g.name, -1, 0, recorded.game[g.index]!, replayed.game[g.index]!);
  }
  return runs(privateFields, recorded.private, replayed.private, 'private.');
}

const hex = (lo: number, hi: number) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');

type MutableReport = { -readonly [K in Exclude<keyof ReplayReport, 'faults'>]: ReplayReport[K] } & { faults: { recorded: number; replayed: number; unexpected: string | null } };

/**
 * A recording made again, tick by tick, on this simulation's world: the headless replay runs it to its end in
 * one go; a playback (worker/playback.ts) runs one recorded tick per live tick, published and drawn. `live`:
 * the recorded tick rate and time scale (and their changes) also pace the live loop.
 */
export class ReplayRun<S extends Schema> {
  readonly report: MutableReport;
  readonly #records: RecordEntry[];
  #next = 0;
  readonly #layout: Layout;
  readonly #block: Float32Array;
  readonly #privateFields: ReadonlyArray<{ readonly name: string; readonly width: number }>;
  readonly #traps = new Traps();
  readonly #head: RecordingHead;
  readonly #input = new RecordedInput();
  readonly #info: { -readonly [K in keyof TickInfo<S>]: TickInfo<S>[K] };
  readonly #hash = new Uint32Array(2);
  readonly #digest: EventDigest;
  #tick: number;
  #simMs: number;
  #rate: number;
  #scale: number;
  #lastAt: number | null = null;
  /** restart('last') puts back the last published state: kept only if the recording has one. */
  readonly #keepsLast: boolean;
  #last: WorldState | null = null;
  readonly #lastRandom: Uint32Array;

  constructor(
    private readonly state: SimulationState<S>,
    private readonly a: Attached<S>,
    bytes: Uint8Array,
    private readonly live: boolean,
  ) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('steadyframe: a recording is a Uint8Array (what stopRecording() returned, or a .sfr file read whole)');
    const reader = new ByteReader(bytes);
    const head = (this.#head = readHeadFor(state, a, reader, 'recording'));
    this.#records = [...readRecords(reader)];
    this.#layout = a.views.layout;
    this.#block = a.block;
    this.#privateFields = Object.entries(state.definition.privateFields ?? {}).map(([name, { width }]) => ({ name, width }));
    this.report = {
      ticks: 0,
      complete: false,
      matched: true,
      mismatches: 0,
      firstDivergence: null,
      difference: null,
      nondeterminism: this.#traps.counts,
      faults: { recorded: 0, replayed: 0, unexpected: null },
      ms: 0,
    };
    const info = { tick: 0, dt: 0, time: 0, at: 0, previousAt: 0, input: this.#input, random: state.random.next, emit: NO_EMIT, emitPayload: NO_EMIT, rewind: rewindOf(state.rewind) };
    // the steps' events, digested to compare with the recording's; a live playback also hands them to the page,
    // stamped with the live tick being published (runTick's), a headless replay to none
    this.#digest = new EventDigest();
    Object.assign(info, tickEmitters(live ? state.tickInfo! : info, live ? a.transport.events : null, true, { current: this.#digest }));
    this.#info = info;
    this.#tick = head.startTick;
    this.#simMs = head.startSimMs;
    this.#rate = head.tickRate;
    this.#scale = head.timeScale;
    this.#keepsLast = this.#records.some((r) => r.type === RECORD.RESTART && r.from === 'last');
    this.#lastRandom = new Uint32Array(4);
    this.#begin();
  }

  /** The recorded start: `init` again (for the state a simulation keeps outside its world), then the world exactly as recorded. */
  #begin(): void {
    const { state, a } = this;
    const head = this.#head;
    state.setup = head.setup === undefined ? undefined : JSON.parse(head.setup);
    state.seed = head.seed;
    // the history is made again from the recording's states, at their recorded times, as the live run made it
    state.rewind?.reset();
    if (head.fromInit) {
      this.#init(this.#tick);
      this.#compare(head.start, this.#tick, true);
    }
    loadHead(state, a, head);
    this.#retime();
    if (this.#keepsLast) this.#keepLast();
  }

  /**
   * Runs the records up to and including the next tick that was published; false at the end of the recording
   * or where it cannot go on (a step threw in one run and not the other: what follows was made from another world).
   */
  next(): boolean {
    const { state, a, report } = this;
    const world = a.world;
    while (this.#next < this.#records.length) {
      const record = this.#records[this.#next++]!;
      switch (record.type) {
        case RECORD.TICK: {
          const previousAt = record.previousAt ?? this.#lastAt;
          const at: number | null = record.at ?? (this.#lastAt === null ? null : this.#lastAt + tickLengthMs(this.#rate, this.#scale));
          if (previousAt === null || at === null) throw new RecordingError(`tick ${this.#tick + 1} of the recording has no time: the recording is damaged`);
          const info = this.#info;
          const dt = 1 / this.#rate;
          info.tick = this.#tick + 1;
          info.dt = dt;
          info.time = (this.#simMs + dt * 1000) / 1000;
          info.at = at;
          info.previousAt = previousAt;
          this.#input.events = record.events;
          this.#input.previousAt = previousAt;
          let threw: unknown = null;
          this.#digest.reset();
          this.#traps.install(info.tick);
          // the state the step starts from, at its recorded time: the live run kept the same one (runTick)
          state.rewind?.begin(previousAt, world.world.count);
          try {
            state.definition.step(world.world, info);
          } catch (error) {
            threw = error;
          } finally {
            state.rewind?.end();
            this.#traps.uninstall();
          }
          // a live step that threw: its events go with its tick (runTick abandons only its own steps' throws)
          if (threw !== null && this.live) this.a.transport.events?.abandon();
          if (record.threw) report.faults.recorded++;
          if (threw !== null) report.faults.replayed++;
          if (record.threw !== (threw !== null)) {
            report.matched = false;
            report.faults.unexpected ??= record.threw
              ? `the step of tick ${info.tick} threw when it was recorded and not in the replay`
              : `the step of tick ${info.tick} threw in the replay and not when it was recorded: ${threw instanceof Error ? threw.message : String(threw)}`;
            this.#next = this.#records.length;
            return false;
          }
          if (record.threw) break; // not published: the tick is made again after the restart
          this.#tick++;
          this.#simMs += dt * 1000;
          this.#lastAt = at;
          state.simTime = this.#simMs;
          report.ticks++;
          hashState(this.#layout, this.#block, world.world.count, this.#hash);
          if (this.#hash[0] !== record.hashLo || this.#hash[1] !== record.hashHi) this.#diverged(this.#tick, hex(record.hashLo, record.hashHi), hex(this.#hash[0]!, this.#hash[1]!));
          this.#compareEvents(record.emitted);
          if (this.#keepsLast) this.#keepLast();
          // a keyframe right after is compared with this tick's state
          const keyframe = this.#records[this.#next];
          if (keyframe?.type === RECORD.KEYFRAME) {
            this.#next++;
            this.#compare(keyframe.state, this.#tick, false);
          }
          return true;
        }
        case RECORD.KEYFRAME:
          this.#compare(record.state, this.#tick, false);
          break;
        case RECORD.RATE:
          this.#rate = record.value;
          this.#retime();
          break;
        case RECORD.SCALE:
          this.#scale = record.value;
          this.#retime();
          break;
        case RECORD.RESTART:
          this.#lastAt = null;
          if (record.from === 'scratch') {
            state.rewind?.reset(); // as the live restart's publish did (runTick with no step)
            this.#init(this.#tick);
            this.#simMs = 0;
            this.#tick++; // the fresh world is published as a tick of its own
          } else {
            world.load(this.#last!); // the state last published: on screen already, nothing to snap
            state.random.restore(this.#lastRandom);
          }
          state.simTime = this.#simMs;
          break;
      }
    }
    this.report.complete = this.report.faults.unexpected === null;
    return false;
  }

  #init(tick: number): void {
    const { state, a } = this;
    a.world.clear();
    state.random.seed(this.#head.seed);
    this.#traps.install(tick);
    try {
      runInit(state, a.world, { clock: a.clock, random: state.random.next });
    } finally {
      this.#traps.uninstall();
    }
  }

  #keepLast(): void {
    this.#last = liveState(this.#layout, this.#block, this.a.world.world.count, this.a.world.privateLive());
    this.#lastRandom.set(this.state.random.state);
  }

  /** A live run paces its loop at the recorded tick rate and time scale. */
  #retime(): void {
    if (!this.live) return;
    const state = this.state;
    state.tickRate = this.#rate;
    state.timeScale = this.#scale;
    repin(this.a, state.tickLength);
  }

  /** The events this tick's step emitted against the recorded digest: a difference names them as a field's would. */
  #compareEvents(recorded: { count: number; lo: number; hi: number } | null): void {
    const digest = this.#digest;
    const count = digest.count;
    if (count === 0 && recorded === null) return;
    digest.finish(this.#hash);
    if (recorded !== null && recorded.count === count && recorded.lo === this.#hash[0] && recorded.hi === this.#hash[1]) return;
    const recordedHash = recorded === null ? hex(0, 0) : hex(recorded.lo, recorded.hi);
    this.#diverged(this.#tick, recordedHash, hex(this.#hash[0]!, this.#hash[1]!));
    // the events' count, or (the same count) their values, differ: reported as the field 'events' (entity -1)
    this.report.difference ??= { tick: this.#tick, entity: -1, field: 'events', component: 0, recorded: recorded?.count ?? 0, replayed: count };
  }

  #diverged(tick: number, recorded: string, replayed: string): void {
    this.report.matched = false;
    this.report.mismatches++;
    this.report.firstDivergence ??= { tick, recordedHash: recorded, replayedHash: replayed };
  }

  /** Against a recorded state: after init (no generations: a fresh world's and a cleared one's differ), or a keyframe. */
  #compare(recorded: WorldState, tick: number, afterInit: boolean): void {
    if (this.report.difference !== null) return;
    const world = this.a.world;
    const replayed = liveState(this.#layout, this.#block, world.world.count, afterInit ? world.privateLive() : new Float32Array(0));
    const difference = firstDifference(this.#layout, afterInit ? this.#privateFields : [], recorded, replayed, tick, !afterInit);
    if (difference === null) return;
    this.report.matched = false;
    this.report.difference = difference;
  }
}

/** Replays a recording on a held simulation, to its end, as fast as the CPU goes; publishes nothing. */
export function replayRecording<S extends Schema>(state: SimulationState<S>, a: Attached<S>, bytes: Uint8Array): ReplayReport {
  if (state.status === STATUS.RUNNING) throw new Error('steadyframe: replay() runs on a held simulation: stop() it first, or replay on a runtime that was never started');
  if (state.recorder !== null) throw new Error('steadyframe: replay() while recording; stopRecording() first');
  const started = performance.now();
  const run = new ReplayRun(state, a, bytes, false);
  while (run.next());
  run.report.ms = performance.now() - started;
  return run.report;
}
