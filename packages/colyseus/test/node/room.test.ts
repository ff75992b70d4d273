/**
 * A steadyframe room on Colyseus, in real processes (ARCHITECTURE.md, "Rooms on Colyseus"): a Colyseus server
 * process on Node 22 (support/room-server.ts) hosting the game, and clients in this process (Node 20), each a
 * runtime whose worker is the network client joining through Colyseus's matchmaking (@colyseus/sdk). Nothing is
 * timed: every wait is a hang guard.
 *
 * The game's entity 0 is at x = k, y = −2k at server tick k and entity 1 at x = k + 1: a frame whose entities
 * agree is one state of the server's (or a blend of two), and its x0 the server tick it shows.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MARK } from './fixtures/game-schema.ts';
import { gameClient, type GameClient } from './support/game-client.ts';
import { startRoomServer, type RoomServer } from './support/processes.ts';
import { waitFor } from './support/wait.ts';

let server: RoomServer;
const clients: GameClient[] = [];

beforeAll(async () => {
  server = await startRoomServer({ maxClients: 4, reconnectSeconds: 5 });
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server?.stop();
});

/** Frames drawn since `from` (an index), each one whole state of the server's. */
function expectWhole(client: GameClient, from: number, label: string): void {
  const frames = client.drawn.slice(from);
  expect(frames.length, label).toBeGreaterThan(0);
  for (const f of frames) expect(f.torn, `${label}: frame at server tick ${f.x0}`).toBeLessThan(1e-3 * Math.max(1, f.x0));
  // and the server's time goes on in them
  expect(frames.at(-1)!.x0, label).toBeGreaterThan(frames[0]!.x0);
}

it("joins by room name, draws the room's states, sends inputs its step sees, and keeps its seat through a drop", async () => {
  const a = await gameClient(server.url);
  clients.push(a);
  const b = await gameClient(server.url);
  clients.push(b);
  await waitFor('both clients drawing the room', () => a.drawn.length >= 30 && b.drawn.length >= 30, 30_000);

  // matchmaking: one room (joinOrCreate made it, then joined it), two seats, players 0 and 1
  const [joinA] = await a.joins();
  const [joinB] = await b.joins();
  expect(joinA!.roomId).toBe(joinB!.roomId);
  // the server tick A's newest frame shows, read before the server's report: A draws on while the test awaits
  // (a CI run read A's frames after two more calls, and found one a tick and a half past the report's tick)
  const shownBefore = a.drawn.at(-1)!.x0;
  const before = await server.report();
  expect(before.rooms.map((r) => [r.roomId, r.clients.length, r.seats])).toEqual([[joinA!.roomId, 2, 2]]);
  const playerA = (await a.network()).player;
  const playerB = (await b.network()).player;
  expect([playerA, playerB].sort()).toEqual([0, 1]);
  expectWhole(a, 0, 'client A');
  expectWhole(b, 0, 'client B');
  // the server's ticks are ahead of what a client draws (by its playout delay), never behind
  expect(before.rooms[0]!.lastTick).toBeGreaterThanOrEqual(shownBefore);

  // an input: the room's step takes it, as this client's player, and every client draws what it did
  a.runtime.sendInput(MARK, 7);
  const marked = (c: GameClient, value: number) => c.drawn.some((f) => f.markValue === value && f.markPlayer === playerA);
  await waitFor("client A's input in the room's state, on both clients", () => marked(a, 7) && marked(b, 7), 10_000);

  // a drop: A's TCP socket destroyed on the server; A reconnects within the window, to the same seat
  const drawnBefore = a.drawn.length;
  await server.drop(joinA!.sessionId);
  await waitFor('client A to reconnect', () => a.drawn.length > drawnBefore + 30, 20_000);
  const network = await a.network();
  expect(network.disconnects).toBeGreaterThanOrEqual(1);
  expect(network.connects).toBe(network.disconnects + 1);
  const joins = await a.joins();
  // every join after the first is the same seat: the same room and session (a reconnect, not a new join)
  expect(joins.length).toBeGreaterThanOrEqual(2);
  for (const join of joins) expect(join).toEqual(joinA);
  expect(network.player).toBe(playerA);
  const after = await server.report();
  expect(after.joined.map(([, player]) => player).sort()).toEqual([0, 1]);
  expect(after.left).toEqual([]);
  expect([...after.rooms[0]!.clients].sort()).toEqual([joinA!.sessionId, joinB!.sessionId].sort());
  expectWhole(a, drawnBefore, 'client A after its reconnect');

  // its inputs go on as the same player
  a.runtime.sendInput(MARK, 9);
  await waitFor("client A's input after the reconnect, on both clients", () => marked(a, 9) && marked(b, 9), 10_000);

  // a leave of consent (B's runtime disposed: its socket leaves the room): its seat is freed at once
  await b.dispose();
  clients.splice(clients.indexOf(b), 1);
  let report = await server.report();
  await waitFor("B's seat freed", async () => (report = await server.report()).left.length > 0);
  expect(report.left).toEqual([[joinB!.roomId, playerB]]);
  expect(report.rooms[0]!.seats).toBe(1);
}, 90_000);
