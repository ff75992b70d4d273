/**
 * @steadyframe/colyseus/client: a network client that joins a steadyframe room through Colyseus's matchmaking
 * (ARCHITECTURE.md, "Rooms on Colyseus"). In the client's simulation worker:
 * `exposeSimulation(networkClient({ schema, socket: colyseusRoom('game') }))`, the server's address as the URL.
 *
 * @module @steadyframe/colyseus/client
 */
export { colyseusRoom, DEFAULT_RECONNECT_TIMEOUT_MS, DEFAULT_SEAT_MS } from './room-socket.ts';
export type { ColyseusRoomOptions } from './room-socket.ts';
export { ROOM_MESSAGE } from '../protocol.ts';
