/**
 * The server's snapshot publisher (ARCHITECTURE.md, "Multiplayer"): the newest published state of a runtime
 * (`steadyframe/node` runs the simulation), at most every `every`-th tick, encoded once (net/wire.ts) and handed
 * to every client's `send`; each client's pings answered with the server's clock. It takes bytes, not sockets:
 * any server framework (the `ws` package, a Colyseus room, a test's loop) hosts it by giving each connection a
 * `send` and feeding what arrives to `receive`.
 *
 * ```text
 *  the host's loop ── publish() ── reader.read: the newest state, under the lock ── encodeSnapshot (once)
 *                                └ runtime.takeEvents ── target(event): 'all' or a player ──▶ each client's window
 *                                   (event-window.ts) ──▶ client.send(bytes + its window: every event it has not
 *                                                         acknowledged; the same bytes when it has them all)
 *  a connection ─── client.receive(bytes) ── ping ── pong: the ping echoed, the server's receive and send times
 *                                         │         (MAX_PINGS_PER_SECOND: past it refused as `flood`, unanswered)
 *                                         ├─ inputs ── checked per event (client-inputs.ts) ──▶ runtime.input, or
 *                                         │            held until the tick before theirs is made (input-schedule.ts)
 *                                         ├─ ack ── frees the client's window up to the number it has
 *                                         └─ anything else: refused, counted by reason, never thrown
 * ```
 *
 * Reading is the page side's `runtime.reader`, so the simulation worker never waits on the network: the
 * publisher copies the state out under the lock (one memcpy of the live part) and the sockets get the copy.
 */
import type { Runtime } from '../contracts/app.ts';
import type { GameEvent } from '../core/event-reader.ts';
import { computeLayout, META, type StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { ClientInputs, inputRules, type ClientInputOptions, type InputRefusal, type InputRules, type ServerTicks } from './client-inputs.ts';
import { DEFAULT_EVENT_WINDOW, EventWindow } from './event-window.ts';
import { MAX_PINGS_PER_SECOND } from './ping-schedule.ts';
import { RateBucket } from './rate-bucket.ts';
import { ClientBaseline, DeltaEncoder } from './delta-stream.ts';
import { ClientView, interestViews, type InterestOptions } from './interest.ts';
import { decodeAck, decodeInputs, MAX_EVENT_PAYLOAD, decodePing, encodePong, MAX_INPUT_PAYLOAD, MAX_INTERVAL_MS, maxClientMessageBytes, messageType, MESSAGE, PING_BYTES, WireError, wireFormat, type SnapshotHead, type WireFormat, type WireRefusal } from './wire.ts';

export interface PublisherOptions {
  /** Send a state only when its tick is at least this many ticks past the last one sent (default 1: every tick). */
  readonly every?: number;
  /**
   * Takes clients' input events into the runtime's input ring (net/client-inputs.ts: checked, rate-limited,
   * the player in the first payload value). Absent: clients' inputs are refused (`type`).
   */
  readonly input?: ClientInputOptions;
  /**
   * The server runtime's events (`tick.emit` in its step) to the clients, taken with `runtime.takeEvents` at each
   * snapshot sent and carried in every snapshot to each client until it acknowledges them (net/event-window.ts); the network
   * client re-emits each in the client's worker when its playout reaches the event's tick. Default: on, every
   * event to every client; false: none sent (nor taken).
   */
  readonly events?: PublisherEventOptions | false;
  /**
   * Interest management (net/interest.ts): each client receives only the entities `select` chooses for it, as a
   * world of its own (slots that keep their entity while it stays seen); `radiusInterest` chooses by distance.
   * Absent: every client receives every entity. Plain schemas only (not tables).
   */
  readonly interest?: InterestOptions;
}

/** Where the server's events go, and how many may wait for one client. */
export interface PublisherEventOptions {
  /**
   * Who gets `event` (called once per event, with the reused event object): 'all' (the default), or a player
   * number (`PublisherClient.player`: every connection of that player; none connected, it goes nowhere and is
   * counted in `stats.unaddressed`). E.g. `(e) => (e.code === WHISPER ? e.payload(0) : 'all')`.
   */
  readonly target?: (event: GameEvent) => number | 'all';
  /** Events a client may have unacknowledged; past it they are lost, counted (default DEFAULT_EVENT_WINDOW, at most 1024). */
  readonly window?: number;
  /** Payload values each event carries on the wire (default 4: the runtime's default event width; at most 16). */
  readonly payloadWidth?: number;
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
  /** Predicted input events that came after their tick was made (taken for the next one). */
  inputsLate: number;
  /** Input events waiting in the client's schedule for their tick (net/input-schedule.ts). */
  inputsHeld: number;
  /**
   * The newest of the client's input numbers the last state sent to it reflects (its ticks consumed it), -1
   * before any: what reconciliation replays after (net/input-ledger.ts); each snapshot tells the client.
   */
  inputsReflected: number;
  /** Messages (and input events) from this client refused, by reason (`flood`: input events past the allowance, and pings past MAX_PINGS_PER_SECOND). */
  readonly refused: Record<PublisherRefusal, number>;
  /** What the last refusal was, in words (for the server's log), or null. */
  lastRefusal: string | null;
  /** Server events addressed to this client (put in its window). */
  events: number;
  /** Server events for this client its window had no room for (it stopped acknowledging): lost, and told so. */
  eventsLost: number;
  /** Events not yet acknowledged (sent again with every snapshot). */
  eventsPending: number;
  /** Acknowledgements taken. */
  acks: number;
  /** Snapshots sent as deltas against a state it acknowledged, and whole (none acknowledged yet, or too long ago). */
  deltas: number;
  full: number;
  /** Under interest management: the entities it sees now, and those that came into and left its view, since it connected. */
  visible: number;
  entered: number;
  left: number;
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
  readonly stats: {
    readonly clients: number;
    readonly sent: number;
    readonly lastTick: number;
    readonly lastBytes: number;
    /** Server events taken from the runtime, and those addressed to a player with no connection (sent nowhere). */
    readonly events: number;
    readonly unaddressed: number;
  };
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
  baseline: 0,
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
  const maxMessageBytes = rules === null ? PING_BYTES : maxClientMessageBytes(Math.min(runtime.input!.layout.payloadWidth - (rules.madeTime ? 2 : 1), MAX_INPUT_PAYLOAD));
  let nextPlayer = 0;
  const eventOptions = options.events === false ? null : (options.events ?? {});
  const eventWidth = eventOptions?.payloadWidth ?? 4;
  if (!Number.isInteger(eventWidth) || eventWidth < 0 || eventWidth > MAX_EVENT_PAYLOAD) {
    throw new RangeError(`steadyframe: the publisher's events.payloadWidth must be a whole number from 0 to ${MAX_EVENT_PAYLOAD}; got ${String(eventWidth)}`);
  }
  const windowSize = eventOptions?.window ?? DEFAULT_EVENT_WINDOW;
  new EventWindow(windowSize, eventWidth); // checks the size at set-up, not at the first connection
  const target = eventOptions?.target ?? null;
  // a client's stream: the shared encoder and its own baseline, or (under interest) its view's own of both
  const clients = new Set<{ send: (bytes: Uint8Array) => void; stats: PublisherClientStats; player: number; events: EventWindow; stream: { readonly encoder: DeltaEncoder; readonly baseline: ClientBaseline }; view: ClientView | null; inputs: ClientInputs | null }>();
  const encoder = new DeltaEncoder(format);
  const views = options.interest === undefined ? null : interestViews(format, options.interest);
  let events = 0;
  let unaddressed = 0;
  /** The state sent last: its time. */
  let messageTime = 0;
  /**
   * The newest state read (sent or not): when it was made; and the ms a tick takes now, from which an event's tick
   * gets its time and by which held inputs go in.
   */
  const ticks = { made: Number.NEGATIVE_INFINITY, tickMs: 1000 / runtime.info.tickRate } satisfies ServerTicks;
  const addressed = (client: { stats: PublisherClientStats; events: EventWindow }, event: GameEvent, time: number): void => {
    client.stats.events++;
    if (!client.events.push(event, time)) client.stats.eventsLost++;
  };
  // made once: takeEvents allocates nothing for it
  const takeEvent = (event: GameEvent): void => {
    events++;
    const time = messageTime + (event.tick - messageTick) * ticks.tickMs;
    const to = target === null ? 'all' : target(event);
    let reached = false;
    for (const client of clients) {
      if (to !== 'all' && client.player !== to) continue;
      addressed(client, event, time);
      reached = true;
    }
    if (!reached) unaddressed++;
  };
  let lastTick = Number.NEGATIVE_INFINITY;
  let sent = 0;
  let lastBytes = 0;
  let pushed = false;
  let head: SnapshotHead = { tick: 0, time: 0, count: 0, snaps: 0 };
  let messageTick = 0;
  /** The state sent last: one past the ring sequence of the last input its ticks consumed (META.INPUTS_THROUGH). */
  let inputsThrough = 0;
  // made once: read() allocates nothing for it
  const encodeNewest = (pair: StatePair<S>): void => {
    const meta = pair.metaWords;
    const tick = meta[META.CUR_TICK]!;
    ticks.made = meta[META.CUR_TIME]!;
    // tick numbers only go on (a restart keeps counting)
    if (tick - lastTick < every) return;
    messageTick = tick;
    inputsThrough = meta[META.INPUTS_THROUGH]!;
    const time = meta[META.CUR_TIME]!;
    // the wall ms a tick takes now (the pair's two times: the time scale included), else the nominal one
    const apart = tick - meta[META.PREV_TICK]!;
    messageTime = time;
    ticks.tickMs = apart > 0 && time > meta[META.PREV_TIME]! ? (time - meta[META.PREV_TIME]!) / apart : 1000 / runtime.info.tickRate;
    const interval = Math.min(every * ticks.tickMs, MAX_INTERVAL_MS / 2);
    // quantised once, under the lock (the copy out of the slot); encoded per baseline in use below
    // numbered: the send this state goes out in (`sent` counts it below), so a client tells a lost message from
    // ticks this loop came too late to send
    head = { tick, time, count: meta[META.COUNT]!, snaps: meta[META.SNAPS]!, interval, send: (sent + 1) & 0xffff };
    encoder.push(head, pair.currentBlock, pair.currentGeneration);
    views?.copy(pair.currentBlock, head);
    pushed = true;
  };
  return {
    format,
    maxMessageBytes,
    get stats() {
      return { clients: clients.size, sent, lastTick, lastBytes, events, unaddressed };
    },
    publish() {
      pushed = false;
      runtime.reader.read(encodeNewest);
      // the held inputs whose tick is the next to be made, before the state goes out (it cannot reflect them)
      if (rules !== null) for (const client of clients) client.inputs!.release(client.stats);
      if (!pushed) return false;
      lastTick = messageTick;
      sent++;
      // the events of the ticks published so far (their times from the state just sent: a tick past it, committed
      // since the read, is timed on at the same tick length) into each client's window, which rides in the
      // snapshot: every event the client has not acknowledged, again, so events are lost or kept with the state
      if (eventOptions !== null) runtime.takeEvents(takeEvent);
      for (const client of clients) {
        // a delta against the newest state it acknowledged (encoded once for every client on that baseline)
        const view = client.view;
        if (view !== null) {
          views!.select(client, view, head, encoder.state!);
          Object.assign(client.stats, view.stats);
        }
        const { encoder: stream, baseline } = client.stream;
        const bytes = baseline.message(stream);
        if (stream.isDelta(baseline.acked)) client.stats.deltas++;
        else client.stats.full++;
        lastBytes = bytes.byteLength;
        // what it says to this client alone: its player and its inputs the state reflects (where it takes
        // inputs), its events not acknowledged
        const reflected = client.inputs === null ? -1 : client.inputs.reflected(inputsThrough);
        client.stats.inputsReflected = reflected;
        const message = client.events.pending === 0 && client.inputs === null ? bytes : client.events.attach(bytes, client.inputs === null ? -1 : client.player, reflected);
        client.stats.eventsPending = client.events.pending;
        client.stats.snapshots++;
        client.stats.bytes += message.byteLength;
        client.send(message);
      }
      return true;
    },
    connect(send, player = nextPlayer) {
      if (!Number.isInteger(player) || player < 0) throw new RangeError(`steadyframe: a player is a whole number from 0; got ${String(player)}`);
      nextPlayer = Math.max(nextPlayer, player + 1);
      const view = views === null ? null : new ClientView(format, views.limit);
      const inputs = rules === null ? null : new ClientInputs(player, rules, runtime.input!, () => runtime.now(), ticks);
      const client = {
        send,
        player,
        events: new EventWindow(windowSize, eventWidth),
        view,
        inputs,
        stream: view ?? { encoder, baseline: new ClientBaseline() },
        stats: { snapshots: 0, bytes: 0, pongs: 0, inputs: 0, inputRepeats: 0, inputsMissed: 0, inputsLate: 0, inputsHeld: 0, inputsReflected: -1, refused: emptyRefusals(), lastRefusal: null as string | null, events: 0, eventsLost: 0, eventsPending: 0, acks: 0, deltas: 0, full: 0, visible: 0, entered: 0, left: 0 },
      };
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
            } else if (type === MESSAGE.ACK) {
              const ack = decodeAck(format, bytes);
              if (!client.events.ack(ack.next)) throw new WireError('count', `player ${player} acknowledged events up to ${ack.next}, past the ${client.events.next} sent`);
              if (ack.tick >= 0) {
                client.stream.baseline.ack(client.stream.encoder, ack.tick);
              }
              client.stats.acks++;
              client.stats.eventsPending = client.events.pending;
            } else if (type === MESSAGE.INPUTS && inputs !== null) {
              inputs.take(decodeInputs(format, bytes), client.stats);
            } else {
              throw new WireError('type', type === MESSAGE.INPUTS ? 'this server takes no inputs from clients' : `a client sent a message of type ${type}; clients send pings, inputs and acks`);
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
