/**
 * The event ring's consumer, on the page (the ring's memory map and who owns which word: event-ring.ts,
 * record-ring.ts): each frame presents the events of the ticks it shows, in place, as `frame.events`.
 */
import { readEventRingLayout, type EventRingLayout } from './event-ring.ts';
import { RING, RING_HEADER_WORDS, RING_RECORD, RING_RECORDS_OFFSET } from './record-ring.ts';

/**
 * One event as a visitor gets it. The same object is reused for every event (nothing is allocated per event)
 * and it reads the ring's own memory: valid only during the call. Copy out what you keep.
 */
export interface GameEvent {
  /** The tick whose step emitted it. */
  readonly tick: number;
  /** The game's code (0 or more), or EVENTS_LOST (-1): payload 0 events were lost from this tick on. */
  readonly code: number;
  /** The worker's count of events before this one: consecutive events differ by exactly 1. */
  readonly sequence: number;
  /** Payload values per event (the ring's payload width). */
  readonly width: number;
  /** Payload value `j`, 0 <= j < width; NaN outside that range. */
  payload(j: number): number;
}

/** The visitor `forEach` and `takeEvents` call for each event, in order. */
export type EventVisitor = (event: GameEvent) => void;

/**
 * The events a frame presents: those of every tick up to the tick it shows that no frame presented before, in
 * tick order (ARCHITECTURE.md, "Events and the frame that shows them"). Read them during the frame's draw (or
 * right after `frame()`): they lie in the ring until the next frame, which hands them back to the worker.
 * Indexed like `tick.input` in the worker; nothing is allocated.
 */
export interface FrameEvents {
  /** Events this frame presents. */
  readonly length: number;
  /** The tick whose step emitted event `i`. */
  tick(i: number): number;
  /** The code of event `i`: the game's (0 or more), or EVENTS_LOST (-1). */
  code(i: number): number;
  /** The worker's sequence number of event `i`: consecutive events differ by 1. */
  sequence(i: number): number;
  /** Payload value `j` of event `i` (NaN outside the ring's payload width). */
  payload(i: number, j: number): number;
  /** Calls `visitor` for each event in order, with one reused event object. */
  forEach(visitor: EventVisitor): void;
}

class RingEvent implements GameEvent {
  tick = 0;
  code = 0;
  sequence = 0;
  /** Index of this event's first payload value in `f64`. */
  start = 0;
  constructor(
    private readonly f64: Float64Array,
    readonly width: number,
  ) {}
  payload(j: number): number {
    return j >= 0 && j < this.width ? this.f64[this.start + (j | 0)]! : NaN;
  }
}

/** A window [start, start + length) of the ring's records: one frame's events. */
class EventWindow implements FrameEvents {
  length = 0;
  /** The first record's count (a uint32: record n lives at n & mask). */
  first = 0;
  readonly #event: RingEvent;
  constructor(
    private readonly f64: Float64Array,
    private readonly mask: number,
    private readonly stride: number,
    width: number,
  ) {
    this.#event = new RingEvent(f64, width);
  }
  #base(i: number): number {
    return ((this.first + i) & this.mask) * this.stride;
  }
  tick(i: number): number {
    return i >= 0 && i < this.length ? this.f64[this.#base(i) + RING_RECORD.STAMP]! : NaN;
  }
  code(i: number): number {
    return i >= 0 && i < this.length ? this.f64[this.#base(i) + RING_RECORD.CODE]! : NaN;
  }
  sequence(i: number): number {
    return i >= 0 && i < this.length ? this.f64[this.#base(i) + RING_RECORD.SEQUENCE]! : NaN;
  }
  payload(i: number, j: number): number {
    return i >= 0 && i < this.length && j >= 0 && j < this.#event.width ? this.f64[this.#base(i) + RING_RECORD.PAYLOAD + (j | 0)]! : NaN;
  }
  forEach(visitor: EventVisitor): void {
    const length = this.length;
    for (let i = 0; i < length && i < this.length; i++) visitor(this.#fill(i));
  }
  #fill(i: number): GameEvent {
    const e = this.#event;
    const base = this.#base(i);
    const f64 = this.f64;
    e.tick = f64[base + RING_RECORD.STAMP]!;
    e.code = f64[base + RING_RECORD.CODE]!;
    e.sequence = f64[base + RING_RECORD.SEQUENCE]!;
    e.start = base + RING_RECORD.PAYLOAD;
    return e;
  }
}

/**
 * Events packed into a Float64Array as the ring keeps them (`recordWords` values each: tick, code, sequence,
 * payload), read through the same interface as a frame's window: what the page gets from a render worker. One
 * object, re-pointed at each report (`set`).
 */
export class PackedEvents implements FrameEvents {
  length = 0;
  #records: Float64Array = new Float64Array(0);
  #stride: number = RING_RECORD.PAYLOAD;
  readonly #event = new PackedEvent();
  set(records: Float64Array, count: number, recordWords: number): this {
    this.#records = records;
    this.#stride = recordWords;
    this.length = Math.min(count, Math.floor(records.length / recordWords));
    return this;
  }
  #word(i: number, word: number): number {
    return i >= 0 && i < this.length ? this.#records[i * this.#stride + word]! : NaN;
  }
  tick(i: number): number {
    return this.#word(i, RING_RECORD.STAMP);
  }
  code(i: number): number {
    return this.#word(i, RING_RECORD.CODE);
  }
  sequence(i: number): number {
    return this.#word(i, RING_RECORD.SEQUENCE);
  }
  payload(i: number, j: number): number {
    return j >= 0 && j < this.#stride - RING_RECORD.PAYLOAD ? this.#word(i, RING_RECORD.PAYLOAD + (j | 0)) : NaN;
  }
  forEach(visitor: EventVisitor): void {
    const e = this.#event;
    e.records = this.#records;
    e.width = this.#stride - RING_RECORD.PAYLOAD;
    for (let i = 0; i < this.length; i++) {
      const base = i * this.#stride;
      e.tick = this.#records[base + RING_RECORD.STAMP]!;
      e.code = this.#records[base + RING_RECORD.CODE]!;
      e.sequence = this.#records[base + RING_RECORD.SEQUENCE]!;
      e.start = base + RING_RECORD.PAYLOAD;
      visitor(e);
    }
  }
}

class PackedEvent implements GameEvent {
  tick = 0;
  code = 0;
  sequence = 0;
  width = 0;
  start = 0;
  records: Float64Array = new Float64Array(0);
  payload(j: number): number {
    return j >= 0 && j < this.width ? this.records[this.start + (j | 0)]! : NaN;
  }
}

/** An empty window, for a runtime without an event ring. */
export const NO_EVENTS: FrameEvents = Object.freeze({
  length: 0,
  tick: () => NaN,
  code: () => NaN,
  sequence: () => NaN,
  payload: () => NaN,
  forEach: () => {},
});

/**
 * The page's side of the event ring. Exactly one per ring. Never blocks, never allocates after construction,
 * never throws (a visitor's own throw propagates, after the events handed over so far are freed).
 */
export class EventReader {
  readonly layout: EventRingLayout;
  /** The events of the last frame, in place (`frame.events`). */
  readonly window: FrameEvents;
  readonly #window: EventWindow;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #mask: number;
  readonly #stride: number;
  /** READ as we last stored it: the records from here on are not yet handed back. */
  #read: number;
  /** The first record no frame has presented and no `takeAll` has taken. */
  #next: number;
  /** Events presented or taken so far. */
  delivered = 0;

  constructor(readonly buffer: ArrayBufferLike) {
    this.layout = readEventRingLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, RING_HEADER_WORDS);
    this.#f64 = new Float64Array(buffer, RING_RECORDS_OFFSET, this.layout.capacity * this.layout.recordWords);
    this.#mask = this.layout.capacity - 1;
    this.#stride = this.layout.recordWords;
    this.#read = Atomics.load(this.#i32, RING.READ) >>> 0;
    this.#next = this.#read;
    this.#window = new EventWindow(this.#f64, this.#mask, this.#stride, this.layout.payloadWidth);
    this.window = this.#window;
  }

  /**
   * A frame that shows tick `tick`: hands the last frame's events back to the worker, then makes the window every
   * committed event of a tick at or before `tick` not yet presented. Call it after reading the slot that showed
   * `tick` (the worker commits a tick's events before it publishes the tick). Allocates nothing.
   */
  present(tick: number): FrameEvents {
    this.#release();
    // acquire: the records below WRITE were written before the worker stored it
    const write = Atomics.load(this.#i32, RING.WRITE) >>> 0;
    const f64 = this.#f64;
    const mask = this.#mask;
    const stride = this.#stride;
    let i = this.#next;
    // the records are in tick order: the window ends at the first of a later tick
    while (i !== write && f64[(i & mask) * stride + RING_RECORD.STAMP]! <= tick) i = (i + 1) >>> 0;
    const window = this.#window;
    window.first = this.#next;
    window.length = (i - this.#next) >>> 0;
    this.delivered += window.length;
    this.#next = i;
    return window;
  }

  /**
   * Every committed event not yet presented, now, whatever the frames show (for code that prefers latency to
   * sync): ends the last frame's window (its `frame.events` is empty after this), visits each event, and hands
   * them all back. They will not come with a frame. Returns how many.
   */
  takeAll(visitor: EventVisitor): number {
    this.#window.length = 0;
    const write = Atomics.load(this.#i32, RING.WRITE) >>> 0;
    const window = this.#window;
    window.first = this.#next;
    window.length = (write - this.#next) >>> 0;
    const n = window.length;
    this.#next = write;
    this.delivered += n;
    try {
      window.forEach(visitor);
    } finally {
      window.length = 0;
      this.#release();
    }
    return n;
  }

  /**
   * Every committed record not yet presented, packed (`layout.recordWords` values each, as the ring keeps them),
   * handed back at once; null when there are none. For a transport that forwards them (the message transport's
   * worker half): not for frames. Allocates the array.
   */
  drain(): Float64Array | null {
    const write = Atomics.load(this.#i32, RING.WRITE) >>> 0;
    const n = (write - this.#next) >>> 0;
    if (n === 0) return null;
    const out = this.#pack(this.#next, n);
    this.#window.length = 0;
    this.#next = write;
    this.#release();
    return out;
  }

  /**
   * The last frame's window packed (`layout.recordWords` values each), for a thread that reports it to another
   * (the render worker to the page). Allocates the array.
   */
  packWindow(): Float64Array {
    return this.#pack(this.#window.first, this.#window.length);
  }

  /** Records `first` .. `first + n - 1` (counts: the ring wraps), packed one after another. Allocates the array. */
  #pack(first: number, n: number): Float64Array {
    const stride = this.#stride;
    const f64 = this.#f64;
    const out = new Float64Array(n * stride);
    for (let i = 0, to = 0; i < n; i++) {
      const from = (((first + i) >>> 0) & this.#mask) * stride;
      for (let w = 0; w < stride; w++) out[to++] = f64[from + w]!;
    }
    return out;
  }

  /** Events lost on another side of a relay (the message transport's worker ring), added to `lost`. */
  lostElsewhere = 0;

  /** Events the worker lost to a full ring since the ring was made (each also reported by an EVENTS_LOST event). */
  get lost(): number {
    return (Atomics.load(this.#i32, RING.REJECTED) >>> 0) + this.lostElsewhere;
  }

  /** Committed events no frame has presented yet (can be late: the worker may have committed more since). */
  get pending(): number {
    return ((Atomics.load(this.#i32, RING.WRITE) >>> 0) - this.#next) >>> 0;
  }

  /** Hands every record before #next back to the worker. */
  #release(): void {
    if (this.#read === this.#next) return;
    this.#read = this.#next;
    // release: our loads of the records below READ are done; the worker may write them again
    Atomics.store(this.#i32, RING.READ, this.#read | 0);
  }
}
