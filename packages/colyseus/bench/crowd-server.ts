/**
 * A Colyseus server process of the rooms bench (rooms.measure.ts), run by Node 22 as the tests' servers are
 * (test/node/support/processes.ts spawns it): the room 'crowd' of `steadyframeRoom` running the crowd
 * (fixtures/crowd.worker.ts: 1,000 walkers at 60 Hz, 20 snapshots a second), rooms of 16, on Colyseus's Redis
 * presence and driver, saving every second (the default) and watching for dead processes' rooms, as a deployment
 * would. Told by its environment: STEADYFRAME_PORT, STEADYFRAME_GAME_WORKER (the crowd, built), STEADYFRAME_REDIS.
 * Says `listening` over IPC, and answers `report`: this process's CPU time (every thread: the rooms' simulation
 * workers, the publishers, the sockets, Colyseus), its rooms' snapshots sent and what their hosts skipped.
 */
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { createFailover, maxRoomMessageBytes, steadyframeRoom, type SteadyframeRoomContext } from '@steadyframe/colyseus';
import { CROWD, CROWD_SEND_EVERY, crowdSchema } from './fixtures/crowd-schema.ts';

const port = Number(process.env.STEADYFRAME_PORT);
const redis = process.env.STEADYFRAME_REDIS!;

type Crowd = SteadyframeRoomContext<typeof crowdSchema, Record<never, never>>;
const rooms = new Set<Crowd>();

const CrowdRoom = steadyframeRoom<typeof crowdSchema>({
  runtime: { worker: process.env.STEADYFRAME_GAME_WORKER!, schema: crowdSchema, capacity: CROWD },
  publisher: { every: CROWD_SEND_EVERY },
  maxClients: 16,
});

class TrackedRoom extends CrowdRoom {
  override async onCreate(options: Record<string, unknown>): Promise<void> {
    await super.onCreate!(options);
    rooms.add(this);
  }
  override async onDispose(): Promise<void> {
    rooms.delete(this);
    await super.onDispose!();
  }
}

const server = new Server({
  // clients send acks alone: no input
  transport: new WebSocketTransport({ maxPayload: maxRoomMessageBytes(0) }),
  greet: false,
  presence: new RedisPresence(redis),
  driver: new RedisDriver(redis),
  publicAddress: `127.0.0.1:${port}`,
});
server.define('crowd', TrackedRoom);
await server.listen(port, '127.0.0.1');
const failover = createFailover();

process.on('message', (message: { type: string }) => {
  if (message.type !== 'report') return;
  const cpu = process.cpuUsage();
  process.send!({
    type: 'report',
    report: {
      processId: matchMaker.processId,
      at: performance.now(),
      cpuMs: (cpu.user + cpu.system) / 1000,
      rooms: [...rooms].map((room) => ({
        roomId: room.roomId,
        sent: room.publisher.stats.sent,
        lastBytes: room.publisher.stats.lastBytes,
        host: room.host.stats,
        saves: room.saves,
      })),
      failover: failover.stats,
    },
  });
});
process.send!({ type: 'listening', processId: matchMaker.processId });
