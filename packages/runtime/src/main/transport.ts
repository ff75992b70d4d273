/**
 * The page's side of a transport: how states reach this thread and how frame times and input reach the worker.
 * Two implement it, and one contract suite (test/node/transport-contract.test.ts) runs against both:
 *
 * | transport | states                                   | frame times, input                          |
 * |-----------|------------------------------------------|---------------------------------------------|
 * | shared    | the front slot of one SharedArrayBuffer, | NEXT_FRAME under its sequence lock; the     |
 * |           | read under LOCK (`SlotReader`)           | input ring in a SharedArrayBuffer of its own|
 * | message   | transferred ArrayBuffers, the last two   | messages; the input ring stays on this side |
 * |           | kept as the pair (no isolation needed)   | until the worker has taken its events       |
 *
 * The runtime talks to this interface only; it never asks which one it has.
 */
import type { InputWriter } from '../core/input-ring.ts';
import type { SharedViews } from '../core/layout.ts';
import type { AttachConfig, TransportKind } from '../core/protocol.ts';
import type { Schema } from '../core/schema.ts';
import type { StateSource } from '../core/slots.ts';

export interface MainTransport<S extends Schema> {
  readonly kind: TransportKind;
  /** What the worker's `attach` gets, and the objects transferred with it. */
  readonly attach: AttachConfig;
  readonly transfer: Transferable[];
  /** Where frames read states from. */
  readonly source: StateSource<S>;
  /**
   * The worker's Int32 header words as this thread sees them (STATUS, OVERLOADS, HEARTBEAT, READER_STALLS):
   * the shared buffer's own, or the message transport's mirror of the words the worker last sent. Read them
   * with Atomics.load.
   */
  readonly header: Int32Array;
  /** The shared buffer's views; null with the message transport. */
  readonly views: SharedViews<S> | null;
  /**
   * The input ring's writer (null without input). A push returns false when the event cannot be delivered:
   * the ring is full, or (message transport) the worker has not yet taken enough of the events sent before;
   * never dropped later. Both count the refusal in `rejected`.
   */
  readonly input: InputWriter | null;
  /**
   * Tells the worker when the next frame will be presented. Returns whether it rang the worker's doorbell
   * (woke it, core/doorbell.ts); the message transport always posts, and says false.
   */
  expectFrame(time: number): boolean;
  /**
   * COVERED, the newest state's time while the worker sleeps (-Infinity while it is awake, NaN while it is
   * being rewritten; core/doorbell.ts): shared memory only. Absent on the message transport, whose states
   * arrive as messages to this thread, which a spin would never let in.
   */
  readonly covered?: () => number;
  /** After pushes to `input`: the message transport sends them at the end of the task; shared needs nothing. */
  inputPushed(): void;
  /** Stops listening; the worker is being terminated. */
  close(): void;
}
