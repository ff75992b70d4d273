/**
 * The server's snapshot publisher (src/net/publisher.ts) over a real simulation worker on a manual clock: every
 * client gets the newest state at most every `every` ticks, bit for bit what the simulation published, on the
 * server's clock; pings are answered with that clock; clients' inputs reach the simulation's ticks, each with its
 * player; and a hostile client's messages and events are refused and counted without touching the others.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { createSnapshotPublisher } from '../../src/net/publisher.ts';
import { MAX_PINGS_PER_SECOND } from '../../src/net/ping-schedule.ts';
import { DeltaDecoder } from '../../src/net/delta-stream.ts';
import { decodePong, decodeSnapshot, dequantizeState, encodeAck, encodeInputs, snapshotClientPart, snapshotEvents, encodePing, encodeSnapshot, INPUTS_HEAD_BYTES, MAX_INPUTS_PER_MESSAGE, maxClientMessageBytes, PING_BYTES, wireFormat, type SnapshotHead } from '../../src/net/wire.ts';
import { motionAt, motionSchema, MOTION_TICK_RATE } from '../browser/fixtures/schemas.ts';
import { createManualClock, createNodeRuntime } from 'steadyframe/node';
import { ALL, NET_GAME_TICK_RATE, netGameSchema, WHISPER } from './fixtures/net-game-schema.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

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
      // the interval: every (3) ticks of the tick length (a float32 on the wire)
      // numbered: the n-th send says n, whatever its tick
      expect(head).toEqual({ tick: step, time: START + step * TICK_MS, count: 2, snaps: 0, interval: expect.closeTo(3 * TICK_MS, 4), send: heads.length, baseline: -1, older: -1 });
      expect([position[0], position[1], position[2]]).toEqual([motionAt(0, step).x, motionAt(0, step).y, motionAt(1, step).x]);
    }
    // tick 1 (the first new state), then every third one
    expect(heads.map((h) => h.tick)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
    // one message encoded, the same bytes to each client
    expect(b.received).toEqual(a.received);
    expect(b.received[0]).toBe(a.received[0]);
    expect(publisher.stats).toMatchObject({ clients: 2, sent: 10, lastTick: 28, lastBytes: a.received.at(-1)!.byteLength });
  });

  it('sends a client that acknowledges deltas against the newest state it acknowledged; one that does not, full snapshots', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt);
    const acking = clientEnd();
    const silent = clientEnd();
    const decoder = new DeltaDecoder(acking.format);
    const a = publisher.connect(acking.send);
    const b = publisher.connect(silent.send);
    await rt.start();
    for (let step = 1; step <= 12; step++) {
      await clock.advance(TICK_MS);
      expect(publisher.publish()).toBe(true);
      const decoded = decoder.decode(acking.received.at(-1)!)!;
      const buffer = new ArrayBuffer(acking.format.layout.blockBytes);
      const block = new Float32Array(buffer);
      dequantizeState(acking.format, decoded.state, block, generationView(buffer, 0, acking.format.layout));
      const position = new Float32Array(buffer, acking.format.layout.fields[0]!.offset, 2);
      expect([position[0], position[1]]).toEqual([motionAt(0, step).x, motionAt(0, step).y]);
      // a delta against the tick acknowledged last (the ack of every other step lost)
      expect(decoded.head.baseline).toBe(step === 1 ? -1 : step % 2 === 0 ? step - 1 : step - 2);
      if (step % 2 === 1) a.receive(encodeAck(acking.format, { next: 0, tick: decoded.head.tick }));
      // an ack of a tick never sent, or older than the one taken, changes nothing
      a.receive(encodeAck(acking.format, { next: 0, tick: 9999 }));
    }
    expect(a.stats).toMatchObject({ snapshots: 12, full: 1, deltas: 11, acks: 18 });
    expect(b.stats).toMatchObject({ snapshots: 12, full: 12, deltas: 0 });
    expect(acking.received.at(-1)!.byteLength).toBeLessThan(silent.received.at(-1)!.byteLength);
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
    // its last messages are not answered
    clientA.receive(encodePing(a.format, { sequence: 1, clientSent: 0 }));
    expect([a.received.length, clientA.stats.pongs]).toEqual([1, 0]);
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
    // one expect for the 7,000 (an expect each was most of the test's time: past the 5 s guard at a load of 15)
    const thrown: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      for (const message of flood) {
        try {
          hostile.receive(message);
        } catch (error) {
          thrown.push(error);
        }
      }
    }
    expect(thrown).toEqual([]);
    expect(hostile.stats.refused).toEqual({ truncated: 3000, magic: 1000, version: 0, type: 1000, signature: 2000, length: 0, count: 0, time: 0, baseline: 0, code: 0, when: 0, flood: 0, full: 0 });
    expect(hostile.stats.pongs).toBe(0);
    expect(bad.received).toHaveLength(0);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect(good.decode(good.received[0]!).head.tick).toBe(1);
    expect(bad.received).toHaveLength(1);
  });

  it('answers MAX_PINGS_PER_SECOND pings a second, at once or spread; the rest are refused as a flood, unanswered', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt);
    const end = clientEnd();
    const client = publisher.connect(end.send);
    await rt.start();
    const ping = encodePing(end.format, { sequence: 1, clientSent: 0 });
    for (let i = 0; i < 3 * MAX_PINGS_PER_SECOND; i++) client.receive(ping);
    expect([client.stats.pongs, client.stats.refused.flood]).toEqual([MAX_PINGS_PER_SECOND, 2 * MAX_PINGS_PER_SECOND]);
    expect(client.stats.lastRefusal).toBe(`player 0 sent more than ${MAX_PINGS_PER_SECOND} pings a second: not answered`);
    // a client's own schedule (one a second) is never refused
    for (let second = 0; second < 20; second++) {
      await clock.advance(1000);
      client.receive(ping);
    }
    expect([client.stats.pongs, client.stats.refused.flood, end.received.length]).toEqual([MAX_PINGS_PER_SECOND + 20, 2 * MAX_PINGS_PER_SECOND, MAX_PINGS_PER_SECOND + 20]);
  });

  it("says the largest message a client sends: a full input message of the ring's width, else a ping", async () => {
    const { rt } = await onManualClock({ capacity: CAPACITY, input: { payloadWidth: 3 } });
    expect(createSnapshotPublisher(rt, { input: { codes: 2 } }).maxMessageBytes).toBe(INPUTS_HEAD_BYTES + MAX_INPUTS_PER_MESSAGE * (3 + 2) * 8);
    expect(createSnapshotPublisher(rt).maxMessageBytes).toBe(PING_BYTES);
    const width2 = encodeInputs(clientEnd().format, Array.from({ length: MAX_INPUTS_PER_MESSAGE }, () => ({ time: 0, code: 0 })), 2);
    expect(width2.byteLength).toBe(10272);
    expect(maxClientMessageBytes(2)).toBe(10272);
  });

  it('refuses an `every` that is not a whole number of ticks', async () => {
    const { rt } = await onManualClock({ capacity: CAPACITY });
    expect(() => createSnapshotPublisher(rt, { every: 0 })).toThrow(/every must be a whole number of ticks, at least 1; got 0/);
    expect(() => createSnapshotPublisher(rt, { every: 1.5 })).toThrow(/got 1.5/);
  });

  it("takes clients' inputs into the simulation's ticks, each with its player in the first payload value", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 4 } });
    const a = clientEnd();
    const b = clientEnd();
    const alice = publisher.connect(a.send);
    const bob = publisher.connect(b.send, 7);
    expect([alice.player, bob.player, publisher.connect(() => {}).player]).toEqual([0, 7, 8]);
    await rt.start();
    await clock.advance(10 * TICK_MS);
    // stamped with each client's render time: a playout delay behind the server's now
    const now = rt.now();
    alice.receive(encodeInputs(a.format, [{ time: now - 120, code: 1, payload: [0.5] }, { time: now - 110, code: 2 }], 1));
    bob.receive(encodeInputs(b.format, [{ time: now - 90, code: 3, payload: [9, 9, 9] }], 3));
    await clock.advance(2 * TICK_MS);
    const seen = (await rt.commands.inputs()).map(([tick, time, code, player, late]) => ({ tick, time, code, player, late }));
    expect(seen).toEqual([
      // ticks 1 to 10 were made before the events came: each goes to the next tick, flagged late, at its own time
      { tick: 11, time: now - 120, code: 1, player: 0, late: true },
      { tick: 11, time: now - 110, code: 2, player: 0, late: true },
      { tick: 11, time: now - 90, code: 3, player: 7, late: true },
    ]);
    expect([alice.stats.inputs, bob.stats.inputs]).toEqual([2, 1]);
    expect(alice.stats.lastRefusal).toBeNull();
  });

  it('says, in each client\'s stats, the newest of its inputs the state sent reflects: exactly the ticks that consumed them', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 4 } });
    const a = clientEnd();
    const b = clientEnd();
    const alice = publisher.connect(a.send);
    const bob = publisher.connect(b.send);
    await rt.start();
    await clock.advance(10 * TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect([alice.stats.inputsReflected, bob.stats.inputsReflected]).toEqual([-1, -1]);
    const now = () => rt.now() - 100;
    // alice's 0 and 1; bob's numbers wrap on the way: 2^32 − 1, then 0
    alice.receive(encodeInputs(a.format, [{ time: now(), code: 1 }, { time: now(), code: 2 }], 0, 0));
    bob.receive(encodeInputs(b.format, [{ time: now(), code: 1 }, { time: now(), code: 2 }], 0, 2 ** 32 - 1));
    // no tick since: the state is the one sent, which has none of them
    expect(publisher.publish()).toBe(false);
    expect([alice.stats.inputsReflected, bob.stats.inputsReflected]).toEqual([-1, -1]);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect([alice.stats.inputsReflected, bob.stats.inputsReflected]).toEqual([1, 0]);
    // a tick made, then alice's 2 pushed before that state is published: the state does not reflect it
    await clock.advance(TICK_MS);
    alice.receive(encodeInputs(a.format, [{ time: now(), code: 3 }], 0, 2));
    expect(publisher.publish()).toBe(true);
    expect(alice.stats.inputsReflected).toBe(1);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect([alice.stats.inputsReflected, bob.stats.inputsReflected]).toEqual([2, 0]);
    // each client's snapshot says the same
    expect([a, b].map((end) => snapshotClientPart(end.format, end.received.at(-1)!)?.reflected)).toEqual([2, 0]);
    // the ticks that took them: 11 for the first three, 13 for alice's 2 (the ring's order: alice's, then bob's)
    expect((await rt.commands.inputs()).map(([tick, , code, player]) => [tick, code, player])).toEqual([
      [11, 1, 0],
      [11, 2, 0],
      [11, 1, 1],
      [11, 2, 1],
      [13, 3, 0],
    ]);
  });

  it("holds an input due at a later tick until the tick before it is made, so that its tick takes it and nobody else's waits; late ones counted", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 4, maxLeadMs: 300 } });
    const a = clientEnd();
    const b = clientEnd();
    const alice = publisher.connect(a.send);
    const bob = publisher.connect(b.send);
    await rt.start();
    await clock.advance(10 * TICK_MS);
    expect(publisher.publish()).toBe(true);
    // tick 10 is made at the server's now; alice predicts: her input is due in tick 13 (its time: now + 150)
    const now = rt.now();
    alice.receive(encodeInputs(a.format, [{ time: now - 100, due: now + 2.5 * TICK_MS, code: 1 }], 0, 0));
    bob.receive(encodeInputs(b.format, [{ time: now - 100, code: 2 }], 0, 0));
    expect([alice.stats.inputs, alice.stats.inputsHeld, bob.stats.inputs, bob.stats.inputsHeld]).toEqual([1, 1, 1, 0]);
    // due past the lead allowed: refused, saying why
    alice.receive(encodeInputs(a.format, [{ time: now - 100, due: now + 301, code: 1 }], 0, 1));
    expect([alice.stats.refused.when, alice.stats.lastRefusal]).toEqual([1, expect.stringMatching(/an input due 301\.0 ms past the server's now \(allowed: up to \+300\)/)]);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    // tick 11 made: tick 12 is next, and hers is 13's
    expect(alice.stats.inputsHeld).toBe(1);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect(alice.stats.inputsHeld).toBe(0);
    // pushed after hers (its time clamped up to hers in the ring): tick 13, as it would have been anyway
    bob.receive(encodeInputs(b.format, [{ time: rt.now() - 100, code: 3 }], 0, 1));
    // predicted for tick 12, which is made: taken for the next tick, and counted late
    alice.receive(encodeInputs(a.format, [{ time: now - 100, due: now + 1.5 * TICK_MS, code: 2 }], 0, 2));
    expect([alice.stats.inputsLate, bob.stats.inputsLate]).toEqual([1, 0]);
    await clock.advance(TICK_MS);
    expect(publisher.publish()).toBe(true);
    expect((await rt.commands.inputs()).map(([tick, time, code, player, late]) => [tick, time - now, code, player, late])).toEqual([
      [11, -100, 2, 1, true],
      [13, 2.5 * TICK_MS, 1, 0, false],
      [13, 2.5 * TICK_MS, 3, 1, false],
      [13, 2.5 * TICK_MS, 2, 0, false],
    ]);
    // and each client's snapshot says so, with its player: alice's 0 and 2 (1 was refused), bob's 1
    const part = (end: ReturnType<typeof clientEnd>) => snapshotClientPart(end.format, end.received.at(-1)!);
    expect([alice.stats.inputsReflected, bob.stats.inputsReflected]).toEqual([2, 1]);
    expect([part(a), part(b)]).toEqual([
      { player: 0, reflected: 2, events: null },
      { player: 1, reflected: 1, events: null },
    ]);
  });

  it("refuses a hostile client's input events, each counted by reason with a message, and takes the others'", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 4, perSecond: 100 } });
    const bad = clientEnd();
    const good = clientEnd();
    const hostile = publisher.connect(bad.send);
    const player = publisher.connect(good.send);
    await rt.start();
    await clock.advance(1000);
    const now = rt.now();
    // numbered in a row, as a client numbers its events (a number seen before is a copy, let go)
    let sequence = 0;
    const send = (events: Array<{ time: number; code: number }>) => {
      expect(() => hostile.receive(encodeInputs(bad.format, events, 0, sequence))).not.toThrow();
      sequence += events.length;
    };
    send([{ time: now, code: 4 }, { time: now, code: -1 }, { time: now, code: 1.5 }, { time: now, code: Number.NaN }]);
    expect(hostile.stats.lastRefusal).toMatch(/player 0 sent input code NaN; the game's codes are 0 to 3/);
    send([{ time: now + 10_000, code: 0 }, { time: now - 60_000, code: 0 }]);
    expect(hostile.stats.lastRefusal).toMatch(/stamped -60000.0 ms from the server's now \(allowed: -2000 to \+50\)/);
    // a flood: 100 a second allowed, 6 spent above; 256 a message at most
    for (let i = 0; i < 4; i++) send(Array.from({ length: 256 }, () => ({ time: now, code: 0 })));
    expect(hostile.stats.lastRefusal).toMatch(/more than 100 input events a second/);
    expect(hostile.stats.refused).toMatchObject({ code: 4, when: 2, flood: 1024 - 94 });
    expect(hostile.stats.inputs).toBe(94);
    // malformed messages: too many events, too wide, cut, a time that is not a number
    const wide = encodeInputs(bad.format, [{ time: now, code: 0 }], 16);
    new DataView(wide.buffer).setUint32(20, 17, true);
    const many = encodeInputs(bad.format, [], 0);
    new DataView(many.buffer).setUint32(16, 257, true);
    const nan = encodeInputs(bad.format, [{ time: Number.NaN, code: 0 }], 0);
    for (const message of [wide, many, nan, wide.slice(0, 30)]) expect(() => hostile.receive(message)).not.toThrow();
    expect(hostile.stats.refused).toMatchObject({ count: 2, time: 1, truncated: 1 });
    // the other player is served whatever this one does; an hour later the allowance is back
    player.receive(encodeInputs(good.format, [{ time: now, code: 3 }], 0));
    expect(player.stats).toMatchObject({ inputs: 1, lastRefusal: null });
    await clock.advance(1000);
    send([{ time: rt.now(), code: 2 }]);
    expect(hostile.stats.inputs).toBe(95);
  });

  it('refuses inputs where it takes none, and a runtime without an input ring for them, saying why', async () => {
    const { rt } = await onManualClock({ capacity: CAPACITY });
    const a = clientEnd();
    const client = createSnapshotPublisher(rt).connect(a.send);
    client.receive(encodeInputs(a.format, [{ time: 0, code: 0 }], 0));
    expect(client.stats.refused.type).toBe(1);
    expect(client.stats.lastRefusal).toMatch(/this server takes no inputs from clients/);
    const { rt: noRing } = await onManualClock({ capacity: CAPACITY, input: false });
    expect(() => createSnapshotPublisher(noRing, { input: { codes: 2 } })).toThrow(/this runtime has none \(it was made with input: false\)/);
    const { rt: narrow } = await onManualClock({ capacity: CAPACITY, input: { payloadWidth: 0 } });
    expect(() => createSnapshotPublisher(narrow, { input: { codes: 2 } })).toThrow(/payload width of at least 1/);
    expect(() => createSnapshotPublisher(rt, { input: { codes: 2.5 } })).toThrow(/input.codes must be a number of at least 0 \(a whole number of codes\); got 2.5/);
  });

  it('takes each numbered event once: copies let go, a skipped one missed until it comes late, across 2^32', async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 8 } });
    const a = clientEnd();
    const client = publisher.connect(a.send);
    await rt.start();
    await clock.advance(10 * TICK_MS);
    const now = rt.now();
    const event = (code: number) => ({ time: now - 100 + code, code });
    /** Events `codes` numbered from `first`, as one message. */
    const send = (first: number, ...codes: number[]) => client.receive(encodeInputs(a.format, codes.map(event), 0, first));
    const FIRST = 2 ** 32 - 3; // the numbers wrap on the way: 2^32 − 3, − 2, − 1, 0, 1, ...
    const at = (k: number) => (FIRST + k) % 2 ** 32;
    send(at(0), 0, 1); // events 0 and 1
    send(at(0), 0, 1, 2); // again, with 2: the copies let go
    expect(client.stats).toMatchObject({ inputs: 3, inputRepeats: 2, inputsMissed: 0 });
    send(at(5), 5, 6); // 3 and 4 lost on the way so far
    expect(client.stats).toMatchObject({ inputs: 5, inputRepeats: 2, inputsMissed: 2 });
    send(at(3), 3); // overtaken: 3 comes late, and is taken
    send(at(4), 4, 5, 6); // and 4, in a copy
    expect(client.stats).toMatchObject({ inputs: 7, inputRepeats: 4, inputsMissed: 0 });
    send(at(40), 7); // 33 skipped (7 is numbered 40 here: the events in between never came)
    send(at(7), 7); // more than 32 below the highest: too old to tell from a copy, let go
    expect(client.stats).toMatchObject({ inputs: 8, inputRepeats: 5, inputsMissed: 33 });
    await clock.advance(2 * TICK_MS);
    // each event once, in the order taken (a late one's time clamped up to the ring's last)
    expect((await rt.commands.inputs()).map(([, , code, player]) => [code, player])).toEqual([0, 1, 2, 5, 6, 3, 4, 7].map((code) => [code, 0]));
    // a new connection's numbers start where its first message says
    const again = publisher.connect(a.send, 0);
    again.receive(encodeInputs(a.format, [event(1)], 0, 0));
    expect(again.stats).toMatchObject({ inputs: 1, inputRepeats: 0, inputsMissed: 0 });
  });

  it("refuses what the server's input ring cannot hold (the simulation behind), never dropping it later", async () => {
    const { rt, clock } = await onManualClock({ capacity: CAPACITY, input: { capacity: 8, payloadWidth: 1 } });
    const publisher = createSnapshotPublisher(rt, { input: { codes: 1 } });
    const a = clientEnd();
    const client = publisher.connect(a.send);
    // attached, not started: no tick takes the events
    await clock.advance(100);
    client.receive(encodeInputs(a.format, Array.from({ length: 10 }, () => ({ time: rt.now(), code: 0 })), 0));
    expect(client.stats).toMatchObject({ inputs: 8, refused: { full: 2 } });
    expect(client.stats.lastRefusal).toMatch(/input ring is full/);
    await rt.start();
    await clock.advance(TICK_MS);
    expect(await rt.commands.inputs()).toHaveLength(8);
  });
});

describe("the publisher's events", () => {
  it('sends each client its events (all, or its player) in every snapshot until acknowledged, timed by their ticks; a full window loses and counts, never overwrites', async () => {
    const clock = createManualClock(START);
    const tickMs = 1000 / NET_GAME_TICK_RATE;
    const rt = await createNodeRuntime({ worker: await nodeFixture('net-game'), schema: netGameSchema, capacity: 2, clock });
    try {
      const publisher = createSnapshotPublisher(rt, { every: 2, events: { target: (e) => (e.code === WHISPER ? e.payload(2) : 'all'), window: 8 } });
      const format = publisher.format;
      const sent: Uint8Array[][] = [[], []];
      const players = [publisher.connect((b) => sent[0]!.push(b)), publisher.connect((b) => sent[1]!.push(b))];
      await rt.start();
      for (let k = 0; k < 12; k++) {
        await clock.advance(tickMs);
        publisher.publish();
      }
      // ticks 4, 8, 12 to all; 6 (player 1), 12 (player 0) whispered: each its own, with the tick's time
      const last = (p: number) => snapshotEvents(format, sent[p]!.at(-1)!)!;
      const records = (p: number) => {
        const b = last(p);
        return Array.from({ length: b.count }, (_, i) => Array.from(b.values.subarray(i * (3 + b.width), i * (3 + b.width) + 6)));
      };
      expect(records(0)).toEqual([
        [4, START + 4 * tickMs, ALL, 4, 1, 0],
        [8, START + 8 * tickMs, ALL, 8, 2, 0],
        [12, START + 12 * tickMs, ALL, 12, 3, 0],
        [12, START + 12 * tickMs, WHISPER, 12, 2, 0],
      ].map((r) => r.map((v) => expect.closeTo(v, 6))));
      expect(records(1).map((r) => [r[0], r[2]])).toEqual([[4, ALL], [6, WHISPER], [8, ALL], [12, ALL]]);
      // player 0 acknowledges all four: its next snapshot carries none (the same bytes as a plain one)
      players[0]!.receive(encodeAck(format, { next: 4, tick: -1 }));
      await clock.advance(2 * tickMs);
      publisher.publish();
      expect(snapshotEvents(format, sent[0]!.at(-1)!)).toBeNull();
      expect(last(1).first).toBe(0);
      expect(players[0]!.stats).toMatchObject({ acks: 1, events: 4, eventsPending: 0, eventsLost: 0 });
      // an ack past what was sent is refused, counted
      players[0]!.receive(encodeAck(format, { next: 99, tick: -1 }));
      expect(players[0]!.stats.refused.count).toBe(1);
      // player 1 never acknowledges: its window (8) fills; the rest are lost, counted, and said in each snapshot;
      // player 0 acknowledges what each snapshot brings, and loses nothing
      for (let k = 0; k < 30; k++) {
        await clock.advance(tickMs);
        if (!publisher.publish()) continue;
        const mine = snapshotEvents(format, sent[0]!.at(-1)!);
        if (mine !== null) players[0]!.receive(encodeAck(format, { next: mine.first + mine.count, tick: -1 }));
      }
      const full = last(1);
      expect(full.count).toBe(8);
      expect(full.first).toBe(0); // the oldest still first: nothing overwritten
      expect(full.lost).toBe(players[1]!.stats.eventsLost);
      expect(players[1]!.stats.eventsLost).toBeGreaterThan(0);
      expect(players[0]!.stats.eventsLost).toBe(0);
      expect(publisher.stats.unaddressed).toBe(0);
    } finally {
      rt.dispose();
    }
  });
});
