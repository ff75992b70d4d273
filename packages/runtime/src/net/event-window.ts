/**
 * One client's server events on their way (ARCHITECTURE.md, "Multiplayer": events): a window of the events
 * addressed to it that it has not acknowledged, numbered in a row from 0 on each connection. The publisher pushes
 * each event as it takes it from the server runtime, and sends the whole window in every snapshot; the client
 * acknowledges the highest contiguous number it has (`ack`), which frees the window up to it. So a lost message,
 * snapshot or ack, loses nothing: the next snapshot carries the same events again, the next ack says the same.
 *
 * ```text
 *  numbers:   acked ─────────────── next           push: next++ (or, the window full: lost++, never an overwrite)
 *             [ e5 e6 e7 e8 e9 ]                   ack(n): acked = n, for acked <= n <= next (mod 2^32)
 *              └ sent with every snapshot until acknowledged
 * ```
 *
 * A full window (a client that stopped acknowledging: a stalled page, a dead link the socket has not noticed)
 * refuses the new event and counts it in `lost`, which every events message carries, so the client says it too:
 * events are never dropped silently, and never out of order (an overwrite of the oldest would leave a hole the
 * client could never acknowledge past). Records are made once; nothing is allocated per event.
 */
import type { GameEvent } from '../core/event-reader.ts';
import { MAX_EVENTS_PER_MESSAGE, withClientPart } from './wire.ts';

/** Events a client's window holds by default: over 2 s of 60 ticks with two events each. */
export const DEFAULT_EVENT_WINDOW = 256;

export class EventWindow {
  /** Records of 3 + width float64 (tick, time, code, payload), a ring of `capacity`. */
  readonly #records: Float64Array;
  readonly #stride: number;
  /** The oldest number not acknowledged, and one past the newest pushed (both mod 2^32). */
  #acked = 0;
  #next = 0;
  /** The ring index of the oldest record not acknowledged. */
  #head = 0;
  /** Events refused for want of room since the connection opened. */
  lost = 0;

  constructor(
    readonly capacity: number,
    readonly width: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_EVENTS_PER_MESSAGE) {
      throw new RangeError(`steadyframe: a client's event window holds 1 to ${MAX_EVENTS_PER_MESSAGE} events; got ${String(capacity)}`);
    }
    this.#stride = 3 + width;
    this.#records = new Float64Array(capacity * this.#stride);
  }

  /** Events not yet acknowledged. */
  get pending(): number {
    return (this.#next - this.#acked) >>> 0;
  }

  /** The number the next event pushed gets. */
  get next(): number {
    return this.#next;
  }

  /** Adds `event` (of server time `time`); false, counted in `lost`, when the window is full. */
  push(event: GameEvent, time: number): boolean {
    if (this.pending >= this.capacity) {
      this.lost++;
      return false;
    }
    const at = ((this.#head + this.pending) % this.capacity) * this.#stride;
    const r = this.#records;
    r[at] = event.tick;
    r[at + 1] = time;
    r[at + 2] = event.code;
    for (let j = 0; j < this.width; j++) {
      const value = event.payload(j);
      r[at + 3 + j] = Number.isNaN(value) && j >= event.width ? 0 : value;
    }
    this.#next = (this.#next + 1) >>> 0;
    return true;
  }

  /**
   * The client has every event numbered below `next`. Returns false for a number past the newest pushed (a
   * client acknowledging what was never sent: refused by the caller); one at or below the window's start (an
   * older ack) changes nothing.
   */
  ack(next: number): boolean {
    const ahead = (next - this.#acked) | 0;
    if (ahead <= 0) return true;
    if (ahead > this.pending) return false;
    this.#acked = next >>> 0;
    this.#head = (this.#head + ahead) % this.capacity;
    return true;
  }

  /**
   * `snapshot` with its client part after it: the window's events, the client's `player` and `reflected`, the
   * newest of its inputs the state reflects (each −1: not said) (a copy: allocates), or `snapshot` itself when it
   * says nothing.
   */
  attach(snapshot: Uint8Array, player = -1, reflected = -1): Uint8Array {
    const events = this.pending === 0 ? null : { count: this.pending, width: this.width, first: this.#acked, lost: this.lost, values: this.#records };
    return withClientPart(snapshot, { player, reflected, events, from: this.#head, ring: this.capacity });
  }
}
