/**
 * The client's connection (src/net/connection.ts) over an in-memory socket: the test plays the server (opens,
 * answers pings, sends snapshots, drops the link) and drives time by hand with fake timers, which move the
 * connection's clock (`Date.now()`) and fire its ping and reconnect timers together.
 *
 * ```text
 *  open ── ping ×5, 100 ms apart, then 1 a second ──▶ test server ── pong (server clock = client + OFFSET)
 *  drop ── reconnect after 250, 500, 1000, 2000, 4000, 5000, 5000 ms (±20%)
 * ```
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { Connection, type ConnectionOptions, type SocketLike } from '../../src/net/connection.ts';
import { decodeInputs, decodePing, encodePong, encodeSnapshot, messageType, MESSAGE, wireFormat, withClientPart, type Ping } from '../../src/net/wire.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';

const format = wireFormat(computeLayout(motionSchema, 4));
/** The server's clock minus the client's, ms. */
const OFFSET = 50_000;
const clock = () => Date.now();
/** Snapshots timed with a synced clock before the first render time (connection.ts's FIRST_SAMPLES, not exported). */
const FIRST_SAMPLES = 4;

/** A socket the test drives from the server's side. */
class FakeSocket implements SocketLike {
  binaryType = 'blob';
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly sent: Uint8Array[] = [];
  closedWith: readonly [number | undefined, string | undefined] | null = null;
  constructor(readonly url: string) {}
  send(data: Uint8Array): void {
    if (this.closedWith !== null) throw new Error('closed');
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    this.closedWith = [code, reason];
  }
  accept(): void {
    this.onopen?.({});
  }
  deliver(data: unknown): void {
    this.onmessage?.({ data });
  }
  drop(): void {
    this.onclose?.({ code: 1006, reason: '' });
  }
  pings(): Ping[] {
    return this.sent.filter((b) => messageType(format, b) === MESSAGE.PING).map((b) => decodePing(format, b));
  }
  /** Answers the newest ping as a server OFFSET ms ahead, the pong arriving `tripMs` later (half each way). */
  pong(tripMs = 10): void {
    const ping = this.pings().at(-1)!;
    vi.advanceTimersByTime(tripMs);
    const at = ping.clientSent + OFFSET + tripMs / 2;
    this.deliver(encodePong(format, { ...ping, serverReceived: at, serverSent: at }).buffer);
  }
}

/** Snapshot of tick `tick`, made at server time `time`, with entity 0's x = tick; sent as send number `send` (default: the tick). */
function snapshot(tick: number, time: number, interval = 0, send = tick): ArrayBuffer {
  const bytes = new ArrayBuffer(format.layout.blockBytes);
  const block = new Float32Array(bytes);
  block[0] = tick;
  return encodeSnapshot(format, { tick, time, count: 1, snaps: 0, interval, send }, block, generationView(bytes, 0, format.layout)).buffer as ArrayBuffer;
}
const serverNow = () => clock() + OFFSET;

function connect(options: Partial<ConnectionOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const connection = new Connection({
    url: 'ws://server.test',
    format,
    clock,
    socket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    ...options,
  });
  connection.open();
  return { connection, sockets, socket: () => sockets.at(-1)! };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('pings and the clock', () => {
  it('pings at open, four more 100 ms apart, then one a second', () => {
    const { connection, socket } = connect();
    expect([socket().url, socket().binaryType, connection.connected]).toEqual(['ws://server.test', 'arraybuffer', false]);
    expect(socket().sent).toHaveLength(0);
    socket().accept();
    expect([connection.connected, connection.counters.connects]).toEqual([true, 1]);
    const start = clock();
    const times = () => socket().pings().map((p) => p.clientSent - start);
    expect(times()).toEqual([0]);
    vi.advanceTimersByTime(99);
    expect(times()).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(times()).toEqual([0, 100]);
    vi.advanceTimersByTime(300 + 999);
    expect(times()).toEqual([0, 100, 200, 300, 400]);
    vi.advanceTimersByTime(1 + 2000);
    expect(times()).toEqual([0, 100, 200, 300, 400, 1400, 2400, 3400]);
    expect(socket().pings().map((p) => p.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(connection.counters.bytesOut).toBe(8 * 32);
  });

  it('a pong syncs the server clock; renderTime is NaN until the clock has synced and FIRST_SAMPLES snapshots have come since', () => {
    // the clock first
    const a = connect();
    a.socket().accept();
    a.socket().pong();
    expect(a.connection.serverClock.synced).toBe(true);
    expect(a.connection.serverClock.serverTime(clock())).toBe(serverNow());
    expect(a.connection.playout).toBeNull();
    expect(a.connection.renderTime(clock())).toBeNaN();
    for (let tick = 1; tick < FIRST_SAMPLES; tick++) {
      a.socket().deliver(snapshot(tick, serverNow() - 30, 40));
      expect(a.connection.renderTime(clock()), `after ${tick}`).toBeNaN();
    }
    a.socket().deliver(snapshot(FIRST_SAMPLES, serverNow() - 30, 40));
    expect(a.connection.renderTime(clock())).toBe(serverNow() - a.connection.playout!.target);
    // the snapshots first: their arrivals have no server time yet (the playout rejects those samples)
    const b = connect();
    b.socket().accept();
    for (let tick = 1; tick <= FIRST_SAMPLES; tick++) b.socket().deliver(snapshot(tick, serverNow() - 30, 40));
    expect(b.connection.buffer.kept).toHaveLength(FIRST_SAMPLES);
    expect(b.connection.playout!.stats()).toMatchObject({ rejected: FIRST_SAMPLES, samples: 0 });
    b.socket().pong();
    expect(b.connection.renderTime(clock())).toBeNaN();
    for (let tick = 11; tick < 11 + FIRST_SAMPLES; tick++) b.socket().deliver(snapshot(tick, serverNow() - 30, 40));
    expect(Number.isFinite(b.connection.renderTime(clock()))).toBe(true);
    // once drawing, it stays a number (whatever the samples)
    vi.advanceTimersByTime(16);
    expect(Number.isFinite(b.connection.renderTime(clock()))).toBe(true);
  });

  it("a pong that fails its checks is refused and counted, and the clock stays unsynced", () => {
    const { connection, socket } = connect();
    socket().accept();
    const ping = socket().pings()[0]!;
    expect(() => socket().deliver(encodePong(format, { ...ping, serverReceived: Number.NaN, serverSent: 0 }))).not.toThrow();
    expect(connection.counters.refusedPongs).toBe(1);
    expect(connection.buffer.stats.refused.time).toBe(1);
    expect(connection.counters.lastRefusal).toMatch(/refused \(time\)/);
    expect(connection.serverClock.synced).toBe(false);
  });
});

describe('snapshots', () => {
  it("makes the playout with the snapshots' send interval (else 50 ms), and takes each arrival's lateness", () => {
    const { connection, socket } = connect({ playout: { marginMs: 10 } });
    socket().accept();
    socket().pong();
    socket().deliver(snapshot(1, serverNow() - 30, 40));
    // 40 ms interval + 10 ms margin, then the 30 ms lateness on top
    expect(connection.playout!.stats()).toMatchObject({ samples: 1, lateness: 30, target: 30 + 40 + 10 });
    const other = connect();
    other.socket().accept();
    other.socket().deliver(snapshot(1, 0));
    expect(other.connection.playout!.target).toBe(50 + 10);
  });

  it('a gap in the send numbers counts lost, a late snapshot that fills it uncounts it, a duplicate changes nothing', () => {
    const { connection, socket } = connect();
    socket().accept();
    socket().pong();
    // a server sending every 3 ticks: send n is tick 3n
    const send = (n: number) => socket().deliver(snapshot(3 * n, 30 * n, 0, n));
    for (const n of [0, 1, 2, 4]) send(n);
    expect(connection.counters.lost).toBe(1);
    send(6);
    expect(connection.counters.lost).toBe(2);
    send(3);
    expect(connection.counters.lost).toBe(1);
    send(3);
    expect(connection.counters.lost).toBe(1);
    expect(connection.buffer.stats).toMatchObject({ stored: 6, reordered: 1, duplicates: 1 });
  });

  it("keeps what each snapshot says of the client's inputs with it, and the newest snapshot's (and its player) in the counters; a new connection starts at none", () => {
    const c = connect();
    c.socket().accept();
    c.socket().pong();
    const send = (tick: number, reflected: number) => c.socket().deliver(withClientPart(new Uint8Array(snapshot(tick, 10 * tick)), { player: 2, reflected, events: null }));
    send(1, -1);
    expect(c.connection.counters.inputsReflected).toBe(-1);
    send(2, 7);
    send(4, 2 ** 32 - 1);
    expect(c.connection.counters.inputsReflected).toBe(2 ** 32 - 1);
    // an older snapshot, late: kept with its own, and the newest's stays
    send(3, 9);
    expect(c.connection.buffer.kept.map((k) => [k.tick, k.reflected])).toEqual([[1, -1], [2, 7], [3, 9], [4, 2 ** 32 - 1]]);
    expect(c.connection.counters.inputsReflected).toBe(2 ** 32 - 1);
    expect(c.connection.counters.player).toBe(2);
    c.socket().drop();
    vi.advanceTimersToNextTimer();
    c.socket().accept();
    expect(c.connection.counters.inputsReflected).toBe(-1);
  });

  it('gaps in the ticks with no gap in the send numbers are no loss: a server whose loop came late sent the newest state', () => {
    const { connection, socket } = connect();
    socket().accept();
    socket().pong();
    // every 3 ticks when on time; 9, 15 and 6 ticks apart when the server's loop stalled; every send arrived
    [0, 3, 6, 15, 30, 33, 39].forEach((tick, n) => socket().deliver(snapshot(tick, 10 * tick, 0, n + 1)));
    expect(connection.counters.lost).toBe(0);
    expect(connection.buffer.stats).toMatchObject({ stored: 7 });
  });

  it('send numbers wrap at 2^16: 65535 then 0 is the next send, 65535 then 1 lost one', () => {
    const { connection, socket } = connect();
    socket().accept();
    socket().pong();
    socket().deliver(snapshot(10, 100, 0, 65_534));
    socket().deliver(snapshot(13, 130, 0, 65_535));
    socket().deliver(snapshot(16, 160, 0, 0));
    expect(connection.counters.lost).toBe(0);
    socket().deliver(snapshot(22, 220, 0, 2));
    expect(connection.counters.lost).toBe(1);
  });
});

describe('reconnects', () => {
  /** Drops the socket and returns how long until the next one is made, ms. */
  const waitAfterDrop = (c: ReturnType<typeof connect>): number => {
    const made = c.sockets.length;
    const from = clock();
    c.socket().drop();
    expect(vi.getTimerCount()).toBe(1); // only the reconnect: the pings stopped
    vi.advanceTimersToNextTimer();
    expect(c.sockets).toHaveLength(made + 1);
    return clock() - from;
  };

  it('reconnects after a wait that doubles from 250 ms up to 5 s, each within ±20%; an open starts it again', () => {
    const c = connect();
    c.socket().accept();
    const waits = Array.from({ length: 7 }, () => waitAfterDrop(c));
    [250, 500, 1000, 2000, 4000, 5000, 5000].forEach((ms, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(Math.floor(0.8 * ms));
      expect(waits[i]).toBeLessThanOrEqual(Math.ceil(1.2 * ms));
    });
    expect(c.connection.counters).toMatchObject({ connects: 1, disconnects: 1 });
    // connected again: the burst of pings again, and the next loss waits 250 ms again
    c.socket().accept();
    expect(c.socket().pings()).toHaveLength(1);
    vi.advanceTimersByTime(400);
    expect(c.socket().pings()).toHaveLength(5);
    expect(waitAfterDrop(c)).toBeLessThanOrEqual(300);
    expect(c.connection.counters).toMatchObject({ connects: 2, disconnects: 2 });
  });

  it('the jitter is the random draw: 0.8 times the wait at its lowest, 1.2 times at its highest', () => {
    const c = connect({ reconnect: { firstMs: 1000, maxMs: 1000 } });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(waitAfterDrop(c)).toBe(800);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(waitAfterDrop(c)).toBe(1000);
    vi.spyOn(Math, 'random').mockReturnValue(1 - 2 ** -20);
    expect(waitAfterDrop(c)).toBeGreaterThanOrEqual(1199); // 1199.99…, the clock in whole ms
  });

  it('reconnect: false never reconnects', () => {
    const { connection, sockets, socket } = connect({ reconnect: false });
    socket().accept();
    socket().drop();
    expect([connection.connected, connection.counters.disconnects, vi.getTimerCount()]).toEqual([false, 1, 0]);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('after a reconnect, a first snapshot older than what is kept is a server that started over: counted, the buffer cleared, the playout reset', () => {
    const c = connect({ kept: 4 });
    c.socket().accept();
    c.socket().pong();
    const send = (tick: number) => c.socket().deliver(snapshot(tick, serverNow() - 20, 50));
    for (const tick of [100, 101, 103, 104]) send(tick); // full; tick 102 lost
    expect(c.connection.counters.lost).toBe(1);
    expect(Number.isFinite(c.connection.renderTime(clock()))).toBe(true);
    // an old one on the same link is only stale
    send(50);
    expect([c.connection.counters.restarts, c.connection.buffer.stats.stale]).toEqual([0, 1]);
    c.socket().drop();
    vi.advanceTimersToNextTimer();
    c.socket().accept();
    c.socket().pong();
    send(2);
    expect(c.connection.counters.restarts).toBe(1);
    expect(c.connection.buffer.kept.map((s) => s.tick)).toEqual([2]);
    expect(c.connection.playout!.stats().samples).toBe(1);
    // the render time waits for FIRST_SAMPLES again, then is placed afresh; the ticks are counted from the new run
    expect(c.connection.renderTime(clock())).toBeNaN();
    for (let tick = 3; tick < 2 + FIRST_SAMPLES; tick++) send(tick);
    expect(c.connection.renderTime(clock())).toBe(serverNow() - c.connection.playout!.target);
    expect([c.connection.counters.lost, c.connection.counters.restarts]).toEqual([1, 1]);
    // a stale one that is not the first since the open is no restart
    const stale = c.connection.buffer.stats.stale;
    send(1);
    expect([c.connection.counters.restarts, c.connection.buffer.stats.stale]).toEqual([1, stale + 1]);
  });

  it('a restart is seen with the buffer not full and nothing drawn, is not counted stale, and what a server sent while away is not loss', () => {
    const c = connect();
    c.socket().accept();
    c.socket().pong();
    const send = (tick: number) => c.socket().deliver(snapshot(tick, serverNow() - 20, 50));
    for (const tick of [100, 101, 102]) send(tick);
    const reconnect = () => {
      c.socket().drop();
      vi.advanceTimersToNextTimer();
      c.socket().accept();
    };
    // a server that went on: its ticks while this client was away are not lost on the link
    reconnect();
    send(150);
    expect([c.connection.counters.lost, c.connection.counters.restarts]).toEqual([0, 0]);
    // a server that started over, the buffer far from full: the old world goes, and nothing counts stale
    reconnect();
    send(0);
    expect(c.connection.counters.restarts).toBe(1);
    expect(c.connection.buffer.kept.map((s) => s.tick)).toEqual([0]);
    expect(c.connection.buffer.stats).toMatchObject({ stored: 5, stale: 0 });
  });

  it('a server that sends once every 1.5 s still gets a render time (FIRST_SAMPLES counts snapshots, not the window)', () => {
    const c = connect();
    c.socket().accept();
    c.socket().pong();
    for (let tick = 0; tick < FIRST_SAMPLES; tick++) {
      c.socket().deliver(snapshot(tick, serverNow() - 20, 1500));
      vi.advanceTimersByTime(1500);
    }
    expect(c.connection.renderTime(clock())).not.toBeNaN();
  });

  it('after a reconnect to a server that went on, the buffer and the playout stay', () => {
    const c = connect({ kept: 4 });
    c.socket().accept();
    c.socket().pong();
    const send = (tick: number) => c.socket().deliver(snapshot(tick, serverNow() - 20, 50));
    for (const tick of [100, 101, 102, 103]) send(tick);
    c.socket().drop();
    vi.advanceTimersToNextTimer();
    c.socket().accept();
    send(104);
    expect(c.connection.counters.restarts).toBe(0);
    expect(c.connection.buffer.kept.map((s) => s.tick)).toEqual([101, 102, 103, 104]);
    expect(c.connection.playout!.stats().samples).toBe(5);
  });
});

describe('what a server may send', () => {
  it('refuses non-binary and malformed messages, counted by reason with the last one in words, never thrown', () => {
    const { connection, socket } = connect();
    socket().accept();
    const refused = connection.buffer.stats.refused;
    const good = new Uint8Array(snapshot(1, 0));
    const cases: Array<[unknown, keyof typeof refused, RegExp]> = [
      ['hello', 'type', /not binary \(string\)/],
      [{ data: 1 }, 'type', /not binary \(object\)/],
      [new Uint8Array(8), 'truncated', /fewer than the 16/],
      [new Uint8Array(64), 'magic', /SFN1/],
      [good.slice(0, good.length - 4), 'truncated', /head says/],
      [(() => { const b = good.slice(); new DataView(b.buffer).setUint32(8, 0xdead, true); return b; })(), 'signature', /schema/],
      [(() => { const b = good.slice(); new DataView(b.buffer).setUint32(20, 99, true); return b; })(), 'count', /snapshot refused \(count\)/],
      [(() => { const b = good.slice(); new DataView(b.buffer).setFloat64(24, Number.NaN, true); return b; })(), 'time', /snapshot refused \(time\)/],
    ];
    for (const [data, reason, words] of cases) {
      const before = refused[reason];
      expect(() => socket().deliver(data)).not.toThrow();
      expect(refused[reason], reason).toBe(before + 1);
      expect(connection.counters.lastRefusal, reason).toMatch(words);
    }
    expect(connection.buffer.stats.stored).toBe(0);
    expect(connection.playout).toBeNull();
    // a good one still goes in, from a view at an offset too (a pooled buffer's slice)
    const pooled = new Uint8Array(good.length + 3);
    pooled.set(good, 3);
    socket().deliver(pooled.subarray(3));
    expect(connection.buffer.kept.map((s) => s.tick)).toEqual([1]);
    expect(connection.connected).toBe(true);
  });

  it('a socket factory that throws: said once, no retries', () => {
    const connection = new Connection({ url: 'nope://', format, clock, socket: () => { throw new SyntaxError('bad URL'); } });
    expect(() => connection.open()).not.toThrow();
    expect(connection.counters.lastRefusal).toBe('could not open nope://: bad URL');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('close and inputs', () => {
  it('close() stops the pings and any reconnect, closes the socket with 1000, and open() after it does nothing', () => {
    const a = connect();
    a.socket().accept();
    a.connection.close();
    expect(a.socket().closedWith).toEqual([1000, 'closed by the client']);
    expect([a.connection.connected, vi.getTimerCount()]).toEqual([false, 0]);
    a.socket().drop(); // the close event that follows: no reconnect, not counted a loss
    vi.advanceTimersByTime(60_000);
    expect([a.sockets.length, a.socket().pings().length, a.connection.counters.disconnects]).toEqual([1, 1, 0]);
    a.connection.open();
    expect(a.sockets).toHaveLength(1);
    // during a reconnect's wait
    const b = connect();
    b.socket().accept();
    b.socket().drop();
    expect(vi.getTimerCount()).toBe(1);
    b.connection.close();
    vi.advanceTimersByTime(60_000);
    expect(b.sockets).toHaveLength(1);
  });

  it('sendInputs: false when not connected or given nothing; sent and counted when connected', () => {
    const { connection, socket } = connect();
    const events = [{ time: 5, code: 2, payload: [7] }];
    expect(connection.sendInputs(events, 1)).toBe(false);
    socket().accept();
    const out = connection.counters.bytesOut;
    expect(connection.sendInputs([], 1)).toBe(false);
    expect(connection.sendInputs(events, 1)).toBe(true);
    const sent = socket().sent.at(-1)!;
    expect(Array.from(decodeInputs(format, sent).values)).toEqual([5, 5, 2, 7]);
    expect(connection.counters.bytesOut).toBe(out + sent.byteLength);
    socket().drop();
    expect(connection.sendInputs(events, 1)).toBe(false);
  });
});
