/**
 * Which of a client's inputs a state reflects (ARCHITECTURE.md, "Prediction, reconciliation and lag
 * compensation"). The server's input ring numbers every event it takes (its sequence); a state's slot meta says
 * one past the sequence of the last event any tick up to it consumed (INPUTS_THROUGH). The ledger keeps, for each
 * event of one client pushed into the ring, its ring sequence and the client's own number for it, in push order,
 * until a state sent to the client has consumed it:
 *
 * ```text
 *  pushed (ring sequence : client number)   40:7  41:8  44:9  47:10         (other clients' events between)
 *  a state with INPUTS_THROUGH 45           ──────────────────▲ consumed 7, 8, 9: reflected = 9
 *  the next, INPUTS_THROUGH 48              ───────────────────────────▲ consumed 10: reflected = 10
 * ```
 *
 * `reflected` is the newest number consumed (mod 2^32, as the client numbers them). An event that overtook an
 * earlier one (net/client-inputs.ts takes one of the 32 below the highest late) is consumed after it, so for the
 * moment between the two the newest says more than the prefix: rare (each event goes out in three messages in a
 * row), and reconciliation corrects it with the next state.
 */
export class InputLedger {
  readonly #sequences: Float64Array;
  readonly #numbers: Uint32Array;
  #head = 0;
  #size = 0;
  #reflected = -1;

  /** `capacity`: the events it holds at most (the input ring's capacity: no more can wait in the ring). */
  constructor(capacity: number) {
    this.#sequences = new Float64Array(capacity);
    this.#numbers = new Uint32Array(capacity);
  }

  /** The newest of the client's numbers a state sent to it consumed (-1: none yet). */
  get reflected(): number {
    return this.#reflected;
  }

  /**
   * An event of this client went into the ring at `sequence`, numbered `number` by the client. Full (states went
   * unread for a ring's worth of this client's events: no publish to tell it anyway), the oldest is counted
   * consumed.
   */
  note(sequence: number, number: number): void {
    const capacity = this.#sequences.length;
    if (this.#size === capacity) this.#consume();
    const at = (this.#head + this.#size) % capacity;
    this.#sequences[at] = sequence;
    this.#numbers[at] = number;
    this.#size++;
  }

  /** A state consumed every event below ring sequence `through`: returns the newest number reflected now. */
  reflect(through: number): number {
    while (this.#size > 0 && this.#sequences[this.#head]! < through) this.#consume();
    return this.#reflected;
  }

  #consume(): void {
    const number = this.#numbers[this.#head]!;
    // newer mod 2^32: the first, or ahead of the newest so far
    if (this.#reflected === -1 || ((number - this.#reflected) | 0) > 0) this.#reflected = number;
    this.#head = (this.#head + 1) % this.#sequences.length;
    this.#size--;
  }
}
