/**
 * A Colyseus server process hosting the rooms tests' game (run by Node 22: support/processes.ts spawns it with
 * `--experimental-transform-types`, so it and the game's worker module run as TypeScript). It is the recipe of
 * the package's README: a `Server` on the ws transport, its `maxPayload` from `maxRoomMessageBytes`, the room
 * 'game' defined by `steadyframeRoom`, and, given a Redis URL, Colyseus's Redis presence and driver with this
 * process's own public address (a seat reserved here for a room of another process sends the client there).
 *
 * Told by its environment: STEADYFRAME_PORT, STEADYFRAME_GAME_WORKER (the game's module, built), STEADYFRAME_REDIS (a redis:// URL, or none: one process alone),
 * STEADYFRAME_MAX_CLIENTS, STEADYFRAME_RECONNECT_SECONDS, STEADYFRAME_SAVE_SECONDS. With Redis it also watches
 * for rooms whose process died (`createFailover`). It says `listening` over IPC once it serves, and answers
 * `report` (its rooms: seats, clients, ticks published, the host's counts, saves, what a room was restored from;
 * the failover's counts), `drop` (a session's TCP socket destroyed with no close frame: a client whose link
 * broke), `create` (a room of this process, made here whatever the process counts say) and `history` (a room's
 * game's states: fixtures/game.worker.ts).
 */
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { createFailover, maxRoomMessageBytes, steadyframeRoom, type Failover, type SteadyframeRoomContext } from '@steadyframe/colyseus';
import { GAME_CAPACITY, gameSchema, INPUT_CODES, INPUT_WIDTH, SEND_EVERY } from '../fixtures/game-schema.ts';
import type { GameCommands } from '../fixtures/game.worker.ts';

const port = Number(process.env.STEADYFRAME_PORT);
const redis = process.env.STEADYFRAME_REDIS ?? '';
const maxClients = Number(process.env.STEADYFRAME_MAX_CLIENTS ?? 16);
const reconnectSeconds = Number(process.env.STEADYFRAME_RECONNECT_SECONDS ?? 15);
const saveSeconds = process.env.STEADYFRAME_SAVE_SECONDS === undefined ? undefined : Number(process.env.STEADYFRAME_SAVE_SECONDS);

type Game = SteadyframeRoomContext<typeof gameSchema, GameCommands>;
const rooms = new Set<Game & { clients: { length: number; [index: number]: { sessionId: string; ref: unknown } } }>();
/** Players who took a seat and whose seat was freed, per room, in order. */
const joined: Array<[string, number]> = [];
const left: Array<[string, number]> = [];

const GameRoom = steadyframeRoom<typeof gameSchema, GameCommands>({
  runtime: {
    // the game's module as an app ships it (bundled: support/processes.ts), else its TypeScript as it stands
    worker: process.env.STEADYFRAME_GAME_WORKER ?? new URL('../fixtures/game.worker.ts', import.meta.url),
    schema: gameSchema,
    capacity: GAME_CAPACITY,
    // the player first, then the client's value
    input: { payloadWidth: 1 + INPUT_WIDTH },
  },
  publisher: { every: SEND_EVERY, input: { codes: INPUT_CODES } },
  maxClients,
  reconnectSeconds,
  ...(saveSeconds === undefined ? {} : { saveSeconds }),
  join(room, player) {
    joined.push([room.roomId, player]);
  },
  leave(room, player) {
    left.push([room.roomId, player]);
  },
});

class TrackedRoom extends GameRoom {
  override async onCreate(options: Record<string, unknown>): Promise<void> {
    await super.onCreate!(options);
    rooms.add(this as never);
  }
  override async onDispose(): Promise<void> {
    rooms.delete(this as never);
    await super.onDispose!();
  }
}

const server = new Server({
  transport: new WebSocketTransport({ maxPayload: maxRoomMessageBytes(INPUT_WIDTH) }),
  greet: false,
  ...(redis === '' ? {} : { presence: new RedisPresence(redis), driver: new RedisDriver(redis), publicAddress: `127.0.0.1:${port}` }),
});
server.define('game', TrackedRoom);
await server.listen(port, '127.0.0.1');
const failover: Failover | null = redis === '' ? null : createFailover();

function report() {
  return {
    processId: matchMaker.processId,
    joined,
    left,
    rooms: [...rooms].map((room) => ({
      roomId: room.roomId,
      clients: Array.from({ length: room.clients.length }, (_, i) => room.clients[i]!.sessionId),
      seats: room.seats.size,
      createMs: room.createMs,
      lastTick: room.publisher.stats.lastTick,
      sent: room.publisher.stats.sent,
      host: room.host.stats,
      saves: room.saves,
      restored: room.restored,
    })),
    failover: failover?.stats ?? null,
  };
}

process.on('message', async (message: { type: string; sessionId?: string; roomId?: string }) => {
  if (message.type === 'report') process.send!({ type: 'report', report: report() });
  else if (message.type === 'create') {
    const listing = await matchMaker.handleCreateRoom('game', {});
    process.send!({ type: 'created', roomId: listing.roomId });
  } else if (message.type === 'history') {
    const room = [...rooms].find((r) => r.roomId === message.roomId);
    process.send!({ type: 'history', history: room === undefined ? null : await room.runtime.commands.history() });
  } else if (message.type === 'drop') {
    // the TCP socket destroyed under the connection: no close frame, as when a link breaks
    for (const room of rooms) {
      for (let i = 0; i < room.clients.length; i++) {
        const client = room.clients[i]!;
        if (client.sessionId === message.sessionId) (client.ref as { terminate(): void }).terminate();
      }
    }
    process.send!({ type: 'dropped' });
  }
});
process.send!({ type: 'listening', processId: matchMaker.processId });
