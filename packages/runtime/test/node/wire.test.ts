/**
 * The multiplayer wire (src/net/wire.ts): snapshots and pings survive the trip bit for bit, and every message a
 * broken or hostile peer can make is either a whole valid message or refused with its reason, before anything is
 * written: truncated at every length, padded, of another schema, another version, bytes flipped at random.
 */
import { describe, expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { mulberry32 } from 'steadyframe/testing';
import { computeLayout, generationView, type Layout } from '../../src/core/layout.ts';
import {
  ACK_BYTES,
  decodeAck,
  encodeAck,
  eventsBytes,
  snapshotEvents,
  snapshotClientPart,
  withClientPart,
  CLIENT_PART_BYTES,
  decodeInputs,
  decodePing,
  decodePong,
  decodeSnapshot,
  encodeInputs,
  encodePing,
  encodePong,
  INPUTS_HEAD_BYTES,
  encodeSnapshot,
  messageType,
  MESSAGE,
  PING_BYTES,
  PONG_BYTES,
  schemaHash,
  SNAPSHOT_HEAD_BYTES,
  WireError,
  wireFormat,
  snapshotSend,
  WIRE_VERSION,
  type SnapshotHead,
  type WireFormat,
} from '../../src/net/wire.ts';

const mixed = defineSchema({
  position: { width: 3, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 3, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
  heading: { width: 1, kind: 'angle' },
  sprite: { width: 2, kind: 'none' },
});
const flat = defineSchema({ position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } });

/** A block of `layout` (a Float32Array over all of it) and its generation run. */
function block(layout: Layout): { values: Float32Array; generation: Uint32Array } {
  const buffer = new ArrayBuffer(layout.blockBytes);
  return { values: new Float32Array(buffer), generation: generationView(buffer, 0, layout) };
}

/** A block of random bits: NaNs with payloads, infinities, -0 and denormals among them. */
function randomBlock(layout: Layout, random: () => number) {
  const b = block(layout);
  const bits = new Uint32Array(b.values.buffer);
  for (let i = 0; i < bits.length; i++) bits[i] = (random() * 2 ** 32) >>> 0;
  return b;
}

const bitsOf = (view: Float32Array | Uint32Array) => Array.from(new Uint32Array(view.buffer, view.byteOffset, view.length));

/** Expects `run` to throw a WireError for `reason`. */
function refused(run: () => unknown, reason: WireError['reason']): WireError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a refusal (${reason})`).toBeInstanceOf(WireError);
  expect((caught as WireError).reason).toBe(reason);
  return caught as WireError;
}

function snapshot(format: WireFormat, count: number, seed = 1, head: Partial<SnapshotHead> = {}) {
  const state = randomBlock(format.layout, mulberry32(seed));
  const bytes = encodeSnapshot(format, { tick: 4242, time: 123456.789, count, snaps: 3, ...head }, state.values, state.generation);
  return { state, bytes };
}

describe('snapshots', () => {
  for (const [name, schema, capacity] of [
    ['a mixed schema', mixed, 37],
    ['a flat schema', flat, 1000],
  ] as const) {
    it(`arrive bit for bit, the live part only, at every count (${name})`, () => {
      const format = wireFormat(computeLayout(schema, capacity));
      for (const count of [0, 1, 2, Math.floor(capacity / 3), capacity - 1, capacity]) {
        const { state, bytes } = snapshot(format, count, count + 7, { tick: 0xfffffffe, time: -0.5, snaps: count, interval: 50 + count });
        // what the receiver held before: untouched past the live entities
        const into = randomBlock(format.layout, mulberry32(99));
        const before = bitsOf(into.values);
        expect(decodeSnapshot(format, bytes, into.values, into.generation)).toEqual({ tick: 0xfffffffe, time: -0.5, count, snaps: count, interval: 50 + count, send: 0, baseline: -1, older: -1 });
        const after = bitsOf(into.values);
        for (const field of format.layout.fields) {
          const start = field.offset / 4;
          const live = count * field.width;
          expect(after.slice(start, start + live), field.name).toEqual(bitsOf(state.values).slice(start, start + live));
          expect(after.slice(start + live, start + field.length), `${field.name} past the live entities`).toEqual(before.slice(start + live, start + field.length));
        }
        expect(bitsOf(into.generation).slice(0, count)).toEqual(bitsOf(state.generation).slice(0, count));
        expect(bitsOf(into.generation).slice(count)).toEqual(bitsOf(randomBlock(format.layout, mulberry32(99)).generation).slice(count));
      }
    });
  }

  it('lay out as the wire says: the head, its baseline (none: a full snapshot) and body length, then the body', () => {
    const format = wireFormat(computeLayout(flat, 4));
    const state = block(format.layout);
    const views = { position: new Float32Array(state.values.buffer, format.layout.fields[0]!.offset, 8), angle: new Float32Array(state.values.buffer, format.layout.fields[1]!.offset, 4) };
    views.position.set([1, 2, 3, 4, 5, 6, 7, 8]);
    views.angle.set([0.5, 0.25, 9, 9]);
    state.generation.set([7, 8, 9, 9]);
    const bytes = encodeSnapshot(format, { tick: 10, time: 1000.5, count: 2, snaps: 1, interval: 33.25 }, state.values, state.generation);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('SFN1');
    const view = new DataView(bytes.buffer);
    expect([view.getUint8(4), view.getUint8(5), view.getUint32(8, true), view.getUint32(12, true)]).toEqual([MESSAGE.SNAPSHOT, WIRE_VERSION, schemaHash('position:linear:2;angle:angle:1'), bytes.byteLength]);
    expect([view.getUint32(16, true), view.getUint32(20, true), view.getFloat64(24, true), view.getUint32(32, true), view.getFloat32(36, true)]).toEqual([10, 2, 1000.5, 1, 33.25]);
    // no baseline (0 ticks back), no older one, the body's bytes
    expect([view.getUint16(40, true), view.getUint16(42, true), view.getUint32(44, true)]).toEqual([0, 0, bytes.byteLength - SNAPSHOT_HEAD_BYTES]);
    // unquantised: 2 entities of 3 float32s and a generation, each a Rice code against zeros, in fewer bytes than raw
    expect(bytes.byteLength - SNAPSHOT_HEAD_BYTES).toBeLessThan(2 * 4 * 4 + 8);
  });

  it("carry the publisher's send number in the head's word 6, modulo 2^16 (0 when not given)", () => {
    const format = wireFormat(computeLayout(flat, 4));
    const state = block(format.layout);
    const sent = (send?: number) => encodeSnapshot(format, { tick: 10, time: 1, count: 1, snaps: 0, ...(send === undefined ? {} : { send }) }, state.values, state.generation);
    expect([snapshotSend(sent()), snapshotSend(sent(7)), snapshotSend(sent(65_535)), snapshotSend(sent(65_536 + 9))]).toEqual([0, 7, 65_535, 9]);
    const into = block(format.layout);
    expect(decodeSnapshot(format, sent(300), into.values, into.generation).send).toBe(300);
  });

  it('decode from a message at an odd offset (a slice of a pooled buffer)', () => {
    const format = wireFormat(computeLayout(mixed, 10));
    const { state, bytes } = snapshot(format, 10);
    const pooled = new Uint8Array(bytes.byteLength + 3);
    pooled.set(bytes, 1);
    const into = block(format.layout);
    decodeSnapshot(format, pooled.subarray(1, 1 + bytes.byteLength), into.values, into.generation);
    // a Node Buffer at an odd offset (whose slice() is a view, not a copy), as the `ws` package hands them over
    const buffer = Buffer.alloc(bytes.byteLength + 3);
    buffer.set(bytes, 3);
    decodeSnapshot(format, buffer.subarray(3), into.values, into.generation);
    const start = format.layout.fields[2]!.offset / 4;
    expect(bitsOf(into.values.subarray(start, start + 40))).toEqual(bitsOf(state.values.subarray(start, start + 40)));
    expect(bitsOf(into.generation)).toEqual(bitsOf(state.generation));
  });

  it('refuse counts, ticks and times the wire cannot carry, when encoding', () => {
    const format = wireFormat(computeLayout(flat, 4));
    const state = block(format.layout);
    const encode = (head: Partial<SnapshotHead>) => () => encodeSnapshot(format, { tick: 1, time: 1, count: 1, snaps: 0, ...head }, state.values, state.generation);
    expect(encode({ count: 5 })).toThrow(/count must be a whole number from 0 to the capacity \(4\); got 5/);
    expect(encode({ count: 1.5 })).toThrow(/count/);
    expect(encode({ tick: -1 })).toThrow(/tick/);
    expect(encode({ tick: 2 ** 32 })).toThrow(/tick/);
    expect(encode({ tick: 2 ** 32 - 1 })).toThrow(/tick/); // NO_BASELINE
    expect(encode({ time: Number.NaN })).toThrow(/time must be finite/);
    expect(encode({ interval: -1 })).toThrow(/send interval must be from 0 to 60000 ms; got -1/);
    expect(encode({ interval: Number.POSITIVE_INFINITY })).toThrow(/send interval/);
    expect(encode({ interval: Number.NaN })).toThrow(/send interval/);
  });
});

describe('refusals', () => {
  const format = wireFormat(computeLayout(mixed, 16));
  const decode = (bytes: Uint8Array) => {
    const into = block(format.layout);
    return () => decodeSnapshot(format, bytes, into.values, into.generation);
  };

  it('a message cut short at every length', () => {
    const { bytes } = snapshot(format, 5);
    for (let n = 0; n < bytes.byteLength; n++) refused(decode(bytes.slice(0, n)), 'truncated');
  });

  it('a message with bytes past its length', () => {
    const { bytes } = snapshot(format, 5);
    const padded = new Uint8Array(bytes.byteLength + 4);
    padded.set(bytes);
    expect(refused(decode(padded), 'length').message).toMatch(/the head says \d+ bytes, and \d+ arrived/);
  });

  it("another schema's, naming both", () => {
    const other = wireFormat(computeLayout(flat, 16));
    const { bytes } = snapshot(other, 3);
    expect(refused(decode(bytes), 'signature').message).toMatch(/both ends must be built with the same schema/);
  });

  it('not ours, another version, an unknown type', () => {
    const { bytes } = snapshot(format, 2);
    const poke = (offset: number, value: number) => {
      const copy = bytes.slice();
      copy[offset] = value;
      return copy;
    };
    refused(decode(poke(0, 0x47)), 'magic');
    expect(refused(decode(poke(5, WIRE_VERSION + 1)), 'version').message).toMatch(/update the older side/);
    refused(decode(poke(4, 9)), 'type');
    refused(decode(encodePing(format, { sequence: 1, clientSent: 5 })), 'type');
  });

  it('a count past the capacity, or past the bytes', () => {
    const big = wireFormat(computeLayout(mixed, 64));
    refused(decode(snapshot(big, 17).bytes), 'count');
    expect(() => decode(snapshot(big, 16).bytes)()).not.toThrow();
    // a count the body does not hold
    const { bytes } = snapshot(format, 4);
    const lying = bytes.slice();
    new DataView(lying.buffer).setUint32(20, 16, true);
    refused(decode(lying), 'truncated');
    // a body length past the message
    const long = bytes.slice();
    new DataView(long.buffer).setUint32(44, bytes.byteLength, true);
    refused(decode(long), 'truncated');
  });

  it('a time that is not a number', () => {
    const { bytes } = snapshot(format, 1);
    new DataView(bytes.buffer).setFloat64(24, Number.POSITIVE_INFINITY, true);
    refused(decode(bytes), 'time');
  });

  it('a send interval that is not a number of ms from 0 to a minute', () => {
    for (const interval of [Number.NaN, -1, Number.POSITIVE_INFINITY, 60_000]) {
      const { bytes } = snapshot(format, 1);
      new DataView(bytes.buffer).setFloat32(36, interval, true);
      expect(refused(decode(bytes), 'time').message).toMatch(/send interval/);
    }
  });

  it('20,000 messages with random bytes flipped or cut: each decodes whole or is refused, and a refusal writes nothing', () => {
    const random = mulberry32(2024);
    const { bytes } = snapshot(format, 9);
    const reasons = new Map<string, number>();
    let decoded = 0;
    for (let i = 0; i < 20_000; i++) {
      let message = bytes.slice();
      const flips = 1 + Math.floor(random() * 3);
      for (let f = 0; f < flips; f++) {
        // most flips land in the head, where the checks are
        const at = random() < 0.7 ? Math.floor(random() * SNAPSHOT_HEAD_BYTES) : Math.floor(random() * message.byteLength);
        message[at] = (random() * 256) | 0;
      }
      if (random() < 0.2) message = message.slice(0, Math.floor(random() * message.byteLength));
      const into = randomBlock(format.layout, mulberry32(i));
      const before = bitsOf(into.values);
      try {
        const head = decodeSnapshot(format, message, into.values, into.generation);
        decoded++;
        expect(head.count).toBeLessThanOrEqual(16);
        expect(Number.isFinite(head.time)).toBe(true);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        reasons.set(error.reason, (reasons.get(error.reason) ?? 0) + 1);
        expect(bitsOf(into.values)).toEqual(before);
      }
    }
    // both outcomes happen: some flips in the body decode; flips in the head are refused, for every reason reachable
    expect(decoded).toBeGreaterThan(0);
    for (const reason of ['truncated', 'magic', 'version', 'type', 'signature', 'length', 'baseline']) expect(reasons.get(reason) ?? 0, reason).toBeGreaterThan(0);
  });
});

describe('pings and pongs', () => {
  const format = wireFormat(computeLayout(flat, 8));

  it('carry their times exactly', () => {
    const ping = { sequence: 0xfffffffe, clientSent: 1234.5678901 };
    const bytes = encodePing(format, ping);
    expect(bytes.byteLength).toBe(PING_BYTES);
    expect(messageType(format, bytes)).toBe(MESSAGE.PING);
    expect(decodePing(format, bytes)).toEqual(ping);
    const pong = { ...ping, serverReceived: 99_999_999.125, serverSent: 100_000_000.25 };
    const answer = encodePong(format, pong);
    expect(answer.byteLength).toBe(PONG_BYTES);
    expect(messageType(format, answer)).toBe(MESSAGE.PONG);
    expect(decodePong(format, answer)).toEqual(pong);
  });

  it('are refused as anything else, cut short, or with times that are not numbers', () => {
    const ping = encodePing(format, { sequence: 1, clientSent: 2 });
    const pong = encodePong(format, { sequence: 1, clientSent: 2, serverReceived: 3, serverSent: 4 });
    refused(() => decodePong(format, ping), 'type');
    refused(() => decodePing(format, pong), 'type');
    refused(() => decodePing(format, ping.slice(0, 20)), 'truncated');
    const bad = pong.slice();
    new DataView(bad.buffer).setFloat64(32, Number.NaN, true);
    refused(() => decodePong(format, bad), 'time');
    // a ping whose head claims the right length but whose size is another type's
    const long = new Uint8Array(PONG_BYTES);
    long.set(ping);
    new DataView(long.buffer).setUint32(12, PONG_BYTES, true);
    refused(() => decodePing(format, long), 'length');
  });
});

describe('input events', () => {
  const format = wireFormat(computeLayout(flat, 8));

  it('carry due time, time made, code and payload exactly (due: the time made when not given), missing payload values as 0, from any offset', () => {
    const bytes = encodeInputs(format, [{ time: 1234.5, due: 1300.25, code: 3, payload: [1, 2, 3, 4] }, { time: -0.25, code: 0 }], 3);
    expect(bytes.byteLength).toBe(INPUTS_HEAD_BYTES + 2 * 6 * 8);
    expect(messageType(format, bytes)).toBe(MESSAGE.INPUTS);
    const pooled = new Uint8Array(bytes.byteLength + 4);
    pooled.set(bytes, 4);
    const node = Buffer.alloc(bytes.byteLength + 5);
    node.set(bytes, 5);
    for (const message of [bytes, pooled.subarray(4), node.subarray(5)]) {
      const batch = decodeInputs(format, message);
      expect([batch.count, batch.width, batch.first, Array.from(batch.values)]).toEqual([2, 3, 0, [1300.25, 1234.5, 3, 1, 2, 3, -0.25, -0.25, 0, 0, 0, 0]]);
    }
    // numbered from the first event's sequence, a u32
    for (const first of [1, 2 ** 32 - 1]) expect(decodeInputs(format, encodeInputs(format, [{ time: 1, code: 1 }], 0, first)).first).toBe(first);
  });

  it('are refused too many, too wide, cut, or due or made at a time that is not a number; and not encoded so', () => {
    const many = encodeInputs(format, [], 0);
    new DataView(many.buffer).setUint32(16, 257, true);
    refused(() => decodeInputs(format, many), 'count');
    const wide = encodeInputs(format, [], 0);
    new DataView(wide.buffer).setUint32(20, 17, true);
    refused(() => decodeInputs(format, wide), 'count');
    const lying = encodeInputs(format, [{ time: 1, code: 1 }], 0);
    new DataView(lying.buffer).setUint32(16, 2, true);
    refused(() => decodeInputs(format, lying), 'length');
    refused(() => decodeInputs(format, encodeInputs(format, [{ time: Number.NEGATIVE_INFINITY, code: 1 }], 0)), 'time');
    refused(() => decodeInputs(format, encodeInputs(format, [{ time: 1, due: Number.NaN, code: 1 }], 0)), 'time');
    refused(() => decodeInputs(format, encodeInputs(format, [{ time: Number.NaN, due: 1, code: 1 }], 0)), 'time');
    refused(() => decodeInputs(format, encodePing(format, { sequence: 1, clientSent: 1 })), 'type');
    expect(() => encodeInputs(format, [], 17)).toThrow(/payload width must be a whole number from 0 to 16; got 17/);
    expect(() => encodeInputs(format, Array.from({ length: 257 }, () => ({ time: 0, code: 0 })), 0)).toThrow(/at most 256 input events a message; got 257/);
    for (const first of [-1, 2 ** 32, 0.5]) expect(() => encodeInputs(format, [], 0, first)).toThrow(/first sequence must be a whole number from 0 to 2\^32 - 1; got /);
  });
});

describe('game fields (wire version 3)', () => {
  const game = defineSchema({
    position: { width: 2, kind: 'linear' },
    score: { kind: 'none', scope: 'game' },
    timer: { kind: 'linear', scope: 'game' },
    heading: { kind: 'angle', scope: 'game' },
  });

  it('arrive bit for bit after the generations, at every count, from any offset', () => {
    const format = wireFormat(computeLayout(game, 9));
    expect(format.gameValues).toBe(3);
    for (const count of [0, 1, 9]) {
      const { state, bytes } = snapshot(format, count, count + 3);
      const sent = new Float64Array(state.values.buffer, format.layout.gameOffset, 3);
      const node = Buffer.alloc(bytes.byteLength + 3);
      node.set(bytes, 3);
      for (const message of [bytes, node.subarray(3)]) {
        const into = block(format.layout);
        decodeSnapshot(format, message, into.values, into.generation);
        const got = new Float64Array(into.values.buffer, format.layout.gameOffset, 3);
        // random bits: NaN payloads among them, so compare the bits
        expect(Array.from(new Uint32Array(got.buffer, got.byteOffset, 6))).toEqual(Array.from(new Uint32Array(sent.buffer, sent.byteOffset, 6)));
      }
      // a snapshot one game value short is refused: its body ends before the value
      const short = withLength(bytes.slice(0, -8));
      new DataView(short.buffer).setUint32(44, short.byteLength - SNAPSHOT_HEAD_BYTES, true);
      refused(() => decodeSnapshot(format, short, block(format.layout).values, block(format.layout).generation), 'truncated');
    }
  });

  it('cost a schema without them nothing: a full snapshot of no entities is its head and 2 bytes (a Rice parameter a code, the mode of the changed set)', () => {
    const format = wireFormat(computeLayout(flat, 4));
    expect(format.gameValues).toBe(0);
    const state = block(format.layout);
    expect(encodeSnapshot(format, { tick: 1, time: 0, count: 0, snaps: 0 }, state.values, state.generation).byteLength).toBe(SNAPSHOT_HEAD_BYTES + 2);
  });
});

/** A copy of `bytes` whose head's length is its own (a message cut short and relabelled). */
function withLength(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(12, copy.byteLength, true);
  return copy;
}

describe('server events in a snapshot, and acks', () => {
  const format = wireFormat(computeLayout(flat, 8));
  const plain = () => snapshot(format, 3, 4).bytes;

  it('carry tick, time, code and payload exactly after the snapshot, numbered from the first, read from a ring that wraps; the snapshot decodes as before', () => {
    // a ring of 3 records of width 2, read from record 2: records 2, 0, 1
    const ring = new Float64Array([10, 100.5, 1, 1, 2, 11, 101.5, 2, 3, 4, 9, 99.25, 0, -1, 0.5]);
    const { state, bytes: alone } = snapshot(format, 3, 4);
    const bytes = withClientPart(alone, { player: -1, reflected: -1, events: { count: 3, width: 2, first: 2 ** 32 - 1, lost: 7, values: ring }, from: 2, ring: 3 });
    expect(bytes.byteLength).toBe(alone.byteLength + CLIENT_PART_BYTES + eventsBytes(3, 2));
    expect(snapshotEvents(format, alone)).toBeNull();
    expect(snapshotClientPart(format, bytes)!.reflected).toBe(-1);
    // none: the same bytes
    expect(withClientPart(alone, { player: -1, reflected: -1, events: { count: 0, width: 2, first: 0, lost: 0, values: ring } })).toBe(alone);
    const node = Buffer.alloc(bytes.byteLength + 1);
    node.set(bytes, 1);
    for (const message of [bytes, node.subarray(1)]) {
      const batch = snapshotEvents(format, message)!;
      expect([batch.count, batch.width, batch.first, batch.lost]).toEqual([3, 2, 2 ** 32 - 1, 7]);
      expect(Array.from(batch.values)).toEqual([9, 99.25, 0, -1, 0.5, 10, 100.5, 1, 1, 2, 11, 101.5, 2, 3, 4]);
      const into = block(format.layout);
      expect(decodeSnapshot(format, message, into.values, into.generation).count).toBe(3);
      expect(bitsOf(into.values.subarray(0, 6))).toEqual(bitsOf(state.values.subarray(0, 6)));
    }
    const ack = encodeAck(format, { next: 2 ** 32 - 1, tick: 2 ** 32 - 2 });
    expect(ack.byteLength).toBe(ACK_BYTES);
    expect(messageType(format, ack)).toBe(MESSAGE.ACK);
    expect(decodeAck(format, ack)).toEqual({ next: 2 ** 32 - 1, tick: 2 ** 32 - 2 });
    expect(decodeAck(format, encodeAck(format, { next: 3, tick: -1 }))).toEqual({ next: 3, tick: -1 });
  });

  it('are refused with a tick, time or code that is not one, too many, too wide, cut, or none; the snapshot with them', () => {
    const one = (tick: number, time: number, code: number) => withClientPart(plain(), { player: -1, reflected: -1, events: { count: 1, width: 1, first: 0, lost: 0, values: new Float64Array([tick, time, code, 5]) } });
    const both = (bytes: Uint8Array, reason: WireError['reason']) => {
      refused(() => snapshotEvents(format, bytes), reason);
      const into = block(format.layout);
      refused(() => decodeSnapshot(format, bytes, into.values, into.generation), reason);
    };
    both(one(-1, 0, 0), 'time');
    both(one(1.5, 0, 0), 'time');
    both(one(1, Number.NaN, 0), 'time');
    both(one(1, 0, -1), 'count');
    both(one(1, 0, 0.5), 'count');
    const at = plain().byteLength + CLIENT_PART_BYTES;
    const many = one(1, 0, 0);
    new DataView(many.buffer).setUint32(at, 1025, true);
    both(many, 'count');
    const wide = one(1, 0, 0);
    new DataView(wide.buffer).setUint32(at + 4, 17, true);
    both(wide, 'count');
    both(withLength(one(1, 0, 0).slice(0, -8)), 'length');
    // a section of no events (16 bytes of padding, say) is refused, not taken as none
    const padded = new Uint8Array(at + 16);
    padded.set(plain());
    both(withLength(padded), 'length');
    refused(() => decodeAck(format, withLength(encodeAck(format, { next: 1, tick: -1 }).slice(0, 20))), 'length');
    refused(() => decodeAck(format, encodePing(format, { sequence: 1, clientSent: 1 })), 'type');
    expect(() => withClientPart(plain(), { player: -1, reflected: -1, events: { count: 1, width: 17, first: 0, lost: 0, values: new Float64Array(20) } })).toThrow(/payload width must be a whole number from 0 to 16/);
  });

  it("say the client's player and the newest of its inputs the state reflects, alone or with events, exactly across the u32 range; refuse a part that says nothing or what it cannot", () => {
    const { state, bytes: alone } = snapshot(format, 3, 4);
    const events = { count: 1, width: 1, first: 5, lost: 0, values: new Float64Array([7, 70.5, 2, 9]) };
    for (const [player, reflected] of [[0, -1], [3, 0], [-1, 1], [2 ** 32 - 1, 2 ** 31], [7, 2 ** 32 - 1]] as const) {
      const only = withClientPart(alone, { player, reflected, events: null });
      expect(only.byteLength).toBe(alone.byteLength + CLIENT_PART_BYTES);
      expect(snapshotClientPart(format, only)).toEqual({ player, reflected, events: null });
      expect(snapshotEvents(format, only)).toBeNull();
      const both = withClientPart(alone, { player, reflected, events });
      const part = snapshotClientPart(format, both)!;
      expect([part.player, part.reflected, part.events!.first, Array.from(part.events!.values)]).toEqual([player, reflected, 5, [7, 70.5, 2, 9]]);
      for (const message of [only, both]) {
        const into = block(format.layout);
        expect(decodeSnapshot(format, message, into.values, into.generation).count).toBe(3);
        expect(bitsOf(into.values.subarray(0, 6))).toEqual(bitsOf(state.values.subarray(0, 6)));
      }
    }
    expect(snapshotClientPart(format, alone)).toBeNull();
    expect(withClientPart(alone, { player: -1, reflected: -1, events: null })).toBe(alone);
    for (const bad of [-2, 0.5, 2 ** 32]) {
      expect(() => withClientPart(alone, { player: -1, reflected: bad, events: null })).toThrow(/input a snapshot reflects is a whole number from 0 to 2\^32 - 1, or -1 for none/);
      expect(() => withClientPart(alone, { player: bad, reflected: -1, events: null })).toThrow(/snapshot's player is a whole number from 0 to 2\^32 - 1, or -1 for none/);
    }
    const both = (bytes: Uint8Array, reason: WireError['reason']) => {
      refused(() => snapshotClientPart(format, bytes), reason);
      const into = block(format.layout);
      refused(() => decodeSnapshot(format, bytes, into.values, into.generation), reason);
    };
    const at = alone.byteLength;
    const said = () => withClientPart(alone, { player: 1, reflected: 3, events: null });
    for (const has of [0, 8, 0x80000001]) {
      const bytes = said();
      new DataView(bytes.buffer).setUint32(at, has, true);
      both(bytes, 'length');
    }
    // bytes past a part that says no events follow, and a part cut short
    const long = new Uint8Array(at + CLIENT_PART_BYTES + 8);
    long.set(said());
    both(withLength(long), 'length');
    both(withLength(said().slice(0, -4)), 'length');
    // a part that says events follow, and has none
    const none = said();
    new DataView(none.buffer).setUint32(at, 7, true);
    both(none, 'length');
  });
});

it('hashes the schema signature with FNV-1a', () => {
  expect(schemaHash('')).toBe(0x811c9dc5);
  expect(schemaHash('a')).toBe(0xe40c292c);
  expect(schemaHash('foobar')).toBe(0xbf9cf968);
  expect(wireFormat(computeLayout(mixed, 1)).hash).not.toBe(wireFormat(computeLayout(flat, 1)).hash);
});
