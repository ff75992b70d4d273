/**
 * A snapshot's client part on the wire (net/wire.ts's comment draws the bytes): what the server says to one client
 * after the state it shares with the others: the newest of the client's inputs the state reflects (what
 * reconciliation replays after), and the client's server events; and the client's ack. A snapshot carries them so
 * that they are lost or kept with the state: a client that has a snapshot has every event up to its tick, and
 * knows which of its inputs made it (ARCHITECTURE.md, "Multiplayer": events; "Prediction, reconciliation and lag
 * compensation").
 */
import { ACK_BYTES, CLIENT_PART_BYTES, EVENTS_HEAD_BYTES, fixed, MAX_EVENT_PAYLOAD, MAX_EVENTS_PER_MESSAGE, MESSAGE, NO_BASELINE, opened, snapshotEnd, SNAPSHOT_HEAD_BYTES, WireError, writeHead, type WireFormat } from './wire-head.ts';

/** The client part's first word: which of its parts follow. */
const HAS_PLAYER = 1;
const HAS_REFLECTED = 2;
const HAS_EVENTS = 4;

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

/** What a snapshot says to one client besides the state it shares with the others. */
export interface ClientPart {
  /** The player the server numbers this client's inputs as (their first payload value), or −1 for none said. */
  readonly player: number;
  /** The newest of the client's input numbers the state reflects (its ticks consumed it), or −1 for none. */
  readonly reflected: number;
  /** The client's server events it has not acknowledged, or null for none. */
  readonly events: EventBatch | null;
}

/** A client part to write: `events` read from record `from` of a ring of `ring` records (a window's records wrap). */
export interface ClientPartOut extends ClientPart {
  readonly from?: number;
  readonly ring?: number;
}

const u32OrNone = (value: number, what: string): number => {
  if (value === -1 || (Number.isInteger(value) && value >= 0 && value <= 0xffffffff)) return value;
  throw new RangeError(`steadyframe: ${what} is a whole number from 0 to 2^32 - 1, or -1 for none; got ${value}`);
};

/**
 * A snapshot (as `encodeSnapshot` made it) with one client's part after it: its player and the newest of its
 * inputs the state reflects (each −1: not said), and `events.count` events laid out as in `EventBatch.values`; the
 * snapshot itself when it says nothing to the client. Allocates the message: one copy of the snapshot per client
 * with a part.
 */
export function withClientPart(snapshot: Uint8Array, part: ClientPartOut): Uint8Array {
  const batch = part.events;
  const count = batch?.count ?? 0;
  const width = batch?.width ?? 0;
  if (!Number.isInteger(width) || width < 0 || width > MAX_EVENT_PAYLOAD) {
    throw new RangeError(`steadyframe: an event's payload width must be a whole number from 0 to ${MAX_EVENT_PAYLOAD}; got ${width}`);
  }
  if (!Number.isInteger(count) || count < 0 || count > MAX_EVENTS_PER_MESSAGE) throw new RangeError(`steadyframe: at most ${MAX_EVENTS_PER_MESSAGE} events a snapshot; got ${count}`);
  const player = u32OrNone(part.player, "a snapshot's player");
  const reflected = u32OrNone(part.reflected, 'the input a snapshot reflects');
  const has = (player === -1 ? 0 : HAS_PLAYER) | (reflected === -1 ? 0 : HAS_REFLECTED) | (count === 0 ? 0 : HAS_EVENTS);
  if (has === 0) return snapshot;
  const at = snapshot.byteLength;
  const bytes = new Uint8Array(at + CLIENT_PART_BYTES + (count === 0 ? 0 : eventsBytes(count, width)));
  bytes.set(snapshot);
  const view = new DataView(bytes.buffer);
  view.setUint32(12, bytes.byteLength, true);
  view.setUint32(at, has, true);
  view.setUint32(at + 4, player === -1 ? 0 : player, true);
  view.setUint32(at + 8, reflected === -1 ? 0 : reflected, true);
  if (count === 0) return bytes;
  const { first, lost, values } = batch!;
  const from = part.from ?? 0;
  const ring = part.ring ?? count;
  const events = at + CLIENT_PART_BYTES;
  view.setUint32(events, count, true);
  view.setUint32(events + 4, width, true);
  view.setUint32(events + 8, first >>> 0, true);
  view.setUint32(events + 12, Math.min(lost, 0xffffffff) >>> 0, true);
  const stride = 3 + width;
  for (let i = 0; i < count; i++) {
    const record = ((from + i) % ring) * stride;
    for (let j = 0; j < stride; j++) view.setFloat64(events + EVENTS_HEAD_BYTES + (i * stride + j) * 8, values[record + j]!, true);
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
  return snapshotClientPart(format, bytes)?.events ?? null;
}

/** The client part a snapshot carries (`snapshotEvents`' checks), or null when it carries none. Throws `WireError`. */
export function snapshotClientPart(format: WireFormat, bytes: Uint8Array): ClientPart | null {
  const view = opened(format, bytes, MESSAGE.SNAPSHOT, SNAPSHOT_HEAD_BYTES);
  const count = view.getUint32(20, true);
  if (count > format.layout.capacity) throw new WireError('count', `${count} entities, more than this client's capacity of ${format.layout.capacity}`);
  const end = snapshotEnd(view);
  return bytes.byteLength === end ? null : clientPart(view, end);
}

/** Checks and reads the client part at byte `at` of a snapshot, which must end the message. Throws `WireError`. */
export function clientPart(view: DataView, at: number): ClientPart {
  const length = view.byteLength;
  if (length < at + CLIENT_PART_BYTES) throw new WireError('length', `the snapshot's entities take ${at} bytes, and the message has ${length}: not room for a client part`);
  const has = view.getUint32(at, true);
  if (has === 0 || (has & ~(HAS_PLAYER | HAS_REFLECTED | HAS_EVENTS)) !== 0) throw new WireError('length', `a client part that says ${has} of what follows (1: the player, 2: the input reflected, 4: events)`);
  const player = (has & HAS_PLAYER) === 0 ? -1 : view.getUint32(at + 4, true);
  const reflected = (has & HAS_REFLECTED) === 0 ? -1 : view.getUint32(at + 8, true);
  const events = at + CLIENT_PART_BYTES;
  if ((has & HAS_EVENTS) === 0) {
    if (length !== events) throw new WireError('length', `${length - events} bytes past a client part with no events`);
    return { player, reflected, events: null };
  }
  return { player, reflected, events: eventsSection(view, events) };
}

/** Checks and reads the events section at byte `at` of a snapshot's client part, which must end the message. Throws `WireError`. */
function eventsSection(view: DataView, at: number): EventBatch {
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
