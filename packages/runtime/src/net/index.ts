/**
 * steadyframe/network: a multiplayer client (ARCHITECTURE.md, "Multiplayer"). In the client's simulation
 * worker, `exposeSimulation(networkClient({ schema }))` draws a server's world (the server runs
 * `createSnapshotPublisher` from `steadyframe/node`); on the page, `createRuntime` as ever, and `watchNetwork`
 * for the link's events.
 *
 * @module steadyframe/network
 */
export { networkClient } from './network-client.ts';
export type { NetworkClientOptions, NetworkCommands, NetworkStats } from './network-client.ts';
export type { ReconnectOptions, SocketFactory, SocketLike } from './connection.ts';
export { watchNetwork } from './watch.ts';
export type { NetworkEvents, NetworkWatch } from './watch.ts';
export type { PlayoutOptions } from './playout.ts';
export type { ServerClockOptions } from './server-clock.ts';
