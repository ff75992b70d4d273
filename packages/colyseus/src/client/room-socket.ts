/**
 * The network client's socket, made of a Colyseus room (ARCHITECTURE.md, "Rooms on Colyseus"): `colyseusRoom(name)`
 * is a `SocketFactory` for `networkClient`, which opens it with the server's address (its `url`: the Colyseus
 * server's, `http://host:2567`). Opening joins the room through matchmaking (`client.joinOrCreate(name, options)`),
 * and the socket is open once the seat is taken; its messages are the room's bytes messages of type ROOM_MESSAGE.
 *
 * ```text
 *  networkClient's Connection        this socket                          Colyseus (@colyseus/sdk)
 *  open ── socket(url) ───────────▶ a seat kept from a drop? ── yes ──▶ client.reconnect(token) ─┐ failed:
 *                                                           └─ no ───▶ client.joinOrCreate(name) ◀┘ a new seat
 *       ◀── onopen ──────────────── joined (the token kept: the seat)
 *  send(bytes) ─────────────────── room.sendBytes(ROOM_MESSAGE, bytes)
 *       ◀── onmessage ───────────── room.onMessage(ROOM_MESSAGE)
 *       ◀── onclose ─────────────── room.onLeave: a drop keeps the token (the server holds the seat for its
 *                                   window), a leave of consent or a close of ours lets it go
 *  reconnect after its backoff ─── open again: the same seat, or a new one if the window passed
 * ```
 *
 * A seat outlives its room's process (failover.ts on the server): when the process dies, another restores the
 * room under the same id with the seats it saved, in about a second. Meanwhile the seat's reconnect fails: the room
 * is not found, or its dead listing's request waits for a process that cannot answer (2 s in Colyseus; cut short
 * here at `reconnectTimeoutMs`, doubled at each try of the seat, so a slow link still gets through). Within the
 * same open, the reconnect is tried again every SEAT_RETRY_MS (the Connection's backoff does not grow meanwhile),
 * for up to `seatMs` from the first such failure; the server saying the token is not the room's (its window passed)
 * ends the seat at once, and a failure that is not the server's answer (the link, the process asked) is the
 * Connection's to try again later, the seat kept.
 *
 * ```text
 *  drop (1006: the process died) ── seat kept ── open: reconnect ✗ no answer (cut short) ── ✗ not found ── ...
 *                                        (another process restores the room under its id) ── ✓ the same seat
 *                                        ✗ expired, or not found for seatMs ── joinOrCreate: a new seat
 * ```
 *
 * A room's messages are taken from the moment the SDK makes the room, before its socket opens: the server sends
 * the first snapshot right behind the join's answer, often in the same TCP read, which the SDK dispatches before
 * the join's promise settles. They wait in the room's inbox until the Connection has its `onopen`.
 *
 * The reconnects are the Connection's, with its backoff and its counters (`network().connects`): the SDK's own
 * automatic reconnection is turned off for each room joined, so one policy decides when, and the server's
 * `reconnectSeconds` how long a seat waits. Each `networkClient` takes its own `colyseusRoom(...)`: the seat kept
 * is the factory's.
 */
import { Client, CloseCode, ErrorCode, type ClientOptions, type FetchFn, type Room } from '@colyseus/sdk';
import type { SocketFactory, SocketLike } from 'steadyframe/network';
import { ROOM_MESSAGE } from '../protocol.ts';

/** The close code this socket reports when it could not join (the reason says why): one Colyseus does not use. */
const JOIN_FAILED = 4900;

/** Ms a dropped seat is tried for by default while its room cannot be reached: a failover brings it back in about a second. */
export const DEFAULT_SEAT_MS = 5000;

/**
 * Ms the first reconnect of a seat may take by default before it is cut short; each one after it for the same
 * seat may take twice the one before, so a slow link gets through.
 */
export const DEFAULT_RECONNECT_TIMEOUT_MS = 500;
/** The most a reconnect may take, however many were cut short before it. */
const MAX_RECONNECT_TIMEOUT_MS = 8000;

/** Ms between a kept seat's reconnects within one open (each wait is this to twice this, at random: clients spread). */
const SEAT_RETRY_MS = 100;

export interface ColyseusRoomOptions {
  /** The join's options (the room's `onJoin`, and its `onCreate` when the join creates it; matchmaking filters), or a function that makes them at each join. */
  readonly options?: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
  /** The SDK client's options (`new Client(url, client)`): headers, a URL builder, a fetch. */
  readonly client?: ClientOptions;
  /** Called with each room joined: a new seat, or the same one after a drop (`room.sessionId` says which). */
  readonly onJoin?: (room: Room) => void;
  /**
   * Ms a dropped seat is tried for while its room cannot be found (or its process does not answer: a room being
   * restored in another process), from the first such failure. Default DEFAULT_SEAT_MS; past it, a new seat.
   */
  readonly seatMs?: number;
  /**
   * Ms the first reconnect of a seat may take before it is cut short (and tried again, each time with twice the
   * time, up to 8 s). Default DEFAULT_RECONNECT_TIMEOUT_MS.
   */
  readonly reconnectTimeoutMs?: number;
}

/** A `SocketFactory` that joins the room `name` through Colyseus's matchmaking at the URL it is given. */
export function colyseusRoom(name: string, options: ColyseusRoomOptions = {}): SocketFactory {
  if (typeof name !== 'string' || name === '') throw new TypeError("steadyframe: colyseusRoom needs the room's name, as the server defined it");
  const seatMs = options.seatMs ?? DEFAULT_SEAT_MS;
  const reconnectTimeoutMs = options.reconnectTimeoutMs ?? DEFAULT_RECONNECT_TIMEOUT_MS;
  if (!(seatMs >= 0)) throw new RangeError(`steadyframe: colyseusRoom's seatMs must be a number of ms from 0; got ${String(options.seatMs)}`);
  if (!(reconnectTimeoutMs > 0)) throw new RangeError(`steadyframe: colyseusRoom's reconnectTimeoutMs must be a number of ms above 0; got ${String(options.reconnectTimeoutMs)}`);
  let client: RoomClient | null = null;
  let clientUrl = '';
  /** The seat a drop left: the room's reconnection token, its reconnects tried, since when its room is missing; or null. */
  let seat: { readonly token: string; tries: number; missingSince: number } | null = null;

  /** A reconnect to the kept seat, tried again while its room is missing: the room, or null for a new seat. */
  const reconnect = async (client: RoomClient, kept: NonNullable<typeof seat>, closed: () => boolean): Promise<Room | null> => {
    for (;;) {
      try {
        return await client.reconnectWithin(kept.token, Math.min(MAX_RECONNECT_TIMEOUT_MS, reconnectTimeoutMs * 2 ** kept.tries++));
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const name = (error as { name?: unknown }).name;
        // the token is not the room's any more (its window passed): a new seat
        if (code === ErrorCode.MATCHMAKE_EXPIRED) return null;
        // the room not found, or no answer from its process (cut short, or timed out in matchmaking): it may be
        // coming back in another process
        const missing = code === ErrorCode.MATCHMAKE_INVALID_ROOM_ID || code === ErrorCode.MATCHMAKE_UNHANDLED || name === 'AbortError';
        // anything else is the link's or the process asked: the Connection tries again later, the seat kept
        if (!missing) throw error;
        if (Number.isNaN(kept.missingSince)) kept.missingSince = performance.now();
        if (performance.now() - kept.missingSince >= seatMs) return null;
        await new Promise((resolve) => setTimeout(resolve, SEAT_RETRY_MS * (1 + Math.random())));
        if (closed()) throw new Error('steadyframe: the socket was closed while its seat was being reconnected');
      }
    }
  };

  const join = async (url: string, closed: () => boolean): Promise<Room> => {
    if (client === null || clientUrl !== url) {
      client = new RoomClient(url, options.client);
      clientUrl = url;
    }
    if (seat !== null) {
      const kept = seat;
      const room = await reconnect(client, kept, closed);
      if (room !== null) return room;
      if (seat === kept) seat = null;
    }
    const joinOptions = typeof options.options === 'function' ? options.options() : options.options;
    return client.joinOrCreate(name, { ...joinOptions });
  };

  return (url) =>
    new RoomSocket((closed) => join(url, closed), (room) => client!.inbox(room), {
      joined(room) {
        seat = null;
        options.onJoin?.(room);
      },
      left(room, code) {
        // a drop: the server keeps the seat for its window (a dead process's room: another restores it); a leave
        // of consent, or the room ended with its process's shutdown, lets it go
        const gone = code === CloseCode.CONSENTED || code === CloseCode.SERVER_SHUTDOWN || code === JOIN_FAILED;
        seat = gone ? null : { token: room.reconnectionToken, tries: 0, missingSince: Number.NaN };
      },
    });
}

/** A room's messages of ours, from the room's making: held until its socket is open, then handed on. */
class Inbox {
  #held: Uint8Array[] | null = [];
  #to: ((bytes: Uint8Array) => void) | null = null;

  deliver(bytes: Uint8Array): void {
    if (this.#to !== null) this.#to(bytes);
    else this.#held?.push(bytes);
  }

  /** From now on to `to`, the held ones first. */
  open(to: (bytes: Uint8Array) => void): void {
    this.#to = to;
    const held = this.#held ?? [];
    this.#held = null;
    for (const bytes of held) to(bytes);
  }
}

/**
 * The SDK's client, giving each room it makes an inbox before the room's socket opens, and cutting a reconnect's
 * matchmaking request short at its time (an aborted one reserves nothing: a reconnect only checks the token).
 */
class RoomClient extends Client {
  readonly #inboxes = new WeakMap<Room, Inbox>();
  /** The time the reconnect under way may take (the SDK makes its request within the call). */
  private reconnectMs = Number.POSITIVE_INFINITY;

  constructor(url: string, options: ClientOptions = {}) {
    const fetchFn: FetchFn | undefined = options.fetchFn ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
    let self: RoomClient | null = null;
    const timed: FetchFn | undefined =
      fetchFn === undefined
        ? undefined
        : (input, init) => {
            const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
            const ms = self?.reconnectMs ?? Number.POSITIVE_INFINITY;
            if (!path.includes('/matchmake/reconnect/') || ms === Number.POSITIVE_INFINITY) return fetchFn(input, init);
            // aborted (not timed out: the SDK passes an AbortError on as it is, and wraps any other failure)
            const abort = new AbortController();
            const timer = setTimeout(() => abort.abort(), ms);
            const signal = init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal;
            return fetchFn(input, { ...init, signal }).finally(() => clearTimeout(timer));
          };
    super(url, { ...options, ...(timed === undefined ? {} : { fetchFn: timed }) });
    self = this;
  }

  /** A reconnect whose matchmaking request is cut short after `ms`. */
  reconnectWithin(token: string, ms: number): Promise<Room> {
    this.reconnectMs = ms;
    const reconnecting = this.reconnect(token);
    // the SDK makes its request before the call returns (async code runs to its first await): later ones are not the reconnect's
    this.reconnectMs = Number.POSITIVE_INFINITY;
    return reconnecting;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  protected override createRoom<T>(roomName: string, rootSchema?: any): Room<any, T> {
    const room = super.createRoom<T>(roomName, rootSchema);
    const inbox = new Inbox();
    this.#inboxes.set(room, inbox);
    room.onMessage(ROOM_MESSAGE, (bytes: Uint8Array) => inbox.deliver(bytes));
    return room;
  }

  inbox(room: Room): Inbox {
    const inbox = this.#inboxes.get(room);
    if (inbox === undefined) throw new Error('steadyframe: a Colyseus room this client did not make');
    return inbox;
  }
}

/** The socket: one join (a new seat or a kept one), open while the room is, closed for good after. */
class RoomSocket implements SocketLike {
  binaryType = 'arraybuffer';
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  #room: Room | null = null;
  /** Closed by the Connection: a join still on its way is left at once. */
  #closed = false;

  constructor(join: (closed: () => boolean) => Promise<Room>, inbox: (room: Room) => Inbox, seat: { joined(room: Room): void; left(room: Room, code: number): void }) {
    join(() => this.#closed).then(
      (room) => {
        if (this.#closed) {
          void room.leave(true);
          return;
        }
        this.#room = room;
        // the Connection reconnects (its backoff, its counters): not the SDK as well
        room.reconnection.enabled = false;
        room.onLeave((code, reason) => {
          if (this.#room !== room) return;
          this.#room = null;
          seat.left(room, code);
          this.onclose?.({ code, reason: reason ?? '' });
        });
        seat.joined(room);
        this.onopen?.({});
        // what came with the join, then the rest as it comes
        inbox(room).open((bytes) => {
          if (this.#room === room) this.onmessage?.({ data: bytes });
        });
      },
      (error: unknown) => {
        if (this.#closed) return;
        this.onerror?.(error);
        this.onclose?.({ code: JOIN_FAILED, reason: `could not join: ${error instanceof Error ? error.message : String(error)}` });
      },
    );
  }

  send(data: Uint8Array): void {
    const room = this.#room;
    // throws while not joined, as a WebSocket not open does: the Connection counts the send as not made
    if (room === null) throw new Error('steadyframe: the Colyseus room is not joined');
    room.sendBytes(ROOM_MESSAGE, data);
  }

  /** A leave of consent: the server frees the seat at once. */
  close(): void {
    this.#closed = true;
    const room = this.#room;
    this.#room = null;
    void room?.leave(true);
  }
}
