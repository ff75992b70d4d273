/**
 * The publisher's socket host (src/net/socket-host.ts) against sockets shaped like the `ws` package's: messages
 * reach the client whole whatever shape they come in, a socket that reads too slowly has snapshots skipped
 * rather than queued, a message whose handling throws closes that connection alone, and each way a connection
 * ends badly (a frame the socket refused, a ping flood, nothing but refusals) is counted and ends it for good.
 */
import { EventEmitter } from 'node:events';
import { expect, it, vi } from 'vitest';
import { emptyRefusals, type PublisherClient, type SnapshotPublisher } from '../../src/net/publisher.ts';
import { hostSnapshots, type SnapshotSocket, type SnapshotSocketServer } from '../../src/net/socket-host.ts';

class FakeSocket extends EventEmitter implements SnapshotSocket {
  bufferedAmount = 0;
  readonly sent: Uint8Array[] = [];
  closed: [number | undefined, string | undefined] | null = null;
  send(data: Uint8Array): void {
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    this.closed = [code, reason];
    this.emit('close');
  }
  terminated = 0;
  terminate(): void {
    this.terminated++;
  }
}

/** A publisher that records what its clients receive, and sends `broadcast` to all; `explode` makes receive throw. */
function fakePublisher() {
  const received: Array<[number, number[]]> = [];
  const sends: Array<(bytes: Uint8Array) => void> = [];
  let closed = 0;
  let explode = false;
  const publisher = {
    connect(send: (bytes: Uint8Array) => void): PublisherClient {
      const player = sends.push(send) - 1;
      const stats = { snapshots: 0, bytes: 0, pongs: 0, inputs: 0, inputRepeats: 0, inputsMissed: 0, inputsLate: 0, inputsHeld: 0, inputsReflected: -1, refused: emptyRefusals(), lastRefusal: null, events: 0, eventsLost: 0, eventsPending: 0, acks: 0, deltas: 0, full: 0, visible: 0, entered: 0, left: 0 };
      return {
        player,
        stats,
        receive(bytes) {
          if (explode) throw new TypeError('a bug');
          received.push([player, Array.from(bytes)]);
          // [1]: a ping answered; [0]: a message refused (the publisher's counts, as it keeps them)
          if (bytes.length === 1 && bytes[0] === 1) stats.pongs++;
          if (bytes.length === 1 && bytes[0] === 0) stats.refused.magic++;
        },
        close() {
          closed++;
        },
      };
    },
  } as unknown as SnapshotPublisher;
  return { publisher, received, broadcast: (bytes: Uint8Array) => sends.forEach((send) => send(bytes)), closed: () => closed, explode: () => (explode = true) };
}

it('hands each message over whole, whatever shape the socket gives it, and closes the client with its socket', () => {
  const server = new EventEmitter() as EventEmitter & SnapshotSocketServer;
  const fake = fakePublisher();
  const host = hostSnapshots(fake.publisher, server);
  const socket = new FakeSocket();
  server.emit('connection', socket);
  socket.emit('message', new Uint8Array([1, 2]).buffer, true);
  socket.emit('message', Buffer.from([3, 4, 5]), true);
  socket.emit('message', [Buffer.from([6]), new Uint8Array([7, 8])], true);
  expect(fake.received).toEqual([
    [0, [1, 2]],
    [0, [3, 4, 5]],
    [0, [6, 7, 8]],
  ]);
  expect(host.open).toBe(1);
  socket.emit('close');
  expect([host.open, fake.closed()]).toEqual([0, 1]);
  host.close();
  server.emit('connection', new FakeSocket());
  expect(host.open).toBe(0);
});

it('skips snapshots to a socket with too much queued, never queueing more for it', () => {
  const server = new EventEmitter() as EventEmitter & SnapshotSocketServer;
  const fake = fakePublisher();
  const host = hostSnapshots(fake.publisher, server, { maxBufferedBytes: 100 });
  const slow = new FakeSocket();
  const fast = new FakeSocket();
  server.emit('connection', slow);
  server.emit('connection', fast);
  fake.broadcast(new Uint8Array(60));
  slow.bufferedAmount = 101;
  fake.broadcast(new Uint8Array(60));
  fake.broadcast(new Uint8Array(60));
  expect([slow.sent.length, fast.sent.length, host.skipped]).toEqual([1, 3, 2]);
});

it('closes a connection whose message handling throws, alone: the server and the others go on', () => {
  const server = new EventEmitter() as EventEmitter & SnapshotSocketServer;
  const fake = fakePublisher();
  const host = hostSnapshots(fake.publisher, server);
  const bad = new FakeSocket();
  const good = new FakeSocket();
  server.emit('connection', bad);
  server.emit('connection', good);
  fake.explode();
  expect(() => bad.emit('message', new Uint8Array([1]), true)).not.toThrow();
  expect(bad.closed).toEqual([1011, 'steadyframe: closed (failed)']);
  expect([host.failed, host.open, (host.lastError as Error).message]).toEqual([1, 1, 'a bug']);
  expect(host.stats.lastClose).toBe('steadyframe: the server failed on a message from this connection');
  fake.broadcast(new Uint8Array(4));
  expect(good.sent).toHaveLength(1);
});

/** A host on a fake server and clock: `connect()` opens a socket; `advance(ms)` moves the clock. */
function hosted(options: { maxRefusingMs?: number; pingsPerSecond?: number } = {}) {
  const server = new EventEmitter() as EventEmitter & SnapshotSocketServer;
  const fake = fakePublisher();
  let t = 0;
  const host = hostSnapshots(fake.publisher, server, { ...options, now: () => t });
  const connect = () => {
    const socket = new FakeSocket();
    server.emit('connection', socket);
    return socket;
  };
  return { host, fake, connect, advance: (ms: number) => (t += ms) };
}

it("counts a frame the socket refused by reason, and drops the socket if the peer does not finish the close", () => {
  vi.useFakeTimers();
  try {
    const { host, connect } = hosted();
    const sockets = ['WS_ERR_INVALID_UTF8', 'WS_ERR_EXPECTED_MASK', 'WS_ERR_INVALID_OPCODE', 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'toString', undefined].map((code) => {
      const socket = connect();
      // as ws does: the connection is closing (with the error's own code) when 'error' is emitted
      expect(() => socket.emit('error', Object.assign(new RangeError('bad frame'), { code }))).not.toThrow();
      return socket;
    });
    expect(host.stats.protocolErrors).toEqual({ utf8: 1, mask: 1, opcode: 1, rsv: 0, control: 0, close: 0, size: 1, other: 2 });
    expect(host.stats.closed).toEqual({ protocol: 6, pings: 0, refusals: 0, failed: 0 });
    expect(sockets.map((s) => s.closed)).toEqual(sockets.map(() => null)); // ws closed them: the host adds no second close
    sockets[0]!.emit('close'); // this peer finished the close
    vi.advanceTimersByTime(999);
    expect(sockets.map((s) => s.terminated)).toEqual([0, 0, 0, 0, 0, 0]);
    vi.advanceTimersByTime(1);
    expect(sockets.map((s) => s.terminated)).toEqual([0, 1, 1, 1, 1, 1]);
    expect(host.stats.lastClose).toBe('steadyframe: a frame refused by the WebSocket (other): bad frame');
  } finally {
    vi.useRealTimers();
  }
});

it('closes a connection that pings past its allowance (1008), and counts it; pings within it go on', () => {
  const { host, connect, advance } = hosted({ pingsPerSecond: 4 });
  const calm = connect();
  for (let second = 0; second < 10; second++) {
    calm.emit('ping');
    calm.emit('ping');
    advance(1000);
  }
  const flood = connect();
  for (let i = 0; i < 4; i++) flood.emit('ping');
  expect([calm.closed, flood.closed]).toEqual([null, null]);
  flood.emit('ping');
  expect(flood.closed).toEqual([1008, 'steadyframe: closed (pings)']);
  expect(host.stats.closed).toEqual({ protocol: 0, pings: 1, refusals: 0, failed: 0 });
  expect(host.open).toBe(1);
});

it('closes a connection that sends nothing but refusals for maxRefusingMs (1008); one taken message resets the wait', () => {
  const { host, connect, advance } = hosted({ maxRefusingMs: 5000 });
  const other = connect();
  const hostile = connect();
  const refused = new Uint8Array([0]);
  const ping = new Uint8Array([1]);
  for (let i = 0; i < 10; i++) {
    other.emit('message', refused, true);
    hostile.emit('message', refused, true);
    advance(600);
    if (i === 4) other.emit('message', ping, true);
  }
  // the hostile one's tenth refusal comes 5.4 s after its first; the other's ping at 3 s keeps it
  expect([other.closed, hostile.closed]).toEqual([null, [1008, 'steadyframe: closed (refusals)']]);
  expect(host.stats.closed.refusals).toBe(1);
  // the refusals stay counted after the connection has gone, with the open one's
  expect(host.stats.refused.magic).toBe(20);
  expect(host.open).toBe(1);
});

it('measures the refusals from the first one, not from the last message taken: a server that stalled does not close a connection', () => {
  const { host, connect, advance } = hosted({ maxRefusingMs: 5000 });
  const socket = connect();
  const refused = new Uint8Array([0]);
  const ping = new Uint8Array([1]);
  socket.emit('message', ping, true);
  // the server's event loop busy for 8 s (an e2e run's server under load once was): what the client sent meanwhile
  // comes in one go, a stale input first (refused) and the pongs behind it (taken)
  advance(8000);
  socket.emit('message', refused, true);
  expect(socket.closed).toBeNull();
  socket.emit('message', ping, true);
  // a run of refusals is judged from its own start
  socket.emit('message', refused, true);
  advance(4999);
  socket.emit('message', refused, true);
  expect(socket.closed).toBeNull();
  advance(1);
  socket.emit('message', refused, true);
  expect(socket.closed).toEqual([1008, 'steadyframe: closed (refusals)']);
  expect(host.stats.closed.refusals).toBe(1);
});
