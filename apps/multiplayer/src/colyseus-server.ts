/**
 * The game on Colyseus: one server process (Node 22, which Colyseus 0.18 needs; run as TypeScript with
 * `--experimental-transform-types`) whose room ROOM runs the same game as server.ts, each room its own world:
 * `steadyframeRoom` starts the room's runtime on the bundled game module (game-module.ts), publishes its snapshots
 * to the room's clients at 20 a second with each input's made time (what a shot is judged by), and takes a seat's
 * player number into each input's payload as server.ts's host does. When a seat is freed (its page left, or its
 * reconnection window passed) the room sends that player's LEAVE, as server.ts does when a connection closes.
 * Given a Redis URL, Colyseus's Redis presence and driver share the rooms with the other processes on it: a page
 * that asks this process may be seated in a room of another, and connects there (each process names its own
 * public address); and `createFailover` brings back, in a live process, the rooms of one that died.
 *
 * ```text
 *  page ── joinOrCreate(ROOM) ──▶ any process ──(Redis: the rooms of all)──▶ a seat in the room's process
 *  page ◀══ snapshots, inputs (Colyseus bytes messages) ══▶ that room: steadyframeRoom ── its runtime (game.ts)
 *  seat freed ── leave hook ── LEAVE(player) into the room's runtime: its ship's slot empty again
 * ```
 *
 * Told by its environment (scripts/colyseus-processes.mjs sets it): STEADYFRAME_PORT, STEADYFRAME_HOST (the address
 * to listen on; default 127.0.0.1), STEADYFRAME_PUBLIC_HOST (the host pages reach it at; default the listening
 * one), STEADYFRAME_GAME_WORKER (the bundled game module; default game.worker.ts itself), STEADYFRAME_REDIS (a redis:// URL, or none: this
 * process alone). Prints `listening on <port>` once it serves.
 */
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { createFailover, maxRoomMessageBytes, steadyframeRoom } from '@steadyframe/colyseus';
import { CAPACITY, INPUT, INPUT_CODES, MAX_PLAYERS, PAGE_INPUT_WIDTH, ROOM, schema, SEED, SEND_EVERY, SERVER_INPUT_WIDTH, type GameSchema } from './schema.ts';

const port = Number(process.env.STEADYFRAME_PORT);
const host = process.env.STEADYFRAME_HOST || '127.0.0.1';
const publicHost = process.env.STEADYFRAME_PUBLIC_HOST || host;
// the game's module as a server ships it (bundled: game-module.ts), else its TypeScript as it stands (seconds a room to load)
const worker = process.env.STEADYFRAME_GAME_WORKER || new URL('./game.worker.ts', import.meta.url);
const redis = process.env.STEADYFRAME_REDIS || '';
if (!Number.isInteger(port) || port <= 0) throw new Error('steadyframe: colyseus-server.ts needs STEADYFRAME_PORT, the port to listen on');

/** Seconds a page whose link broke keeps its ship and seat: long enough for a reconnect, short enough that a closed tab's ship goes soon. */
const RECONNECT_SECONDS = 5;

const GameRoom = steadyframeRoom<GameSchema>({
  runtime: { worker, schema, capacity: CAPACITY, seed: SEED, input: { payloadWidth: SERVER_INPUT_WIDTH } },
  // the payload as server.ts's publisher lays it out: the player, the made time, then the page's values
  publisher: { every: SEND_EVERY, input: { codes: INPUT_CODES, madeTime: true } },
  maxClients: MAX_PLAYERS,
  reconnectSeconds: RECONNECT_SECONDS,
  leave(room, player) {
    room.runtime.sendInput(INPUT.LEAVE, player, room.runtime.now());
  },
});

const server = new Server({
  // a page's largest message (inputs of PAGE_INPUT_WIDTH values each) and Colyseus's header
  transport: new WebSocketTransport({ maxPayload: maxRoomMessageBytes(PAGE_INPUT_WIDTH) }),
  greet: false,
  ...(redis === '' ? {} : { presence: new RedisPresence(redis), driver: new RedisDriver(redis), publicAddress: `${publicHost}:${port}` }),
});
server.define(ROOM, GameRoom);
await server.listen(port, host);
// with the other processes on the Redis: a room whose process dies comes back here (or there) from its newest save,
// its pages back in their seats (the game keeps everything in its world: no save/load of its own)
if (redis !== '') createFailover();
console.log(`listening on ${port} (process ${matchMaker.processId}${redis === '' ? ', alone' : `, rooms shared through ${redis}`})`);
