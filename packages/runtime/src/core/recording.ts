/**
 * A recorded session (`.sfr`, ARCHITECTURE.md, "Record and replay"): everything a simulation's ticks depend on,
 * so that its worker module replays them bit for bit, and a 64-bit hash of each tick's published state to prove
 * it did. Pure: the worker's recorder writes it (worker/recorder.ts), the replay reads it (worker/replay.ts).
 *
 * ```text
 *  head     magic "SFR1", version, flags (bit 0: from init, bit 1: the simulation's own state follows),
 *           the schema's signature, capacity, seed, tick rate, time scale, start tick, start simulated ms, the
 *           generator's state, input payload width, keyframe interval, setup (JSON), the start state (published
 *           fields, generations, private fields, game fields), [the simulation's own state: its `save()` bytes]
 *  records  one byte of type, then:
 *    TICK      flags (bit 0: tick time given, bit 1: previous time given, bit 2: the step threw), [at f64],
 *              [previousAt f64], event count u16, each event (time, code, sequence as f64, a width u8, payload
 *              f64 × width), then (unless it threw) the state's hash: lo u32, hi u32, then (bit 3: the step
 *              emitted events) how many u32 and their digest: lo u32, hi u32
 *    KEYFRAME  the state after the tick before (fields and generations of the live entities, the game fields)
 *    RATE      ticks a second f64 (from the next tick on)        SCALE   time scale f64
 *    RESTART   0 'last', 1 'scratch'
 * ```
 *
 * A tick's time is left out when it is the previous tick's time plus the tick length (the common case), and its
 * previous time when it is the last tick's time: a tick costs 12 bytes and its events. Little-endian throughout.
 * A head alone, no records, is a snapshot (`runtime.snapshot()`, worker/snapshot.ts): a recording of no ticks.
 * Version 2 added the game fields to every state (a version 1 recording reads with none).
 */
import type { Layout } from './layout.ts';
import { defineSchema, type FieldSpec, type Schema } from './schema.ts';

export const RECORDING_MAGIC = 0x31524653; // "SFR1"
export const RECORDING_VERSION = 2;
/** The oldest version this steadyframe reads. */
const OLDEST_VERSION = 1;
export const RECORD = { TICK: 1, KEYFRAME: 2, RATE: 3, SCALE: 4, RESTART: 5 } as const;
/** A TICK record's flags: its time given, its previous time given, its step threw (then no hash follows). */
export const TICK_FLAGS = { AT: 1, PREVIOUS: 2, THREW: 4, EMITTED: 8 } as const;

/**
 * Live entities of a world: each published field's run (count × width) in schema order, their generations (in
 * a head: every slot's, so the spawns after it bump the same ones), the private fields' runs.
 */
export interface WorldState {
  count: number;
  fields: Float32Array;
  generations: Uint32Array;
  private: Float32Array;
  /** The game fields (`scope: 'game'`), in schema order. */
  game: Float64Array;
}

export interface RecordingHead {
  /** Recorded from the state `init` made (tick 0 or a restart from scratch, no step since): a replay runs `init`. */
  readonly fromInit: boolean;
  readonly signature: string;
  readonly capacity: number;
  readonly seed: number;
  readonly tickRate: number;
  readonly timeScale: number;
  readonly startTick: number;
  readonly startSimMs: number;
  readonly generator: Uint32Array;
  readonly payloadWidth: number;
  readonly keyframeEvery: number;
  /** `createRuntime`'s setup as JSON (undefined: none). */
  readonly setup: string | undefined;
  readonly start: WorldState;
  /** The simulation's own state outside the world at the start (its definition's `save()`); undefined: it has none. */
  readonly own: Uint8Array | undefined;
}

export interface RecordedEvent {
  time: number;
  code: number;
  sequence: number;
  payload: number[];
}

/** One record as the reader hands it over (reused: copy what you keep). */
export type RecordEntry =
  | {
      type: typeof RECORD.TICK;
      at: number | null;
      previousAt: number | null;
      threw: boolean;
      events: RecordedEvent[];
      hashLo: number;
      hashHi: number;
      /** The events the step emitted (`tick.emit`): how many and their digest (EventDigest); null for none. */
      emitted: { count: number; lo: number; hi: number } | null;
    }
  | { type: typeof RECORD.KEYFRAME; state: WorldState }
  | { type: typeof RECORD.RATE | typeof RECORD.SCALE; value: number }
  | { type: typeof RECORD.RESTART; from: 'last' | 'scratch' };

export class RecordingError extends Error {}

/** A growing little-endian byte buffer. */
export class ByteWriter {
  #bytes = new Uint8Array(1 << 16);
  #view = new DataView(this.#bytes.buffer);
  length = 0;

  #room(n: number): DataView {
    if (this.length + n > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + n));
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
      this.#view = new DataView(grown.buffer);
    }
    return this.#view;
  }

  u8(x: number): void {
    this.#room(1).setUint8(this.length, x);
    this.length += 1;
  }
  u16(x: number): void {
    this.#room(2).setUint16(this.length, x, true);
    this.length += 2;
  }
  u32(x: number): void {
    this.#room(4).setUint32(this.length, x, true);
    this.length += 4;
  }
  f64(x: number): void {
    this.#room(8).setFloat64(this.length, x, true);
    this.length += 8;
  }
  /** A length (u32) and the bytes. */
  bytes(data: Uint8Array): void {
    this.u32(data.byteLength);
    this.#room(data.byteLength);
    this.#bytes.set(data, this.length);
    this.length += data.byteLength;
  }
  string(s: string): void {
    this.bytes(new TextEncoder().encode(s));
  }
  /** The words of a typed array (a length, then its bytes). */
  words(data: Float32Array | Uint32Array | Float64Array): void {
    this.bytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  /** A copy of what was written. */
  finish(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

/** Reads what ByteWriter wrote; a read past the end throws RecordingError (a truncated file). */
export class ByteReader {
  readonly #view: DataView;
  at = 0;
  /** The version of the recording being read (its head says; `readHead` sets it). */
  version = RECORDING_VERSION;

  constructor(readonly data: Uint8Array) {
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get done(): boolean {
    return this.at >= this.data.byteLength;
  }
  #take(n: number): number {
    const at = this.at;
    if (at + n > this.data.byteLength) throw new RecordingError(`the recording ends mid-record (at byte ${at} of ${this.data.byteLength}): it is truncated`);
    this.at += n;
    return at;
  }
  u8(): number {
    return this.#view.getUint8(this.#take(1));
  }
  u16(): number {
    return this.#view.getUint16(this.#take(2), true);
  }
  u32(): number {
    return this.#view.getUint32(this.#take(4), true);
  }
  f64(): number {
    return this.#view.getFloat64(this.#take(8), true);
  }
  bytes(): Uint8Array {
    const n = this.u32();
    const at = this.#take(n);
    return this.data.slice(at, at + n);
  }
  string(): string {
    return new TextDecoder().decode(this.bytes());
  }
  f32s(): Float32Array {
    const b = this.bytes();
    if (b.byteLength % 4 !== 0) throw new RecordingError('a float run of the recording is not whole floats');
    return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
  f64s(): Float64Array {
    const b = this.bytes();
    if (b.byteLength % 8 !== 0) throw new RecordingError('a float64 run of the recording is not whole float64s');
    return new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
  }
  u32s(): Uint32Array {
    const b = this.bytes();
    if (b.byteLength % 4 !== 0) throw new RecordingError('a word run of the recording is not whole words');
    return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
}

export function writeWorldState(w: ByteWriter, state: WorldState): void {
  w.u32(state.count);
  w.words(state.fields);
  w.words(state.generations);
  w.words(state.private);
  w.words(state.game);
}

export function readWorldState(r: ByteReader): WorldState {
  return { count: r.u32(), fields: r.f32s(), generations: r.u32s(), private: r.f32s(), game: r.version >= 2 ? r.f64s() : new Float64Array(0) };
}

export function writeHead(w: ByteWriter, head: RecordingHead): void {
  w.u32(RECORDING_MAGIC);
  w.u8(RECORDING_VERSION);
  w.u8((head.fromInit ? 1 : 0) | (head.own === undefined ? 0 : 2));
  w.string(head.signature);
  w.u32(head.capacity);
  w.u32(head.seed);
  w.f64(head.tickRate);
  w.f64(head.timeScale);
  w.f64(head.startTick);
  w.f64(head.startSimMs);
  w.words(head.generator);
  w.u32(head.payloadWidth);
  w.u32(head.keyframeEvery);
  w.u8(head.setup === undefined ? 0 : 1);
  if (head.setup !== undefined) w.string(head.setup);
  writeWorldState(w, head.start);
  if (head.own !== undefined) w.bytes(head.own);
}

export function readHead(r: ByteReader): RecordingHead {
  if (r.data.byteLength < 6 || r.u32() !== RECORDING_MAGIC) throw new RecordingError('not a steadyframe recording (no "SFR1" at its start)');
  const version = r.u8();
  if (version < OLDEST_VERSION || version > RECORDING_VERSION) {
    throw new RecordingError(`a recording of version ${version}; this steadyframe reads versions ${OLDEST_VERSION} to ${RECORDING_VERSION}`);
  }
  r.version = version;
  const flags = r.u8();
  const signature = r.string();
  const capacity = r.u32();
  const seed = r.u32();
  const tickRate = r.f64();
  const timeScale = r.f64();
  const startTick = r.f64();
  const startSimMs = r.f64();
  const generator = r.u32s();
  if (generator.length !== 4) throw new RecordingError('the recording\'s generator state is not four words');
  const payloadWidth = r.u32();
  const keyframeEvery = r.u32();
  const setup = r.u8() === 1 ? r.string() : undefined;
  const start = readWorldState(r);
  const own = (flags & 2) !== 0 ? r.bytes() : undefined;
  return { fromInit: (flags & 1) !== 0, signature, capacity, seed, tickRate, timeScale, startTick, startSimMs, generator, payloadWidth, keyframeEvery, setup, start, own };
}

/** Reads the records after the head, one at a time. */
export function* readRecords(r: ByteReader): Generator<RecordEntry> {
  while (!r.done) {
    const type = r.u8();
    switch (type) {
      case RECORD.TICK: {
        const flags = r.u8();
        const at = (flags & TICK_FLAGS.AT) !== 0 ? r.f64() : null;
        const previousAt = (flags & TICK_FLAGS.PREVIOUS) !== 0 ? r.f64() : null;
        const threw = (flags & TICK_FLAGS.THREW) !== 0;
        const n = r.u16();
        const events: RecordedEvent[] = [];
        for (let i = 0; i < n; i++) {
          const time = r.f64();
          const code = r.f64();
          const sequence = r.f64();
          const width = r.u8();
          const payload = Array.from({ length: width }, () => r.f64());
          events.push({ time, code, sequence, payload });
        }
        const hashLo = threw ? 0 : r.u32();
        const hashHi = threw ? 0 : r.u32();
        const emitted = !threw && (flags & TICK_FLAGS.EMITTED) !== 0 ? { count: r.u32(), lo: r.u32(), hi: r.u32() } : null;
        yield { type, at, previousAt, threw, events, hashLo, hashHi, emitted };
        break;
      }
      case RECORD.KEYFRAME:
        yield { type, state: readWorldState(r) };
        break;
      case RECORD.RATE:
      case RECORD.SCALE:
        yield { type, value: r.f64() };
        break;
      case RECORD.RESTART:
        yield { type, from: r.u8() === 1 ? 'scratch' : 'last' };
        break;
      default:
        throw new RecordingError(`a record of unknown type ${type} at byte ${r.at - 1}: the recording is damaged`);
    }
  }
}

/** The live entities' published fields and generations of a block laid out by `layout`, as a WorldState (no private fields). */
export function liveState(layout: Layout, block: Float32Array, count: number, privateRuns: Float32Array = new Float32Array(0)): WorldState {
  const fields = new Float32Array(layout.fields.reduce((n, f) => n + f.width * count, 0));
  let at = 0;
  for (const f of layout.fields) {
    fields.set(block.subarray(f.offset / 4, f.offset / 4 + f.width * count), at);
    at += f.width * count;
  }
  const generations = new Uint32Array(block.buffer, block.byteOffset + layout.generationOffset, count).slice();
  const game = new Float64Array(block.buffer, block.byteOffset + layout.gameOffset, layout.game.length).slice();
  return { count, fields, generations, private: privateRuns, game };
}

/**
 * The 64-bit hash of a state's live part (count, each field's live run, the generations, the game fields, as
 * their float64s' words; a schema without game fields hashes as before they were): two 32-bit lanes,
 * MurmurHash3's block mix and an FNV-1a-like multiply, each word's bits as they are (NaNs and -0 included).
 */
export function hashState(layout: Layout, block: Float32Array, count: number, out: Uint32Array): void {
  const words = new Uint32Array(block.buffer, block.byteOffset, block.length);
  let h1 = 0x9747b28c ^ count;
  let h2 = 0x811c9dc5 ^ Math.imul(count, 0x01000193);
  const runs = layout.fields.length;
  const game = layout.game.length;
  for (let r = 0; r <= runs + (game > 0 ? 1 : 0); r++) {
    // each field's live run, then the generations, then the game run
    const start = r < runs ? layout.fields[r]!.offset / 4 : r === runs ? layout.generationOffset / 4 : layout.gameOffset / 4;
    const end = start + (r < runs ? layout.fields[r]!.width * count : r === runs ? count : 2 * game);
    for (let i = start; i < end; i++) {
      const w = words[i]!;
      let k = Math.imul(w, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      h1 ^= Math.imul(k, 0x1b873593);
      h1 = (h1 << 13) | (h1 >>> 19);
      h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
      h2 = Math.imul(h2 ^ w, 0x01000193) ^ (h2 >>> 15);
    }
  }
  out[0] = fmix(h1 ^ h2) >>> 0;
  out[1] = fmix(h2 + Math.imul(h1, 0x85ebca6b)) >>> 0;
}

/** MurmurHash3's finaliser: the last mix of a 32-bit lane (hashState's, EventDigest's). */
export function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The schema a signature (`schemaSignature`: `name:kind:width>velocity;...`) was made from. */
export function schemaFromSignature(signature: string): Schema {
  const schema: Record<string, FieldSpec> = {};
  for (const part of signature.split(';')) {
    const table = /^([^:;>]+):table:(\d+):([^:;>]+)$/.exec(part);
    if (table !== null) {
      schema[table[1]!] = { kind: 'none', scope: 'game', table: { capacity: Number(table[2]), fields: table[3]!.split(',') } } as FieldSpec;
      continue;
    }
    const game = /^([^:;>]+):(linear|angle|none):game$/.exec(part);
    if (game !== null) {
      schema[game[1]!] = { kind: game[2], scope: 'game' } as FieldSpec;
      continue;
    }
    const match = /^([^:;>]+):(linear|angle|quaternion|none):(\d+)(?:>([^:;>]+))?$/.exec(part);
    if (match === null) throw new RecordingError(`the recording's schema signature "${signature}" cannot be read (at "${part}")`);
    const [, name, kind, width, velocity] = match;
    schema[name!] = { kind, width: Number(width), ...(velocity === undefined ? {} : { velocity }) } as FieldSpec;
  }
  return defineSchema(schema);
}
