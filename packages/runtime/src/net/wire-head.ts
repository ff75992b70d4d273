/**
 * The wire's common part (the format itself: net/wire.ts's comment): every message's 16-byte head, its checks, the
 * message types and refusal reasons, and the wire format both ends compute from the schema and capacity. The
 * message kinds build on it: snapshots, pings and pongs (net/wire.ts), inputs (net/wire-inputs.ts), a snapshot's
 * client part and the ack (net/wire-events.ts).
 */
import type { Layout } from '../core/layout.ts';
import { fieldQuantizer, quantizeSignature, type FieldQuantizer } from '../core/quantize.ts';

/** 'SFN1' as a little-endian u32: the bytes 0x53 0x46 0x4e 0x31. */
export const WIRE_MAGIC = 0x314e4653;
/** The wire's version: a receiver refuses any other (the layout of every message may change with it). */
export const WIRE_VERSION = 5;
/** Bytes of the head every message begins with. */
export const HEAD_BYTES = 16;
/** Bytes of a snapshot before its body. */
export const SNAPSHOT_HEAD_BYTES = 48;
/** A tick the wire never carries (an ack's tick when it has none). */
export const NO_BASELINE = 0xffffffff;
/** A snapshot's baselines are at most this many ticks older than it (the head says how many back, in a u16). */
export const MAX_BASELINE_AGE = 0xffff;
export const PING_BYTES = 32;
export const PONG_BYTES = 48;
export const ACK_BYTES = 24;
/** Bytes of a snapshot's client part before its events section (what follows, the player, the input reflected). */
export const CLIENT_PART_BYTES = 12;
/** Bytes of a snapshot's events section before its records. */
export const EVENTS_HEAD_BYTES = 16;
/** Most events one snapshot may carry (a server's window per client is at most this), and most payload values. */
export const MAX_EVENTS_PER_MESSAGE = 1024;
export const MAX_EVENT_PAYLOAD = 16;
/** Bytes of an input message before its records. */
export const INPUTS_HEAD_BYTES = 32;
/** Values of an input record before its payload: when it is due, when it was made, its code. */
export const INPUT_RECORD_VALUES = 3;
/** Most input events one message may carry, and most payload values an event may have. */
export const MAX_INPUTS_PER_MESSAGE = 256;
export const MAX_INPUT_PAYLOAD = 16;
/** A send interval a snapshot may state, ms (exclusive): a minute between snapshots is no stream. */
export const MAX_INTERVAL_MS = 60_000;

/** Message types. */
export const MESSAGE = { SNAPSHOT: 1, PING: 2, PONG: 3, INPUTS: 4, ACK: 5 } as const;
export type MessageType = (typeof MESSAGE)[keyof typeof MESSAGE];
const TYPES: ReadonlySet<number> = new Set(Object.values(MESSAGE));

/** Why a message was refused: what a receiver counts. */
export type WireRefusal = 'truncated' | 'magic' | 'version' | 'type' | 'signature' | 'length' | 'count' | 'time' | 'baseline';

/** A message refused, with the reason a receiver counts and a message that says what was wrong. */
export class WireError extends Error {
  constructor(
    readonly reason: WireRefusal,
    message: string,
  ) {
    super(`steadyframe: a network message was refused (${reason}): ${message}`);
    this.name = 'WireError';
  }
}

// Float32Array and Uint32Array views read in the platform's byte order; the wire is little-endian. Every
// platform that runs browsers and Node today is: refuse the others at once rather than draw byte-swapped states.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** FNV-1a (32-bit) over the string's UTF-16 code units: the schema signature's hash on the wire. */
export function schemaHash(signature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < signature.length; i++) {
    hash ^= signature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A layout's wire format: what both ends compute from the schema and capacity they were built with. The hash
 * covers the layout's signature and every field's quantisation, so ends that quantise differently refuse each
 * other.
 */
export interface WireFormat {
  readonly layout: Layout;
  readonly hash: number;
  /** float32 values per entity, over all fields. */
  readonly valuesPerEntity: number;
  /** Game fields: one float64 each. */
  readonly gameValues: number;
  /** Each field's quantiser (core/quantize.ts), in schema order. */
  readonly quantizers: readonly FieldQuantizer[];
  /** Codes per entity, over all fields (a quaternion quantised is 4, its index among them). */
  readonly codesPerEntity: number;
  /** The bits of each of an entity's codes, in order. */
  readonly codeBits: Uint8Array;
  /** The first code of each field, and one past the last field's. */
  readonly fieldCodes: Uint16Array;
  /** How the fields are quantised, in words ('' when none is): in the hash, and in a refusal's message. */
  readonly quantized: string;
}

export function wireFormat(layout: Layout): WireFormat {
  if (!LITTLE_ENDIAN) throw new Error('steadyframe: the network wire needs a little-endian platform');
  const quantizers = layout.fields.map(fieldQuantizer);
  const fieldCodes = new Uint16Array(quantizers.length + 1);
  quantizers.forEach((q, f) => (fieldCodes[f + 1] = fieldCodes[f]! + q.codes));
  const codeBits = Uint8Array.from(quantizers.flatMap((q) => q.bits));
  const quantized = quantizeSignature(layout.fields);
  return {
    layout,
    hash: schemaHash(quantized === '' ? layout.signature : `${layout.signature}|${quantized}`),
    valuesPerEntity: layout.fields.reduce((sum, f) => sum + f.width, 0),
    gameValues: layout.game.length,
    quantizers,
    codesPerEntity: codeBits.length,
    codeBits,
    fieldCodes,
    quantized,
  };
}

/** Where a snapshot's body ends (its events, if any, begin): the head's body length checked against the message. */
export function snapshotEnd(view: DataView): number {
  const body = view.getUint32(44, true);
  const end = SNAPSHOT_HEAD_BYTES + body;
  if (end > view.byteLength) throw new WireError('truncated', `the snapshot's body is ${body} bytes, and ${view.byteLength - SNAPSHOT_HEAD_BYTES} came after its head`);
  return end;
}

/**
 * Checks a message's head and returns its type: the magic, the version, a known type, the schema hash, and a
 * declared length equal to the bytes that arrived. Throws `WireError`.
 */
export function messageType(format: WireFormat, bytes: Uint8Array): MessageType {
  if (bytes.byteLength < HEAD_BYTES) throw new WireError('truncated', `${bytes.byteLength} bytes, fewer than the ${HEAD_BYTES} of a message's head`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0, true);
  if (magic !== WIRE_MAGIC) throw new WireError('magic', `it does not begin with 'SFN1' (0x${magic.toString(16).padStart(8, '0')}): not a steadyframe message`);
  const version = view.getUint8(5);
  if (version !== WIRE_VERSION) throw new WireError('version', `wire version ${version}, where this build speaks ${WIRE_VERSION}: update the older side`);
  const type = view.getUint8(4);
  if (!TYPES.has(type)) throw new WireError('type', `unknown message type ${type}`);
  const hash = view.getUint32(8, true);
  if (hash !== format.hash) {
    throw new WireError(
      'signature',
      `the sender's schema (hash ${hash.toString(16)}) is not this one (${format.layout.signature}${format.quantized === '' ? '' : `, quantised ${format.quantized}`}, hash ${format.hash.toString(16)}): both ends must be built with the same schema, its quantize included`,
    );
  }
  const length = view.getUint32(12, true);
  if (length !== bytes.byteLength) {
    throw new WireError(length > bytes.byteLength ? 'truncated' : 'length', `the head says ${length} bytes, and ${bytes.byteLength} arrived`);
  }
  return type as MessageType;
}

/** Writes the 16-byte head every message begins with. */
export function writeHead(view: DataView, type: MessageType, hash: number, length: number): void {
  view.setUint32(0, WIRE_MAGIC, true);
  view.setUint8(4, type);
  view.setUint8(5, WIRE_VERSION);
  view.setUint16(6, 0, true); // a snapshot's send number: its encoder writes it
  view.setUint32(8, hash, true);
  view.setUint32(12, length, true);
}

/** A message of `type`, its head checked, at least `headBytes` long (its type's own head): a view over it. */
export function opened(format: WireFormat, bytes: Uint8Array, type: MessageType, headBytes: number): DataView {
  const got = messageType(format, bytes);
  if (got !== type) throw new WireError('type', `a message of type ${got} where type ${type} was expected`);
  if (bytes.byteLength < headBytes) throw new WireError('truncated', `${bytes.byteLength} bytes, fewer than the ${headBytes}-byte head of a message of type ${type}`);
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A fixed-size message of `type`, its head checked. */
export function fixed(format: WireFormat, bytes: Uint8Array, type: MessageType, size: number): DataView {
  const view = opened(format, bytes, type, HEAD_BYTES);
  if (bytes.byteLength !== size) throw new WireError('length', `a message of type ${type} has ${size} bytes; this one has ${bytes.byteLength}`);
  return view;
}
