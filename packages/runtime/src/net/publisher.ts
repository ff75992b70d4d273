/**
 * The server's snapshot publisher (ARCHITECTURE.md, "Multiplayer"): the newest published state of a runtime
 * (`steadyframe/node` runs the simulation), at most every `every`-th tick, encoded once (net/wire.ts) and handed
 * to every client's `send`; each client's pings answered with the server's clock. It takes bytes, not sockets:
 * any server framework (the `ws` package, a Colyseus room, a test's loop) hosts it by giving each connection a
 * `send` and feeding what arrives to `receive`.
 *
 * ```text
 *  the host's loop ── publish() ── reader.read: the newest state, under the lock ── encodeSnapshot (once)
 *                                                                   └─▶ client.send(bytes), for every client
 *  a connection ─── client.receive(bytes) ── ping? ── pong: the ping echoed, the server's receive and send times
 *                                         └─ anything else: refused, counted (WireError's reason), never thrown
 * ```
 *
 * Reading is the page side's `runtime.reader`, so the simulation worker never waits on the network: the
 * publisher copies the state out under the lock (one memcpy of the live part) and the sockets get the copy.
 */
import type { Runtime } from '../contracts/app.ts';
import { computeLayout, META, type StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { decodePing, encodePong, encodeSnapshot, messageType, MESSAGE, WireError, wireFormat, type WireFormat, type WireRefusal } from './wire.ts';

export interface PublisherOptions {
  /** Send a state only when its tick is at least this many ticks past the last one sent (default 1: every tick). */
  readonly every?: number;
}

/** What one client's connection has seen. */
export interface PublisherClientStats {
  snapshots: number;
  bytes: number;
  pongs: number;
  /** Messages from this client refused, by reason. */
  readonly refused: Record<WireRefusal, number>;
}

/** One client: feed it what arrives, close it when the connection ends. */
export interface PublisherClient {
  /** Takes a message from the client (a ping today); a message that is not valid is refused and counted, never thrown. */
  receive(bytes: Uint8Array): void;
  /** Stops sending to this client. */
  close(): void;
  readonly stats: Readonly<PublisherClientStats>;
}

export interface SnapshotPublisher {
  /**
   * Sends the newest state to every client if its tick is `every` or more past the last one sent; returns
   * whether it sent. Call it from the host's loop, at least as often as the send rate (a timer at half the tick
   * interval is plenty): a call that finds nothing new costs one lock acquire.
   */
  publish(): boolean;
  /** A new connection: `send` is how its messages leave (the socket's own send). */
  connect(send: (bytes: Uint8Array) => void): PublisherClient;
  readonly stats: { readonly clients: number; readonly sent: number; readonly lastTick: number; readonly lastBytes: number };
  /** The wire format (both ends compute it from the schema and capacity). */
  readonly format: WireFormat;
}

const emptyRefusals = (): Record<WireRefusal, number> => ({ truncated: 0, magic: 0, version: 0, type: 0, signature: 0, length: 0, count: 0, time: 0 });

export function createSnapshotPublisher<S extends Schema>(runtime: Runtime<S, object>, options: PublisherOptions = {}): SnapshotPublisher {
  const every = options.every ?? 1;
  if (!Number.isInteger(every) || every < 1) throw new RangeError(`steadyframe: the publisher's every must be a whole number of ticks, at least 1; got ${String(every)}`);
  const format = wireFormat(computeLayout(runtime.schema, runtime.capacity));
  const clients = new Set<{ send: (bytes: Uint8Array) => void; stats: PublisherClientStats }>();
  let lastTick = Number.NEGATIVE_INFINITY;
  let sent = 0;
  let lastBytes = 0;
  let message: Uint8Array | null = null;
  let messageTick = 0;
  // made once: read() allocates nothing for it
  const encodeNewest = (pair: StatePair<S>): void => {
    const meta = pair.metaWords;
    const tick = meta[META.CUR_TICK]!;
    // tick numbers only go on (a restart keeps counting)
    if (tick - lastTick < every) return;
    messageTick = tick;
    message = encodeSnapshot(format, { tick, time: meta[META.CUR_TIME]!, count: meta[META.COUNT]!, snaps: meta[META.SNAPS]! }, pair.currentBlock, pair.currentGeneration);
  };
  return {
    format,
    get stats() {
      return { clients: clients.size, sent, lastTick, lastBytes };
    },
    publish() {
      message = null;
      runtime.reader.read(encodeNewest);
      const bytes = message as Uint8Array | null;
      if (bytes === null) return false;
      lastTick = messageTick;
      lastBytes = bytes.byteLength;
      sent++;
      for (const client of clients) {
        client.stats.snapshots++;
        client.stats.bytes += bytes.byteLength;
        client.send(bytes);
      }
      return true;
    },
    connect(send) {
      const client = { send, stats: { snapshots: 0, bytes: 0, pongs: 0, refused: emptyRefusals() } };
      clients.add(client);
      return {
        stats: client.stats,
        receive(bytes) {
          const serverReceived = runtime.now();
          try {
            const type = messageType(format, bytes);
            if (type !== MESSAGE.PING) throw new WireError('type', `a client sent a message of type ${type}; clients send pings`);
            const ping = decodePing(format, bytes);
            if (!clients.has(client)) return;
            client.stats.pongs++;
            send(encodePong(format, { ...ping, serverReceived, serverSent: runtime.now() }));
          } catch (error) {
            if (!(error instanceof WireError)) throw error;
            client.stats.refused[error.reason]++;
          }
        },
        close() {
          clients.delete(client);
        },
      };
    },
  };
}
