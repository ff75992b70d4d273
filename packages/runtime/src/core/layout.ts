/**
 * The memory map. This module alone decides where every shared word and field lives; everything else asks it.
 *
 * ```text
 *  byte 0    ┌─ header, Int32 words (64 B) ───────────────────────────────────────────────────────────┐
 *            │ 0 MAGIC  1 LOCK  2 STATE_INDEX  3 PUBLISH_SEQ  4 FRAME_SEQ  5 STATUS  6 CAPACITY         │
 *            │ 7 FIELD_COUNT  8 OVERLOADS  9 NEXT_FRAME_LO  10 NEXT_FRAME_HI  11 HEARTBEAT  12 PLAN_SEQ     │
 *            │ 13 COVERED_LO  14 COVERED_HI  15 READER_STALLS                                           │
 *  byte 64   ├─ header, Float64 words (64 B) ─────────────────────────────────────────────────────────┤
 *            │ 0 CLOCK_ANCHOR  1..7 reserved                                                            │
 *  byte 128  ├─ slot 0 meta (16 x Float64) ───────────┬─ slot 1 meta (16 x Float64) ─────────────────────┤
 *            │ PREV_TICK CUR_TICK PREV_TIME CUR_TIME   │ (same words)                                    │
 *            │ COUNT SIM_TIME SCALE PREV_COUNT SNAPS   │                                                 │
 *            │ INPUTS_THROUGH  6 reserved              │                                                 │
 *  byte 384  ├─ slot 0 ───────────────────────────────┴─────────────┬─ slot 1 ──────────────────────────┤
 *            │ previous_state[0] block │ current_state[0] block      │ previous_state[1] │ current_state[1] │
 *  + 4 blocks├─ world (1 block) ────────────────────────────────────────────────────────────────────────┤
 *            │ the worker's private world, laid out like a block: only the worker reads or writes it     │
 *            └─────────────────────────────────────────────────────────────────────────────────────────┘
 *
 *  a block, structure of arrays, one run per schema field, each run 64-byte aligned:
 *    ┌ field 0: capacity * width0 float32 ┬ pad ┬ field 1: capacity * width1 float32 ┬ pad ┬ ... ┬ generation ┬ pad ┬ game ┐
 *    entity i, component c of a field of width w is element i * w + c of that field's run
 *    generation: capacity uint32, bumped by the simulation when entity i must not be blended this tick
 *    (spawn, despawn, teleport): where previous and current generation differ, the renderer snaps
 *    game: one float64 per game field (`scope: 'game'`), in schema order; absent (0 bytes) without game fields
 * ```
 *
 * Who writes what, and when (ARCHITECTURE.md has the full argument):
 * - LOCK: both threads, only through Atomics (0 free, 1 reader holds it, 2 writer holds it, 3 reader holds
 *   it and the writer waits: the release hands it over).
 * - STATE_INDEX, PUBLISH_SEQ, slot meta and slot blocks: the worker only. It writes the back slot
 *   (1 - STATE_INDEX) outside the lock and changes STATE_INDEX only while holding the lock.
 * - The world block: the worker only (its `init` and `step` write it; a publish copies from it). The main
 *   thread never touches it.
 * - FRAME_SEQ and NEXT_FRAME_LO/HI: the main thread only, all through Atomics, as a sequence lock (odd
 *   while the two halves are written).
 *   FRAME_SEQ doubles as the worker's doorbell: the worker sleeps on it with Atomics.waitAsync / wait.
 * - PLAN_SEQ and COVERED_LO/HI: the worker only, all through Atomics, as a sequence lock: how far its states
 *   reach while it sleeps (-Infinity while awake), so the main thread rings the doorbell only when needed.
 * - STATUS, OVERLOADS, HEARTBEAT, READER_STALLS: the worker, through Atomics.
 * - MAGIC, CAPACITY, FIELD_COUNT, CLOCK_ANCHOR: written once by the main thread before the worker sees the buffer.
 */
import { storeFloat64 } from './float64-words.ts';
import type { Quantize } from './quantize.ts';
import { isGameField, isTableCount, schemaSignature, validateSchema, type FieldViews, type InterpolationKind, type Schema } from './schema.ts';

/** Bytes of alignment for every field run, block and slot: one cache line, and enough for any SIMD load. */
export const ALIGN = 64;
/** 'SFR3': marks a buffer laid out by this module, version 3 (2 had no READER_STALLS; 1 no PLAN_SEQ / COVERED). */
export const MAGIC = 0x53465233;

/** Int32 header word indices. */
export const I32 = {
  MAGIC: 0,
  LOCK: 1,
  STATE_INDEX: 2,
  PUBLISH_SEQ: 3,
  FRAME_SEQ: 4,
  STATUS: 5,
  CAPACITY: 6,
  FIELD_COUNT: 7,
  /** Times the worker dropped backlog; the main thread raises an 'overload' event when it changes. */
  OVERLOADS: 8,
  /** NEXT_FRAME, a float64 as two Int32 halves written and read with Atomics under the FRAME_SEQ sequence. */
  NEXT_FRAME_LO: 9,
  NEXT_FRAME_HI: 10,
  /**
   * Bumped by the worker every HEARTBEAT_MS (a host timer), on every tick, and every slice of a wait for a lock
   * the page holds: the main thread notices a worker that stops.
   */
  HEARTBEAT: 11,
  /**
   * A sequence lock over COVERED, which only the worker writes: odd while it rewrites the halves. COVERED (a
   * float64 as two Int32 halves, Atomics) is the newest state's time, written just before the worker sleeps,
   * and -Infinity again soon after it wakes (a stale value is harmless: a waiter compares against FRAME_SEQ
   * itself): a frame at or before it needs no wake-up (see doorbell.ts, `frameNeedsWake`).
   */
  PLAN_SEQ: 12,
  COVERED_LO: 13,
  COVERED_HI: 14,
  /**
   * Times the worker gave up a publish or restamp because the page held LOCK past READER_STALL_MS (slot-writer.ts):
   * the page's fault, reported to it (a `readerStall` event) while the worker goes on beating.
   */
  READER_STALLS: 15,
} as const;
const I32_WORDS = 16;

/** Float64 header word indices (into a Float64Array over the whole buffer). */
export const F64 = {
  CLOCK_ANCHOR: 8,
} as const;

/** Float64 words of one slot's meta record, relative to `slotMetaIndex(slot)`. */
export const META = {
  /** Tick numbers of the previous and current state. */
  PREV_TICK: 0,
  CUR_TICK: 1,
  /** Shared-clock ms those states stand for. */
  PREV_TIME: 2,
  CUR_TIME: 3,
  /** Live entities in the current state. */
  COUNT: 4,
  /** Simulated ms since tick 0 at the current state. */
  SIM_TIME: 5,
  /** Simulated ms per shared-clock ms (the time scale) when the current state was made. */
  SCALE: 6,
  /** Live entities in the previous state: entities at or past it were spawned this tick and snap. */
  PREV_COUNT: 7,
  /** Entities the simulation marked to snap this tick; 0 lets the renderer skip its snap pass. */
  SNAPS: 8,
  /** One past the input ring sequence of the last event a tick up to this state consumed (0 before any; net/input-ledger.ts). */
  INPUTS_THROUGH: 9,
} as const;
export const META_WORDS = 16;

/**
 * LOCK values. READER_WAKE_WRITER: the reader holds the lock and the writer waits for it, so the reader's
 * release hands the lock to the writer (LOCK = WRITER) and notifies it. Only the one writer ever sets
 * WRITER, so a LOCK of WRITER seen by the waiting writer is its own.
 */
export const LOCK = { FREE: 0, READER: 1, WRITER: 2, READER_WAKE_WRITER: 3 } as const;

/** STATUS values, as the worker publishes them. */
export const STATUS = { IDLE: 0, RUNNING: 1, PAUSED: 2, STOPPED: 3, FAULTED: 4 } as const;
export type StatusCode = (typeof STATUS)[keyof typeof STATUS];
/** STATUS's codes by name: what `stats().worker.status` and the adapter's `statusOf` report. */
export const STATUS_NAMES = {
  [STATUS.IDLE]: 'idle',
  [STATUS.RUNNING]: 'running',
  [STATUS.PAUSED]: 'paused',
  [STATUS.STOPPED]: 'stopped',
  [STATUS.FAULTED]: 'faulted',
} as const;

const HEADER_BYTES = I32_WORDS * 4 + 8 * 8; // 128
const META_BYTES = 2 * META_WORDS * 8; // 256
/** Byte offset of slot 0's previous_state block. */
export const DATA_OFFSET = HEADER_BYTES + META_BYTES; // 384

/** Largest buffer we will try to allocate. Browsers refuse larger SharedArrayBuffers well before 4 GiB. */
export const MAX_BUFFER_BYTES = 2 ** 31 - ALIGN;

export interface FieldLayout {
  readonly name: string;
  readonly kind: InterpolationKind;
  readonly width: number;
  /** Byte offset of this field's run from the start of its block. */
  readonly offset: number;
  /** float32 elements in the run: capacity * width. */
  readonly length: number;
  /** How it travels on the network wire (core/quantize.ts); undefined: as its float32 bits. */
  readonly quantize: Quantize | undefined;
}

/** A game field (`scope: 'game'`): one float64 of a block's game run. */
export interface GameFieldLayout {
  readonly name: string;
  readonly kind: InterpolationKind;
  /** Its index in the game run (a Float64Array over it). */
  readonly index: number;
  /** A table's count (`$` and the table's name): a frame takes the current state's, whatever its alpha. */
  readonly current: boolean;
}

/**
 * One entity table of a schema made by `defineTables` (tables.ts): a range of the entity indices, entities
 * `base .. base + capacity - 1`, whose live ones are the first `count` (its count field in the game run).
 */
export interface TableLayout {
  readonly name: string;
  /** The table's first entity index. */
  readonly base: number;
  readonly capacity: number;
  /** The table's fields (a subset of the layout's), in schema order. */
  readonly fields: readonly FieldLayout[];
  /** The game-run index of its count. */
  readonly countIndex: number;
}

export interface Layout {
  readonly capacity: number;
  /** The per-entity fields, in schema order. */
  readonly fields: readonly FieldLayout[];
  /** The game fields, in schema order (none: an empty list, and no game run); the tables' counts among them. */
  readonly game: readonly GameFieldLayout[];
  /** The entity tables in schema order (`defineTables`), their ranges one after another; none for a plain schema. */
  readonly tables: readonly TableLayout[];
  /** Byte offset of the game run (float64s) from the start of a block; the block's end when there is none. */
  readonly gameOffset: number;
  /** Byte offset of the per-entity uint32 generation run from the start of a block. */
  readonly generationOffset: number;
  readonly signature: string;
  /** Bytes of one block (one of previous_state[b] or current_state[b]). */
  readonly blockBytes: number;
  /**
   * Byte offset of the worker's world block, after the four slot blocks: the simulation's private state, laid
   * out like a block, in the same buffer so that a publish copies within one buffer (publish-copy.ts). Only
   * the worker ever touches it.
   */
  readonly worldOffset: number;
  /** Bytes of the whole shared buffer. */
  readonly totalBytes: number;
}

const alignUp = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;

/** Computes every offset from the schema and capacity. Pure; throws at set-up for a bad schema or capacity. */
export function computeLayout(schema: Schema, capacity: number): Layout {
  validateSchema(schema);
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(`steadyframe: capacity must be a whole number of entities, at least 1; got ${String(capacity)}`);
  }
  let offset = 0;
  const fields: FieldLayout[] = [];
  const game: GameFieldLayout[] = [];
  const tables: { name: string; base: number; capacity: number; fieldNames: readonly string[]; countIndex: number }[] = [];
  let tableBase = 0;
  for (const name of Object.keys(schema)) {
    const spec = schema[name]!;
    if (isGameField(spec)) {
      if (isTableCount(spec)) {
        tables.push({ name: name.slice(1), base: tableBase, capacity: spec.table.capacity, fieldNames: spec.table.fields, countIndex: game.length });
        tableBase += spec.table.capacity;
      }
      game.push({ name, kind: spec.kind, index: game.length, current: isTableCount(spec) });
      continue;
    }
    const { kind, width } = spec;
    const length = capacity * width;
    fields.push({ name, kind, width, offset, length, quantize: spec.quantize });
    offset = alignUp(offset + length * Float32Array.BYTES_PER_ELEMENT);
  }
  if (tables.length > 0 && tableBase !== capacity) {
    throw new RangeError(`steadyframe: the tables' capacities add up to ${tableBase}, not the capacity ${capacity}; pass tablesCapacity(schema), or leave capacity out where it may be`);
  }
  const tableLayouts: TableLayout[] = tables.map(({ fieldNames, ...table }) => ({ ...table, fields: fields.filter((f) => fieldNames.includes(f.name)) }));
  const generationOffset = offset;
  const gameOffset = alignUp(generationOffset + capacity * Uint32Array.BYTES_PER_ELEMENT);
  const blockBytes = gameOffset + alignUp(game.length * Float64Array.BYTES_PER_ELEMENT);
  const worldOffset = DATA_OFFSET + 4 * blockBytes;
  const totalBytes = worldOffset + blockBytes;
  if (totalBytes > MAX_BUFFER_BYTES) {
    throw new RangeError(
      `steadyframe: capacity ${capacity} needs ${totalBytes} bytes of shared memory, more than the ${MAX_BUFFER_BYTES} a browser will give; lower the capacity or narrow the schema`,
    );
  }
  return { capacity, fields, game, tables: tableLayouts, gameOffset, generationOffset, signature: schemaSignature(schema), blockBytes, worldOffset, totalBytes };
}

/** Byte offset of a block: slot `slot` (0 or 1), `previous` or `current`. */
export function blockOffset(layout: Layout, slot: number, which: 'previous' | 'current'): number {
  return DATA_OFFSET + (2 * slot + (which === 'current' ? 1 : 0)) * layout.blockBytes;
}

/** Index of a slot's meta record in a Float64Array over the whole buffer. */
export function slotMetaIndex(slot: number): number {
  return HEADER_BYTES / 8 + slot * META_WORDS;
}

/**
 * Allocates and initialises a shared buffer for `layout`. The clock anchor is the shared clock's zero,
 * in `performance.timeOrigin + performance.now()` terms (see clock.ts). Allocates; call once at set-up.
 */
export function allocateSharedBuffer(layout: Layout, clockAnchor: number): SharedArrayBuffer {
  return allocateStateBuffer(layout, clockAnchor, true) as SharedArrayBuffer;
}

/**
 * The same layout in shared memory, or (`shared` false: the worker's own copy when the page is not cross-origin
 * isolated, see message-transport.ts) in a plain ArrayBuffer. Allocates; call once at set-up.
 */
export function allocateStateBuffer(layout: Layout, clockAnchor: number, shared: boolean): ArrayBufferLike {
  let buffer: ArrayBufferLike;
  try {
    buffer = shared ? new SharedArrayBuffer(layout.totalBytes) : new ArrayBuffer(layout.totalBytes);
  } catch (cause) {
    throw new RangeError(
      `steadyframe: could not allocate ${layout.totalBytes} bytes of shared memory for capacity ${layout.capacity}; lower the capacity`,
      { cause },
    );
  }
  return initStateBuffer(buffer, layout, clockAnchor);
}

/**
 * Writes the header of a fresh buffer for `layout`; the buffer may be larger than the layout (a WebAssembly
 * memory, in whole 64 KiB pages, with the blend kernels' scratch after the layout). Returns the buffer.
 */
export function initStateBuffer<B extends ArrayBufferLike>(buffer: B, layout: Layout, clockAnchor: number): B {
  const i32 = new Int32Array(buffer, 0, I32_WORDS);
  const f64 = new Float64Array(buffer, 0, DATA_OFFSET / 8);
  i32[I32.MAGIC] = MAGIC;
  i32[I32.CAPACITY] = layout.capacity;
  i32[I32.FIELD_COUNT] = layout.fields.length;
  i32[I32.STATUS] = STATUS.IDLE;
  // no sleep plan (COVERED = -Infinity): every frame wakes the worker until it publishes one
  storeFloat64(i32, I32.COVERED_LO, Number.NEGATIVE_INFINITY);
  f64[F64.CLOCK_ANCHOR] = clockAnchor;
  return buffer;
}

/** Typed views over one shared buffer. Build once per thread; the hot path only indexes them. */
export interface SharedViews<S extends Schema> {
  readonly buffer: ArrayBufferLike;
  readonly layout: Layout;
  /** The Int32 header words, for Atomics. */
  readonly i32: Int32Array;
  /** The Float64 header and slot meta words. */
  readonly f64: Float64Array;
  /** `slots[b].previous` / `slots[b].current`: field views of previous_state[b] and current_state[b]. */
  readonly slots: readonly [SlotViews<S>, SlotViews<S>];
  /** Each block as raw float32s, for whole-block copies. */
  readonly blocks: readonly [{ previous: Float32Array; current: Float32Array }, { previous: Float32Array; current: Float32Array }];
}

/**
 * One published pair of states, as a reader sees it: the front slot of the shared buffer, or (without
 * cross-origin isolation) the last two states the worker sent.
 */
export interface StatePair<S extends Schema> {
  readonly previous: FieldViews<S>;
  readonly current: FieldViews<S>;
  /** Per-entity generations of the previous and current state; an entity whose two differ snaps. */
  readonly previousGeneration: Uint32Array;
  readonly currentGeneration: Uint32Array;
  /** The two whole blocks, for copies. */
  readonly previousBlock: Float32Array;
  readonly currentBlock: Float32Array;
  /** The game fields of the previous and current state (`layout.game` order; empty without game fields). */
  readonly previousGame: Float64Array;
  readonly currentGame: Float64Array;
  /** The pair's meta record: `metaWords[META.CUR_TIME]` and so on. */
  readonly metaWords: Float64Array;
}

export interface SlotViews<S extends Schema> extends StatePair<S> {
  readonly index: 0 | 1;
  /** Index of this slot's meta record in `f64`. */
  readonly meta: number;
}

/** Field views laid over a block at `byteOffset` of `buffer` (shared or not). */
export function fieldViews<S extends Schema>(buffer: ArrayBufferLike, byteOffset: number, layout: Layout): FieldViews<S> {
  const views: Record<string, Float32Array> = {};
  for (const field of layout.fields) {
    views[field.name] = new Float32Array(buffer, byteOffset + field.offset, field.length);
  }
  return views as FieldViews<S>;
}

/** The game run of a block at `byteOffset` of `buffer`: one float64 per game field (empty without any). */
export function gameView(buffer: ArrayBufferLike, byteOffset: number, layout: Layout): Float64Array {
  return new Float64Array(buffer, byteOffset + layout.gameOffset, layout.game.length);
}

/** The generation run of a block at `byteOffset` of `buffer`. */
export function generationView(buffer: ArrayBufferLike, byteOffset: number, layout: Layout): Uint32Array {
  return new Uint32Array(buffer, byteOffset + layout.generationOffset, layout.capacity);
}

/** Views over a buffer made by `allocateSharedBuffer`; checks that it was made for this schema and capacity. */
export function createSharedViews<S extends Schema>(buffer: ArrayBufferLike, schema: S, capacity: number): SharedViews<S> {
  const layout = computeLayout(schema, capacity);
  if (buffer.byteLength < layout.totalBytes) {
    throw new RangeError(
      `steadyframe: shared buffer has ${buffer.byteLength} bytes but schema "${layout.signature}" at capacity ${capacity} needs ${layout.totalBytes}; both threads must use the same schema and capacity`,
    );
  }
  const i32 = new Int32Array(buffer, 0, I32_WORDS);
  if (i32[I32.MAGIC] !== MAGIC) {
    throw new TypeError('steadyframe: this SharedArrayBuffer was not made by steadyframe (bad magic word)');
  }
  if (i32[I32.CAPACITY] !== capacity) {
    throw new RangeError(
      `steadyframe: shared buffer was made for capacity ${i32[I32.CAPACITY]}, not ${capacity}; both threads must use the same schema and capacity`,
    );
  }
  const f64 = new Float64Array(buffer, 0, DATA_OFFSET / 8);
  const slot = (b: 0 | 1): SlotViews<S> => ({
    index: b,
    previous: fieldViews<S>(buffer, blockOffset(layout, b, 'previous'), layout),
    current: fieldViews<S>(buffer, blockOffset(layout, b, 'current'), layout),
    previousGeneration: generationView(buffer, blockOffset(layout, b, 'previous'), layout),
    currentGeneration: generationView(buffer, blockOffset(layout, b, 'current'), layout),
    previousBlock: new Float32Array(buffer, blockOffset(layout, b, 'previous'), layout.blockBytes / 4),
    currentBlock: new Float32Array(buffer, blockOffset(layout, b, 'current'), layout.blockBytes / 4),
    previousGame: gameView(buffer, blockOffset(layout, b, 'previous'), layout),
    currentGame: gameView(buffer, blockOffset(layout, b, 'current'), layout),
    metaWords: new Float64Array(buffer, slotMetaIndex(b) * 8, META_WORDS),
    meta: slotMetaIndex(b),
  });
  const block = (b: 0 | 1) => ({
    previous: new Float32Array(buffer, blockOffset(layout, b, 'previous'), layout.blockBytes / 4),
    current: new Float32Array(buffer, blockOffset(layout, b, 'current'), layout.blockBytes / 4),
  });
  return { buffer, layout, i32, f64, slots: [slot(0), slot(1)], blocks: [block(0), block(1)] };
}
