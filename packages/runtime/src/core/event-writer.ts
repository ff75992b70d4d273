/**
 * The event ring's producer, in the simulation worker (the ring's memory map and who owns which word:
 * event-ring.ts, record-ring.ts): a tick's steps stage events past WRITE; the publish of that tick commits them.
 */
import { EVENTS_LOST, readEventRingLayout, type EventRingLayout } from './event-ring.ts';
import { copyPayload, RING, RING_HEADER_WORDS, RING_RECORD, RING_RECORDS_OFFSET, writePayload } from './record-ring.ts';

/**
 * The worker's side of the event ring. Exactly one per ring. Never blocks, never allocates, never throws after
 * construction (but `emit` refuses a negative code: those are the library's).
 */
export class EventWriter {
  readonly layout: EventRingLayout;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #mask: number;
  readonly #width: number;
  readonly #stride: number;
  /** WRITE as we last stored it (we are its only writer), a uint32: the records the page may read end here. */
  #write: number;
  /** The end of the staged records (this tick's and any whose publish was skipped), a uint32. */
  #staged: number;
  /** READ as we last loaded it; the page may have moved it on since, never back. */
  #read: number;
  /** Sequence numbers of the next committed and the next staged record (plain numbers: past 2^32 too). */
  #committedSequence: number;
  #sequence: number;
  /** Events lost to a full ring and not yet reported by an EVENTS_LOST record, and the tick of the first. */
  #unreported = 0;
  #unreportedTick = 0;
  /** An EVENTS_LOST record staged and not yet committed: how many it reports, and from which tick. */
  #stagedReport = 0;
  #stagedReportTick = 0;

  constructor(readonly buffer: ArrayBufferLike) {
    this.layout = readEventRingLayout(buffer);
    this.#i32 = new Int32Array(buffer, 0, RING_HEADER_WORDS);
    this.#f64 = new Float64Array(buffer, RING_RECORDS_OFFSET, this.layout.capacity * this.layout.recordWords);
    this.#mask = this.layout.capacity - 1;
    this.#width = this.layout.payloadWidth;
    this.#stride = this.layout.recordWords;
    this.#write = Atomics.load(this.#i32, RING.WRITE) >>> 0;
    this.#staged = this.#write;
    // acquire: the records the page has freed so far are ours to overwrite
    this.#read = Atomics.load(this.#i32, RING.READ) >>> 0;
    this.#committedSequence = this.#write;
    this.#sequence = this.#write;
  }

  /**
   * Stages one event of tick `tick`; the publish of that tick commits it. Returns false when the ring is full:
   * the event is lost, counted (`lost`), and reported to the page by an EVENTS_LOST event once there is room.
   * `p0`..`p3` fill the first payload values (0 when left out; values past the payload width are ignored).
   * Allocates nothing. Throws for a code below 0 (the library's) or not a number: a bug in the step.
   */
  emit(tick: number, code: number, p0 = 0, p1 = 0, p2 = 0, p3 = 0): boolean {
    const base = this.#claimFor(tick, code);
    if (base < 0) return false;
    writePayload(this.#f64, base + RING_RECORD.PAYLOAD, this.#width, p0, p1, p2, p3);
    this.#stage(base, tick, code);
    return true;
  }

  /** Like `emit`, the payload copied from `payload` (the first min(length, payloadWidth) values, the rest 0). */
  emitPayload(tick: number, code: number, payload: ArrayLike<number>): boolean {
    const base = this.#claimFor(tick, code);
    if (base < 0) return false;
    copyPayload(this.#f64, base + RING_RECORD.PAYLOAD, this.#width, payload);
    this.#stage(base, tick, code);
    return true;
  }

  /**
   * Hands the staged events to the page: called by the slot writer's flip, under the state buffer's LOCK, before
   * STATE_INDEX changes (so a page that sees the new slot sees its events). A loss not yet reported goes first,
   * if there is room now. Allocates nothing.
   */
  commit(): void {
    if (this.#unreported > 0) this.#report();
    this.#stagedReport = 0;
    if (this.#staged === this.#write) return;
    this.#write = this.#staged;
    this.#committedSequence = this.#sequence;
    // publish: the records staged above with plain stores are the page's once it loads this WRITE
    Atomics.store(this.#i32, RING.WRITE, this.#write | 0);
  }

  /**
   * Stages and commits records another ring's `drain` packed (the message transport's page half relays the
   * worker's): their ticks, codes (EVENTS_LOST ones too) and payloads, numbered in this ring's sequence. Records
   * that find the ring full are lost here, counted and reported like any other. Allocates nothing.
   */
  relay(records: Float64Array, recordWords: number): void {
    const width = Math.min(this.#width, recordWords - RING_RECORD.PAYLOAD);
    for (let at = 0; at + recordWords <= records.length; at += recordWords) {
      const tick = records[at + RING_RECORD.STAMP]!;
      const code = records[at + RING_RECORD.CODE]!;
      const base = this.#unreported > 0 && !this.#report() ? -1 : this.#claim();
      if (base < 0) {
        // a report lost here passes its count on to ours (those events were counted where they were lost)
        if (code === EVENTS_LOST) this.#lose(tick, recordWords > RING_RECORD.PAYLOAD ? records[at + RING_RECORD.PAYLOAD]! : 0);
        else this.#lose(tick);
        continue;
      }
      const f64 = this.#f64;
      for (let i = 0; i < width; i++) f64[base + RING_RECORD.PAYLOAD + i] = records[at + RING_RECORD.PAYLOAD + i]!;
      for (let i = width; i < this.#width; i++) f64[base + RING_RECORD.PAYLOAD + i] = 0;
      this.#stage(base, tick, code);
    }
    this.commit();
  }

  /**
   * Drops the staged events: their ticks never happened (the step threw) or were left behind unpublished (a
   * restart, a restore or a playback's start after publishes a reader stall skipped).
   */
  abandon(): void {
    this.#staged = this.#write;
    this.#sequence = this.#committedSequence;
    if (this.#stagedReport > 0) {
      // the report went with them: the losses it carried are unreported again (the earliest tick first)
      this.#unreportedTick = this.#unreported > 0 ? Math.min(this.#unreportedTick, this.#stagedReportTick) : this.#stagedReportTick;
      this.#unreported += this.#stagedReport;
      this.#stagedReport = 0;
    }
  }

  /** Events staged and not yet committed. */
  get staged(): number {
    return (this.#staged - this.#write) >>> 0;
  }

  /** Events lost to a full ring since the ring was made (mod 2^32). */
  get lost(): number {
    return Atomics.load(this.#i32, RING.REJECTED) >>> 0;
  }

  /** A record for an event of `tick`: its first word's index, or -1 (the event lost, counted). */
  #claimFor(tick: number, code: number): number {
    if (!(code >= 0)) {
      throw new RangeError(`steadyframe: tick.emit(code) takes a game code of 0 or more; got ${String(code)} (negative codes are the library's, such as EVENTS_LOST)`);
    }
    // an earlier loss is reported first, in order: no event may overtake the report of those lost before it
    if (this.#unreported > 0 && !this.#report()) return this.#lose(tick);
    const base = this.#claim();
    return base < 0 ? this.#lose(tick) : base;
  }

  /**
   * An event lost here (counted in REJECTED), or, with `reported`, a relayed EVENTS_LOST record lost here: the
   * `reported` events it stood for were counted where they were lost, and our next report carries them on.
   */
  #lose(tick: number, reported = -1): -1 {
    if (this.#unreported === 0 || tick < this.#unreportedTick) this.#unreportedTick = tick;
    if (reported >= 0) {
      // (a ring without payload could not say how many: at least one)
      this.#unreported += reported > 0 ? reported : 1;
      return -1;
    }
    this.#unreported++;
    // only the producer writes REJECTED; Atomics so the consumer reads a whole word for its stats
    Atomics.add(this.#i32, RING.REJECTED, 1);
    return -1;
  }

  /** Stages the EVENTS_LOST record for the losses not yet reported; false when there is still no room. */
  #report(): boolean {
    const base = this.#claim();
    if (base < 0) return false;
    // payload 0: how many were lost
    writePayload(this.#f64, base + RING_RECORD.PAYLOAD, this.#width, this.#unreported, 0, 0, 0);
    this.#stage(base, this.#unreportedTick, EVENTS_LOST);
    if (this.#stagedReport === 0) this.#stagedReportTick = this.#unreportedTick;
    this.#stagedReport += this.#unreported;
    this.#unreported = 0;
    return true;
  }

  /** Index of the next free record's first word in #f64, or -1 when the ring is full. */
  #claim(): number {
    const staged = this.#staged;
    const capacity = this.layout.capacity;
    if (((staged - this.#read) >>> 0) >= capacity) {
      // looks full on the cached READ: look again.
      // acquire: the page's loads of every record below the new READ are done, so we may overwrite them
      this.#read = Atomics.load(this.#i32, RING.READ) >>> 0;
      if (((staged - this.#read) >>> 0) >= capacity) return -1;
    }
    return (staged & this.#mask) * this.#stride;
  }

  #stage(base: number, tick: number, code: number): void {
    const f64 = this.#f64;
    f64[base + RING_RECORD.STAMP] = tick;
    f64[base + RING_RECORD.CODE] = code;
    f64[base + RING_RECORD.SEQUENCE] = this.#sequence;
    this.#sequence++;
    this.#staged = (this.#staged + 1) >>> 0;
  }
}
