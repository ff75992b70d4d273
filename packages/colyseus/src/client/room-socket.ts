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
 * A room's messages are taken from the moment the SDK makes the room, before its socket opens: the server sends
 * the first snapshot right behind the join's answer, often in the same TCP read, which the SDK dispatches before
 * the join's promise settles. They wait in the room's inbox until the Connection has its `onopen`.
 *
 * The reconnects are the Connection's, with its backoff and its counters (`network().connects`): the SDK's own
 * automatic reconnection is turned off for each room joined, so one policy decides when, and the server's
 * `reconnectSeconds` how long a seat waits. Each `networkClient` takes its own `colyseusRoom(...)`: the seat kept
 * is the factory's.
 */
import { Client, CloseCode, type ClientOptions, type Room } from '@colyseus/sdk';
import type { SocketFactory, SocketLike } from 'steadyframe/network';
import { ROOM_MESSAGE } from '../protocol.ts';

/** The close code this socket reports when it could not join (the reason says why): one Colyseus does not use. */
const JOIN_FAILED = 4900;

export interface ColyseusRoomOptions {
  /** The join's options (the room's `onJoin`, and its `onCreate` when the join creates it; matchmaking filters), or a function that makes them at each join. */
  readonly options?: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
  /** The SDK client's options (`new Client(url, client)`): headers, a URL builder, a fetch. */
  readonly client?: ClientOptions;
  /** Called with each room joined: a new seat, or the same one after a drop (`room.sessionId` says which). */
  readonly onJoin?: (room: Room) => void;
}

/** A `SocketFactory` that joins the room `name` through Colyseus's matchmaking at the URL it is given. */
export function colyseusRoom(name: string, options: ColyseusRoomOptions = {}): SocketFactory {
  if (typeof name !== 'string' || name === '') throw new TypeError("steadyframe: colyseusRoom needs the room's name, as the server defined it");
  let client: RoomClient | null = null;
  let clientUrl = '';
  /** The seat a drop left: the room's reconnection token, or null. */
  let seat: string | null = null;

  const join = async (url: string): Promise<Room> => {
    if (client === null || clientUrl !== url) {
      client = new RoomClient(url, options.client);
      clientUrl = url;
    }
    if (seat !== null) {
      const token = seat;
      seat = null;
      try {
        return await client.reconnect(token);
      } catch {
        // the window passed, or the room is gone: a new seat, through matchmaking
      }
    }
    const joinOptions = typeof options.options === 'function' ? options.options() : options.options;
    return client.joinOrCreate(name, { ...joinOptions });
  };

  return (url) =>
    new RoomSocket(join(url), (room) => client!.inbox(room), {
      joined(room) {
        options.onJoin?.(room);
      },
      left(room, code) {
        // a drop: the server keeps the seat for its window; anything else lets it go
        seat = code === CloseCode.CONSENTED || code === JOIN_FAILED ? null : room.reconnectionToken;
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

/** The SDK's client, giving each room it makes an inbox before the room's socket opens. */
class RoomClient extends Client {
  readonly #inboxes = new WeakMap<Room, Inbox>();

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

  constructor(joining: Promise<Room>, inbox: (room: Room) => Inbox, seat: { joined(room: Room): void; left(room: Room, code: number): void }) {
    joining.then(
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
