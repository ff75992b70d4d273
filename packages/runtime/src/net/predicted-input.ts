/**
 * A predicting client's own inputs, kept until a snapshot says the server's ticks consumed them (net/predictor.ts):
 * each with its number, the server tick the prediction put it in and its due time, its code and the payload the
 * server's ring will give it (the player first). One tick's inputs are handed to the game's step as a `TickInput`,
 * the same interface the server's step reads them through.
 *
 * ```text
 *  kept (by number):   n=7 tick 40 │ n=8 tick 41 │ n=9 tick 41 │ n=10 tick 44
 *  a snapshot reflects 8 ──▶ drop 7, 8; replaying tick 41 hands the step [9], tick 44 [10]
 * ```
 *
 * Bounded: at most `capacity` inputs wait (a client sends no more than the server's allowance a second, and a
 * snapshot acknowledges them within a round trip); past it the oldest goes, counted. Allocates only at creation.
 */
import type { TickInput } from '../worker/tick-input.ts';

/** Values of a kept input before its payload: number, tick, due, code. */
const HEAD = 4;

export class PredictedInputs implements TickInput {
  readonly #values: Float64Array;
  readonly #stride: number;
  /** Kept inputs, oldest first, in `#values` from `#first`. */
  #first = 0;
  #size = 0;
  /** The window `TickInput` shows: kept inputs `#from` to `#from + #length`. */
  #from = 0;
  #length = 0;
  /** Inputs let go unacknowledged because more than `capacity` waited. */
  dropped = 0;

  /** `payloadWidth`: the server ring's payload values (the player first); `capacity`: inputs kept at most. */
  constructor(
    readonly payloadWidth: number,
    readonly capacity: number,
  ) {
    this.#stride = HEAD + payloadWidth;
    this.#values = new Float64Array(capacity * this.#stride);
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Keeps an input numbered `number` (the client's numbers go up by one: each kept one is newer than the last),
   * predicted in `tick`, due at `due`, with `payload` (the ring's payload: the player, then the client's values).
   */
  add(number: number, tick: number, due: number, code: number, payload: ArrayLike<number>): void {
    if (this.#size === this.capacity) {
      this.#first = (this.#first + 1) % this.capacity;
      this.#size--;
      this.dropped++;
    }
    const base = ((this.#first + this.#size) % this.capacity) * this.#stride;
    const values = this.#values;
    values[base] = number;
    values[base + 1] = tick;
    values[base + 2] = due;
    values[base + 3] = code;
    for (let j = 0; j < this.payloadWidth; j++) values[base + HEAD + j] = j < payload.length ? payload[j]! : 0;
    this.#size++;
  }

  /** Lets go of every input numbered up to `reflected` (mod 2^32, as the client numbers them). */
  acknowledge(reflected: number): void {
    while (this.#size > 0 && ((this.#word(0, 0) - reflected) | 0) <= 0) {
      this.#first = (this.#first + 1) % this.capacity;
      this.#size--;
    }
  }

  /** Shows the kept inputs predicted in `tick` as this `TickInput` (they are in tick order: numbers go with ticks). */
  select(tick: number): this {
    let from = 0;
    while (from < this.#size && this.#word(from, 1) < tick) from++;
    let to = from;
    while (to < this.#size && this.#word(to, 1) === tick) to++;
    this.#from = from;
    this.#length = to - from;
    return this;
  }

  get length(): number {
    return this.#length;
  }

  time(i: number): number {
    return this.#shown(i, 2);
  }

  code(i: number): number {
    return this.#shown(i, 3);
  }

  /** The client's number for it (the server's ring sequence is the server's). */
  sequence(i: number): number {
    return this.#shown(i, 0);
  }

  payload(i: number, j: number): number {
    return j >= 0 && j < this.payloadWidth ? this.#shown(i, HEAD + j) : Number.NaN;
  }

  late(): boolean {
    return false;
  }

  #shown(i: number, offset: number): number {
    return i >= 0 && i < this.#length ? this.#word(this.#from + i, offset) : Number.NaN;
  }

  #word(k: number, offset: number): number {
    return this.#values[((this.#first + k) % this.capacity) * this.#stride + offset]!;
  }
}
