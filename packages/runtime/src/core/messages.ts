/** The messages of the message transport (see worker/message-transport.ts and main/message-source.ts). */

/** Main thread to worker. */
export type ToWorker =
  | { readonly type: 'frame'; readonly time: number }
  | { readonly type: 'input'; readonly events: Float64Array; readonly count: number }
  | { readonly type: 'return'; readonly block: ArrayBuffer };

/** Worker to main thread. `header` is a copy of the Int32 header words (status, overloads, heartbeat...). */
export type ToMain =
  | { readonly type: 'state'; readonly block: ArrayBuffer; readonly meta: Float64Array; readonly header: Int32Array }
  | { readonly type: 'restamp'; readonly meta: Float64Array; readonly header: Int32Array }
  | { readonly type: 'header'; readonly header: Int32Array };

/** Values per event in an input batch: time, code, sequence, then the payload. */
export const INPUT_RECORD_HEAD = 3;
