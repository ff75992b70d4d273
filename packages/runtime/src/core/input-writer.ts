/**
 * The input ring's producer, on the main thread (the ring's memory map and who owns which word: input-ring.ts).
 */
import { copyPayload, writePayload } from './record-ring.ts';
import { INPUT_RING, INPUT_RECORDS_OFFSET, INPUT_HEADER_WORDS, RECORD, readInputRingLayout, type InputRingLayout } from './input-ring.ts';

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
    this.layout = readInputRingLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, INPUT_HEADER_WORDS);
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
    writePayload(this.#f64, base + RECORD.PAYLOAD, this.#width, p0, p1, p2, p3);
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
    copyPayload(this.#f64, base + RECORD.PAYLOAD, this.#width, payload);
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
