/**
 * @steadyframe/colyseus: steadyframe rooms on Colyseus (ARCHITECTURE.md, "Rooms on Colyseus"). On the server (a
 * Colyseus process, Node >= 22), `steadyframeRoom` makes the room class that runs the game's simulation module and
 * publishes its snapshots to the room's clients; `maxRoomMessageBytes` sizes the transport's `maxPayload`. The
 * client's side is `@steadyframe/colyseus/client`.
 *
 * @module @steadyframe/colyseus
 */
export { DEFAULT_RECONNECT_SECONDS, steadyframeRoom } from './room.ts';
export type { RoomOptions, SteadyframeRoomClass, SteadyframeRoomContext, SteadyframeRoomOptions } from './room.ts';
export { Seats } from './seats.ts';
export { maxRoomMessageBytes } from './max-payload.ts';
export { ROOM_HEADER_BYTES, ROOM_MESSAGE } from './protocol.ts';
