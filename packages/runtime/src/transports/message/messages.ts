/** The messages of the message transport (page.ts and worker.ts beside it). */

/** Main thread to worker. */
export type ToWorker =
  | { readonly type: 'frame'; readonly time: number }
  | { readonly type: 'input'; readonly events: Float64Array; readonly count: number }
  | { readonly type: 'return'; readonly block: ArrayBuffer };

/**
 * Worker to main thread. `header` is a copy of the Int32 header words (status, overloads, heartbeat...);
 * `taken` the input events the worker's ticks have taken so far (mod 2^32), which frees them on the page.
 * A state carries the game events of its ticks (and any held back with states not posted), ahead of itself.
 * A state carries `previousBlock` too when the page does not hold the state before it (states were skipped
 * while the page was behind, or it is the first).
 */
export type ToMain =
  | {
      readonly type: 'state';
      readonly block: ArrayBuffer;
      readonly previousBlock: ArrayBuffer | null;
      readonly meta: Float64Array;
      readonly header: Int32Array;
      readonly taken: number;
      /**
       * The game events committed since the last state message (the event ring's records, packed: tick, code,
       * sequence, payload), or null for none; and the events the worker's ring has lost so far.
       */
      readonly events: Float64Array | null;
      readonly eventsLost: number;
    }
  | { readonly type: 'restamp'; readonly meta: Float64Array; readonly header: Int32Array; readonly taken: number }
  | { readonly type: 'header'; readonly header: Int32Array; readonly taken: number };

/** Values per event in an input batch: time, code, sequence, then the payload. */
export const INPUT_RECORD_HEAD = 3;

/**
 * State buffers the worker keeps in circulation at most: the two the page holds as its pair and two in transit.
 * When all are out (the page is behind) the worker posts nothing more until one comes back, and then only its
 * newest state: a stalled page costs no memory and catches up in one message.
 */
export const MAX_STATE_BUFFERS = 4;
