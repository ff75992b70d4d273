/**
 * The snapshot publisher on a WebSocket server (ARCHITECTURE.md, "Multiplayer"): each connection becomes a
 * publisher client, its binary messages fed to `receive`, its `send` the socket's own. Written against the shape
 * of the `ws` package's server and sockets (structural types: nothing of `ws` is imported, so the library does
 * not depend on it; the app makes the server, with its own port, TLS and `maxPayload`).
 *
 * A client that reads slower than snapshots come (a phone on a bad link) would make the server buffer for it
 * without end: while a socket has more than `maxBufferedBytes` waiting, snapshots to it are skipped (counted),
 * never queued. A snapshot is replaced by the next one anyway, and the client's jitter buffer bridges the gap.
 * A message whose handling throws (a refusal never does: it is counted) closes that connection alone.
 */
import type { PublisherClient, SnapshotPublisher } from './publisher.ts';

/** What the host needs of a socket (a `ws` WebSocket). */
export interface SnapshotSocket {
  /** Bytes queued and not yet sent. */
  readonly bufferedAmount: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: ArrayBuffer | Uint8Array | readonly Uint8Array[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** What the host needs of a server (a `ws` WebSocketServer). */
export interface SnapshotSocketServer {
  on(event: 'connection', listener: (socket: SnapshotSocket) => void): unknown;
  off(event: 'connection', listener: (socket: SnapshotSocket) => void): unknown;
}

export interface SocketHostOptions {
  /** Bytes a socket may have queued before snapshots to it are skipped. Default: 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Called with each new connection's publisher client (its player, its stats). */
  readonly onClient?: (client: PublisherClient, socket: SnapshotSocket) => void;
}

/** What a socket host has done. */
export interface SocketHost {
  /** Snapshots skipped because a socket had too much queued, all sockets. */
  readonly skipped: number;
  /** Connections open now. */
  readonly open: number;
  /**
   * Connections closed because handling their message threw something other than a refusal (a bug this host
   * could not foresee): the connection is closed (1011), the server and the other clients go on. The last error.
   */
  readonly failed: number;
  readonly lastError: unknown;
  /** Stops taking connections (open ones stay until they close). */
  close(): void;
}

export function hostSnapshots(publisher: SnapshotPublisher, server: SnapshotSocketServer, options: SocketHostOptions = {}): SocketHost {
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  let skipped = 0;
  let open = 0;
  let failed = 0;
  let lastError: unknown = null;
  const connection = (socket: SnapshotSocket): void => {
    open++;
    const client = publisher.connect((bytes) => {
      if (socket.bufferedAmount > maxBuffered) {
        skipped++;
        return;
      }
      socket.send(bytes);
    });
    socket.on('message', (data) => {
      try {
        client.receive(bytesOf(data));
      } catch (error) {
        // refusals never throw (they are counted): this is a fault of ours, and it stays this connection's
        failed++;
        lastError = error;
        client.close();
        socket.close(1011, 'steadyframe: the server failed on a message from this connection');
      }
    });
    socket.on('close', () => {
      open--;
      client.close();
    });
    options.onClient?.(client, socket);
  };
  server.on('connection', connection);
  return {
    get skipped() {
      return skipped;
    },
    get open() {
      return open;
    },
    get failed() {
      return failed;
    },
    get lastError() {
      return lastError;
    },
    close: () => void server.off('connection', connection),
  };
}

/** A message as one byte array, whatever shape the socket handed it over in (text frames too: the wire refuses them). */
function bytesOf(data: ArrayBuffer | Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data instanceof Uint8Array) return data;
  let length = 0;
  for (const part of data) length += part.byteLength;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const part of data) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
}
