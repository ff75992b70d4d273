/**
 * The server's snapshot publisher (src/net/publisher.ts) over a real simulation worker on a manual clock: every
 * client gets the newest state at most every `every` ticks, bit for bit what the simulation published, on the
 * server's clock; pings are answered with that clock; and a hostile client's messages are refused and counted
 * without touching the others.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { createSnapshotPublisher } from '../../src/net/publisher.ts';
import { decodePong, decodeSnapshot, encodePing, encodeSnapshot, wireFormat, type SnapshotHead } from '../../src/net/wire.ts';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);

const TICK_MS = 1000 / MOTION_TICK_RATE; // 50
const CAPACITY = 4;

/** A client's end: the wire format computed from the schema and capacity alone, and what arrived, decoded. */
function clientEnd() {
  const format = wireFormat(computeLayout(motionSchema, CAPACITY));
  const received: Uint8Array[] = [];
  const decode = (bytes: Uint8Array) => {
    const buffer = new ArrayBuffer(format.layout.blockBytes);
    const block = new Float32Array(buffer);
    const head = decodeSnapshot(format, bytes, block, generationView(buffer, 0, format.layout));
    const position = new Float32Array(buffer, format.layout.fields[0]!.offset, 2 * CAPACITY);
    return { head, position, generation: generationView(buffer, 0, format.layout) };
  };
  return { format, received, send: (bytes: Uint8Array) => received.push(bytes), decode };
}

describe('the snapshot publisher', () => {
  it('sends every client the newest state, at most every `every` ticks, as the simulation published it', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { every: 3 });
    const a = clientEnd();
    const b = clientEnd();
    publisher.connect(a.send);
    publisher.connect(b.send);
    await rt.start();
    const heads: SnapshotHead[] = [];
    for (let step = 1; step <= 30; step++) {
      await clock.advance(TICK_MS);
      const sent = publisher.publish();
      // nothing new in the same tick
      expect(publisher.publish()).toBe(false);
      if (!sent) continue;
      const { head, position } = a.decode(a.received.at(-1)!);
      heads.push(head);
      // the state of tick `step`, made at its time on the server's clock
      expect(head).toEqual({ tick: step, time: START + step * TICK_MS, count: 2, snaps: 0 });
      expect([position[0], position[1], position[2]]).toEqual([motionAt(0, step).x, motionAt(0, step).y, motionAt(1, step).x]);
    }
    // tick 1 (the first new state), then every third one
    expect(heads.map((h) => h.tick)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
    // one message encoded, the same bytes to each client
    expect(b.received).toEqual(a.received);
    expect(b.received[0]).toBe(a.received[0]);
    expect(publisher.stats).toMatchObject({ clients: 2, sent: 10, lastTick: 28, lastBytes: a.received[0]!.byteLength });
  });

  it('stops sending to a client that closed, and goes on across a restart, its entities snapping', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt);
    const a = clientEnd();
    const b = clientEnd();
    const clientA = publisher.connect(a.send);
    publisher.connect(b.send);
    await rt.start();
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    clientA.close();
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect([a.received.length, b.received.length]).toEqual([1, 2]);
    expect(clientA.stats).toMatchObject({ snapshots: 1 });
    await clock.advance(5 * TICK_MS);
    publisher.publish();
    expect(b.decode(b.received.at(-1)!).head.tick).toBe(7);
    // a restart from scratch: tick numbers go on, and every entity snaps (its generation moved)
    const before = b.decode(b.received.at(-1)!);
    await rt.restart('scratch');
    await rt.start();
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    const after = b.decode(b.received.at(-1)!);
    expect(after.head.tick).toBeGreaterThan(7);
    expect(after.generation[0]).not.toBe(before.generation[0]);
  });

  it("answers a client's pings with the server's clock", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt);
    const a = clientEnd();
    const client = publisher.connect(a.send);
    await clock.advance(1234);
    client.receive(encodePing(a.format, { sequence: 7, clientSent: -5000.25 }));
    expect(a.received).toHaveLength(1);
    expect(decodePong(a.format, a.received[0]!)).toEqual({ sequence: 7, clientSent: -5000.25, serverReceived: START + 1234, serverSent: START + 1234 });
    expect(client.stats.pongs).toBe(1);
  });

  it("refuses a hostile client's messages, counted by reason, and serves the others as before", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt);
    const bad = clientEnd();
    const good = clientEnd();
    const hostile = publisher.connect(bad.send);
    publisher.connect(good.send);
    await rt.start();
    const ping = encodePing(bad.format, { sequence: 1, clientSent: 0 });
    const otherSchema = wireFormat(computeLayout({ x: { width: 1, kind: 'linear' } }, CAPACITY));
    const state = new Float32Array(otherSchema.layout.blockBytes / 4);
    const flood: Uint8Array[] = [
      new Uint8Array(0),
      new Uint8Array(3),
      ping.slice(0, 20),
      new TextEncoder().encode('{"type":"ping","sequence":1}'),
      encodePing(otherSchema, { sequence: 1, clientSent: 0 }),
      // a snapshot from a client: clients send pings
      encodeSnapshot(bad.format, { tick: 1, time: 0, count: 0, snaps: 0 }, new Float32Array(bad.format.layout.blockBytes / 4), new Uint32Array(CAPACITY)),
      encodeSnapshot(otherSchema, { tick: 1, time: 0, count: 1, snaps: 0 }, state, new Uint32Array(CAPACITY)),
    ];
    for (let i = 0; i < 1000; i++) for (const message of flood) expect(() => hostile.receive(message)).not.toThrow();
    expect(hostile.stats.refused).toEqual({ truncated: 3000, magic: 1000, version: 0, type: 1000, signature: 2000, length: 0, count: 0, time: 0 });
    expect(hostile.stats.pongs).toBe(0);
    expect(bad.received).toHaveLength(0);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect(good.decode(good.received[0]!).head.tick).toBe(1);
    expect(bad.received).toHaveLength(1);
  });

  it('refuses an `every` that is not a whole number of ticks', async () => {
    const { rt } = await onManualClock({ capacity: CAPACITY });
    expect(() => createSnapshotPublisher(rt, { every: 0 })).toThrow(/every must be a whole number of ticks, at least 1; got 0/);
    expect(() => createSnapshotPublisher(rt, { every: 1.5 })).toThrow(/got 1.5/);
  });
});
