/**
 * Server events on their way (src/net/event-window.ts on the server, src/net/server-events.ts on the client): a
 * seeded model of one client's link, lossy both ways, with repeats, acks and a window that fills, checks that
 * every event the window took arrives exactly once, in order, and that what it refused is counted on both ends.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from 'steadyframe/testing';
import { computeLayout } from '../../src/core/layout.ts';
import type { GameEvent } from '../../src/core/event-reader.ts';
import { EventWindow } from '../../src/net/event-window.ts';
import { ServerEvents } from '../../src/net/server-events.ts';
import { encodeSnapshot, snapshotEvents, wireFormat } from '../../src/net/wire.ts';
import { defineSchema } from '../../src/core/schema.ts';

const format = wireFormat(computeLayout(defineSchema({ x: { width: 1, kind: 'linear' } }), 1));
/** A snapshot for the events to ride in. */
const base = encodeSnapshot(format, { tick: 1, time: 1, count: 0, snaps: 0 }, new Float32Array(format.layout.blockBytes / 4), new Uint32Array(1));
/** The window's events as a client reads them from the snapshot they ride in. */
const carried = (window: EventWindow) => snapshotEvents(format, window.attach(base))!;

/** A GameEvent of tick `tick`, code `code`, payload [n, n + 0.5] (a ring's width of 3: the last is NaN-free 0). */
function event(tick: number, code: number, n: number): GameEvent {
  return { tick, code, sequence: n, width: 2, payload: (j) => (j === 0 ? n : j === 1 ? n + 0.5 : Number.NaN) };
}

describe('the event window and the client queue', () => {
  it('over a link losing 30% of messages each way, every event arrives once, in order; a full window refuses and counts', () => {
    const random = mulberry32(5);
    const window = new EventWindow(16, 3);
    const client = new ServerEvents(64);
    const got: number[][] = [];
    let pushed = 0;
    let refused = 0;
    for (let tick = 1; tick <= 5000; tick++) {
      // 0 to 3 events a tick; a stalled stretch (no acks) fills the window
      for (let e = random() * 4; e >= 1; e--) {
        if (window.push(event(tick, tick % 7, pushed + refused), tick * 10)) pushed++;
        else refused++;
      }
      const stalled = tick % 1000 > 950;
      if (window.pending > 0 && random() > 0.3 && !stalled) {
        expect(client.receive(carried(window))).toBe(true);
        // the ack, lost as often
        if (random() > 0.3) expect(window.ack(client.expected)).toBe(true);
      }
      // the client's playout: 50 ticks behind
      client.due((tick - 50) * 10, (code, payload, serverTick) => got.push([serverTick, code, payload[0]!, payload[1]!, payload[2]!]));
    }
    client.due(Number.POSITIVE_INFINITY, (code, payload, serverTick) => got.push([serverTick, code, payload[0]!, payload[1]!, payload[2]!]));
    // some lost to the stalls, each counted, and the client told (the window's count rides in every message)
    expect(refused).toBeGreaterThan(0);
    expect(window.lost).toBe(refused);
    expect(client.lost).toBeLessThanOrEqual(refused);
    expect(client.lost).toBeGreaterThan(0);
    // whatever the window took: once, in order, as sent (the payload past the event's width as 0)
    const taken = got.length + window.pending;
    expect(taken).toBe(pushed);
    const numbers = got.map((g) => g[2]!);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]!).toBeGreaterThan(numbers[i - 1]!);
    for (const [tick, code, n, half, pad] of got) expect([code, half, pad]).toEqual([tick! % 7, n! + 0.5, 0]);
    expect(client.repeats).toBeGreaterThan(0);
  });

  it('emits an event once the shown time reaches its time, never before, the shown time never going back', () => {
    const window = new EventWindow(8, 1);
    const client = new ServerEvents();
    window.push(event(1, 0, 0), 100);
    window.push(event(2, 1, 1), 200);
    client.receive(carried(window));
    const out: number[] = [];
    const emit = (code: number) => out.push(code);
    expect(client.due(99.9, emit)).toBe(0);
    expect(client.due(100, emit)).toBe(1);
    // a lower shown time (a held snapshot after a render time) does not take back what was shown
    window.ack(client.expected);
    window.push(event(3, 2, 2), 150);
    client.receive(carried(window));
    expect(client.due(120, emit)).toBe(0);
    expect(client.due(160, emit)).toBe(0); // event 2 (time 200) waits, and event 3 (150) behind it: order first
    expect(out).toEqual([0]);
    expect(client.due(200, emit)).toBe(2);
    expect(out).toEqual([0, 1, 2]);
  });

  it('refuses acks of events never sent, and a batch that leaves a hole; a new connection numbers from 0', () => {
    const window = new EventWindow(4, 0);
    window.push(event(1, 0, 0), 1);
    expect(window.ack(2)).toBe(false);
    expect(window.ack(1)).toBe(true);
    expect(window.ack(0)).toBe(true); // an older ack: nothing changes
    expect(window.pending).toBe(0);
    const client = new ServerEvents();
    expect(client.receive({ count: 1, width: 0, first: 3, lost: 0, values: new Float64Array([1, 1, 0]) })).toBe(false);
    expect(client.receive({ count: 1, width: 0, first: 0, lost: 2, values: new Float64Array([1, 1, 0]) })).toBe(true);
    client.connected();
    expect(client.expected).toBe(0);
    expect(client.receive({ count: 1, width: 0, first: 0, lost: 1, values: new Float64Array([2, 2, 0]) })).toBe(true);
    expect([client.taken, client.lost, client.length]).toEqual([2, 3, 2]);
  });
});
