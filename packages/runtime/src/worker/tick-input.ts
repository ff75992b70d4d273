/**
 * The input events one tick gets: every event from the input ring stamped at or before the tick's time that an
 * earlier tick has not had. Copied out of the ring before the step runs, so the step may read them in any order
 * and as often as it likes; the ring's records go back to the producer at once.
 *
 * ```text
 *  shared clock   ──────|──────────────────|──────────────────|────▶
 *                   tick k-1 time        tick k time        tick k+1 time
 *  events           e1  e2   e3          e4            e5
 *  tick k gets      e1..e4 (time <= tick k time); e5 waits for tick k+1
 * ```
 *
 * The simulation runs a little ahead of the wall clock (up to `maxLeadTicks`), so an event can happen after
 * the tick it belongs to was already made. It then goes to the next tick made, flagged `late`: never lost,
 * never twice, always in order.
 */
import type { InputEvent, InputReader } from '../core/input-reader.ts';

export interface TickInput {
  /** Events for this tick. */
  readonly length: number;
  /** Shared-clock ms the event happened at. */
  time(i: number): number;
  /** The game's event code. */
  code(i: number): number;
  /** The producer's sequence number: consecutive events differ by 1. */
  sequence(i: number): number;
  /** Payload value `j` of event `i`. */
  payload(i: number, j: number): number;
  /** The event belonged to an earlier tick that had been made before it arrived. */
  late(i: number): boolean;
}

const TIME = 0;
const CODE = 1;
const SEQUENCE = 2;
const PAYLOAD = 3;

/** The one TickInput of a simulation, refilled every tick. Allocates only at creation. */
export class TickInputBuffer implements TickInput {
  readonly #data: Float64Array;
  readonly #stride: number;
  readonly #width: number;
  #length = 0;
  #previousTime = 0;
  #lateCount = 0;
  /** One past the sequence of the last event taken, over every fill (0 before any). */
  #through = 0;
  readonly #visit = (event: InputEvent): void => {
    const base = this.#length * this.#stride;
    const data = this.#data;
    data[base + TIME] = event.time;
    data[base + CODE] = event.code;
    data[base + SEQUENCE] = event.sequence;
    for (let j = 0; j < this.#width; j++) data[base + PAYLOAD + j] = event.payload(j);
    if (event.time <= this.#previousTime) this.#lateCount++;
    this.#through = event.sequence + 1;
    this.#length++;
  };

  constructor(
    private readonly reader: InputReader | null,
    capacity = reader?.layout.capacity ?? 0,
    width = reader?.layout.payloadWidth ?? 0,
  ) {
    this.#width = width;
    this.#stride = PAYLOAD + width;
    this.#data = new Float64Array(capacity * this.#stride);
  }

  /** Takes this tick's events: those up to `time`, the tick's time. Returns how many were late. */
  fill(previousTime: number, time: number): number {
    this.#length = 0;
    this.#lateCount = 0;
    this.#previousTime = previousTime;
    this.reader?.take(time, this.#visit);
    return this.#lateCount;
  }

  get length(): number {
    return this.#length;
  }

  /**
   * One past the ring sequence of the last event any fill took (0 before any): the inputs the states from this
   * tick on reflect (the slot meta word INPUTS_THROUGH).
   */
  get through(): number {
    return this.#through;
  }

  time(i: number): number {
    return this.#word(i, TIME);
  }

  code(i: number): number {
    return this.#word(i, CODE);
  }

  sequence(i: number): number {
    return this.#word(i, SEQUENCE);
  }

  payload(i: number, j: number): number {
    return j >= 0 && j < this.#width ? this.#word(i, PAYLOAD + j) : Number.NaN;
  }

  late(i: number): boolean {
    return this.#word(i, TIME) <= this.#previousTime;
  }

  #word(i: number, offset: number): number {
    return i >= 0 && i < this.#length ? this.#data[i * this.#stride + offset]! : Number.NaN;
  }
}
