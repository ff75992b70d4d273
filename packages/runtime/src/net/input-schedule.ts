/**
 * One client's inputs due later, held on the server (ARCHITECTURE.md, "Prediction, reconciliation and lag
 * compensation"). A client that predicts stamps each input for the server tick its prediction put it in, which is
 * ahead of the server's now by the link's one-way delay and a margin. The server's input ring keeps times in order
 * for every player at once, so an input stamped ahead cannot go in when it arrives: every later event of every
 * player would be clamped up to its time. It waits here until its tick is the next one the simulation makes:
 *
 * ```text
 *  server ticks          k−1 made ─────────────── k made
 *                            │◀──────── tickMs ───────▶│
 *  input due in (k−1, k]:  held ─── pushed once k−1 is made (stamped its due time) ─── tick k takes it
 *  every other event pushed meanwhile (stamped earlier, clamped up to it) would have gone to tick k anyway
 * ```
 *
 * Held in due order (a client's due times go on, but its estimate of the link moves them back a little now and
 * then), at most `capacity` (the rest refused `full`: no client holds more than a second of keys). Allocates only
 * at creation.
 */
export class InputSchedule {
  /** Held events in due order, each `2 + payloadWidth` values: due, code, payload (the player first). */
  readonly #values: Float64Array;
  /** Each held event's number, as the client numbered it. */
  readonly #numbers: Float64Array;
  #size = 0;

  /** `payloadWidth`: the ring's payload values (the player, then the client's); `capacity`: events held at most. */
  constructor(
    readonly payloadWidth: number,
    readonly capacity: number,
  ) {
    this.#values = new Float64Array(capacity * (2 + payloadWidth));
    this.#numbers = new Float64Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** The earliest due time held (+Infinity when none). */
  get nextDue(): number {
    return this.#size === 0 ? Number.POSITIVE_INFINITY : this.#values[0]!;
  }

  /** Holds an event (`payload`: the ring's payload, the player first); false when full (nothing held). */
  hold(due: number, code: number, payload: Float64Array, number: number): boolean {
    if (this.#size === this.capacity) return false;
    const stride = 2 + this.payloadWidth;
    const values = this.#values;
    // after every event due at or before it: equal due times keep their arrival order
    let at = this.#size;
    while (at > 0 && values[(at - 1) * stride]! > due) at--;
    values.copyWithin((at + 1) * stride, at * stride, this.#size * stride);
    this.#numbers.copyWithin(at + 1, at, this.#size);
    const base = at * stride;
    values[base] = due;
    values[base + 1] = code;
    values.set(payload.subarray(0, this.payloadWidth), base + 2);
    this.#numbers[at] = number;
    this.#size++;
    return true;
  }

  /**
   * Hands `push` every event due at or before `until`, in due order, and lets them go. `push` gets the event's
   * due time, code, payload (a view, valid during the call) and number; it returns false when the ring was full,
   * and the events from that one on stay held (tried again at the next release).
   */
  release(until: number, push: (due: number, code: number, payload: Float64Array, number: number) => boolean): number {
    const stride = 2 + this.payloadWidth;
    const values = this.#values;
    let n = 0;
    while (n < this.#size && values[n * stride]! <= until) {
      const base = n * stride;
      if (!push(values[base]!, values[base + 1]!, values.subarray(base + 2, base + stride), this.#numbers[n]!)) break;
      n++;
    }
    if (n > 0) {
      values.copyWithin(0, n * stride, this.#size * stride);
      this.#numbers.copyWithin(0, n, this.#size);
      this.#size -= n;
    }
    return n;
  }
}
