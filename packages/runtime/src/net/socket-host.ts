/**
 * The snapshot publisher on a WebSocket server (ARCHITECTURE.md, "Multiplayer"): each connection becomes a
 * publisher client, its binary messages fed to `receive`, its `send` the socket's own. Written against the shape
 * of the `ws` package's server and sockets (structural types: nothing of `ws` is imported, so the library does
 * not depend on it; the app makes the server, with its own port, TLS and `maxPayload`: `publisher.maxMessageBytes`).
 *
 * Nothing a socket can send reaches the process; each way a connection ends badly is counted in `stats.closed`:
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
 * A client that reads slower than snapshots come (a phone on a bad link) would make the server buffer for it
 * without end: while a socket has more than `maxBufferedBytes` waiting, snapshots to it are skipped (counted),
 * never queued. A snapshot is replaced by the next one anyway, and the client's jitter buffer bridges the gap.
 */
import { MAX_PINGS_PER_SECOND } from './ping-schedule.ts';
import { emptyRefusals, type PublisherClient, type PublisherClientStats, type PublisherRefusal, type SnapshotPublisher } from './publisher.ts';
import { RateBucket } from './rate-bucket.ts';
import { emptyProtocolErrors, protocolError, type ProtocolError } from './socket-errors.ts';

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
 * Ms a connection may go on sending only what the publisher refuses before it is closed (1008). A client of
 * this server pings once a second (net/ping-schedule.ts) and its pongs count as taken, so five seconds of
 * nothing but refusals is five missed pings in a row: a client of another build or no client at all. Long enough
 * that a client is never cut for a burst of refused inputs (stale times after a stall, a flood of keys) while it
 * still pings; short enough that a hostile connection spends its slot and the checks' CPU for seconds, not forever.
 */
export const DEFAULT_MAX_REFUSING_MS = 5000;

/**
 * Ms the host waits, after it or ws closed a connection, for the peer to finish the close before it drops the
 * TCP socket. A peer that answers the close does so within a round trip (the client's clock refuses round trips
 * over a second); one that never does (or never reads) would otherwise hold the socket for ws's `closeTimeout`
 * (30 s), and a loop of them would hold thousands.
 */
export const CLOSE_GRACE_MS = 1000;

/** Why the host closed a connection: counted in `stats.closed`. */
export type HostClose = 'protocol' | 'pings' | 'refusals' | 'failed';

export interface SocketHostOptions {
  /** Bytes a socket may have queued before snapshots to it are skipped. Default: 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Ms of nothing but refused messages before a connection is closed (1008). Default DEFAULT_MAX_REFUSING_MS. */
  readonly maxRefusingMs?: number;
  /** WebSocket ping frames a connection may send a second (and at once) before it is closed (1008). Default MAX_PINGS_PER_SECOND. */
  readonly pingsPerSecond?: number;
  /** The clock the two allowances above are measured on, ms. Default `performance.now`. */
  readonly now?: () => number;
  /** Called with each new connection's publisher client (its player, its stats). */
  readonly onClient?: (client: PublisherClient, socket: SnapshotSocket) => void;
}

/** What a socket host has seen, over every connection it took (`stats` makes a new one at each read). */
export interface SocketHostStats {
  /** Connections open now, and taken in all. */
  readonly open: number;
  readonly connections: number;
  /** Snapshots skipped because a socket had too much queued, all sockets. */
  readonly skipped: number;
  /** Messages the publisher refused (the wire's checks and the inputs'), all connections, by reason. */
  readonly refused: Readonly<Record<PublisherRefusal, number>>;
  /** Frames the WebSocket refused below the wire, by reason (socket-errors.ts): each ended its connection. */
  readonly protocolErrors: Readonly<Record<ProtocolError, number>>;
  /** Connections the host closed (or saw ws close for a protocol error), by why: each counted once. */
  readonly closed: Readonly<Record<HostClose, number>>;
  /** The last of those, in words (for the server's log), or null. */
  readonly lastClose: string | null;
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

/** A publisher client's messages taken (a refused message takes none of these). */
const taken = (stats: Readonly<PublisherClientStats>): number => stats.pongs + stats.inputs + stats.inputRepeats + stats.acks;

export function hostSnapshots(publisher: SnapshotPublisher, server: SnapshotSocketServer, options: SocketHostOptions = {}): SocketHost {
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  const maxRefusingMs = options.maxRefusingMs ?? DEFAULT_MAX_REFUSING_MS;
  const pingsPerSecond = options.pingsPerSecond ?? MAX_PINGS_PER_SECOND;
  const now = options.now ?? (() => performance.now());
  let skipped = 0;
  let open = 0;
  let connections = 0;
  let lastError: unknown = null;
  let lastClose: string | null = null;
  const protocolErrors = emptyProtocolErrors();
  const closed: Record<HostClose, number> = { protocol: 0, pings: 0, refusals: 0, failed: 0 };
  // refusals of connections gone, and the live clients' (summed when stats are read)
  const refusedGone = emptyRefusals();
  const live = new Set<PublisherClient>();

  const connection = (socket: SnapshotSocket): void => {
    open++;
    connections++;
    const client = publisher.connect((bytes) => {
      if (socket.bufferedAmount > maxBuffered) {
        skipped++;
        return;
      }
      socket.send(bytes);
    });
    live.add(client);
    const pings = new RateBucket(pingsPerSecond, now());
    /**
     * When this run of refusals began: the first message refused since the last one taken (NaN: none refused
     * since). Measured from a refusal, not from the last message taken: a server that stalled (its event loop
     * busy for seconds) finds messages queued by then, inputs among them stale; the first of those must not
     * close a connection whose pongs wait right behind it.
     */
    let refusingSince = Number.NaN;
    /** The host has ended this connection (counted once), or the socket has closed. */
    let ended = false;
    let grace: ReturnType<typeof setTimeout> | undefined;

    /**
     * Counts why, stops the client, closes the socket (code 0: ws has closed it already), and drops it if it is
     * still there CLOSE_GRACE_MS later (the timer is set first: a socket may emit 'close' within `close()`).
     */
    const end = (why: HostClose, code: number, words: string): void => {
      if (ended) return;
      ended = true;
      closed[why]++;
      lastClose = words;
      client.close();
      grace = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
      grace.unref?.();
      // the reason the peer sees is the short one (a close reason is at most 123 bytes); the log gets the words
      if (code !== 0) socket.close(code, `steadyframe: closed (${why})`);
    };

    socket.on('message', (data) => {
      if (ended) return;
      const before = taken(client.stats);
      try {
        client.receive(bytesOf(data));
      } catch (error) {
        // refusals never throw (they are counted): this is a fault of ours, and it stays this connection's
        lastError = error;
        end('failed', 1011, 'steadyframe: the server failed on a message from this connection');
        return;
      }
      if (taken(client.stats) !== before) {
        refusingSince = Number.NaN;
        return;
      }
      const t = now();
      if (Number.isNaN(refusingSince)) refusingSince = t;
      else if (t - refusingSince >= maxRefusingMs) end('refusals', 1008, `steadyframe: nothing but refused messages for ${maxRefusingMs} ms (last: ${client.stats.lastRefusal ?? 'none'})`);
    });
    socket.on('ping', () => {
      if (!ended && !pings.take(now())) end('pings', 1008, `steadyframe: more than ${pingsPerSecond} pings a second`);
    });
    socket.on('error', (error) => {
      // ws emits at most one 'error' a socket, and has closed the connection with the error's own close code
      const reason = protocolError(error);
      protocolErrors[reason]++;
      end('protocol', 0, `steadyframe: a frame refused by the WebSocket (${reason}): ${error instanceof Error ? error.message : String(error)}`);
    });
    socket.on('close', () => {
      open--;
      ended = true;
      clearTimeout(grace);
      client.close();
      live.delete(client);
      addInto(refusedGone, client.stats.refused);
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
      return closed.failed;
    },
    get lastError() {
      return lastError;
    },
    get stats() {
      const refused = { ...refusedGone };
      for (const client of live) addInto(refused, client.stats.refused);
      return { open, connections, skipped, refused, protocolErrors: { ...protocolErrors }, closed: { ...closed }, lastClose };
    },
    close: () => void server.off('connection', connection),
  };
}

function addInto<K extends string>(sum: Record<K, number>, counts: Readonly<Record<K, number>>): void {
  for (const key of Object.keys(counts) as K[]) sum[key] += counts[key];
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
