/**
 * The publisher's socket host (src/net/socket-host.ts) against sockets shaped like the `ws` package's: messages
 * reach the client whole whatever shape they come in, a socket that reads too slowly has snapshots skipped
 * rather than queued, and a message whose handling throws closes that connection alone.
 */
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import type { PublisherClient, SnapshotPublisher } from '../../src/net/publisher.ts';
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
      return {
        player,
        stats: { snapshots: 0, bytes: 0, pongs: 0, inputs: 0, inputRepeats: 0, inputsMissed: 0, refused: {} as PublisherClient['stats']['refused'], lastRefusal: null },
        receive(bytes) {
          if (explode) throw new TypeError('a bug');
          received.push([player, Array.from(bytes)]);
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
  expect(bad.closed).toEqual([1011, 'steadyframe: the server failed on a message from this connection']);
  expect([host.failed, host.open, (host.lastError as Error).message]).toEqual([1, 1, 'a bug']);
  fake.broadcast(new Uint8Array(4));
  expect(good.sent).toHaveLength(1);
});
