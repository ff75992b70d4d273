/**
 * The seats of a restored room (ARCHITECTURE.md, "Rooms on Colyseus": a room outlives its process): each seat of
 * the save is held for its client as Colyseus holds a dropped client's, with `allowReconnection` on a record of the
 * client that was (its session and its reconnection token), so the client's own `reconnect(roomId:token)` finds
 * it in the room restored under the same id.
 *
 * ```text
 *  the save's seat (session s, token t, player p) ── seats.hold(s, p) ── allowReconnection({ s, t }, reconnectSeconds)
 *     client reconnects with t ─▶ Colyseus: onReconnect(client) (room.ts): a connection to seat p
 *     the window passes ─────────▶ the seat freed, the game's leave hook (p), the room's listing one client less
 * ```
 *
 * The listing counts the held seats (Colyseus counts a client at its seat reservation, and a reconnect adds none):
 * its `clients` start at their number and a full room starts locked to matchmaking, as if they had joined here.
 */
import { debugAndPrintError, matchMaker, type Client, type Room } from '@colyseus/core';
import type { SavedSeat } from './save.ts';
import type { Seats } from './seats.ts';

/** What of the room this needs (room.ts). */
interface RestoringRoom extends Room {
  readonly seats: Seats;
  readonly tokens: Map<string, string>;
  readonly saver: { changed(): void } | null;
}

/** The matchmaking listing Colyseus keeps for a room (a field of Room it reads by name itself). */
interface Listing {
  clients: number;
  locked: boolean;
}

/**
 * Holds each saved seat for `seconds` (called in the restored room's `onCreate`, before Colyseus lists it). A seat
 * whose client does not come back is freed and `leave(player)` called, as for a client whose window passed.
 */
export function holdSavedSeats(room: RestoringRoom, seats: readonly SavedSeat[], seconds: number, leave: (player: number) => unknown): void {
  const listing = (room as unknown as { _listing: Listing })._listing;
  listing.clients = seats.length;
  listing.locked = room.maxClients !== undefined && seats.length >= room.maxClients;
  for (const seat of seats) {
    room.seats.hold(seat.sessionId, seat.player);
    room.tokens.set(seat.sessionId, seat.token);
    // the client that was: what allowReconnection reads of it (and writes the new connection's ref into)
    const previous = { sessionId: seat.sessionId, reconnectionToken: seat.token, auth: undefined } as unknown as Client;
    room.allowReconnection(previous, seconds).then(
      () => {},
      async () => {
        // the window passed (or the room is being disposed): the seat goes, as a dropped client's does
        if (room.seats.of(seat.sessionId) !== seat.player || room.tokens.get(seat.sessionId) !== seat.token) return;
        room.seats.free(seat.sessionId);
        room.tokens.delete(seat.sessionId);
        room.saver?.changed();
        try {
          await matchMaker.driver.update(listing as never, { $inc: { clients: -1 }, $set: { locked: room.locked } });
          await leave(seat.player);
        } catch (error) {
          debugAndPrintError(error instanceof Error ? error : String(error));
        }
      },
    );
  }
}
