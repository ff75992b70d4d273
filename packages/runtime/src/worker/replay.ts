/**
 * Replays a recording (core/recording.ts) through this worker's simulation, as fast as the CPU goes: the
 * recorded setup, seed and start state, then each tick's step with its recorded times and input events, its
 * state hashed and held against the recorded hash, each keyframe compared value by value. Runs on a held
 * simulation (never started, or stopped), on its own world; publishes nothing.
 *
 * ```text
 *  head ── from init: clear, seed, init(setup) ── compare with the recorded start state
 *       └─ else: load the start state, the generator's state
 *  TICK      step(world, { tick, dt, time, at, previousAt, input: the recorded events, random }) ── hash ── compare
 *  KEYFRAME  compare every live value: the first difference is named (tick, entity, field, component, both values)
 *  RATE, SCALE, RESTART   as the running simulation did them
 * ```
 *
 * While the replay runs (to its end, on this thread), `Math.random`, `Date.now` and `performance.now` are
 * wrapped: they still answer, and each call `init` or a step makes is counted with the first tick that made it
 * (what breaks a replay most often).
 */
import type { ReplayDifference, ReplayReport, ReplayTrap } from '../contracts/remote.ts';
import { STATUS, type Layout } from '../core/layout.ts';
import { ByteReader, hashState, liveState, readHead, readRecords, RECORD, RecordingError, type RecordedEvent, type WorldState } from '../core/recording.ts';
import type { Schema } from '../core/schema.ts';
import { runInit } from './attach.ts';
import { tickLengthMs, type TickInfo } from './definition.ts';
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
 * The platform's sources of difference, wrapped while a replay runs (it runs to its end on this thread: nothing
 * else calls them meanwhile): each call still answers, and is counted with the tick being made.
 */
class Traps {
  readonly counts: Record<TrapName, ReplayTrap> = { 'Math.random': { calls: 0, firstTick: null }, 'Date.now': { calls: 0, firstTick: null }, 'performance.now': { calls: 0, firstTick: null } };
  /** The tick whose init or step is running. */
  tick = 0;
  readonly #random = Math.random;
  readonly #dateNow = Date.now;
  readonly #perfNow = performance.now;
  readonly #own = Object.getOwnPropertyDescriptor(performance, 'now');

  install(): void {
    const random = this.#random;
    const dateNow = this.#dateNow;
    const perfNow = this.#perfNow;
    Math.random = () => (this.#count('Math.random'), random());
    Date.now = () => (this.#count('Date.now'), dateNow());
    performance.now = () => (this.#count('performance.now'), perfNow.call(performance));
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
    trap.firstTick ??= this.tick;
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
  return runs(privateFields, recorded.private, replayed.private, 'private.');
}

const hex = (lo: number, hi: number) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');

export function replayRecording<S extends Schema>(state: SimulationState<S>, a: Attached<S>, bytes: Uint8Array): ReplayReport {
  if (state.status === STATUS.RUNNING) throw new Error('steadyframe: replay() runs on a held simulation: stop() it first, or replay on a runtime that was never started');
  if (state.recorder !== null) throw new Error('steadyframe: replay() while recording; stopRecording() first');
  if (!(bytes instanceof Uint8Array)) throw new TypeError('steadyframe: replay() takes the recording as a Uint8Array (what stopRecording() returned, or a .sfr file read whole)');
  const started = performance.now();
  const reader = new ByteReader(bytes);
  const head = readHead(reader);
  const layout = a.views.layout;
  if (head.signature !== layout.signature) throw new RecordingError(`the recording's schema is "${head.signature}", this simulation's is "${layout.signature}": replay it with the worker module it was recorded with`);
  if (head.capacity !== layout.capacity) throw new RecordingError(`the recording was made at capacity ${head.capacity}, this runtime has ${layout.capacity}: create it with capacity ${head.capacity}`);
  const records = [...readRecords(reader)];
  const world = a.world;
  const block = new Float32Array(a.views.buffer, layout.worldOffset, layout.blockBytes / 4);
  const privateFields = Object.entries(state.definition.privateFields ?? {}).map(([name, { width }]) => ({ name, width }));
  const traps = new Traps();
  const report = {
    ticks: 0,
    matched: true,
    mismatches: 0,
    firstDivergence: null as ReplayReport['firstDivergence'],
    difference: null as ReplayDifference | null,
    nondeterminism: traps.counts,
    faults: { recorded: 0, replayed: 0, unexpected: null as string | null },
    ms: 0,
  };
  const diverged = (tick: number, recorded: string, replayed: string): void => {
    report.matched = false;
    report.mismatches++;
    report.firstDivergence ??= { tick, recordedHash: recorded, replayedHash: replayed };
  };
  /** Against a recorded state: after init (no generations: a fresh world's and a cleared one's differ), or a keyframe. */
  const compare = (recorded: WorldState, tick: number, afterInit: boolean): void => {
    if (report.difference !== null) return;
    const replayed = liveState(layout, block, world.world.count, afterInit ? world.privateLive() : new Float32Array(0));
    const difference = firstDifference(layout, afterInit ? privateFields : [], recorded, replayed, tick, !afterInit);
    if (difference === null) return;
    report.matched = false;
    report.difference = difference;
  };
  const init = (tick: number): void => {
    world.clear();
    state.random.seed(head.seed);
    traps.tick = tick;
    runInit(state, world, { clock: a.clock, random: state.random.next });
  };

  /** Everything from the start state to the last record (returns early where the replay cannot go on). */
  const run = (): void => {
    state.setup = head.setup === undefined ? undefined : JSON.parse(head.setup);
    let tick = head.startTick;
    let simMs = head.startSimMs;
    let rate = head.tickRate;
    let scale = head.timeScale;
    if (head.fromInit) {
      // init again, for the state a simulation keeps outside its world; then the world exactly as recorded
      init(tick);
      compare(head.start, tick, true);
    }
    world.load(head.start);
    state.random.restore(head.generator);
    // restart('last') puts back the last published state: kept only if the recording has one
    const keepsLast = records.some((r) => r.type === RECORD.RESTART && r.from === 'last');
    let last: WorldState | null = keepsLast ? liveState(layout, block, world.world.count, world.privateLive()) : null;
    const lastRandom = state.random.state.slice();
    let lastAt: number | null = null;
    const input = new RecordedInput();
    const info: { -readonly [K in keyof TickInfo]: TickInfo[K] } = { tick: 0, dt: 0, time: 0, at: 0, previousAt: 0, input, random: state.random.next };
    const hash = new Uint32Array(2);
    for (const record of records) {
      switch (record.type) {
        case RECORD.TICK: {
          const previousAt = record.previousAt ?? lastAt;
          const at: number | null = record.at ?? (lastAt === null ? null : lastAt + tickLengthMs(rate, scale));
          if (previousAt === null || at === null) throw new RecordingError(`tick ${tick + 1} of the recording has no time: the recording is damaged`);
          const dt = 1 / rate;
          info.tick = tick + 1;
          info.dt = dt;
          info.time = (simMs + dt * 1000) / 1000;
          info.at = at;
          info.previousAt = previousAt;
          input.events = record.events;
          input.previousAt = previousAt;
          let threw: unknown = null;
          traps.tick = info.tick;
          try {
            state.definition.step(world.world, info);
          } catch (error) {
            threw = error;
          }
          if (record.threw) report.faults.recorded++;
          if (threw !== null) report.faults.replayed++;
          if (record.threw !== (threw !== null)) {
            report.matched = false;
            report.faults.unexpected ??= record.threw
              ? `the step of tick ${info.tick} threw when it was recorded and not in the replay`
              : `the step of tick ${info.tick} threw in the replay and not when it was recorded: ${threw instanceof Error ? threw.message : String(threw)}`;
            return; // what follows was recorded from another world
          }
          if (record.threw) break; // not published: the tick is made again after the restart
          tick++;
          simMs += dt * 1000;
          lastAt = at;
          report.ticks++;
          hashState(layout, block, world.world.count, hash);
          if (hash[0] !== record.hashLo || hash[1] !== record.hashHi) diverged(tick, hex(record.hashLo, record.hashHi), hex(hash[0]!, hash[1]!));
          if (keepsLast) {
            last = liveState(layout, block, world.world.count, world.privateLive());
            lastRandom.set(state.random.state);
          }
          break;
        }
        case RECORD.KEYFRAME:
          compare(record.state, tick, false);
          break;
        case RECORD.RATE:
          rate = record.value;
          break;
        case RECORD.SCALE:
          scale = record.value;
          break;
        case RECORD.RESTART:
          lastAt = null;
          if (record.from === 'scratch') {
            init(tick);
            simMs = 0;
            tick++; // the fresh world is published as a tick of its own
          } else {
            world.load(last!);
            state.random.restore(lastRandom);
          }
          break;
      }
    }
  };
  traps.install();
  try {
    run();
  } finally {
    traps.uninstall();
  }
  report.ms = performance.now() - started;
  return report;
}
