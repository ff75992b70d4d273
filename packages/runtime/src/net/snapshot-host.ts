/**
 * The snapshot publisher's connections, whatever carries them (ARCHITECTURE.md, "Multiplayer"): what a host does
 * with each connection that is not the transport's business. `hostSnapshots` (net/socket-host.ts) runs it on a
 * `ws` server; @steadyframe/colyseus runs it in a Colyseus room, each room client a connection. A transport gives
 * each connection a `SnapshotLink` (its send, its queued bytes, its close) and tells the host what arrives and
 * when the connection has gone:
 *
 * ```text
 *  transport                         this host                                  the publisher
 *  a connection ── connect(link) ──▶ a HostedConnection ── publisher.connect ──▶ a PublisherClient
 *  a message ───── receive(bytes) ─▶ refused (counted there, by reason), and nothing taken from the
 *                                    first refusal on for maxRefusingMs: ended, link.close(1008)   → `refusals`
 *                                    its handling threw (a bug of ours, not a refusal): link.close(1011) → `failed`
 *  its own reason ─ end(why, words) ▶ counted (`protocol`, `pings`: ws's), the client stopped
 *  gone ────────── gone() ─────────▶ the client closed, its refusals kept in the totals
 *  publish ◀──── link.send(bytes) ── skipped (counted) while link.bufferedAmount > maxBufferedBytes
 * ```
 *
 * A client that reads slower than snapshots come (a phone on a bad link) would make the server buffer for it
 * without end: while a link has more than `maxBufferedBytes` waiting, snapshots to it are skipped (counted), never
 * queued. A snapshot is replaced by the next one anyway, and the client's jitter buffer bridges the gap.
 */
import { emptyRefusals, type PublisherClient, type PublisherClientStats, type PublisherRefusal, type SnapshotPublisher } from './publisher.ts';

/**
 * Ms a connection may go on sending only what the publisher refuses before it is closed (1008). A client of
 * this server pings once a second (net/ping-schedule.ts) and its pongs count as taken, so five seconds of
 * nothing but refusals is five missed pings in a row: a client of another build or no client at all. Long enough
 * that a client is never cut for a burst of refused inputs (stale times after a stall, a flood of keys) while it
 * still pings; short enough that a hostile connection spends its slot and the checks' CPU for seconds, not forever.
 */
export const DEFAULT_MAX_REFUSING_MS = 5000;

/** Why the host (or its transport) ended a connection: counted in `stats.closed`. */
export type HostClose = 'protocol' | 'pings' | 'refusals' | 'failed';

/** What the host needs of one connection: the transport's side of it. */
export interface SnapshotLink {
  /** Bytes queued for the peer and not yet sent (0 where the transport does not say). Read at each snapshot. */
  readonly bufferedAmount: number;
  send(bytes: Uint8Array): void;
  /**
   * Ends the connection the host gave up on: `code` 1008 (policy: nothing but refusals) or 1011 (a fault of ours),
   * `reason` the short words the peer sees (at most 123 bytes). The transport calls `gone()` once it has closed.
   */
  close(code: number, reason: string): void;
}

export interface SnapshotHostOptions {
  /** Bytes a link may have queued before snapshots to it are skipped. Default: 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Ms of nothing but refused messages before a connection is closed (1008). Default DEFAULT_MAX_REFUSING_MS. */
  readonly maxRefusingMs?: number;
  /** The clock the allowance above is measured on, ms. Default `performance.now`. */
  readonly now?: () => number;
}

/** What a host has seen, over every connection it took (`stats` makes a new one at each read). */
export interface SnapshotHostStats {
  /** Connections open now, and taken in all. */
  readonly open: number;
  readonly connections: number;
  /** Snapshots skipped because a link had too much queued, all links. */
  readonly skipped: number;
  /** Messages the publisher refused (the wire's checks and the inputs'), all connections, by reason. */
  readonly refused: Readonly<Record<PublisherRefusal, number>>;
  /** Connections the host ended (or its transport did, for its own reasons), by why: each counted once. */
  readonly closed: Readonly<Record<HostClose, number>>;
  /** The last of those, in words (for the server's log), or null. */
  readonly lastClose: string | null;
}

/** One connection, as the host keeps it. */
export interface HostedConnection {
  /** Its publisher client (its player, its stats). */
  readonly client: PublisherClient;
  /** The host or the transport has ended it, or it has gone: what arrives now is let go. */
  readonly ended: boolean;
  /** A message from the peer: to the publisher, under the refusal and failure policies above. */
  receive(bytes: Uint8Array): void;
  /**
   * The transport ended it for a reason of its own (`protocol`: it refused a frame; `pings`: too many), in
   * `words` for the log: counted once, the client stopped. The transport closes it itself.
   */
  end(why: HostClose, words: string): void;
  /** The connection has closed (the transport's close event): the client stopped, its refusals kept in the totals. */
  gone(): void;
}

/** What a host has done. */
export interface SnapshotHost {
  /** A new connection on `link`; `player` the number its input events carry (default: the publisher's next). */
  connect(link: SnapshotLink, player?: number): HostedConnection;
  /** Snapshots skipped because a link had too much queued, all links (also in `stats`). */
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
  readonly stats: SnapshotHostStats;
}

/** A publisher client's messages taken (a refused message takes none of these). */
const taken = (stats: Readonly<PublisherClientStats>): number => stats.pongs + stats.inputs + stats.inputRepeats + stats.acks;

export function createSnapshotHost(publisher: SnapshotPublisher, options: SnapshotHostOptions = {}): SnapshotHost {
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  const maxRefusingMs = options.maxRefusingMs ?? DEFAULT_MAX_REFUSING_MS;
  const now = options.now ?? (() => performance.now());
  let skipped = 0;
  let open = 0;
  let connections = 0;
  let lastError: unknown = null;
  let lastClose: string | null = null;
  const closed: Record<HostClose, number> = { protocol: 0, pings: 0, refusals: 0, failed: 0 };
  // refusals of connections gone, and the live clients' (summed when stats are read)
  const refusedGone = emptyRefusals();
  const live = new Set<PublisherClient>();

  const connect = (link: SnapshotLink, player?: number): HostedConnection => {
    open++;
    connections++;
    const send = (bytes: Uint8Array): void => {
      if (link.bufferedAmount > maxBuffered) {
        skipped++;
        return;
      }
      link.send(bytes);
    };
    const client = player === undefined ? publisher.connect(send) : publisher.connect(send, player);
    live.add(client);
    /**
     * When this run of refusals began: the first message refused since the last one taken (NaN: none refused
     * since). Measured from a refusal, not from the last message taken: a server that stalled (its event loop
     * busy for seconds) finds messages queued by then, inputs among them stale; the first of those must not
     * close a connection whose pongs wait right behind it.
     */
    let refusingSince = Number.NaN;
    /** Ended by the host or its transport (counted once), or gone. */
    let ended = false;
    let isGone = false;

    /** Counts why and stops the client; `code`: the host closes the link with it (the peer sees the short reason). */
    const end = (why: HostClose, words: string, code?: number): void => {
      if (ended) return;
      ended = true;
      closed[why]++;
      lastClose = words;
      client.close();
      // the reason the peer sees is the short one (a close reason is at most 123 bytes); the log gets the words
      if (code !== undefined) link.close(code, `steadyframe: closed (${why})`);
    };

    return {
      client,
      get ended() {
        return ended;
      },
      receive(bytes) {
        if (ended) return;
        const before = taken(client.stats);
        try {
          client.receive(bytes);
        } catch (error) {
          // refusals never throw (they are counted): this is a fault of ours, and it stays this connection's
          lastError = error;
          end('failed', 'steadyframe: the server failed on a message from this connection', 1011);
          return;
        }
        if (taken(client.stats) !== before) {
          refusingSince = Number.NaN;
          return;
        }
        const t = now();
        if (Number.isNaN(refusingSince)) refusingSince = t;
        else if (t - refusingSince >= maxRefusingMs) end('refusals', `steadyframe: nothing but refused messages for ${maxRefusingMs} ms (last: ${client.stats.lastRefusal ?? 'none'})`, 1008);
      },
      end: (why, words) => end(why, words),
      gone() {
        if (isGone) return;
        isGone = true;
        open--;
        ended = true;
        client.close();
        live.delete(client);
        addInto(refusedGone, client.stats.refused);
      },
    };
  };

  return {
    connect,
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
      return { open, connections, skipped, refused, closed: { ...closed }, lastClose };
    },
  };
}

function addInto<K extends string>(sum: Record<K, number>, counts: Readonly<Record<K, number>>): void {
  for (const key of Object.keys(counts) as K[]) sum[key] += counts[key];
}
