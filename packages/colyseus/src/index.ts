/**
 * @steadyframe/colyseus: steadyframe rooms on Colyseus (ARCHITECTURE.md, "Rooms on Colyseus"). On the server (a
 * Colyseus process, Node >= 22), `steadyframeRoom` makes the room class that runs the game's simulation module and
 * publishes its snapshots to the room's clients and saves its simulation; `createFailover` brings back, in a live
 * process, the rooms of a process that died; `maxRoomMessageBytes` sizes the transport's `maxPayload`. The
 * client's side is `@steadyframe/colyseus/client`.
 *
 * @module @steadyframe/colyseus
 */
export { DEFAULT_RECONNECT_SECONDS, DEFAULT_SAVE_SECONDS, steadyframeRoom } from './room.ts';
export type { RestoredFrom, RoomOptions, SteadyframeRoomClass, SteadyframeRoomContext, SteadyframeRoomOptions } from './room.ts';
export { createFailover, DEFAULT_CHECK_MS } from './failover.ts';
export type { Failover, FailoverOptions, FailoverStats } from './failover.ts';
export type { RoomSaveStats } from './room-saver.ts';
export { SAVED_ROOMS_KEY, saveKey } from './save.ts';
export { Seats } from './seats.ts';
export { maxRoomMessageBytes } from './max-payload.ts';
export { ROOM_HEADER_BYTES, ROOM_MESSAGE } from './protocol.ts';
