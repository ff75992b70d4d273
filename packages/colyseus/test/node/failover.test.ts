/**
 * A room outlives its process (ARCHITECTURE.md, "Rooms on Colyseus"): a real redis-server and two Colyseus
 * processes on Node 22, each watching for dead processes' rooms (`createFailover`). A room made on process P,
 * saving every SAVE_SECONDS; four clients ask process Q and are seated in it through matchmaking. After an input
 * and a few saves, P is killed with SIGKILL mid-game. Q restores the room from its newest save under the same id;
 * each client's own reconnect (its seat's token) finds its seat there, and play goes on from the saved step:
 * every client draws again, as the same player, the world each draws is the restored room's bit for bit
 * (support/failover.ts), and the steps lost are at most the save interval's (and the ticks its slowest save took
 * to land). Nothing is timed: the waits are hang guards; the times are printed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GAME_TICK_RATE, MARK } from './fixtures/game-schema.ts';
import { killAndRecover } from './support/failover.ts';
import { gameClient, type GameClient } from './support/game-client.ts';
import { startRedis, startRoomServer, type RedisProcess, type RoomServer } from './support/processes.ts';
import { waitFor } from './support/wait.ts';

const SAVE_SECONDS = 0.5;
const SAVE_TICKS = SAVE_SECONDS * GAME_TICK_RATE;
const CLIENTS = 4;

let redis: RedisProcess;
const servers: RoomServer[] = [];
const clients: GameClient[] = [];

beforeAll(async () => {
  redis = await startRedis();
  servers.push(...(await Promise.all([0, 1].map(() => startRoomServer({ redis: redis.url, maxClients: CLIENTS, reconnectSeconds: 10, saveSeconds: SAVE_SECONDS })))));
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.dispose();
  for (const server of servers) await server.stop();
  await redis?.stop();
});

it("restores a killed process's room in the other process from its newest save; every client comes back to its seat and draws the restored world", async () => {
  const [p, q] = servers as [RoomServer, RoomServer];
  const roomId = await p.create();
  for (let i = 0; i < CLIENTS; i++) {
    const client = await gameClient(q.url);
    clients.push(client);
    await waitFor('a client drawing its room', () => client.drawn.length >= 10, 30_000);
  }
  const joins = await Promise.all(clients.map(async (c) => (await c.joins())[0]!));
  for (const join of joins) expect(join.roomId).toBe(roomId);
  const players = await Promise.all(clients.map(async (c) => (await c.network()).player));
  expect([...players].sort()).toEqual([0, 1, 2, 3]);

  // an input, in the world every client draws; then saves that hold it
  clients[0]!.runtime.sendInput(MARK, 7);
  await waitFor("client 0's input on every client", () => clients.every((c) => c.drawn.some((f) => f.markValue === 7)), 10_000);
  const saved = (await p.report()).rooms[0]!.saves!.saves;
  await waitFor('two saves more', async () => (await p.report()).rooms[0]!.saves!.saves >= saved + 2, 10_000);
  // mid-game: half an interval past the newest save, the next not yet taken
  let { saves, lastTick } = (await p.report()).rooms[0]!;
  const savedTick = saves!.lastTick;
  await waitFor('half a save interval', async () => ({ saves, lastTick } = (await p.report()).rooms[0]!).lastTick >= savedTick + SAVE_TICKS / 2, 10_000);
  expect(saves).toMatchObject({ failed: 0, superseded: false });
  expect(saves!.lastTick, 'no save since').toBe(savedTick);
  expect(lastTick).toBeLessThan(savedTick + SAVE_TICKS);

  const outcome = await killAndRecover({ victim: p, survivor: q, roomId, clients });
  console.log(
    `failover: ${CLIENTS} clients back ${outcome.backMs.map((ms) => ms.toFixed(0)).join(', ')} ms after the kill; ` +
      `${outcome.lostTicks} ticks lost (the save at step ${outcome.savedSteps}, the old room at ${outcome.lastSteps}; saves every ${SAVE_TICKS} ticks, the slowest ${saves!.maxMs.toFixed(1)} ms); ` +
      `${outcome.compared} frames compared, ${outcome.replayed} steps made by both rooms; ` +
      `the restore took ${(await q.report()).failover!.lastRestoreMs.toFixed(0)} ms on Q (the owner found dead to the room listed)`,
  );

  // the room, restored on Q under its id from P's save, its four seats taken again by their clients
  expect(outcome.room.restored).toMatchObject({ process: p.processId, seats: CLIENTS });
  expect(outcome.room.seats).toBe(CLIENTS);
  expect((await q.report()).failover).toMatchObject({ restored: 1, failed: 0, deadProcesses: 1 });
  // every client came back to its seat: the same room and session (a reconnect, never a new join), the same player
  for (const [i, client] of clients.entries()) {
    for (const join of await client.joins()) expect(join, `client ${i}`).toEqual(joins[i]);
    expect((await client.network()).player, `client ${i}`).toBe(players[i]);
  }
  expect(outcome.backMs.every(Number.isFinite)).toBe(true);

  // what was lost: the steps after the newest save, at most its interval and what its slowest save took to land
  expect(outcome.lostTicks).toBeGreaterThanOrEqual(0);
  expect(outcome.lostTicks).toBeLessThanOrEqual(SAVE_TICKS + Math.ceil((saves!.maxMs * GAME_TICK_RATE) / 1000) + 1);
  // the restored room went on as the old one did (its generator and its game's own state were in the save)
  expect(outcome.replayedDiffering).toBe(0);
  // and every client draws the restored room's world, bit for bit, the input of before the kill in it
  expect(outcome.differing).toEqual([]);
  expect(outcome.compared).toBeGreaterThan(CLIENTS * 10);
  for (const client of clients) expect(client.drawn.at(-1)).toMatchObject({ marks: 1, markValue: 7, markPlayer: players[0] });

  // play goes on: an input after the failover reaches the restored room's step as the sender's player
  clients[1]!.runtime.sendInput(MARK, 9);
  await waitFor("client 1's input after the failover, on every client", () => clients.every((c) => c.drawn.some((f) => f.markValue === 9 && f.markPlayer === players[1])), 10_000);
}, 90_000);
