/**
 * Snapshots at a fraction of the bytes (issue 40): quantisation per field, bodies coded as changes from a baseline
 * the client acknowledged, and the one property that matters most: over a link that loses, delays and reorders,
 * every snapshot the client decodes equals the server's quantised state of its tick, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from 'steadyframe/testing';
import { defineSchema, defineTables } from 'steadyframe';
import { computeLayout } from '../../src/core/layout.ts';
import { fieldQuantizer } from '../../src/core/quantize.ts';
import { ClientBaseline, DeltaDecoder, DeltaEncoder } from '../../src/net/delta-stream.ts';
import { decodeSnapshot, encodeSnapshot, quantizeState, SnapshotCodes, WireError, wireFormat, type WireFormat } from '../../src/net/wire.ts';
import { gameView, generationView } from '../../src/core/layout.ts';
import { quantizeFields } from 'steadyframe/worker';

const schema = defineSchema({
  position: { width: 2, kind: 'linear', quantize: { min: -1000, max: 1000, precision: 1 / 64 } },
  angle: { width: 1, kind: 'angle', quantize: { bits: 12 } },
  rotation: { width: 4, kind: 'quaternion', quantize: { bits: 9 } },
  colour: { width: 1, kind: 'none' },
  score: { kind: 'none', scope: 'game' },
});


function block(format: WireFormat) {
  const buffer = new ArrayBuffer(format.layout.blockBytes);
  return { block: new Float32Array(buffer), generation: generationView(buffer, 0, format.layout), game: gameView(buffer, 0, format.layout) };
}

const SNAPSHOTS = Number(process.env.STEADYFRAME_DELTA_SNAPSHOTS ?? 100_000);
const fieldOf = (format: WireFormat, name: string) => format.layout.fields.find((f) => f.name === name)!;

describe('quantisation', () => {
  const format = wireFormat(computeLayout(schema, 4));

  it('a range in steps of its precision: the nearest step, clamped to the range; NaN is its first step', () => {
    const q = fieldQuantizer(fieldOf(format, 'position'));
    expect(q.bits).toEqual([17, 17]);
    const values = new Float32Array([3.01, -2000, Number.NaN, 1e9]);
    const raw = new Uint32Array(values.buffer);
    const codes = new Uint32Array(4);
    q.encode(values, raw, 0, codes, 0);
    q.encode(values, raw, 2, codes, 2);
    const back = new Float32Array(4);
    q.decode(codes, 0, back, new Uint32Array(back.buffer), 0);
    q.decode(codes, 2, back, new Uint32Array(back.buffer), 2);
    expect(back[0]).toBe(3.015625); // 192.64 steps of 1/64: the 193rd
    expect(back[1]).toBe(-1000);
    expect(back[2]).toBe(-1000);
    expect(back[3]).toBe(1000);
  });

  it('an angle wraps: a turn and a bit is the bit, within half a step', () => {
    const q = fieldQuantizer(fieldOf(format, 'angle'));
    const step = (2 * Math.PI) / 4096;
    for (const a of [0.5, -0.5, 2 * Math.PI + 0.5, Math.PI - 1e-4, -3 * Math.PI]) {
      const values = new Float32Array([a]);
      const codes = new Uint32Array(1);
      q.encode(values, new Uint32Array(values.buffer), 0, codes, 0);
      const back = new Float32Array(1);
      q.decode(codes, 0, back, new Uint32Array(back.buffer), 0);
      const diff = Math.atan2(Math.sin(back[0]! - a), Math.cos(back[0]! - a));
      expect(Math.abs(diff)).toBeLessThanOrEqual(step / 2 + 1e-6);
      expect(back[0]).toBeGreaterThan(-Math.PI);
      expect(back[0]).toBeLessThanOrEqual(Math.PI + 1e-6);
    }
  });

  it('a quaternion by its smallest three: the same rotation (q or −q) within a 9-bit step, unit length; NaN is the identity', () => {
    const q = fieldQuantizer(fieldOf(format, 'rotation'));
    expect(q.bits).toEqual([2, 9, 9, 9]);
    const next = random(7);
    for (let n = 0; n < 2000; n++) {
      const v = [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5];
      const len = Math.hypot(...v);
      const values = new Float32Array(v.map((x) => (x / len) * (n % 2 === 0 ? 1 : -1)));
      const codes = new Uint32Array(4);
      q.encode(values, new Uint32Array(values.buffer), 0, codes, 0);
      const back = new Float32Array(4);
      q.decode(codes, 0, back, new Uint32Array(back.buffer), 0);
      const dot = Math.abs(back[0]! * values[0]! + back[1]! * values[1]! + back[2]! * values[2]! + back[3]! * values[3]!);
      // three components each within half a step of √2 / 510: the angle between them is small
      expect(dot).toBeGreaterThan(Math.cos(0.01));
      expect(Math.hypot(...back)).toBeCloseTo(1, 5);
    }
    const nan = new Float32Array([Number.NaN, 0, 0, 0]);
    const codes = new Uint32Array(4);
    q.encode(nan, new Uint32Array(nan.buffer), 0, codes, 0);
    const back = new Float32Array(4);
    q.decode(codes, 0, back, new Uint32Array(back.buffer), 0);
    expect([...back]).toEqual([0, 0, 0, 1]);
  });

  it('a field without quantize crosses as its float32 bits (a NaN with a payload as written)', () => {
    const layout = computeLayout(schema, 2);
    const f = wireFormat(layout);
    const state = block(f);
    const colour = fieldOf(f, 'colour');
    const raw = new Uint32Array(state.block.buffer);
    raw[colour.offset / 4] = 0x7fc01234;
    state.block[colour.offset / 4 + 1] = -0;
    const bytes = encodeSnapshot(f, { tick: 1, time: 0, count: 2, snaps: 0 }, state.block, state.generation);
    const out = block(f);
    decodeSnapshot(f, bytes, out.block, out.generation);
    const outRaw = new Uint32Array(out.block.buffer);
    expect(outRaw[colour.offset / 4]).toBe(0x7fc01234);
    expect(Object.is(out.block[colour.offset / 4 + 1], -0)).toBe(true);
  });

  it('refuses a quantize that does not fit the field, naming it', () => {
    expect(() => defineSchema({ a: { width: 1, kind: 'angle', quantize: { min: 0, max: 1, precision: 0.1 } as never } })).toThrow(/"a"'s quantize: an angle is quantised by bits alone/);
    expect(() => defineSchema({ a: { width: 1, kind: 'linear', quantize: { min: 1, max: 0, precision: 0.1 } } })).toThrow(/finite range, min below max/);
    expect(() => defineSchema({ a: { width: 1, kind: 'linear', quantize: { min: 0, max: 1, precision: 0.1, bits: 4 } as never } })).toThrow(/one of them/);
    expect(() => defineSchema({ a: { width: 1, kind: 'linear', quantize: { min: 0, max: 1e6, precision: 1e-6 } } })).toThrow(/more than 30 bits/);
    expect(() => defineSchema({ a: { width: 4, kind: 'quaternion', quantize: { bits: 16 } } })).toThrow(/from 1 to 15/);
  });

  it('ends that quantise differently refuse each other by the hash; tables carry a field quantised', () => {
    const other = defineSchema({ ...schema, position: { width: 2, kind: 'linear', quantize: { min: -1000, max: 1000, precision: 1 / 32 } } });
    expect(wireFormat(computeLayout(other, 4)).hash).not.toBe(format.hash);
    expect(computeLayout(other, 4).signature).toBe(computeLayout(schema, 4).signature);
    const tables = defineTables({ ships: { capacity: 2, fields: { position: { width: 2, kind: 'linear', quantize: { min: 0, max: 100, bits: 10 } } } } });
    expect(wireFormat(computeLayout(tables, 2)).codeBits[0]).toBe(10);
  });
});

/** A world of `capacity` entities that moves, spawns, despawns and snaps: its block after each step. */
function world(format: WireFormat, seed: number) {
  const next = random(seed);
  const state = block(format);
  const layout = format.layout;
  const pos = layout.fields.find((f) => f.name === 'position')!.offset / 4;
  const angle = layout.fields.find((f) => f.name === 'angle')!.offset / 4;
  const rot = layout.fields.find((f) => f.name === 'rotation')!.offset / 4;
  const colour = layout.fields.find((f) => f.name === 'colour')!.offset / 4;
  let count = Math.floor(layout.capacity / 2);
  for (let i = 0; i < layout.capacity; i++) state.block[rot + i * 4 + 3] = 1;
  return {
    state,
    get count() {
      return count;
    },
    step() {
      if (next() < 0.05) count = Math.min(layout.capacity, count + 1 + Math.floor(next() * 3));
      if (next() < 0.05) count = Math.max(0, count - 1 - Math.floor(next() * 3));
      for (let i = 0; i < count; i++) {
        // most move a little; some rest; a few jump (a snap, a new generation)
        const r = next();
        if (r < 0.3) continue;
        state.block[pos + 2 * i] = state.block[pos + 2 * i]! + (next() - 0.5) * 4;
        state.block[pos + 2 * i + 1] = state.block[pos + 2 * i + 1]! + (next() - 0.5) * 4;
        state.block[angle + i] = state.block[angle + i]! + (next() - 0.5) * 0.2;
        const a = next() * 0.1;
        state.block[rot + 4 * i] = Math.sin(a);
        state.block[rot + 4 * i + 3] = Math.cos(a);
        if (r > 0.995) {
          state.generation[i] = state.generation[i]! + 1;
          state.block[pos + 2 * i] = (next() - 0.5) * 3000;
          state.block[colour + i] = next();
        }
      }
      state.game[0] = Math.floor(next() * 4) === 0 ? state.game[0]! + 1 : state.game[0]!;
    },
  };
}

describe('deltas against acknowledged baselines', () => {
  it('a delta decodes to the state, and an unchanged state costs a few bytes whatever its count', () => {
    const format = wireFormat(computeLayout(schema, 1000));
    const w = world(format, 1);
    const encoder = new DeltaEncoder(format);
    const decoder = new DeltaDecoder(format);
    const client = new ClientBaseline();
    for (let t = 1; t <= 3; t++) {
      w.step();
      encoder.push({ tick: t, time: t * 50, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
      const { state, kept } = decoder.decode(encoder.messageFor(client.acked))!;
      expect(kept).toBe(true);
      expect(state.codes).toEqual(encoder.window.find(t)!.codes);
      client.ack(encoder, t);
    }
    encoder.push({ tick: 4, time: 200, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
    const still = encoder.messageFor(client.acked);
    expect(still.byteLength - 48).toBeLessThan(20);
    expect(encoder.stats).toEqual({ full: 1, deltas: 3 });
  });

  it('a delta against a baseline the client lacks is refused (baseline), and nothing is kept', () => {
    const format = wireFormat(computeLayout(schema, 16));
    const w = world(format, 2);
    const encoder = new DeltaEncoder(format);
    for (let t = 1; t <= 2; t++) {
      w.step();
      encoder.push({ tick: t, time: t, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
    }
    const decoder = new DeltaDecoder(format);
    expect(() => decoder.decode(encoder.messageFor(1))).toThrow(/baseline/);
    expect(decoder.window.newest).toBe(-1);
  });

  it('over a link that loses 10%, delays and reorders, 100,000 snapshots each decode to the server state of their tick', () => {
    const format = wireFormat(computeLayout(schema, 48));
    const w = world(format, 3);
    const encoder = new DeltaEncoder(format);
    const decoder = new DeltaDecoder(format);
    const client = new ClientBaseline();
    const next = random(4);
    // messages in flight: [arrival step, bytes or acked tick]
    const down: [number, Uint8Array][] = [];
    const up: [number, number][] = [];
    const truth = new Map<number, Uint32Array>();
    const delay = (): number => 2 + Math.floor(next() * 6) + (next() < 0.05 ? 20 : 0);
    let decoded = 0;
    let late = 0;
    let wrong = 0;
    let carried = 0;
    let deltas = 0;
    for (let t = 1; t <= SNAPSHOTS; t++) {
      w.step();
      encoder.push({ tick: t, time: t, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
      truth.set(t, encoder.window.find(t)!.codes.slice(0, w.count * format.codesPerEntity));
      truth.delete(t - 200);
      if (next() > 0.1) down.push([t + delay(), client.message(encoder)]);
      for (let i = down.length - 1; i >= 0; i--) {
        if (down[i]![0] > t) continue;
        const bytes = down.splice(i, 1)[0]![1];
        const result = decoder.decode(bytes);
        if (result === null) {
          late++;
          continue;
        }
        const { head, state, kept } = result;
        decoded++;
        if (head.baseline! >= 0) deltas++;
        if (head.older! >= 0) carried++;
        const expected = truth.get(head.tick)!;
        let same = state.count * format.codesPerEntity === expected.length;
        for (let j = 0; same && j < expected.length; j++) same = state.codes[j] === expected[j];
        if (!same) wrong++;
        if (kept && next() > 0.1) up.push([t + delay(), head.tick]);
      }
      for (let i = up.length - 1; i >= 0; i--) if (up[i]![0] <= t) client.ack(encoder, up.splice(i, 1)[0]![1]);
    }
    expect(wrong).toBe(0);
    expect(decoded).toBeGreaterThan(85_000);
    // the window's argument (net/snapshot-codes.ts): only a snapshot that 32 newer ones overtook misses its baseline
    // (a delay of 20 steps more than the others, 5% of them, never does that here)
    expect(late).toBe(0);
    expect(deltas / decoded).toBeGreaterThan(0.95);
    // most carry motion on from an older baseline (the acks of two snapshots in a row)
    expect(carried / decoded).toBeGreaterThan(0.8);
  }, 120_000);

  it('motion carried on from two baselines: entities at a steady pace cost nothing, a turn costs its change', () => {
    const steady = defineSchema({ position: { width: 2, kind: 'linear', quantize: { min: -1000, max: 1000, precision: 1 / 100 } }, angle: { width: 1, kind: 'angle', quantize: { bits: 12 } } });
    const format = wireFormat(computeLayout(steady, 1000));
    const state = block(format);
    const encoder = new DeltaEncoder(format);
    const decoder = new DeltaDecoder(format);
    const client = new ClientBaseline();
    const pos = format.layout.fields[0]!.offset / 4;
    const angle = format.layout.fields[1]!.offset / 4;
    const sizes: number[] = [];
    for (let t = 1; t <= 12; t++) {
      for (let i = 0; i < 1000; i++) {
        // a whole number of steps a tick: the carried-on motion is exact; entity 7 turns at tick 10
        state.block[pos + 2 * i] = -500 + i * 0.5 + t * 0.25;
        state.block[pos + 2 * i + 1] = i === 7 && t >= 10 ? 3 - (t - 10) * 0.5 : t * 0.5 - 3;
        // whole steps of a turn (4,096 of them), wrapping past π
        state.block[angle + i] = ((t * (i % 5) * 40) % 4096) * ((2 * Math.PI) / 4096);
      }
      encoder.push({ tick: t, time: t, count: 1000, snaps: 0 }, state.block, state.generation);
      const bytes = client.message(encoder);
      const { head, state: got } = decoder.decode(bytes)!;
      expect(got.codes).toEqual(encoder.window.find(t)!.codes);
      sizes.push(bytes.byteLength - 48);
      client.ack(encoder, head.tick);
    }
    // ticks 3 to 9: every entity where its two baselines put it: the body is its Rice parameters and an empty set
    for (const size of sizes.slice(2, 9)) expect(size).toBeLessThan(6);
    // tick 10: entity 7 turned: a few bytes for it (and tick 11, whose older baseline is before the turn)
    expect(sizes[9]!).toBeLessThan(12);
    expect(sizes[0]! / 1000).toBeGreaterThan(5);
  });

  it('a hostile body costs a WireError, never another throw or a read past the message', () => {
    const format = wireFormat(computeLayout(schema, 64));
    const w = world(format, 5);
    w.step();
    const good = encodeSnapshot(format, { tick: 1, time: 0, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
    const next = random(6);
    const out = block(format);
    let refusals = 0;
    for (let n = 0; n < 20_000; n++) {
      const bytes = good.slice();
      const flips = 1 + Math.floor(next() * 8);
      for (let f = 0; f < flips; f++) {
        const at = 48 + Math.floor(next() * (bytes.length - 48));
        bytes[at] = bytes[at]! ^ (1 << Math.floor(next() * 8));
      }
      try {
        decodeSnapshot(format, bytes, out.block, out.generation);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(0);
  });

  it('a server that keeps the quantised values as its truth (quantizeFields) is drawn bit for bit, and quantising again changes nothing', () => {
    const format = wireFormat(computeLayout(schema, 50));
    const w = world(format, 12);
    for (let n = 0; n < 10; n++) w.step();
    const layout = format.layout;
    const views = Object.fromEntries(layout.fields.map((f) => [f.name, w.state.block.subarray(f.offset / 4, f.offset / 4 + f.length)])) as never;
    quantizeFields(schema, views, w.count);
    const once = Array.from(new Uint32Array(w.state.block.buffer));
    quantizeFields(schema, views, w.count);
    expect(Array.from(new Uint32Array(w.state.block.buffer))).toEqual(once);
    const bytes = encodeSnapshot(format, { tick: 1, time: 0, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
    const out = block(format);
    decodeSnapshot(format, bytes, out.block, out.generation);
    for (const f of layout.fields) {
      const n = w.count * f.width;
      expect(Array.from(new Uint32Array(out.block.buffer, f.offset, n)), f.name).toEqual(Array.from(new Uint32Array(w.state.block.buffer, f.offset, n)));
    }
  });

  it('the full snapshot equals the quantised state, bit for bit', () => {
    const format = wireFormat(computeLayout(schema, 200));
    const w = world(format, 8);
    for (let n = 0; n < 20; n++) w.step();
    const bytes = encodeSnapshot(format, { tick: 9, time: 1, count: w.count, snaps: 0 }, w.state.block, w.state.generation);
    const out = block(format);
    decodeSnapshot(format, bytes, out.block, out.generation);
    const codes = new SnapshotCodes(format);
    quantizeState(format, out.block, out.generation, w.count, codes);
    const truth = new SnapshotCodes(format);
    quantizeState(format, w.state.block, w.state.generation, w.count, truth);
    expect(codes.codes).toEqual(truth.codes);
    expect(out.game[0]).toBe(w.state.game[0]);
  });
});
