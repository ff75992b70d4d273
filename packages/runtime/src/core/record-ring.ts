/**
 * The one memory map of the library's record rings: a single-producer, single-consumer queue of fixed-size
 * Float64 records on a buffer of its own. Two rings use it, each with its own magic word and name: the input
 * ring (page -> worker, input-ring.ts) and the event ring (worker -> page, event-ring.ts). This module alone
 * decides where every word of a ring lives; each ring's module says who writes which word, and when.
 *
 * ```text
 *  byte 0    ┌─ header, Int32 words (64 B) ───────────────────────────────────────────────────────────┐
 *            │ 0 MAGIC  1 CAPACITY  2 PAYLOAD_WIDTH  3 WRITE  4 READ  5 REJECTED  6..15 reserved        │
 *  byte 64   ├─ records, capacity x (3 + payloadWidth) Float64 words ─────────────────────────────────┤
 *            │ record 0: STAMP CODE SEQUENCE P0 .. P(w-1) │ record 1: ... │ ... │ record capacity - 1   │
 *            └─────────────────────────────────────────────────────────────────────────────────────────┘
 *
 *  WRITE and READ are uint32 counts that only go up (mod 2^32); record n lives in record n & (capacity - 1).
 *
 *    READ                       WRITE
 *     │                           │
 *  ┌──▼──┬─────┬─────┬─────┬─────▼─────┬─────┬─────┐   unread = (WRITE - READ) >>> 0, 0 .. capacity
 *  │ old │ rec │ rec │ rec │ free      │ old │ old │   records [READ, WRITE): the consumer's, read-only
 *  └─────┴─────┴─────┴─────┴───────────┴─────┴─────┘   all others: the producer's, to fill
 * ```
 *
 * STAMP orders the records: the shared-clock ms of an input event, the tick of a game event.
 *
 * Why the plain Float64 record accesses never race (and so never tear): a record is owned by exactly one side at
 * a time, and ownership passes only through an Atomics store that the other side reads with an Atomics load. The
 * producer fills records at and past WRITE with plain stores, then Atomics.store(WRITE): the consumer's
 * Atomics.load of WRITE that sees it synchronizes with that store, so the stores happen-before its plain loads.
 * The consumer reads records with plain loads, then Atomics.store(READ): the producer writes a record again only
 * after an Atomics.load of READ has shown it freed, so the consumer's loads happen-before the producer's new
 * stores. Neither side ever touches a record the other owns (ECMAScript memory model: data-race free).
 */
import { MAX_BUFFER_BYTES } from './layout.ts';

/** Int32 header word indices. */
export const RING = {
  MAGIC: 0,
  CAPACITY: 1,
  PAYLOAD_WIDTH: 2,
  /** Records ever handed to the consumer, mod 2^32. Producer only; published with Atomics.store. */
  WRITE: 3,
  /** Records ever taken, mod 2^32. Consumer only; published with Atomics.store. */
  READ: 4,
  /** Records the producer refused because the ring was full, mod 2^32. Producer only. */
  REJECTED: 5,
} as const;
export const RING_HEADER_WORDS = 16;
/** Byte offset of record 0. */
export const RING_RECORDS_OFFSET = RING_HEADER_WORDS * Int32Array.BYTES_PER_ELEMENT; // 64

/** Float64 words of one record, relative to the record's first word. Payload value i is word PAYLOAD + i. */
export const RING_RECORD = {
  /** What orders the records, never less than the record before's: a time (input) or a tick (events). */
  STAMP: 0,
  /** The game's code. */
  CODE: 1,
  /** The producer's count of records before this one (does not wrap at 2^32). */
  SEQUENCE: 2,
  PAYLOAD: 3,
} as const;

/**
 * Writes a record's payload (`width` values from float64 `start` of `f64`): `p0`..`p3` first, 0 past them and
 * nothing past `width`. What both rings' producers do with four numbers. Allocates nothing.
 */
export function writePayload(f64: Float64Array, start: number, width: number, p0: number, p1: number, p2: number, p3: number): void {
  if (width > 0) f64[start] = p0;
  if (width > 1) f64[start + 1] = p1;
  if (width > 2) f64[start + 2] = p2;
  if (width > 3) f64[start + 3] = p3;
  for (let i = 4; i < width; i++) f64[start + i] = 0;
}

/** Writes a record's payload from an array: its first min(length, width) values, the rest 0. Allocates nothing. */
export function copyPayload(f64: Float64Array, start: number, width: number, payload: ArrayLike<number>): void {
  const n = payload.length < width ? payload.length : width;
  for (let i = 0; i < n; i++) f64[start + i] = payload[i]!;
  for (let i = n; i < width; i++) f64[start + i] = 0;
}

/** Largest capacity: keeps (WRITE - READ) >>> 0 unambiguous and the counters far from each other mod 2^32. */
export const MAX_RING_CAPACITY = 2 ** 30;

/** Which ring: its magic word and the name its errors use ("input ring", "event ring"). */
export interface RingKind {
  readonly magic: number;
  readonly name: string;
  /** The allocator to name in errors (`allocateInputRing`). */
  readonly allocator: string;
}

export interface RecordRingLayout {
  /** Records in the ring, a power of two. */
  readonly capacity: number;
  /** Float64 payload values per record. */
  readonly payloadWidth: number;
  /** Float64 words per record: 3 + payloadWidth. */
  readonly recordWords: number;
  /** Byte offset of record 0. */
  readonly recordsOffset: number;
  /** Bytes of the whole buffer. */
  readonly totalBytes: number;
}

const isPowerOfTwo = (n: number): boolean => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0 && n <= MAX_RING_CAPACITY;

function nextPowerOfTwo(n: number): number {
  let p = 2;
  while (p < n && p < MAX_RING_CAPACITY) p *= 2;
  return p;
}

/** Computes a ring's offsets and size. Pure; throws at set-up for a bad capacity or payload width. */
export function computeRingLayout(kind: RingKind, capacity: number, payloadWidth: number): RecordRingLayout {
  if (typeof capacity !== 'number' || !isPowerOfTwo(capacity) || capacity < 2) {
    const hint = typeof capacity === 'number' && Number.isFinite(capacity) ? ` (try ${nextPowerOfTwo(capacity)})` : '';
    throw new RangeError(
      `steadyframe: ${kind.name} capacity must be a power of two, at least 2 and at most ${MAX_RING_CAPACITY}; got ${String(capacity)}${hint}`,
    );
  }
  if (typeof payloadWidth !== 'number' || !Number.isInteger(payloadWidth) || payloadWidth < 0) {
    throw new RangeError(
      `steadyframe: ${kind.name} payload width must be a whole number of float64 values per event, 0 or more; got ${String(payloadWidth)}`,
    );
  }
  const recordWords = RING_RECORD.PAYLOAD + payloadWidth;
  const totalBytes = RING_RECORDS_OFFSET + capacity * recordWords * Float64Array.BYTES_PER_ELEMENT;
  if (totalBytes > MAX_BUFFER_BYTES) {
    throw new RangeError(
      `steadyframe: an ${kind.name} of ${capacity} events with ${payloadWidth} payload values needs ${totalBytes} bytes, more than the ${MAX_BUFFER_BYTES} a browser will give; lower the capacity or the payload width`,
    );
  }
  return { capacity, payloadWidth, recordWords, recordsOffset: RING_RECORDS_OFFSET, totalBytes };
}

/**
 * Allocates and initialises an empty ring: shared, or plain for a ring whose two ends live on one thread (the
 * message transport's). Allocates; call once at set-up.
 */
export function allocateRing(kind: RingKind, capacity: number, payloadWidth: number, shared: boolean): ArrayBufferLike {
  const layout = computeRingLayout(kind, capacity, payloadWidth);
  let buffer: ArrayBufferLike;
  try {
    buffer = shared ? new SharedArrayBuffer(layout.totalBytes) : new ArrayBuffer(layout.totalBytes);
  } catch (cause) {
    throw new RangeError(
      `steadyframe: could not allocate ${layout.totalBytes} bytes of shared memory for an ${kind.name} of ${capacity} events; lower the capacity (or check that the page is cross-origin isolated)`,
      { cause },
    );
  }
  const i32 = new Int32Array(buffer, 0, RING_HEADER_WORDS);
  i32[RING.MAGIC] = kind.magic;
  i32[RING.CAPACITY] = capacity;
  i32[RING.PAYLOAD_WIDTH] = payloadWidth;
  // WRITE, READ and REJECTED start at 0: the buffer is zeroed
  return buffer;
}

/** Checks a buffer made by `allocateRing` for `kind` and returns its layout. Throws at set-up. */
export function readRingLayout(kind: RingKind, buffer: ArrayBufferLike): RecordRingLayout {
  if (buffer.byteLength < RING_RECORDS_OFFSET) {
    throw new TypeError(`steadyframe: this buffer (${buffer.byteLength} bytes) is too small to be an ${kind.name}; make it with ${kind.allocator}`);
  }
  const i32 = new Int32Array(buffer, 0, RING_HEADER_WORDS);
  if (i32[RING.MAGIC] !== kind.magic) {
    throw new TypeError(`steadyframe: this SharedArrayBuffer is not an ${kind.name} (bad magic word); make it with ${kind.allocator}`);
  }
  const layout = computeRingLayout(kind, i32[RING.CAPACITY]!, i32[RING.PAYLOAD_WIDTH]!);
  if (buffer.byteLength !== layout.totalBytes) {
    throw new RangeError(
      `steadyframe: ${kind.name} buffer has ${buffer.byteLength} bytes but its header says ${layout.capacity} events of ${layout.payloadWidth} payload values, ${layout.totalBytes} bytes; make it with ${kind.allocator}`,
    );
  }
  return layout;
}
