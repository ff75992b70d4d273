/**
 * The snapshot publisher on a WebSocket server (ARCHITECTURE.md, "Multiplayer"): each connection becomes a
 * publisher client, its binary messages fed to `receive`, its `send` the socket's own. Written against the shape
 * of the `ws` package's server and sockets (structural types: nothing of `ws` is imported, so the library does
 * not depend on it; the app makes the server, with its own port, TLS and `maxPayload`: `publisher.maxMessageBytes`).
 *
 * The policies that are not the socket's (refusals, faults, slow readers) are the transport-neutral host's
 * (net/snapshot-host.ts), which a Colyseus room runs too; this file adds what only a WebSocket has (its frames
 * and pings) and the TCP socket's own end. Nothing a socket can send reaches the process; each way a connection
 * ends badly is counted in `stats.closed`:
 * ```text
 *  socket 'error'  ── a frame ws refused (bad UTF-8, unmasked, reserved opcode, past maxPayload...): ws has closed
 *                     it with the error's close code; counted by reason (socket-errors.ts)          → `protocol`
 *  socket 'ping'   ── past MAX_PINGS_PER_SECOND (ws has answered it already): closed, 1008            → `pings`
 *  'message'       ── refused by the publisher (counted there, by reason), and nothing taken from the
 *                     first refusal on for maxRefusingMs: closed, 1008                                → `refusals`
 *                  ── its handling threw (a bug of ours, not a refusal): closed, 1011                → `failed`
 *  then, whatever closed it: the TCP socket is dropped CLOSE_GRACE_MS later if the peer has not finished the close
 * ```
 * Pings: ws answers a ping frame with a pong before it tells the host, and only the app's server option
 * `autoPong: false` stops it. The host needs no option of the app's: it ends a connection past the allowance,
 * which bounds the pongs a flood gets to the allowance (no browser sends ping frames at all).
 *
 * A socket with more than `maxBufferedBytes` waiting gets no snapshots until it drains (snapshot-host.ts).
 */
import { MAX_PINGS_PER_SECOND } from './ping-schedule.ts';
import type { PublisherClient, SnapshotPublisher } from './publisher.ts';
import { RateBucket } from './rate-bucket.ts';
import { createSnapshotHost, type SnapshotHostOptions, type SnapshotHostStats } from './snapshot-host.ts';
import { emptyProtocolErrors, protocolError, type ProtocolError } from './socket-errors.ts';

// the host's policy and its words, where this file's users have always found them
export { DEFAULT_MAX_REFUSING_MS, type HostClose } from './snapshot-host.ts';

/** What the host needs of a socket (a `ws` WebSocket). */
export interface SnapshotSocket {
  /** Bytes queued and not yet sent. */
  readonly bufferedAmount: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection at once, without a close handshake (ws: destroys the TCP socket). */
  terminate(): void;
  on(event: 'message', listener: (data: ArrayBuffer | Uint8Array | readonly Uint8Array[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  /** A frame the socket refused (ws closes the connection itself, with the error's close code). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** A WebSocket ping frame (ws has answered it with a pong, unless the server was made with `autoPong: false`). */
  on(event: 'ping', listener: () => void): unknown;
}

/** What the host needs of a server (a `ws` WebSocketServer). */
export interface SnapshotSocketServer {
  on(event: 'connection', listener: (socket: SnapshotSocket) => void): unknown;
  off(event: 'connection', listener: (socket: SnapshotSocket) => void): unknown;
}

/**
 * Ms the host waits, after it or ws closed a connection, for the peer to finish the close before it drops the
 * TCP socket. A peer that answers the close does so within a round trip (the client's clock refuses round trips
 * over a second); one that never does (or never reads) would otherwise hold the socket for ws's `closeTimeout`
 * (30 s), and a loop of them would hold thousands.
 */
export const CLOSE_GRACE_MS = 1000;

/** The host's options (snapshot-host.ts: `maxBufferedBytes`, `maxRefusingMs`, `now`), and the socket's own. */
export interface SocketHostOptions extends SnapshotHostOptions {
  /** WebSocket ping frames a connection may send a second (and at once) before it is closed (1008). Default MAX_PINGS_PER_SECOND. */
  readonly pingsPerSecond?: number;
  /** Called with each new connection's publisher client (its player, its stats). */
  readonly onClient?: (client: PublisherClient, socket: SnapshotSocket) => void;
}

/** What a socket host has seen, over every connection it took (`stats` makes a new one at each read). */
export interface SocketHostStats extends SnapshotHostStats {
  /** Frames the WebSocket refused below the wire, by reason (socket-errors.ts): each ended its connection. */
  readonly protocolErrors: Readonly<Record<ProtocolError, number>>;
}

/** What a socket host has done. */
export interface SocketHost {
  /** Snapshots skipped because a socket had too much queued, all sockets (also in `stats`). */
  readonly skipped: number;
  /** Connections open now. */
  readonly open: number;
  /**
   * Connections closed because handling their message threw something other than a refusal (a bug this host
   * could not foresee): the connection is closed (1011), the server and the other clients go on. The last error.
   */
  readonly failed: number;
  readonly lastError: unknown;
  /** Everything counted, refusals and closes by reason: read it for the server's log. Allocates. */
  readonly stats: SocketHostStats;
  /** Stops taking connections (open ones stay until they close). */
  close(): void;
}

export function hostSnapshots(publisher: SnapshotPublisher, server: SnapshotSocketServer, options: SocketHostOptions = {}): SocketHost {
  const pingsPerSecond = options.pingsPerSecond ?? MAX_PINGS_PER_SECOND;
  const now = options.now ?? (() => performance.now());
  const host = createSnapshotHost(publisher, { ...options, now });
  const protocolErrors = emptyProtocolErrors();

  const connection = (socket: SnapshotSocket): void => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    /** Drops the TCP socket CLOSE_GRACE_MS from now if the peer has not finished the close (set once). */
    const dropLater = (): void => {
      if (grace !== undefined) return;
      grace = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
      grace.unref?.();
    };
    const hosted = host.connect({
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      send: (bytes) => socket.send(bytes),
      close(code, reason) {
        // the timer first: a socket may emit 'close' within `close()`
        dropLater();
        socket.close(code, reason);
      },
    });
    const pings = new RateBucket(pingsPerSecond, now());
    socket.on('message', (data) => {
      if (!hosted.ended) hosted.receive(bytesOf(data));
    });
    socket.on('ping', () => {
      if (hosted.ended || pings.take(now())) return;
      // ws has answered it already: the connection ends rather than the pongs
      dropLater();
      hosted.end('pings', `steadyframe: more than ${pingsPerSecond} pings a second`);
      socket.close(1008, 'steadyframe: closed (pings)');
    });
    socket.on('error', (error) => {
      // ws emits at most one 'error' a socket, and has closed the connection with the error's own close code
      const reason = protocolError(error);
      protocolErrors[reason]++;
      if (!hosted.ended) dropLater();
      hosted.end('protocol', `steadyframe: a frame refused by the WebSocket (${reason}): ${error instanceof Error ? error.message : String(error)}`);
    });
    socket.on('close', () => {
      clearTimeout(grace);
      hosted.gone();
    });
    options.onClient?.(hosted.client, socket);
  };
  server.on('connection', connection);
  return {
    get skipped() {
      return host.skipped;
    },
    get open() {
      return host.open;
    },
    get failed() {
      return host.failed;
    },
    get lastError() {
      return host.lastError;
    },
    get stats() {
      return { ...host.stats, protocolErrors: { ...protocolErrors } };
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
