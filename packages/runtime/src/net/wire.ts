/**
 * The multiplayer wire: the binary messages between a server's snapshot publisher and a client (ARCHITECTURE.md,
 * "Multiplayer"). Little-endian, one message per WebSocket frame (or whatever carries whole messages).
 *
 * ```text
 *  every message: the head, 16 bytes
 *    0 u32 magic 'SFN1'   4 u8 type   5 u8 version   6 u16 send number   8 u32 schema hash   12 u32 byte length
 *    (the send number: a snapshot's, below; 0 in every other message)
 *
 *  snapshot (type 1): the head, then
 *    16 u32 tick   20 u32 count   24 f64 server time (ms)   32 u32 snaps   36 f32 send interval (ms; 0 unknown)
 *    40 u16 the baseline, ticks before this one (0: none, a full snapshot)   42 u16 the older baseline's (0: none)
 *    44 u32 the body's bytes
 *    48 the body (net/delta-body.ts): the state's codes (core/quantize.ts) as changes from the baseline, its
 *       motion since the older one carried on; the game fields exact
 *       then, to a client the server has something to say to alone, its client part (E = 48 + the body's
 *       bytes, not 8-aligned; net/wire-events.ts):
 *       E+0 u32 what follows: bit 0 the player, bit 1 the input reflected, bit 2 events (other bits 0; a part
 *           saying none is refused)
 *       E+4 u32 the player the server numbers this client's inputs as (their first payload value; 0 without bit 0)
 *       E+8 u32 the newest of this client's input numbers the state reflects: its ticks consumed it (0 without
 *           bit 1): what the client's reconciliation replays after
 *       E+12 (bit 2) the client's server events it has not acknowledged, to the message's end:
 *         +0 u32 count   +4 u32 payload width   +8 u32 first event's sequence
 *         +12 u32 lost: events for this client its window had no room for, since the connection opened
 *         +16 count records of (3 + width) float64: the server tick that emitted it, that tick's time (server ms),
 *            its code, its payload. Numbered in a row from the first's sequence (the server's count of this
 *            connection's events, from 0, wrapping at 2^32). They ride in the snapshot so that they are lost or
 *            kept with it: a client that has a snapshot has every event up to its tick (net/event-window.ts)
 *  ping (type 2):  16 u32 sequence   20 u32 reserved   24 f64 client send time                       (32 bytes)
 *  pong (type 3):  16 u32 sequence   20 u32 reserved   24 f64 client send time (echoed)
 *                  32 f64 server receive time   40 f64 server send time                                (48 bytes)
 *  inputs (type 4): 16 u32 count   20 u32 payload width   24 u32 first event's sequence   28 u32 reserved (0)
 *                  32 count records of (3 + width) float64: when it is due (server ms: the tick the client's
 *                  prediction put it in, or its render time: at the server's next tick), when it was made (the
 *                  client's render time, in server ms: what lag compensation looks back to), its code, its
 *                  payload (net/wire-inputs.ts). The events are numbered in a row from the first's sequence (a
 *                  client's count of its events, wrapping at 2^32; the first message on a connection sets where it
 *                  stands): a client sends each event in more than one message, and the server takes each number
 *                  once (net/client-inputs.ts)
 *  ack (type 5, client to server):
 *                  16 u32 next: every event numbered below it has arrived
 *                  20 u32 the tick of the snapshot it decoded (0xffffffff: none)                      (24 bytes)
 * ```
 *
 * The schema hash (FNV-1a of the schema's signature, the string the shared buffer's layout is checked by, and of
 * each field's quantisation) makes a client of another build refuse the server's messages instead of drawing them
 * as garbage. Decoding trusts nothing it read: the head's length must be the length that arrived, a snapshot's
 * count must fit the receiver's capacity, its baselines must be states it has, and every read of the body is
 * checked against the body's end. A message that fails says why (`WireError.reason`, which the receiver counts): a
 * broken or hostile peer costs the receiver the check, never a crash or a read out of bounds. A field without
 * `quantize` crosses bit for bit (a NaN the simulation wrote arrives as written).
 */
import { BitReader, BitWriter } from './bits.ts';
import { decodeBody, DeltaScratch, encodeBody } from './delta-body.ts';
import { dequantizeState, quantizeState, SnapshotCodes, type BaselineWindow } from './snapshot-codes.ts';
import { clientPart } from './wire-events.ts';
import {
  fixed,
  MAX_INTERVAL_MS,
  MAX_BASELINE_AGE,
  MESSAGE,
  messageType,
  NO_BASELINE,
  opened,
  PING_BYTES,
  PONG_BYTES,
  SNAPSHOT_HEAD_BYTES,
  snapshotEnd,
  WireError,
  writeHead,
  type WireFormat,
} from './wire-head.ts';

// the whole wire from one module: its head and format, and the events in a snapshot
export {
  ACK_BYTES,
  CLIENT_PART_BYTES,
  EVENTS_HEAD_BYTES,
  HEAD_BYTES,
  INPUT_RECORD_VALUES,
  INPUTS_HEAD_BYTES,
  MAX_EVENT_PAYLOAD,
  MAX_EVENTS_PER_MESSAGE,
  MAX_INPUT_PAYLOAD,
  MAX_INPUTS_PER_MESSAGE,
  MAX_INTERVAL_MS,
  MESSAGE,
  messageType,
  PING_BYTES,
  PONG_BYTES,
  schemaHash,
  MAX_BASELINE_AGE,
  NO_BASELINE,
  SNAPSHOT_HEAD_BYTES,
  snapshotEnd,
  WIRE_MAGIC,
  WIRE_VERSION,
  WireError,
  wireFormat,
} from './wire-head.ts';
export type { MessageType, WireFormat, WireRefusal } from './wire-head.ts';
export { decodeAck, encodeAck, eventsBytes, snapshotClientPart, snapshotEvents, withClientPart } from './wire-events.ts';
export type { Ack, ClientPart, ClientPartOut, EventBatch } from './wire-events.ts';
export { decodeInputs, encodeInputs, maxClientMessageBytes } from './wire-inputs.ts';
export type { InputBatch, InputEvent } from './wire-inputs.ts';
export { BASELINE_WINDOW, BaselineWindow, dequantizeState, quantizeState, SnapshotCodes } from './snapshot-codes.ts';

/** What a snapshot says besides its fields. */
export interface SnapshotHead {
  /** The simulation tick the state is from. */
  readonly tick: number;
  /** When the server made it, in ms of the server's clock. */
  readonly time: number;
  /** Live entities: entities 0 to count − 1. */
  readonly count: number;
  /** Entities the simulation marked to snap at this tick (0: none; the generations say which). */
  readonly snaps: number;
  /**
   * The server's send interval, ms between snapshots as it means to send them (the client's playout delay is
   * sized from it before its own samples say more); 0 (the default) for unknown.
   */
  readonly interval?: number;
  /**
   * The publisher's send number, modulo 2^16 (default 0): one more at each state it sends, the same in every
   * client's message of that send. A client counts the numbers it never got as lost; gaps in the ticks are not
   * losses (a server sends the newest state, however many ticks past the last one its loop came late).
   */
  readonly send?: number;
  /** The tick of the state the snapshot is a delta against, or −1 for none (a full snapshot): decoding says it. */
  readonly baseline?: number;
  /** The tick of the older state its motion is carried on from, or −1 for none: decoding says it. */
  readonly older?: number;
}

/** What encoding and decoding snapshots reuse: made once per publisher or client, nothing allocated per snapshot but the message. */
export class SnapshotCoder {
  readonly writer = new BitWriter();
  readonly reader = new BitReader();
  readonly scratch: DeltaScratch;
  /** For the one-call `encodeSnapshot` / `decodeSnapshot`: a state's codes. */
  readonly codes: SnapshotCodes;

  /** `capacity`: the most entities a snapshot it codes has (the layout's by default). */
  constructor(
    readonly format: WireFormat,
    capacity = format.layout.capacity,
  ) {
    this.scratch = new DeltaScratch(format, capacity);
    this.codes = new SnapshotCodes(format, capacity);
  }
}

function checkHead(format: WireFormat, head: SnapshotHead): number {
  const count = head.count;
  if (!Number.isInteger(count) || count < 0 || count > format.layout.capacity) {
    throw new RangeError(`steadyframe: a snapshot's count must be a whole number from 0 to the capacity (${format.layout.capacity}); got ${count}`);
  }
  if (!Number.isInteger(head.tick) || head.tick < 0 || head.tick >= NO_BASELINE) {
    throw new RangeError(`steadyframe: a snapshot's tick must be a whole number from 0 to 2^32 - 2; got ${head.tick}`);
  }
  if (!Number.isFinite(head.time)) throw new RangeError(`steadyframe: a snapshot's time must be finite; got ${head.time}`);
  const interval = head.interval ?? 0;
  if (!(interval >= 0 && interval < MAX_INTERVAL_MS)) throw new RangeError(`steadyframe: a snapshot's send interval must be from 0 to ${MAX_INTERVAL_MS} ms; got ${interval}`);
  return interval;
}

/**
 * Encodes `state` (its codes: net/snapshot-codes.ts) as a snapshot against `base` (a state the client acknowledged;
 * null: a full snapshot) and, to carry motion on, `older` (one it acknowledged before `base`; null: none). Each must
 * be at most MAX_BASELINE_AGE ticks older than `state`. Allocates the message: encode once per pair of baselines and
 * send the same bytes to every client that has them.
 */
export function encodeDelta(coder: SnapshotCoder, head: SnapshotHead, state: SnapshotCodes, base: SnapshotCodes | null, older: SnapshotCodes | null = null): Uint8Array {
  const format = coder.format;
  const interval = checkHead(format, head);
  if (state.count !== head.count) throw new RangeError(`steadyframe: a snapshot's count (${head.count}) is not its state's (${state.count})`);
  const back = base === null ? 0 : head.tick - base.tick;
  const olderBack = base === null || older === null ? 0 : head.tick - older.tick;
  if (base !== null && !(back >= 1 && back <= MAX_BASELINE_AGE)) throw new RangeError(`steadyframe: a baseline must be 1 to ${MAX_BASELINE_AGE} ticks older than the snapshot; tick ${base.tick} for tick ${head.tick}`);
  if (olderBack !== 0 && !(olderBack > back && olderBack <= MAX_BASELINE_AGE)) throw new RangeError(`steadyframe: the older baseline (tick ${older!.tick}) must be older than the baseline (tick ${base!.tick}) and within ${MAX_BASELINE_AGE} ticks`);
  const w = coder.writer;
  w.reset();
  encodeBody(format, state, { base, older: olderBack === 0 ? null : older, ahead: back, apart: olderBack - back }, w, coder.scratch);
  const body = w.byteLength;
  const bytes = new Uint8Array(SNAPSHOT_HEAD_BYTES + body);
  const view = new DataView(bytes.buffer);
  writeHead(view, MESSAGE.SNAPSHOT, format.hash, bytes.byteLength);
  view.setUint16(6, (head.send ?? 0) & 0xffff, true);
  view.setUint32(16, head.tick, true);
  view.setUint32(20, head.count, true);
  view.setFloat64(24, head.time, true);
  view.setUint32(32, head.snaps >>> 0, true);
  view.setFloat32(36, interval, true);
  view.setUint16(40, back, true);
  view.setUint16(42, olderBack, true);
  view.setUint32(44, body, true);
  w.copyTo(bytes, SNAPSHOT_HEAD_BYTES);
  return bytes;
}

const coders = new WeakMap<WireFormat, SnapshotCoder>();
const coderOf = (format: WireFormat): SnapshotCoder => {
  let coder = coders.get(format);
  if (coder === undefined) coders.set(format, (coder = new SnapshotCoder(format)));
  return coder;
};

/**
 * Encodes a state (a block of `format.layout`: `block` over all of it, its game run included; `generation` its
 * generation run) as a full snapshot: quantised, against no baseline. Allocates the message.
 */
export function encodeSnapshot(format: WireFormat, head: SnapshotHead, block: Float32Array, generation: Uint32Array): Uint8Array {
  checkHead(format, head);
  const coder = coderOf(format);
  quantizeState(format, block, generation, head.count, coder.codes);
  coder.codes.tick = head.tick;
  return encodeDelta(coder, head, coder.codes, null, null);
}

/** A snapshot's send number as its head says it (NaN for a message too short to hold one), read before it is decoded. */
export function snapshotSend(bytes: Uint8Array): number {
  return bytes.byteLength < 8 ? Number.NaN : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(6, true);
}

/** A snapshot's tick as its head says it (NaN for a message too short to hold one), read before the snapshot is decoded. */
export function snapshotTick(bytes: Uint8Array): number {
  return bytes.byteLength < 20 ? Number.NaN : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(16, true);
}

/**
 * Decodes a snapshot's state into `out` (its codes), against its baseline as `baselines` has it (null: full
 * snapshots only). Returns the head. Throws `WireError` for a message that is not a whole, valid snapshot, or one
 * whose baseline is not there (`baseline`); `out` is then the caller's to give back.
 */
export function decodeDelta(coder: SnapshotCoder, bytes: Uint8Array, baselines: BaselineWindow | null, out: SnapshotCodes): SnapshotHead {
  const format = coder.format;
  const view = opened(format, bytes, MESSAGE.SNAPSHOT, SNAPSHOT_HEAD_BYTES);
  const count = view.getUint32(20, true);
  if (count > format.layout.capacity) throw new WireError('count', `${count} entities, more than this client's capacity of ${format.layout.capacity}`);
  const end = snapshotEnd(view);
  if (bytes.byteLength !== end) clientPart(view, end);
  const time = view.getFloat64(24, true);
  if (!Number.isFinite(time)) throw new WireError('time', `the snapshot's time is ${time}`);
  const interval = view.getFloat32(36, true);
  if (!(interval >= 0 && interval < MAX_INTERVAL_MS)) throw new WireError('time', `the snapshot's send interval is ${interval} ms`);
  const tick = view.getUint32(16, true);
  const back = view.getUint16(40, true);
  const olderBack = view.getUint16(42, true);
  const find = (ticksBack: number, what: string): SnapshotCodes => {
    const found = ticksBack > tick ? null : (baselines?.find(tick - ticksBack) ?? null);
    if (found === null) throw new WireError('baseline', `a delta of tick ${tick} against ${what} ${ticksBack} ticks before it, which this client does not have`);
    return found;
  };
  if (back === 0 && olderBack !== 0) throw new WireError('baseline', 'an older baseline with no baseline');
  if (olderBack !== 0 && olderBack <= back) throw new WireError('baseline', `an older baseline ${olderBack} ticks back, not before the baseline's ${back}`);
  const base = back === 0 ? null : find(back, 'a baseline');
  const older = olderBack === 0 ? null : find(olderBack, 'an older baseline');
  const r = coder.reader.open(bytes, SNAPSHOT_HEAD_BYTES, end - SNAPSHOT_HEAD_BYTES);
  decodeBody(format, r, count, { base, older, ahead: back, apart: olderBack - back }, out, coder.scratch);
  // whole bytes: what is left is the last byte's padding, never more
  if (r.remaining >= 8) throw new WireError('length', `${r.remaining} bits of the snapshot's body left unread`);
  const baseTick = back === 0 ? -1 : tick - back;
  out.tick = tick;
  return { tick, time, count, snaps: view.getUint32(32, true), interval, send: view.getUint16(6, true), baseline: baseTick, older: olderBack === 0 ? -1 : tick - olderBack };
}

/**
 * Decodes a full snapshot into a block of `format.layout` (`block` over all of it, `generation` its generation
 * run): entities 0 to count − 1 of every field and their generations, and the game run; the rest of the block is
 * left as it was. Returns the head. Throws `WireError` (and writes nothing) for a message that is not a whole,
 * valid snapshot, or one that is a delta (`baseline`: a client decodes those with `decodeDelta`).
 */
export function decodeSnapshot(format: WireFormat, bytes: Uint8Array, block: Float32Array, generation: Uint32Array): SnapshotHead {
  const coder = coderOf(format);
  const head = decodeDelta(coder, bytes, null, coder.codes);
  dequantizeState(format, coder.codes, block, generation);
  return head;
}

/** A ping: the client's sequence number and its clock when it sent the ping. */
export interface Ping {
  readonly sequence: number;
  readonly clientSent: number;
}

/** A pong: the ping echoed, and the server's clock when it received the ping and when it answered. */
export interface Pong extends Ping {
  readonly serverReceived: number;
  readonly serverSent: number;
}

export function encodePing(format: WireFormat, ping: Ping): Uint8Array {
  const view = new DataView(new ArrayBuffer(PING_BYTES));
  writeHead(view, MESSAGE.PING, format.hash, PING_BYTES);
  view.setUint32(16, ping.sequence >>> 0, true);
  view.setFloat64(24, ping.clientSent, true);
  return new Uint8Array(view.buffer);
}

export function decodePing(format: WireFormat, bytes: Uint8Array): Ping {
  const view = fixed(format, bytes, MESSAGE.PING, PING_BYTES);
  const clientSent = view.getFloat64(24, true);
  if (!Number.isFinite(clientSent)) throw new WireError('time', `the ping's send time is ${clientSent}`);
  return { sequence: view.getUint32(16, true), clientSent };
}

export function encodePong(format: WireFormat, pong: Pong): Uint8Array {
  const view = new DataView(new ArrayBuffer(PONG_BYTES));
  writeHead(view, MESSAGE.PONG, format.hash, PONG_BYTES);
  view.setUint32(16, pong.sequence >>> 0, true);
  view.setFloat64(24, pong.clientSent, true);
  view.setFloat64(32, pong.serverReceived, true);
  view.setFloat64(40, pong.serverSent, true);
  return new Uint8Array(view.buffer);
}

export function decodePong(format: WireFormat, bytes: Uint8Array): Pong {
  const view = fixed(format, bytes, MESSAGE.PONG, PONG_BYTES);
  const pong = { sequence: view.getUint32(16, true), clientSent: view.getFloat64(24, true), serverReceived: view.getFloat64(32, true), serverSent: view.getFloat64(40, true) };
  if (!Number.isFinite(pong.clientSent) || !Number.isFinite(pong.serverReceived) || !Number.isFinite(pong.serverSent)) {
    throw new WireError('time', `the pong's times are ${pong.clientSent}, ${pong.serverReceived}, ${pong.serverSent}`);
  }
  return pong;
}
