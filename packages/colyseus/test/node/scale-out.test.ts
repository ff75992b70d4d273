/**
 * Rooms spread over processes (ARCHITECTURE.md, "Rooms on Colyseus"): two Colyseus server processes on Node 22
 * sharing one real Redis (Colyseus's Redis presence and driver), a redis-server this file starts on a free
 * loopback port and stops. Rooms of two seats; four clients, each asking the two processes in turn: the first
 * two share a room although they asked different processes (a seat reserved through one process, in a room of
 * the other), the next two fill a second room, which Colyseus creates on the process with fewer rooms. Each room
 * is its own world; a dropped client whose room is on the process it did not ask reconnects to its seat there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MARK } from './fixtures/game-schema.ts';
import { gameClient, type GameClient } from './support/game-client.ts';
import { startRedis, startRoomServer, type RedisProcess, type RoomServer, type RoomServerReport } from './support/processes.ts';
import { waitFor } from './support/wait.ts';

let redis: RedisProcess;
const servers: RoomServer[] = [];
const clients: GameClient[] = [];

beforeAll(async () => {
  redis = await startRedis();
  servers.push(...(await Promise.all([0, 1].map(() => startRoomServer({ redis: redis.url, maxClients: 2, reconnectSeconds: 5 })))));
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.dispose();
  for (const server of servers) await server.stop();
  await redis?.stop();
});

it('matchmakes clients onto rooms of either process through one Redis; a room is one world; a seat survives a drop across processes', async () => {
  const [p, q] = servers as [RoomServer, RoomServer];
  expect(p.processId).not.toBe(q.processId);
  // the clients ask p, q, p, q: one at a time, each seated before the next asks
  for (const server of [p, q, p, q]) {
    const client = await gameClient(server.url);
    clients.push(client);
    await waitFor('a client drawing its room', () => client.drawn.length >= 10, 30_000);
  }
  const joins = await Promise.all(clients.map(async (c) => (await c.joins())[0]!));
  const reports: RoomServerReport[] = [await p.report(), await q.report()];
  // one room on each process, two seats in each
  for (const report of reports) expect(report.rooms.map((r) => r.clients.length)).toEqual([2]);
  // each room's onCreate (its runtime started) took what Colyseus waits for a room another process creates, or less
  for (const report of reports) expect(report.rooms[0]!.createMs).toBeLessThan(10_000);
  const hostOf = (roomId: string) => servers[reports.findIndex((r) => r.rooms.some((room) => room.roomId === roomId))]!;
  const [first, second] = [reports[0]!.rooms[0]!.roomId, reports[1]!.rooms[0]!.roomId];
  expect(new Set([first, second]).size).toBe(2);
  // the first two clients in one room, the last two in the other, whichever process each asked
  expect(joins[0]!.roomId).toBe(joins[1]!.roomId);
  expect(joins[2]!.roomId).toBe(joins[3]!.roomId);
  expect(joins[0]!.roomId).not.toBe(joins[2]!.roomId);
  for (const [i, join] of joins.entries()) {
    const report = reports[servers.indexOf(hostOf(join.roomId))]!;
    expect(report.rooms[0]!.clients, `client ${i}: seated in its room's process`).toContain(join.sessionId);
  }
  // players 0 and 1 in each room
  const players = await Promise.all(clients.map(async (c) => (await c.network()).player));
  expect([players[0], players[1]].sort()).toEqual([0, 1]);
  expect([players[2], players[3]].sort()).toEqual([0, 1]);

  // each room is its world: an input in the second reaches its clients, not the first's
  clients[2]!.runtime.sendInput(MARK, 5);
  const marked = (c: GameClient) => c.drawn.some((f) => f.markValue === 5 && f.markPlayer === players[2]);
  await waitFor("the second room's input on its two clients", () => marked(clients[2]!) && marked(clients[3]!), 10_000);
  expect(clients[0]!.drawn.some((f) => f.marks > 0)).toBe(false);
  expect(clients[1]!.drawn.some((f) => f.marks > 0)).toBe(false);

  // a client seated in a room of the process it did not ask: its link dropped there, it comes back to its seat
  const asked = [p, q, p, q];
  const away = joins.findIndex((join, i) => hostOf(join.roomId) !== asked[i]);
  expect(away).toBeGreaterThanOrEqual(0);
  const client = clients[away]!;
  const drawnBefore = client.drawn.length;
  await hostOf(joins[away]!.roomId).drop(joins[away]!.sessionId);
  await waitFor('the dropped client to reconnect', async () => (await client.network()).connects >= 2 && client.drawn.length > drawnBefore + 20, 20_000);
  for (const join of await client.joins()) expect(join).toEqual(joins[away]);
  expect((await client.network()).player).toBe(players[away]);
  const after = await hostOf(joins[away]!.roomId).report();
  expect(after.left).toEqual([]);
  expect(after.joined.length).toBe(2);
}, 120_000);
