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
 *  a connection ─── client.receive(bytes) ── ping ── pong: the ping echoed, the server's receive and send times
 *                                         │         (MAX_PINGS_PER_SECOND: past it refused as `flood`, unanswered)
 *                                         ├─ inputs ── checked per event (client-inputs.ts) ──▶ runtime.input
 *                                         └─ anything else: refused, counted by reason, never thrown
 * ```
 *
 * Reading is the page side's `runtime.reader`, so the simulation worker never waits on the network: the
 * publisher copies the state out under the lock (one memcpy of the live part) and the sockets get the copy.
 */
import type { Runtime } from '../contracts/app.ts';
import { computeLayout, META, type StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { ClientInputs, inputRules, type ClientInputOptions, type InputRefusal, type InputRules } from './client-inputs.ts';
import { MAX_PINGS_PER_SECOND } from './ping-schedule.ts';
import { RateBucket } from './rate-bucket.ts';
import { decodeInputs, decodePing, encodePong, encodeSnapshot, MAX_INPUT_PAYLOAD, MAX_INTERVAL_MS, maxClientMessageBytes, messageType, MESSAGE, PING_BYTES, WireError, wireFormat, type WireFormat, type WireRefusal } from './wire.ts';

export interface PublisherOptions {
  /** Send a state only when its tick is at least this many ticks past the last one sent (default 1: every tick). */
  readonly every?: number;
  /**
   * Takes clients' input events into the runtime's input ring (net/client-inputs.ts: checked, rate-limited,
   * the player in the first payload value). Absent: clients' inputs are refused (`type`).
   */
  readonly input?: ClientInputOptions;
}

/** Why a client's message or event was refused. */
export type PublisherRefusal = WireRefusal | InputRefusal;

/** What one client's connection has seen. */
export interface PublisherClientStats {
  snapshots: number;
  bytes: number;
  pongs: number;
  /** Input events taken into the server's input ring. */
  inputs: number;
  /** Copies of input events let go (a client sends each event in more than one message; each is taken once). */
  inputRepeats: number;
  /** Input events the client numbered that have not come in any message that carried them (lost on the way). */
  inputsMissed: number;
  /** Messages (and input events) from this client refused, by reason (`flood`: input events past the allowance, and pings past MAX_PINGS_PER_SECOND). */
  readonly refused: Record<PublisherRefusal, number>;
  /** What the last refusal was, in words (for the server's log), or null. */
  lastRefusal: string | null;
}

/** One client: feed it what arrives, close it when the connection ends. */
export interface PublisherClient {
  /** The player number its input events carry (the first payload value). */
  readonly player: number;
  /** Takes a message from the client (a ping, inputs); what is not valid is refused and counted, never thrown. */
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
  /**
   * A new connection: `send` is how its messages leave (the socket's own send); `player` the number its input
   * events carry (default: 0 for the first connection, then 1, 2...).
   */
  connect(send: (bytes: Uint8Array) => void, player?: number): PublisherClient;
  readonly stats: { readonly clients: number; readonly sent: number; readonly lastTick: number; readonly lastBytes: number };
  /** The wire format (both ends compute it from the schema and capacity). */
  readonly format: WireFormat;
  /**
   * The largest message a client of this publisher sends: an input message of the most events a message carries,
   * each with the payload values the input ring keeps after the player (`maxClientMessageBytes`), or a ping when
   * the publisher takes no inputs. Give it to the WebSocket server as `maxPayload`: a frame announcing more is
   * refused by its header (1009), before a byte of it is buffered.
   */
  readonly maxMessageBytes: number;
}

export const emptyRefusals = (): Record<PublisherRefusal, number> => ({
  truncated: 0,
  magic: 0,
  version: 0,
  type: 0,
  signature: 0,
  length: 0,
  count: 0,
  time: 0,
  code: 0,
  when: 0,
  flood: 0,
  full: 0,
});

export function createSnapshotPublisher<S extends Schema>(runtime: Runtime<S, object>, options: PublisherOptions = {}): SnapshotPublisher {
  const every = options.every ?? 1;
  if (!Number.isInteger(every) || every < 1) throw new RangeError(`steadyframe: the publisher's every must be a whole number of ticks, at least 1; got ${String(every)}`);
  const format = wireFormat(computeLayout(runtime.schema, runtime.capacity));
  const rules: InputRules | null = options.input === undefined ? null : inputRules(options.input, runtime.input);
  const maxMessageBytes = rules === null ? PING_BYTES : maxClientMessageBytes(Math.min(runtime.input!.layout.payloadWidth - 1, MAX_INPUT_PAYLOAD));
  let nextPlayer = 0;
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
    const time = meta[META.CUR_TIME]!;
    // the wall ms a tick takes now (the pair's two times: the time scale included), else the nominal one
    const ticks = tick - meta[META.PREV_TICK]!;
    const tickMs = ticks > 0 && time > meta[META.PREV_TIME]! ? (time - meta[META.PREV_TIME]!) / ticks : 1000 / runtime.info.tickRate;
    const interval = Math.min(every * tickMs, MAX_INTERVAL_MS / 2);
    message = encodeSnapshot(format, { tick, time, count: meta[META.COUNT]!, snaps: meta[META.SNAPS]!, interval }, pair.currentBlock, pair.currentGeneration);
  };
  return {
    format,
    maxMessageBytes,
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
    connect(send, player = nextPlayer) {
      if (!Number.isInteger(player) || player < 0) throw new RangeError(`steadyframe: a player is a whole number from 0; got ${String(player)}`);
      nextPlayer = Math.max(nextPlayer, player + 1);
      const client = { send, stats: { snapshots: 0, bytes: 0, pongs: 0, inputs: 0, inputRepeats: 0, inputsMissed: 0, refused: emptyRefusals(), lastRefusal: null as string | null } };
      const inputs = rules === null ? null : new ClientInputs(player, rules, runtime.input!, () => runtime.now());
      const pings = new RateBucket(MAX_PINGS_PER_SECOND, runtime.now());
      clients.add(client);
      return {
        player,
        stats: client.stats,
        receive(bytes) {
          // a closed connection's last messages: nothing to answer, nothing to take
          if (!clients.has(client)) return;
          const serverReceived = runtime.now();
          try {
            const type = messageType(format, bytes);
            if (type === MESSAGE.PING) {
              const ping = decodePing(format, bytes);
              if (!pings.take(serverReceived)) {
                client.stats.refused.flood++;
                client.stats.lastRefusal = `player ${player} sent more than ${MAX_PINGS_PER_SECOND} pings a second: not answered`;
                return;
              }
              client.stats.pongs++;
              send(encodePong(format, { ...ping, serverReceived, serverSent: runtime.now() }));
            } else if (type === MESSAGE.INPUTS && inputs !== null) {
              inputs.take(decodeInputs(format, bytes), client.stats);
            } else {
              throw new WireError('type', type === MESSAGE.INPUTS ? 'this server takes no inputs from clients' : `a client sent a message of type ${type}; clients send pings and inputs`);
            }
          } catch (error) {
            if (!(error instanceof WireError)) throw error;
            client.stats.refused[error.reason]++;
            client.stats.lastRefusal = error.message;
          }
        },
        close() {
          clients.delete(client);
        },
      };
    },
  };
}
