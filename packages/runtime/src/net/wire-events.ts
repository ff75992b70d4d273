/**
 * Server events on the wire (net/wire.ts's comment draws the bytes): one client's events after the snapshot they
 * ride in, and the client's ack. A snapshot carries them so that they are lost or kept with the state: a client
 * that has a snapshot has every event up to its tick (ARCHITECTURE.md, "Multiplayer": events).
 */
import { ACK_BYTES, EVENTS_HEAD_BYTES, fixed, MAX_EVENT_PAYLOAD, MAX_EVENTS_PER_MESSAGE, MESSAGE, NO_BASELINE, opened, snapshotEnd, SNAPSHOT_HEAD_BYTES, WireError, writeHead, type WireFormat } from './wire-head.ts';

/**
 * Server events for one client as they travel (`values`: `count` records of `3 + width` numbers: server tick,
 * its time in server ms, code, payload), numbered in a row from `first` (mod 2^32); `lost` counts the events for
 * this client that its window had no room for since the connection opened.
 */
export interface EventBatch {
  readonly count: number;
  readonly width: number;
  readonly first: number;
  readonly lost: number;
  readonly values: Float64Array;
}

/** Bytes of an events section of `count` events with `width` payload values each. */
export function eventsBytes(count: number, width: number): number {
  return EVENTS_HEAD_BYTES + count * (3 + width) * 8;
}

/**
 * A snapshot (as `encodeSnapshot` made it) with one client's events after it: `batch.count` records laid out as
 * in `EventBatch.values`, read from record `from` of a ring of `ring` records (a window's records wrap); the
 * snapshot itself when there are none. Allocates the message: one copy of the snapshot per client with events.
 */
export function withEvents(snapshot: Uint8Array, batch: EventBatch, from = 0, ring = batch.count): Uint8Array {
  const { count, width, first, lost, values } = batch;
  if (!Number.isInteger(width) || width < 0 || width > MAX_EVENT_PAYLOAD) {
    throw new RangeError(`steadyframe: an event's payload width must be a whole number from 0 to ${MAX_EVENT_PAYLOAD}; got ${width}`);
  }
  if (!Number.isInteger(count) || count < 0 || count > MAX_EVENTS_PER_MESSAGE) throw new RangeError(`steadyframe: at most ${MAX_EVENTS_PER_MESSAGE} events a snapshot; got ${count}`);
  if (count === 0) return snapshot;
  const at = snapshot.byteLength;
  const bytes = new Uint8Array(at + eventsBytes(count, width));
  bytes.set(snapshot);
  const view = new DataView(bytes.buffer);
  view.setUint32(12, bytes.byteLength, true);
  view.setUint32(at, count, true);
  view.setUint32(at + 4, width, true);
  view.setUint32(at + 8, first >>> 0, true);
  view.setUint32(at + 12, Math.min(lost, 0xffffffff) >>> 0, true);
  const stride = 3 + width;
  for (let i = 0; i < count; i++) {
    const record = ((from + i) % ring) * stride;
    for (let j = 0; j < stride; j++) view.setFloat64(at + EVENTS_HEAD_BYTES + (i * stride + j) * 8, values[record + j]!, true);
  }
  return bytes;
}

/**
 * The events a snapshot carries for this client, or null when it carries none. Checks the whole message as
 * `decodeSnapshot` does (a snapshot it refuses is refused here too, for the same reason): ticks whole and at
 * least 0, times finite, codes whole and at least 0 (EVENTS_LOST, −1, is the client's own, never sent). Allocates
 * the batch's values (a copy: the section is not 8-aligned). Throws `WireError`.
 */
export function snapshotEvents(format: WireFormat, bytes: Uint8Array): EventBatch | null {
  const view = opened(format, bytes, MESSAGE.SNAPSHOT, SNAPSHOT_HEAD_BYTES);
  const count = view.getUint32(20, true);
  if (count > format.layout.capacity) throw new WireError('count', `${count} entities, more than this client's capacity of ${format.layout.capacity}`);
  const end = snapshotEnd(view);
  return bytes.byteLength === end ? null : eventsSection(view, end);
}

/** Checks and reads the events section at byte `at` of a snapshot, which must end the message. Throws `WireError`. */
export function eventsSection(view: DataView, at: number): EventBatch {
  const length = view.byteLength;
  if (length < at + EVENTS_HEAD_BYTES) throw new WireError('length', `the snapshot's entities take ${at} bytes, and the message has ${length}: not room for an events section`);
  const count = view.getUint32(at, true);
  const width = view.getUint32(at + 4, true);
  if (count === 0) throw new WireError('length', `${length - at} bytes past the snapshot's entities, and no events in them`);
  if (count > MAX_EVENTS_PER_MESSAGE) throw new WireError('count', `${count} events in one snapshot, more than the ${MAX_EVENTS_PER_MESSAGE} allowed`);
  if (width > MAX_EVENT_PAYLOAD) throw new WireError('count', `${width} payload values an event, more than the ${MAX_EVENT_PAYLOAD} allowed`);
  const expected = at + eventsBytes(count, width);
  if (length !== expected) throw new WireError('length', `a snapshot with ${count} events of ${width} payload values takes ${expected} bytes, and the message has ${length}`);
  const stride = 3 + width;
  const values = new Float64Array(count * stride);
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat64(at + EVENTS_HEAD_BYTES + i * 8, true);
  for (let i = 0; i < count; i++) {
    const tick = values[i * stride]!;
    const time = values[i * stride + 1]!;
    const code = values[i * stride + 2]!;
    if (!(Number.isInteger(tick) && tick >= 0) || !Number.isFinite(time)) throw new WireError('time', `event ${i}'s tick and time are ${tick}, ${time}`);
    if (!(Number.isInteger(code) && code >= 0)) throw new WireError('count', `event ${i}'s code is ${code}: a game's codes are whole numbers from 0`);
  }
  return { count, width, first: view.getUint32(at + 8, true), lost: view.getUint32(at + 12, true), values };
}

/** An acknowledgement: the events a client has, and a snapshot it decoded (a baseline the server may use). */
export interface Ack {
  /** Every event numbered below it (mod 2^32) has arrived. */
  readonly next: number;
  /** The tick of a snapshot the client decoded and keeps, or −1 for none. */
  readonly tick: number;
}

export function encodeAck(format: WireFormat, ack: Ack): Uint8Array {
  const view = new DataView(new ArrayBuffer(ACK_BYTES));
  writeHead(view, MESSAGE.ACK, format.hash, ACK_BYTES);
  view.setUint32(16, ack.next >>> 0, true);
  view.setUint32(20, ack.tick < 0 ? NO_BASELINE : ack.tick, true);
  return new Uint8Array(view.buffer);
}

/** Reads an acknowledgement. Throws `WireError`. */
export function decodeAck(format: WireFormat, bytes: Uint8Array): Ack {
  const view = fixed(format, bytes, MESSAGE.ACK, ACK_BYTES);
  const tick = view.getUint32(20, true);
  return { next: view.getUint32(16, true), tick: tick === NO_BASELINE ? -1 : tick };
}
