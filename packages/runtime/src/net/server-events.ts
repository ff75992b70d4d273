/**
 * The server's events on the client (ARCHITECTURE.md, "Multiplayer": events): what arrived, each once, kept in
 * order until the playout shows their time, when the network client's step re-emits them (`tick.emit`) into the
 * client's own event ring, so the page presents each with the first frame that shows that point of the server's
 * timeline, as a single-player page presents a step's events.
 *
 * ```text
 *  events message: first = 5, count = 4  [e5 e6 e7 e8]   (the server's window: everything not acknowledged)
 *  expected = 7 ──▶ e5, e6 are copies (let go); e7, e8 queued; expected = 9 ──▶ ack(9) to the server
 *  step k: shown time s_k (the server time of the state it wrote) ──▶ emit every queued event with time <= s_k
 * ```
 *
 * Numbers restart at 0 on each connection (the server's window is per connection): `connected()` says so. The
 * queue holds at most `capacity` events; past that, what does not fit is not taken (nor acknowledged), so it
 * waits in the server's window, and a server whose window fills counts the loss and says so in every message
 * (`lost`, summed over connections here). Records are made once; nothing is allocated per event.
 */
import type { EventBatch } from './wire.ts';

/** Events the client keeps waiting for their playout time by default. */
export const DEFAULT_SERVER_EVENTS_KEPT = 4096;

export class ServerEvents {
  /** Records of 3 + width float64 (server tick, server time, code, payload), a ring. */
  #records: Float64Array;
  #width = -1;
  #head = 0;
  #length = 0;
  /** The next number wanted on this connection. */
  #expected = 0;
  /** Events lost by the server's windows on connections before this one, and on this one. */
  #lostBefore = 0;
  #lostNow = 0;
  /** Events taken (each once), copies let go, and messages that did not follow on (refused). */
  taken = 0;
  repeats = 0;
  /** The payload of the event being emitted (made once per width). */
  #payload: Float64Array = new Float64Array(0);
  /** The highest shown time `due` was called with: events up to it have been emitted. */
  #shown = Number.NEGATIVE_INFINITY;

  constructor(readonly capacity = DEFAULT_SERVER_EVENTS_KEPT) {
    this.#records = new Float64Array(0);
  }

  /** Events waiting for their time. */
  get length(): number {
    return this.#length;
  }

  /** Server events lost to full windows (the server's count, over every connection). */
  get lost(): number {
    return this.#lostBefore + this.#lostNow;
  }

  /** The number to acknowledge: every event below it has been taken. */
  get expected(): number {
    return this.#expected;
  }

  /** A new connection: the server numbers its events from 0 again. */
  connected(): void {
    this.#lostBefore += this.#lostNow;
    this.#lostNow = 0;
    this.#expected = 0;
  }

  /**
   * Takes the events of `batch` not taken yet, in order. Returns false for a batch that begins past the next
   * number wanted (a hole no later message fills: not from a server of this wire), which is left alone.
   */
  receive(batch: EventBatch): boolean {
    const skip = (this.#expected - batch.first) | 0;
    if (skip < 0) return false;
    this.#lostNow = Math.max(this.#lostNow, batch.lost);
    if (skip >= batch.count) {
      this.repeats += batch.count;
      return true;
    }
    this.repeats += skip;
    if (batch.width !== this.#width) this.#resize(batch.width);
    const stride = 3 + batch.width;
    const take = Math.min(batch.count - skip, this.capacity - this.#length);
    for (let i = skip; i < skip + take; i++) {
      const at = ((this.#head + this.#length) % this.capacity) * stride;
      this.#records.set(batch.values.subarray(i * stride, (i + 1) * stride), at);
      this.#length++;
    }
    this.taken += take;
    this.#expected = (this.#expected + take) >>> 0;
    return true;
  }

  /**
   * Calls `emit(code, payload, serverTick)` for each event, oldest first, whose server time is at or before
   * `shown` (the server time of the state the step wrote; never going back: a lower one is taken as the highest
   * so far). `payload` is one reused array: copy what you keep. Returns how many.
   */
  due(shown: number, emit: (code: number, payload: Float64Array, serverTick: number) => void): number {
    if (shown > this.#shown) this.#shown = shown;
    const stride = 3 + this.#width;
    let n = 0;
    while (this.#length > 0) {
      const at = this.#head * stride;
      const r = this.#records;
      if (!(r[at + 1]! <= this.#shown)) break;
      this.#payload.set(r.subarray(at + 3, at + stride));
      emit(r[at + 2]!, this.#payload, r[at]!);
      this.#head = (this.#head + 1) % this.capacity;
      this.#length--;
      n++;
    }
    return n;
  }

  /** Forgets the shown time (a server that started over: its times begin again); the queue stays. */
  restarted(): void {
    this.#shown = Number.NEGATIVE_INFINITY;
  }

  /** A new payload width: the queued events are kept, their payloads cut or padded with 0. */
  #resize(width: number): void {
    const old = this.#records;
    const oldStride = 3 + Math.max(0, this.#width);
    const stride = 3 + width;
    const records = new Float64Array(this.capacity * stride);
    for (let i = 0; i < this.#length; i++) {
      const from = ((this.#head + i) % this.capacity) * oldStride;
      records.set(old.subarray(from, from + Math.min(oldStride, stride)), i * stride);
    }
    this.#records = records;
    this.#head = 0;
    this.#width = width;
    this.#payload = new Float64Array(width);
  }
}
