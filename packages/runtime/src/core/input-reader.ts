/**
 * The input ring's consumer, in the simulation worker (the ring's memory map and who owns which word:
 * input-ring.ts): each tick takes the events up to its time.
 */
import { INPUT_RING, INPUT_RECORDS_OFFSET, INPUT_HEADER_WORDS, RECORD, readInputRingLayout, type InputRingLayout } from './input-ring.ts';

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
    this.layout = readInputRingLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, INPUT_HEADER_WORDS);
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
