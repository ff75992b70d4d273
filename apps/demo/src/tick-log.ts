/**
 * The demo's own timing channel, beside the runtime's: the worker appends one record per tick to a ring in a
 * SharedArrayBuffer, the page reads the new ones each frame for the overlay's worker plots.
 *
 * ```text
 *  byte 0   Int32 HEAD: records appended so far (Atomics; the release that publishes a record)
 *  byte 8   Float64 records, RECORD_WORDS each, LOG_SIZE of them: record k is at (k % LOG_SIZE)
 *           [ tick | at: shared-clock ms the state stands for | lead: at - the clock when published | stepMs ]
 * ```
 *
 * One writer (the worker), one reader (the page). The reader keeps at most half the ring behind the head,
 * so the writer cannot lap a record while it is being read.
 */
export const LOG_SIZE = 1024;
const RECORD_WORDS = 4;
const HEAD = 0;

export function createTickLog(): SharedArrayBuffer {
  return new SharedArrayBuffer(8 + LOG_SIZE * RECORD_WORDS * 8);
}

export class TickLogWriter {
  readonly #head: Int32Array;
  readonly #records: Float64Array;

  constructor(buffer: SharedArrayBuffer) {
    this.#head = new Int32Array(buffer, 0, 2);
    this.#records = new Float64Array(buffer, 8, LOG_SIZE * RECORD_WORDS);
  }

  append(tick: number, at: number, lead: number, stepMs: number): void {
    const n = Atomics.load(this.#head, HEAD);
    const base = (n % LOG_SIZE) * RECORD_WORDS;
    const r = this.#records;
    r[base] = tick;
    r[base + 1] = at;
    r[base + 2] = lead;
    r[base + 3] = stepMs;
    // publish: the plain stores above are visible to a reader that loads the new head
    Atomics.store(this.#head, HEAD, n + 1);
  }
}

export type TickVisitor = (tick: number, at: number, lead: number, stepMs: number) => void;

export class TickLogReader {
  readonly #head: Int32Array;
  readonly #records: Float64Array;
  #read = 0;

  constructor(buffer: SharedArrayBuffer) {
    this.#head = new Int32Array(buffer, 0, 2);
    this.#records = new Float64Array(buffer, 8, LOG_SIZE * RECORD_WORDS);
  }

  /** Visits the records appended since the last call, oldest first; returns how many. Allocates nothing. */
  drain(visit: TickVisitor): number {
    // acquire: every record below the head is complete
    const head = Atomics.load(this.#head, HEAD);
    const from = Math.max(this.#read, head - LOG_SIZE / 2);
    const r = this.#records;
    for (let k = from; k < head; k++) {
      const base = (k % LOG_SIZE) * RECORD_WORDS;
      visit(r[base]!, r[base + 1]!, r[base + 2]!, r[base + 3]!);
    }
    this.#read = head;
    return head - from;
  }
}
