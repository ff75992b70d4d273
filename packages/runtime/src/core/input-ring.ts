/**
 * The input ring: a single-producer, single-consumer queue of input events on its own SharedArrayBuffer. The
 * main thread pushes (keys, pointer moves, stamped with the shared clock); the simulation worker takes, each
 * tick, every event up to that tick's time. This module alone decides where every word of the ring lives.
 *
 * ```text
 *  byte 0    ┌─ header, Int32 words (64 B) ───────────────────────────────────────────────────────────┐
 *            │ 0 MAGIC  1 CAPACITY  2 PAYLOAD_WIDTH  3 WRITE  4 READ  5 REJECTED  6..15 reserved        │
 *  byte 64   ├─ records, capacity x (3 + payloadWidth) Float64 words ─────────────────────────────────┤
 *            │ record 0: TIME CODE SEQUENCE P0 .. P(w-1) │ record 1: ... │ ... │ record capacity - 1   │
 *            └─────────────────────────────────────────────────────────────────────────────────────────┘
 *
 *  WRITE and READ are uint32 counts that only go up (mod 2^32); event n lives in record n & (capacity - 1).
 *
 *    READ                       WRITE
 *     │                           │
 *  ┌──▼──┬─────┬─────┬─────┬─────▼─────┬─────┬─────┐   unread = (WRITE - READ) >>> 0, 0 .. capacity
 *  │ old │ ev  │ ev  │ ev  │ free      │ old │ old │   records [READ, WRITE): the consumer's, read-only
 *  └─────┴─────┴─────┴─────┴───────────┴─────┴─────┘   all others: the producer's, to fill
 * ```
 *
 * Who writes what, and when:
 * - MAGIC, CAPACITY, PAYLOAD_WIDTH: `allocateInputRing`, once, before either side sees the buffer.
 * - WRITE, REJECTED and records outside [READ, WRITE): the producer (`InputWriter`) only.
 * - READ: the consumer (`InputReader`) only. Records in [READ, WRITE) are read by the consumer only.
 *
 * Why the plain Float64 record accesses never race (and so never tear): a record is owned by exactly one side at
 * a time, and ownership passes only through an Atomics store that the other side reads with an Atomics load.
 * The producer fills record WRITE & mask with plain stores, then Atomics.store(WRITE + 1): the consumer's
 * Atomics.load of WRITE that sees it synchronizes with that store, so the stores happen-before its plain loads.
 * The consumer reads records with plain loads, then Atomics.store(READ): the producer writes a record again only
 * after an Atomics.load of READ has shown it freed, so the consumer's loads happen-before the producer's new
 * stores. Neither side ever touches a record the other owns (ECMAScript memory model: data-race free).
 *
 * The producer is input-writer.ts, the consumer input-reader.ts. Neither side ever blocks: a full ring makes `push` return false (and counts it in REJECTED), it never
 * overwrites or waits; an empty ring makes `take` return 0. There is no doorbell: the worker takes input once
 * per tick, on the wake-ups it already has.
 */
import { MAX_BUFFER_BYTES } from './layout.ts';

/** 'SFI1': marks a buffer laid out as an input ring, version 1. */
export const INPUT_RING_MAGIC = 0x53464931;

/** Int32 header word indices. */
export const INPUT_RING = {
  MAGIC: 0,
  CAPACITY: 1,
  PAYLOAD_WIDTH: 2,
  /** Events ever accepted, mod 2^32. Producer only; published with Atomics.store. */
  WRITE: 3,
  /** Events ever taken, mod 2^32. Consumer only; published with Atomics.store. */
  READ: 4,
  /** Pushes refused because the ring was full, mod 2^32. Producer only. */
  REJECTED: 5,
} as const;
export const INPUT_HEADER_WORDS = 16;
/** Byte offset of record 0. */
export const INPUT_RECORDS_OFFSET = INPUT_HEADER_WORDS * Int32Array.BYTES_PER_ELEMENT; // 64

/** Float64 words of one record, relative to the record's first word. Payload value i is word PAYLOAD + i. */
export const RECORD = {
  /** Shared-clock ms; never less than the previous record's time. */
  TIME: 0,
  /** The game's event code. */
  CODE: 1,
  /** The producer's count of accepted events before this one (does not wrap at 2^32). */
  SEQUENCE: 2,
  PAYLOAD: 3,
} as const;

/** Largest capacity: keeps (WRITE - READ) >>> 0 unambiguous and the counters far from each other mod 2^32. */
export const MAX_INPUT_RING_CAPACITY = 2 ** 30;

export interface InputRingLayout {
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

const isPowerOfTwo = (n: number): boolean => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0 && n <= 2 ** 30;

function nextPowerOfTwo(n: number): number {
  let p = 2;
  while (p < n && p < MAX_INPUT_RING_CAPACITY) p *= 2;
  return p;
}

/** Computes the ring's offsets and size. Pure; throws at set-up for a bad capacity or payload width. */
export function computeInputRingLayout(capacity: number, payloadWidth: number): InputRingLayout {
  if (typeof capacity !== 'number' || !isPowerOfTwo(capacity) || capacity < 2) {
    const hint = typeof capacity === 'number' && Number.isFinite(capacity) ? ` (try ${nextPowerOfTwo(capacity)})` : '';
    throw new RangeError(
      `steadyframe: input ring capacity must be a power of two, at least 2 and at most ${MAX_INPUT_RING_CAPACITY}; got ${String(capacity)}${hint}`,
    );
  }
  if (typeof payloadWidth !== 'number' || !Number.isInteger(payloadWidth) || payloadWidth < 0) {
    throw new RangeError(
      `steadyframe: input ring payload width must be a whole number of float64 values per event, 0 or more; got ${String(payloadWidth)}`,
    );
  }
  const recordWords = RECORD.PAYLOAD + payloadWidth;
  const totalBytes = INPUT_RECORDS_OFFSET + capacity * recordWords * Float64Array.BYTES_PER_ELEMENT;
  if (totalBytes > MAX_BUFFER_BYTES) {
    throw new RangeError(
      `steadyframe: an input ring of ${capacity} events with ${payloadWidth} payload values needs ${totalBytes} bytes, more than the ${MAX_BUFFER_BYTES} a browser will give; lower the capacity or the payload width`,
    );
  }
  return { capacity, payloadWidth, recordWords, recordsOffset: INPUT_RECORDS_OFFSET, totalBytes };
}

/**
 * Allocates and initialises an empty input ring. Hand the buffer to the worker (postMessage or a comlink call)
 * before pushing; both sides then wrap it: `new InputWriter(buffer)` on the page, `new InputReader(buffer)` in the
 * worker. Allocates; call once at set-up.
 */
export function allocateInputRing(capacity: number, payloadWidth = 4, shared = true): ArrayBufferLike {
  const layout = computeInputRingLayout(capacity, payloadWidth);
  let buffer: ArrayBufferLike;
  try {
    // a plain buffer serves a ring whose two ends live on one thread (the message transport's)
    buffer = shared ? new SharedArrayBuffer(layout.totalBytes) : new ArrayBuffer(layout.totalBytes);
  } catch (cause) {
    throw new RangeError(
      `steadyframe: could not allocate ${layout.totalBytes} bytes of shared memory for an input ring of ${capacity} events; lower the capacity (or check that the page is cross-origin isolated)`,
      { cause },
    );
  }
  const i32 = new Int32Array(buffer, 0, INPUT_HEADER_WORDS);
  i32[INPUT_RING.MAGIC] = INPUT_RING_MAGIC;
  i32[INPUT_RING.CAPACITY] = capacity;
  i32[INPUT_RING.PAYLOAD_WIDTH] = payloadWidth;
  // WRITE, READ and REJECTED start at 0: the buffer is zeroed
  return buffer;
}

/** Checks a buffer made by `allocateInputRing` and returns its layout. Throws at set-up. */
export function readInputRingLayout(buffer: ArrayBufferLike): InputRingLayout {
  if (buffer.byteLength < INPUT_RECORDS_OFFSET) {
    throw new TypeError(
      `steadyframe: this buffer (${buffer.byteLength} bytes) is too small to be an input ring; make it with allocateInputRing`,
    );
  }
  const i32 = new Int32Array(buffer, 0, INPUT_HEADER_WORDS);
  if (i32[INPUT_RING.MAGIC] !== INPUT_RING_MAGIC) {
    throw new TypeError('steadyframe: this SharedArrayBuffer is not an input ring (bad magic word); make it with allocateInputRing');
  }
  const layout = computeInputRingLayout(i32[INPUT_RING.CAPACITY]!, i32[INPUT_RING.PAYLOAD_WIDTH]!);
  if (buffer.byteLength !== layout.totalBytes) {
    throw new RangeError(
      `steadyframe: input ring buffer has ${buffer.byteLength} bytes but its header says ${layout.capacity} events of ${layout.payloadWidth} payload values, ${layout.totalBytes} bytes; make it with allocateInputRing`,
    );
  }
  return layout;
}
