/**
 * Input messages on the wire (net/wire.ts's comment draws the bytes): a client's input events, each with two
 * times (ARCHITECTURE.md, "Prediction, reconciliation and lag compensation"):
 * - `due`: the server time it is to be applied at. A client that predicts stamps it for the server tick its
 *   prediction put it in (net/input-schedule.ts holds it on the server until then); one that does not, with its
 *   render time, and the server applies it at its next tick.
 * - `time`: the server time of the state the client was showing when it was made (its render time): what lag
 *   compensation looks back to.
 */
import { INPUT_RECORD_VALUES, INPUTS_HEAD_BYTES, MAX_INPUT_PAYLOAD, MAX_INPUTS_PER_MESSAGE, MESSAGE, opened, PING_BYTES, WireError, writeHead, type WireFormat } from './wire-head.ts';

/**
 * The largest message a client sends (net/network-client.ts): an input message of MAX_INPUTS_PER_MESSAGE events
 * with `inputWidth` payload values each, or a ping, whichever is larger. A server's WebSocket `maxPayload` set to
 * this refuses anything bigger in the frame's header, before a byte of it is buffered (`ws` defaults to 100 MiB).
 */
export function maxClientMessageBytes(inputWidth: number): number {
  if (!Number.isInteger(inputWidth) || inputWidth < 0 || inputWidth > MAX_INPUT_PAYLOAD) {
    throw new RangeError(`steadyframe: an input's payload width must be a whole number from 0 to ${MAX_INPUT_PAYLOAD}; got ${String(inputWidth)}`);
  }
  return Math.max(PING_BYTES, INPUTS_HEAD_BYTES + MAX_INPUTS_PER_MESSAGE * (INPUT_RECORD_VALUES + inputWidth) * 8);
}

/** One input event as a client sends it. Times are server ms. */
export interface InputEvent {
  /** The client's render time when it was made: the server time of the state it was showing. */
  readonly time: number;
  /** When the server is to apply it (default `time`: at the server's next tick). */
  readonly due?: number | undefined;
  readonly code: number;
  readonly payload?: ArrayLike<number>;
}

/**
 * Input events as they arrived: `values` holds `count` records of `INPUT_RECORD_VALUES + width` numbers (due,
 * time, code, payload); the first is the client's event number `first`, the next `first + 1` and so on (mod 2^32).
 */
export interface InputBatch {
  readonly count: number;
  readonly width: number;
  readonly first: number;
  readonly values: Float64Array;
}

/**
 * Encodes input events with `width` payload values each (missing values are 0, extra ones dropped), numbered in
 * a row from `first` (a whole number from 0 to 2^32 − 1).
 */
export function encodeInputs(format: WireFormat, events: readonly InputEvent[], width: number, first = 0): Uint8Array {
  if (!Number.isInteger(width) || width < 0 || width > MAX_INPUT_PAYLOAD) {
    throw new RangeError(`steadyframe: an input's payload width must be a whole number from 0 to ${MAX_INPUT_PAYLOAD}; got ${width}`);
  }
  if (events.length > MAX_INPUTS_PER_MESSAGE) throw new RangeError(`steadyframe: at most ${MAX_INPUTS_PER_MESSAGE} input events a message; got ${events.length}`);
  if (!Number.isInteger(first) || first < 0 || first > 0xffffffff) throw new RangeError(`steadyframe: an input message's first sequence must be a whole number from 0 to 2^32 - 1; got ${first}`);
  const stride = INPUT_RECORD_VALUES + width;
  const bytes = INPUTS_HEAD_BYTES + events.length * stride * 8;
  const buffer = new ArrayBuffer(bytes);
  const view = new DataView(buffer);
  writeHead(view, MESSAGE.INPUTS, format.hash, bytes);
  view.setUint32(16, events.length, true);
  view.setUint32(20, width, true);
  view.setUint32(24, first, true);
  const values = new Float64Array(buffer, INPUTS_HEAD_BYTES);
  events.forEach((event, i) => {
    const at = i * stride;
    values[at] = event.due ?? event.time;
    values[at + 1] = event.time;
    values[at + 2] = event.code;
    const payload = event.payload ?? [];
    for (let j = 0; j < width; j++) values[at + INPUT_RECORD_VALUES + j] = j < payload.length ? payload[j]! : 0;
  });
  return new Uint8Array(buffer);
}

/**
 * Checks and reads an input message. Both times must be finite; codes and payloads are the receiver's to judge
 * (it knows which codes its game has). `values` is a view of the message (a copy where the message is not 8-byte
 * aligned): read it before the message's buffer is reused. Throws `WireError`.
 */
export function decodeInputs(format: WireFormat, bytes: Uint8Array): InputBatch {
  const view = opened(format, bytes, MESSAGE.INPUTS, INPUTS_HEAD_BYTES);
  const count = view.getUint32(16, true);
  const width = view.getUint32(20, true);
  const first = view.getUint32(24, true);
  if (count > MAX_INPUTS_PER_MESSAGE) throw new WireError('count', `${count} input events in one message, more than the ${MAX_INPUTS_PER_MESSAGE} allowed`);
  if (width > MAX_INPUT_PAYLOAD) throw new WireError('count', `${width} payload values an event, more than the ${MAX_INPUT_PAYLOAD} allowed`);
  const stride = INPUT_RECORD_VALUES + width;
  const expected = INPUTS_HEAD_BYTES + count * stride * 8;
  if (bytes.byteLength !== expected) throw new WireError('length', `${count} events of ${width} payload values take ${expected} bytes, and the message has ${bytes.byteLength}`);
  // float64 views need 8-byte alignment
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const values = new Float64Array(aligned.buffer, aligned.byteOffset + INPUTS_HEAD_BYTES, count * stride);
  for (let i = 0; i < count; i++) {
    const due = values[i * stride]!;
    const time = values[i * stride + 1]!;
    if (!Number.isFinite(due) || !Number.isFinite(time)) throw new WireError('time', `input event ${i}'s times are ${due} (due) and ${time} (made)`);
  }
  return { count, width, first, values };
}
