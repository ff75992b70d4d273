/**
 * Interest management (src/net/interest.ts, radius-interest.ts): a client receives only the entities chosen for
 * it, in slots that keep their entity while it stays seen; one that leaves hands its slot to the last one, which the
 * client draws snapped (a new generation there); over a lossy link the views decode to what the server meant.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 as random } from 'steadyframe/testing';
import { defineSchema, defineTables } from 'steadyframe';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { DeltaDecoder } from '../../src/net/delta-stream.ts';
import { ClientView } from '../../src/net/interest.ts';
import { createSnapshotPublisher } from '../../src/net/publisher.ts';
import { radiusInterest } from '../../src/net/radius-interest.ts';
import { dequantizeState, encodeAck, quantizeState, SnapshotCodes, wireFormat } from '../../src/net/wire.ts';
import { motionAt } from '../browser/fixtures/schemas.ts';
import { disposeRuntimes, onManualClock } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);

const schema = defineSchema({ position: { width: 2, kind: 'linear', quantize: { min: -100, max: 100, precision: 1 / 16 } } });


describe('a client view', () => {
  it('keeps each entity in its slot while seen; one that leaves gives its slot to the last, which is a new generation there', () => {
    const format = wireFormat(computeLayout(schema, 10));
    const state = new SnapshotCodes(format);
    state.count = 10;
    for (let i = 0; i < 10; i++) state.codes[2 * i] = i;
    const view = new ClientView(format, 4);
    const slots = (tick: number) => {
      const s = view.encoder.window.find(tick)!;
      return Array.from(s.codes.subarray(0, 2 * s.count).filter((_, j) => j % 2 === 0));
    };
    const head = (tick: number) => ({ tick, time: tick, count: 10, snaps: 0 });
    view.update(head(1), state, Uint32Array.of(3, 5, 7), 3);
    expect(slots(1)).toEqual([3, 5, 7]);
    const gen = (tick: number) => Array.from(view.encoder.window.find(tick)!.generation.subarray(0, 3));
    // 5 leaves, 9 comes: 7 takes 5's slot, 9 the last
    view.update(head(2), state, Uint32Array.of(9, 7, 3), 3);
    expect(slots(2)).toEqual([3, 7, 9]);
    expect(gen(2)[0]).toBe(gen(1)[0]);
    expect(gen(2)[1]).not.toBe(gen(1)[1]);
    expect(view.stats).toEqual({ visible: 3, entered: 4, left: 1 });
    expect(() => view.update(head(3), state, Uint32Array.of(3, 3), 2)).toThrow(/chose entity 3 twice/);
    expect(() => view.update(head(4), state, Uint32Array.of(12), 1)).toThrow(/chose entity 12 of 10/);
  });

  it('over a lossy, reordering link with entities coming and going, every view decodes to what the server meant', () => {
    const format = wireFormat(computeLayout(schema, 200));
    const block = new Float32Array(format.layout.blockBytes / 4);
    const generation = generationView(block.buffer as ArrayBuffer, 0, format.layout);
    const next = random(11);
    const state = new SnapshotCodes(format);
    const view = new ClientView(format, 64);
    const decoder = new DeltaDecoder(format);
    const down: [number, Uint8Array][] = [];
    const up: [number, number][] = [];
    const selected = new Uint32Array(64);
    let decoded = 0;
    let deltas = 0;
    for (let t = 1; t <= 5000; t++) {
      for (let i = 0; i < 400; i++) block[i] = Math.max(-100, Math.min(100, block[i]! + (next() - 0.5) * 2));
      quantizeState(format, block, generation, 200, state);
      // a window of entities that slides: some leave, some come each tick
      const from = Math.floor(t / 3) % 150;
      let n = 0;
      for (let i = from; i < from + 50 && n < 64; i++) if (next() > 0.1) selected[n++] = i;
      view.update({ tick: t, time: t, count: 200, snaps: 0 }, state, selected, n);
      if (next() > 0.05) down.push([t + 2 + Math.floor(next() * 8), view.message()]);
      for (let k = down.length - 1; k >= 0; k--) {
        if (down[k]![0] > t) continue;
        const result = decoder.decode(down.splice(k, 1)[0]![1])!;
        const meant = view.encoder.window.find(result.head.tick);
        if (meant !== null) {
          expect(result.state.count).toBe(meant.count);
          expect(result.state.codes.subarray(0, meant.count * 2)).toEqual(meant.codes.subarray(0, meant.count * 2));
          expect(result.state.generation.subarray(0, meant.count)).toEqual(meant.generation.subarray(0, meant.count));
        }
        decoded++;
        if (result.head.baseline! >= 0) deltas++;
        if (result.kept && next() > 0.05) up.push([t + 2 + Math.floor(next() * 8), result.head.tick]);
      }
      for (let k = up.length - 1; k >= 0; k--) if (up[k]![0] <= t) view.baseline.ack(view.encoder, up.splice(k, 1)[0]![1]);
    }
    expect(decoded).toBeGreaterThan(4500);
    expect(deltas / decoded).toBeGreaterThan(0.9);
    expect(view.stats.left).toBeGreaterThan(1000);
  });
});

describe('radiusInterest', () => {
  for (const width of [2, 3]) {
    it(`chooses exactly the entities within the radius of the focus (${width}D), the focus first`, () => {
      const count = 2000;
      const next = random(width);
      const values = Float32Array.from({ length: count * width }, () => (next() - 0.5) * 400);
      const interest = radiusInterest({ radius: 17, focus: (client) => client.player });
      const out = new Uint32Array(count);
      for (let tick = 0; tick < 3; tick++) {
        const state = { tick, count, field: () => values };
        for (const player of [0, 5, 999]) {
          const n = interest.select({ player }, state, out);
          expect(out[0]).toBe(player);
          const expected = [];
          for (let i = 0; i < count; i++) {
            let d = 0;
            for (let c = 0; c < width; c++) d += (values[i * width + c]! - values[player * width + c]!) ** 2;
            if (d <= 17 * 17) expected.push(i);
          }
          expect([...out.subarray(0, n)].sort((a, b) => a - b)).toEqual(expected);
        }
        values[0] = values[0]! + 5; // the grid is built anew each tick
      }
      // a limit smaller than the crowd: the rest counted as dropped
      const few = new Uint32Array(2);
      const crowd = Float32Array.from({ length: 10 * width }, () => 0);
      expect(interest.select({ player: 0 }, { tick: 9, count: 10, field: () => crowd }, few)).toBe(2);
      expect(interest.stats.dropped).toBe(8);
      // no focus: nothing
      expect(interest.select({ player: 50 }, { tick: 9, count: 10, field: () => crowd }, few)).toBe(0);
    });
  }

  it('refuses a radius that is not a distance', () => {
    expect(() => radiusInterest({ radius: 0, focus: () => 0 })).toThrow(/radius must be a finite distance above 0/);
  });
});

describe('the publisher under interest', () => {
  it('sends each client its own entities (even ones to player 0, odd ones to player 1), as deltas once acknowledged', async () => {
    const { rt, clock } = await onManualClock({ capacity: 8 });
    const publisher = createSnapshotPublisher(rt, {
      interest: {
        limit: 4,
        select: (client, state, out) => {
          let n = 0;
          for (let i = client.player; i < state.count && n < out.length; i += 2) out[n++] = i;
          return n;
        },
      },
    });
    const format = publisher.format;
    const received: Uint8Array[][] = [[], []];
    const clients = [0, 1].map((p) => publisher.connect((bytes) => received[p]!.push(bytes)));
    const decoders = [new DeltaDecoder(format), new DeltaDecoder(format)];
    await rt.start();
    for (let step = 1; step <= 6; step++) {
      await clock.advance(50);
      expect(publisher.publish()).toBe(true);
      for (const p of [0, 1]) {
        const { head, state } = decoders[p]!.decode(received[p]!.at(-1)!)!;
        const buffer = new ArrayBuffer(format.layout.blockBytes);
        const block = new Float32Array(buffer);
        dequantizeState(format, state, block, generationView(buffer, 0, format.layout));
        const position = new Float32Array(buffer, format.layout.fields[0]!.offset, 2 * state.count);
        // the motion fixture's two entities: player 0 sees entity 0, player 1 entity 1
        expect(state.count).toBe(1);
        expect([position[0], position[1]]).toEqual([motionAt(p, step).x, motionAt(p, step).y]);
        clients[p]!.receive(encodeAck(format, { next: 0, tick: head.tick }));
      }
    }
    expect(clients[0]!.stats).toMatchObject({ visible: 1, entered: 1, left: 0, full: 1, deltas: 5 });
  });

  it('refuses a schema of tables, and a limit past the capacity', async () => {
    const { rt } = await onManualClock({ capacity: 2 });
    expect(() => createSnapshotPublisher(rt, { interest: { select: () => 0, limit: 3 } })).toThrow(/limit must be a whole number from 1 to the capacity \(2\)/);
    const tables = defineTables({ ships: { capacity: 2, fields: { position: { width: 2, kind: 'linear' } } } });
    const { interestViews } = await import('../../src/net/interest.ts');
    expect(() => interestViews(wireFormat(computeLayout(tables, 2)), { select: () => 0 })).toThrow(/plain schema/);
  });
});
