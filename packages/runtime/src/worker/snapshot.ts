/**
 * Snapshots (`runtime.snapshot()` / `restore()`): the whole simulation between two ticks, as the head of a
 * recording with no records (core/recording.ts): the world's live entities (published and private fields,
 * generations), the generator's state, the seed and setup, the tick rate and time scale, the simulated time,
 * and the simulation's own state outside the world (its definition's `save()`). A recording's head is the same
 * snapshot, taken where the recording starts: that is how a replay starts mid-session.
 */
import { ByteReader, ByteWriter, liveState, readHead, RecordingError, writeHead, type RecordingHead } from '../core/recording.ts';
import { STATUS } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { checkTickRate, checkTimeScale } from './definition.ts';
import { repin } from './retime.ts';
import type { Attached, SimulationState } from './state.ts';
import { runTick } from './tick.ts';

/** The simulation as it stands, as a recording's head. */
export function headOf<S extends Schema>(state: SimulationState<S>, a: Attached<S>, keyframeEvery: number): RecordingHead {
  let setup: string | undefined;
  if (state.setup !== undefined) {
    try {
      setup = JSON.stringify(state.setup);
    } catch (error) {
      throw new TypeError(`steadyframe: a recording or snapshot keeps the setup as JSON, and this one is not JSON (${(error as Error).message}): give a setup of numbers, strings, arrays and plain objects`, { cause: error });
    }
  }
  const own = state.definition.save?.();
  if (own !== undefined && !(own instanceof Uint8Array)) throw new TypeError(`steadyframe: the simulation's save() must return a Uint8Array; it returned ${Object.prototype.toString.call(own)}`);
  const { layout } = a.views;
  const block = a.block;
  const start = liveState(layout, block, a.world.world.count, a.world.privateLive());
  // every slot's generation, the dead ones' too: a later spawn bumps the one its slot holds
  start.generations = new Uint32Array(block.buffer, block.byteOffset + layout.generationOffset, layout.capacity).slice();
  return {
    fromInit: state.stepsSinceInit === 0,
    signature: layout.signature,
    capacity: layout.capacity,
    seed: state.seed,
    tickRate: state.tickRate,
    timeScale: state.timeScale,
    startTick: a.timeline.tick,
    startSimMs: state.simTime,
    generator: state.random.state.slice(),
    payloadWidth: a.transport.input?.layout.payloadWidth ?? 0,
    keyframeEvery,
    setup,
    start,
    own: own?.slice(),
  };
}

export function takeSnapshot<S extends Schema>(state: SimulationState<S>, a: Attached<S>): Uint8Array {
  const out = new ByteWriter();
  writeHead(out, headOf(state, a, 0));
  return out.finish();
}

/** A snapshot's or recording's head, read from `reader` and checked against this simulation (its schema, capacity and own state). */
export function readHeadFor<S extends Schema>(state: SimulationState<S>, a: Attached<S>, reader: ByteReader, what: 'snapshot' | 'recording'): RecordingHead {
  const head = readHead(reader);
  const { layout } = a.views;
  if (head.signature !== layout.signature) throw new RecordingError(`the ${what}'s schema is "${head.signature}", this simulation's is "${layout.signature}": use the worker module it was made with`);
  if (head.capacity !== layout.capacity) throw new RecordingError(`the ${what} was made at capacity ${head.capacity}, this runtime has ${layout.capacity}: create it with capacity ${head.capacity}`);
  const loads = state.definition.load !== undefined;
  if (head.own !== undefined && !loads) throw new RecordingError('it holds the simulation\'s own state (its save()), and this simulation has no load(): use the worker module it was made with');
  if (head.own === undefined && loads && !head.fromInit) throw new RecordingError('it was made mid-session by a simulation without save(), and this one keeps state outside the world (it has load()): it cannot be put back whole');
  return head;
}

/** Makes a head's state the simulation's: the world, the simulation's own state (its `load`), the generator. */
export function loadHead<S extends Schema>(state: SimulationState<S>, a: Attached<S>, head: RecordingHead): void {
  a.world.load(head.start);
  if (head.own !== undefined) state.definition.load!(head.own);
  state.random.restore(head.generator);
}

/**
 * Puts a snapshot back: held afterwards (call start), published as a tick of its own with every entity snapping
 * to it. Tick numbers go on, as after a restart; the simulated time, the generator, the seed, the setup, the
 * tick rate and the time scale are the snapshot's.
 */
export function restoreSnapshot<S extends Schema>(state: SimulationState<S>, a: Attached<S>, bytes: Uint8Array): void {
  if (state.recorder !== null) throw new Error('steadyframe: restore() while recording; stopRecording() first');
  if (!(bytes instanceof Uint8Array)) throw new TypeError('steadyframe: restore() takes the snapshot as a Uint8Array (what snapshot() returned, or a file read whole)');
  const head = readHeadFor(state, a, new ByteReader(bytes), 'snapshot');
  checkTickRate(head.tickRate);
  checkTimeScale(head.timeScale);
  state.generation++;
  state.error = null;
  state.setStatus(STATUS.IDLE);
  // events staged for ticks the page never got (publishes skipped for a reader stall) go with those ticks
  a.transport.events?.abandon();
  loadHead(state, a, head);
  state.seed = head.seed;
  state.setup = head.setup === undefined ? undefined : JSON.parse(head.setup);
  state.simTime = head.startSimMs;
  state.stepsSinceInit = head.fromInit ? 0 : 1;
  state.tickRate = head.tickRate;
  state.timeScale = head.timeScale;
  repin(a, state.tickLength);
  // every entity snaps to it; the generations stay the snapshot's (what the ticks after it make depends on them)
  runTick(state, a, false, Number.NEGATIVE_INFINITY, true);
}
