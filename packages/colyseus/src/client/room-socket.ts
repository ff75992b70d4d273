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
 * The reconnects are the Connection's, with its backoff and its counters (`network().connects`): the SDK's own
 * automatic reconnection is turned off for each room joined, so one policy decides when, and the server's
 * `reconnectSeconds` how long a seat waits. Each `networkClient` takes its own `colyseusRoom(...)`: the seat kept
 * is the factory's.
 */
import { Client, type Room } from '@colyseus/sdk';
import type { SocketFactory, SocketLike } from 'steadyframe/network';
import { ROOM_MESSAGE } from '../protocol.ts';

/** Colyseus's close code for a leave the client or the server chose (`CloseCode.CONSENTED`): no seat is kept. */
const CONSENTED = 4000;
/** The close code this socket reports when it could not join: the reason says why. */
const JOIN_FAILED = 4001;

export interface ColyseusRoomOptions {
  /** The join's options (the room's `onJoin`, and its `onCreate` when the join creates it; matchmaking filters), or a function that makes them at each join. */
  readonly options?: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
  /** Makes the SDK's client for the server's URL (default `new Client(url)`): headers, auth, a URL builder. */
  readonly client?: (url: string) => Client;
  /** Called with each room joined: a new seat, or the same one after a drop (`room.sessionId` says which). */
  readonly onJoin?: (room: Room) => void;
}

/** A `SocketFactory` that joins the room `name` through Colyseus's matchmaking at the URL it is given. */
export function colyseusRoom(name: string, options: ColyseusRoomOptions = {}): SocketFactory {
  if (typeof name !== 'string' || name === '') throw new TypeError("steadyframe: colyseusRoom needs the room's name, as the server defined it");
  let client: Client | null = null;
  let clientUrl = '';
  /** The seat a drop left: the room's reconnection token, or null. */
  let seat: string | null = null;

  const join = async (url: string): Promise<Room> => {
    if (client === null || clientUrl !== url) {
      client = options.client?.(url) ?? new Client(url);
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
    new RoomSocket(join(url), {
      joined(room) {
        options.onJoin?.(room);
      },
      left(room, code) {
        // a drop: the server keeps the seat for its window; anything else lets it go
        seat = code === CONSENTED || code === JOIN_FAILED ? null : room.reconnectionToken;
      },
    });
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

  constructor(joining: Promise<Room>, seat: { joined(room: Room): void; left(room: Room, code: number): void }) {
    joining.then(
      (room) => {
        if (this.#closed) {
          void room.leave(true);
          return;
        }
        this.#room = room;
        // the Connection reconnects (its backoff, its counters): not the SDK as well
        room.reconnection.enabled = false;
        room.onMessage(ROOM_MESSAGE, (bytes: Uint8Array) => this.onmessage?.({ data: bytes }));
        room.onLeave((code, reason) => {
          if (this.#room !== room) return;
          this.#room = null;
          seat.left(room, code);
          this.onclose?.({ code, reason: reason ?? '' });
        });
        seat.joined(room);
        this.onopen?.({});
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
