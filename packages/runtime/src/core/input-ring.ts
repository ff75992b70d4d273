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
 * Neither side ever blocks: a full ring makes `push` return false (and counts it in REJECTED), it never
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
const HEADER_WORDS = 16;
/** Byte offset of record 0. */
export const INPUT_RECORDS_OFFSET = HEADER_WORDS * Int32Array.BYTES_PER_ELEMENT; // 64

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
  const i32 = new Int32Array(buffer, 0, HEADER_WORDS);
  i32[INPUT_RING.MAGIC] = INPUT_RING_MAGIC;
  i32[INPUT_RING.CAPACITY] = capacity;
  i32[INPUT_RING.PAYLOAD_WIDTH] = payloadWidth;
  // WRITE, READ and REJECTED start at 0: the buffer is zeroed
  return buffer;
}

/** Checks a buffer made by `allocateInputRing` and returns its layout. Throws at set-up. */
function readLayout(buffer: ArrayBufferLike): InputRingLayout {
  if (buffer.byteLength < INPUT_RECORDS_OFFSET) {
    throw new TypeError(
      `steadyframe: this buffer (${buffer.byteLength} bytes) is too small to be an input ring; make it with allocateInputRing`,
    );
  }
  const i32 = new Int32Array(buffer, 0, HEADER_WORDS);
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

/**
 * The producer's side, on the main thread. Exactly one writer per ring. Never blocks, never allocates, never
 * throws after construction.
 */
export class InputWriter {
  readonly layout: InputRingLayout;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #mask: number;
  readonly #width: number;
  readonly #stride: number;
  /** Our own WRITE count (we are its only writer), as a uint32. */
  #write: number;
  /** READ as we last loaded it; the consumer may have moved it on since, never back. */
  #read: number;
  /** Sequence number of the next accepted event; a plain number, so it keeps counting past 2^32. */
  #sequence: number;
  /** Time of the last accepted event: later pushes are clamped up to it. */
  #lastTime = -Infinity;

  constructor(readonly buffer: ArrayBufferLike) {
    this.layout = readLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, HEADER_WORDS);
    this.#f64 = new Float64Array(buffer, INPUT_RECORDS_OFFSET, this.layout.capacity * this.layout.recordWords);
    this.#mask = this.layout.capacity - 1;
    this.#width = this.layout.payloadWidth;
    this.#stride = this.layout.recordWords;
    this.#write = Atomics.load(this.#i32, INPUT_RING.WRITE) >>> 0;
    // acquire: the records the consumer has freed so far are ours to overwrite
    this.#read = Atomics.load(this.#i32, INPUT_RING.READ) >>> 0;
    this.#sequence = this.#write;
  }

  /**
   * Appends one event; returns true, or false when the ring is full. A full ring is never overwritten and the
   * call never waits: the event is refused, REJECTED counts it, and the caller decides (drop it, or keep it and
   * retry after the worker has drained some).
   *
   * `time` is shared-clock ms. Times never go backwards in the ring: a time earlier than the last accepted
   * event's (or NaN) is clamped up to it, so events stay in push order and `take(until)` stays a prefix.
   * `p0`..`p3` fill the first payload values (0 when left out); values beyond the payload width are ignored and
   * payload values past p3 are 0 (use `pushPayload` for wider payloads). Allocates nothing.
   */
  push(time: number, code: number, p0 = 0, p1 = 0, p2 = 0, p3 = 0): boolean {
    const base = this.#claim();
    if (base < 0) return false;
    const f64 = this.#f64;
    const width = this.#width;
    const payload = base + RECORD.PAYLOAD;
    if (width > 0) f64[payload] = p0;
    if (width > 1) f64[payload + 1] = p1;
    if (width > 2) f64[payload + 2] = p2;
    if (width > 3) f64[payload + 3] = p3;
    for (let i = 4; i < width; i++) f64[payload + i] = 0;
    this.#commit(base, time, code);
    return true;
  }

  /**
   * Like `push`, with the payload copied from `payload` (an array or typed array you reuse): the first
   * min(length, payloadWidth) values, the rest 0. Allocates nothing.
   */
  pushPayload(time: number, code: number, payload: ArrayLike<number>): boolean {
    const base = this.#claim();
    if (base < 0) return false;
    const f64 = this.#f64;
    const width = this.#width;
    const n = payload.length < width ? payload.length : width;
    const start = base + RECORD.PAYLOAD;
    for (let i = 0; i < n; i++) f64[start + i] = payload[i]!;
    for (let i = n; i < width; i++) f64[start + i] = 0;
    this.#commit(base, time, code);
    return true;
  }

  /**
   * Free records: how many pushes would succeed now. Can be early on the producer side: the worker may have
   * freed more since (it never frees fewer). Allocates nothing.
   */
  space(): number {
    // acquire: records the consumer has freed are ours again
    this.#read = Atomics.load(this.#i32, INPUT_RING.READ) >>> 0;
    return this.layout.capacity - ((this.#write - this.#read) >>> 0);
  }

  /** Pushes refused because the ring was full, since the ring was made (mod 2^32). */
  get rejected(): number {
    return Atomics.load(this.#i32, INPUT_RING.REJECTED) >>> 0;
  }

  /** The sequence number the next accepted event will carry. */
  get nextSequence(): number {
    return this.#sequence;
  }

  /** Index of the next free record's first word in #f64, or -1 (counted) when the ring is full. */
  #claim(): number {
    const write = this.#write;
    const capacity = this.layout.capacity;
    if (((write - this.#read) >>> 0) >= capacity) {
      // looks full on the cached READ: look again.
      // acquire: the consumer's loads of every record below the new READ are done, so we may overwrite them
      this.#read = Atomics.load(this.#i32, INPUT_RING.READ) >>> 0;
      if (((write - this.#read) >>> 0) >= capacity) {
        // only the producer writes REJECTED; Atomics so a reader in the worker sees a whole word
        Atomics.add(this.#i32, INPUT_RING.REJECTED, 1);
        return -1;
      }
    }
    return (write & this.#mask) * this.#stride;
  }

  #commit(base: number, time: number, code: number): void {
    const f64 = this.#f64;
    // clamp: an earlier time (or NaN, which compares false) becomes the last accepted time
    const t = time >= this.#lastTime ? time : this.#lastTime;
    this.#lastTime = t;
    f64[base + RECORD.TIME] = t;
    f64[base + RECORD.CODE] = code;
    f64[base + RECORD.SEQUENCE] = this.#sequence;
    this.#sequence++;
    this.#write = (this.#write + 1) >>> 0;
    // publish: the record written above with plain stores is the consumer's once it loads this WRITE
    Atomics.store(this.#i32, INPUT_RING.WRITE, this.#write | 0);
  }
}

/**
 * One event as `take` hands it to its visitor. The same object is reused for every event (nothing is
 * allocated per event) and it reads the ring's own memory: it is valid only during the callback. Copy out
 * what you keep.
 */
export interface InputEvent {
  /** Shared-clock ms, after the producer's clamp (never earlier than the event before it). */
  readonly time: number;
  /** The game's event code. */
  readonly code: number;
  /** The producer's count of accepted events before this one: consecutive events differ by exactly 1. */
  readonly sequence: number;
  /** Payload values per event (the ring's payload width). */
  readonly width: number;
  /** Payload value `i`, 0 <= i < width; NaN outside that range. */
  payload(i: number): number;
}

/** The visitor `take` calls for each event, in order. */
export type InputVisitor = (event: InputEvent) => void;

class RingEvent implements InputEvent {
  time = 0;
  code = 0;
  sequence = 0;
  /** Index of this event's first payload value in `f64`. */
  start = 0;
  constructor(
    private readonly f64: Float64Array,
    readonly width: number,
  ) {}
  payload(i: number): number {
    return i >= 0 && i < this.width ? this.f64[this.start + (i | 0)]! : NaN;
  }
}

/**
 * The consumer's side, in the simulation worker. Exactly one reader per ring. Never blocks, never throws after
 * construction (a visitor's own throw propagates, after the events handed over so far are freed).
 */
export class InputReader {
  readonly layout: InputRingLayout;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #mask: number;
  readonly #stride: number;
  readonly #event: RingEvent;
  /** Our own READ count (we are its only writer), as a uint32. */
  #read: number;

  constructor(readonly buffer: ArrayBufferLike) {
    this.layout = readLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, HEADER_WORDS);
    this.#f64 = new Float64Array(buffer, INPUT_RECORDS_OFFSET, this.layout.capacity * this.layout.recordWords);
    this.#mask = this.layout.capacity - 1;
    this.#stride = this.layout.recordWords;
    this.#event = new RingEvent(this.#f64, this.layout.payloadWidth);
    this.#read = Atomics.load(this.#i32, INPUT_RING.READ) >>> 0;
  }

  /**
   * Hands `visit`, in order, every event whose time is <= `until`, and stops at the first later one, which stays
   * in the ring for the next call. Returns how many it handed over. Events pushed while it runs may or may not be
   * included. The records are freed for the producer once `take` returns. Allocates nothing.
   *
   * ```text
   *  ring:  t=10 t=15 t=15 t=20 t=31      take(20, visit): visits 10, 15, 15, 20; returns 4; 31 stays
   * ```
   */
  take(until: number, visit: InputVisitor): number {
    const i32 = this.#i32;
    const f64 = this.#f64;
    const event = this.#event;
    const mask = this.#mask;
    const stride = this.#stride;
    // acquire: every record below this WRITE was fully written before the producer stored it
    const write = Atomics.load(i32, INPUT_RING.WRITE) >>> 0;
    const first = this.#read;
    let read = first;
    try {
      while (read !== write) {
        const base = (read & mask) * stride;
        const time = f64[base + RECORD.TIME]!;
        if (!(time <= until)) break;
        event.time = time;
        event.code = f64[base + RECORD.CODE]!;
        event.sequence = f64[base + RECORD.SEQUENCE]!;
        event.start = base + RECORD.PAYLOAD;
        read = (read + 1) >>> 0;
        visit(event);
      }
    } finally {
      if (read !== first) {
        this.#read = read;
        // release: we are done reading these records (the event view is dead); the producer may refill them
        Atomics.store(i32, INPUT_RING.READ, read | 0);
      }
    }
    return (read - first) >>> 0;
  }

  /**
   * Time of the oldest unread event, or +Infinity when the ring is empty. It can be late: an event pushed just
   * after the check is not seen. Allocates nothing.
   */
  peekTime(): number {
    // acquire: the record at READ is fully written if it is below WRITE
    const write = Atomics.load(this.#i32, INPUT_RING.WRITE) >>> 0;
    if (write === this.#read) return Infinity;
    return this.#f64[(this.#read & this.#mask) * this.#stride + RECORD.TIME]!;
  }

  /**
   * Unread events. Can be late on the reader side: the producer may have pushed more since (never fewer).
   * Allocates nothing.
   */
  available(): number {
    return (Atomics.load(this.#i32, INPUT_RING.WRITE) - this.#read) >>> 0;
  }

  /** Pushes the producer refused because the ring was full (mod 2^32). Can be late by the pushes in flight. */
  get rejected(): number {
    return Atomics.load(this.#i32, INPUT_RING.REJECTED) >>> 0;
  }

  /** Events taken so far (READ), mod 2^32: the message transport returns them to the page as credit. */
  get taken(): number {
    return this.#read;
  }
}
