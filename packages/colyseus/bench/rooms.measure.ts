/**
 * `npm run bench:net -- rooms` (or `npm run bench:rooms`): steadyframe rooms on Colyseus, measured with real
 * processes: a redis-server, Colyseus servers on Node 22 (test/node/support/processes.ts), clients in processes of
 * their own. Writes docs/net-rooms.md (rooms-report.ts) when all three ran. Not part of `npm test`.
 *
 * 1. Failover: a room of 16 clients (full network clients, test/node/support/game-client.ts) on process P, saving
 *    every second (the default); P killed with SIGKILL at five points of the save interval; the other process
 *    restores the room (support/failover.ts says what is measured). Five runs, each on fresh processes.
 * 2. Join time: JOINS light clients (load-clients.mjs) join one after the other through two processes in turn,
 *    filling rooms of 16 of the tests' game: ms from the join asked to the room joined, split by whether the
 *    join made the room (its runtime started) or found it.
 * 3. Clients per process: one process, rooms of 16 running the crowd (1,000 walkers at 60 Hz, 20 snapshots a
 *    second, fixtures/crowd.worker.ts); light clients that acknowledge every snapshot, added in steps until one
 *    falls short (rooms-report.ts `holds`): the server process's CPU (every thread) per client at each step.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { MARK } from '../test/node/fixtures/game-schema.ts';
import { killAndRecover } from '../test/node/support/failover.ts';
import { gameClient, type GameClient } from '../test/node/support/game-client.ts';
import { startRedis, startRoomServer, type RoomServer } from '../test/node/support/processes.ts';
import { waitFor } from '../test/node/support/wait.ts';
import { loadGroup } from './load-group.ts';
import { holds, roomsReport, type CapacityRow, type FailoverRun, type JoinResult } from './rooms-report.ts';

const SAVE_TICKS = 60;
const FAILOVER_CLIENTS = 16;
/** Where in the save interval each failover run kills the process: ticks past the newest save, as a fraction. */
const KILL_AT = (process.env.STEADYFRAME_KILL_AT ?? '0.1,0.3,0.5,0.7,0.9').split(',').map(Number);
const JOINS = Number(process.env.STEADYFRAME_JOINS ?? 320);
const CAPACITY_STEPS = [16, 32, 64, 96, 128, 160, 192, 256, 320, 384, 512];
const WARM_UP_MS = 1500;
const WINDOW_MS = 6000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const results: { failover?: FailoverRun[]; joins?: JoinResult; capacity?: CapacityRow[] } = {};

afterAll(() => {
  const { failover, joins, capacity } = results;
  if (failover === undefined || joins === undefined || capacity === undefined) return console.log('rooms bench: not every part ran; docs/net-rooms.md left as it is');
  const doc = roomsReport({ failover, joins, capacity, saveTicks: SAVE_TICKS, joinCount: JOINS, warmUpMs: WARM_UP_MS, windowMs: WINDOW_MS });
  writeFileSync(fileURLToPath(new URL('../../../docs/net-rooms.md', import.meta.url)), doc);
  console.log(`${doc}\nwritten to docs/net-rooms.md`);
});

async function failoverRun(killAt: number): Promise<FailoverRun> {
  const redis = await startRedis();
  const servers = await Promise.all([0, 1].map(() => startRoomServer({ redis: redis.url, maxClients: FAILOVER_CLIENTS, reconnectSeconds: 15 })));
  const [p, q] = servers as [RoomServer, RoomServer];
  const clients: GameClient[] = [];
  try {
    const roomId = await p.create();
    for (let i = 0; i < FAILOVER_CLIENTS; i++) clients.push(await gameClient(q.url));
    await waitFor('every client drawing the room', () => clients.every((c) => c.drawn.length >= 10), 60_000);
    const joins = await Promise.all(clients.map(async (c) => (await c.joins())[0]!));
    const players = await Promise.all(clients.map(async (c) => (await c.network()).player));
    clients[0]!.runtime.sendInput(MARK, 7);
    await waitFor('the input on every client', () => clients.every((c) => c.drawn.some((f) => f.markValue === 7)), 10_000);
    const saved = (await p.report()).rooms[0]!.saves!.saves;
    await waitFor('a save more', async () => (await p.report()).rooms[0]!.saves!.saves > saved, 10_000);
    let { saves, lastTick } = (await p.report()).rooms[0]!;
    const savedTick = saves!.lastTick;
    await waitFor('the kill point', async () => ({ saves, lastTick } = (await p.report()).rooms[0]!).lastTick >= savedTick + killAt * SAVE_TICKS, 10_000);
    const load = loadavg()[0]!;
    const outcome = await killAndRecover({ victim: p, survivor: q, roomId, clients, timeoutMs: 30_000 });
    let seatsKept = 0;
    for (const [i, client] of clients.entries()) {
      const all = await client.joins();
      if (all.every((join) => join.roomId === joins[i]!.roomId && join.sessionId === joins[i]!.sessionId) && (await client.network()).player === players[i]) seatsKept++;
    }
    return {
      clients: FAILOVER_CLIENTS,
      killOffset: lastTick - saves!.lastTick,
      backMs: outcome.backMs,
      lostTicks: outcome.lostTicks,
      worldsEqual: outcome.differing.length === 0 && outcome.replayedDiffering === 0,
      differences: [...(outcome.replayedDiffering > 0 ? [`${outcome.replayedDiffering} of the ${outcome.replayed} steps both rooms made differ`] : []), ...outcome.differing.slice(0, 3)],
      compared: outcome.compared,
      seatsKept,
      restoreMs: (await q.report()).failover!.lastRestoreMs,
      saveMs: saves!.maxMs,
      saveBytes: saves!.lastBytes,
      load,
    };
  } finally {
    for (const client of clients) await client.dispose();
    for (const server of servers) await server.stop();
    await redis.stop();
  }
}

it('failover: a room of 16 clients whose process is killed, restored in the other', async () => {
  const runs: FailoverRun[] = [];
  for (const killAt of KILL_AT) runs.push(await failoverRun(killAt));
  console.log(runs);
  results.failover = runs;
  expect(runs.every((r) => r.backMs.every(Number.isFinite))).toBe(true);
}, 300_000);

it('join time through matchmaking, two processes on one Redis', async () => {
  const redis = await startRedis();
  const servers = await Promise.all([0, 1].map(() => startRoomServer({ redis: redis.url, maxClients: 16 })));
  const group = await loadGroup('game', servers.map((s) => s.url));
  try {
    const began = performance.now();
    const joins = await group.add(JOINS);
    console.log(`${JOINS} joins in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const seen = new Set<string>();
    const created: number[] = [];
    const found: number[] = [];
    for (const join of joins) {
      (seen.has(join.roomId) ? found : created).push(join.ms);
      seen.add(join.roomId);
    }
    const roomsPerProcess = await Promise.all(servers.map(async (s) => (await s.report()).rooms.length));
    results.joins = { all: joins.map((j) => j.ms), created, found, roomsPerProcess };
    console.log(results.joins.roomsPerProcess, created.length, found.length);
    expect(joins.length).toBe(JOINS);
  } finally {
    const began = performance.now();
    await group.exit();
    for (const server of servers) await server.stop();
    await redis.stop();
    console.log(`the joins' clients and processes stopped in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
}, 600_000);

interface CrowdReport {
  readonly at: number;
  readonly cpuMs: number;
  readonly rooms: ReadonlyArray<{ readonly roomId: string; readonly sent: number; readonly lastBytes: number; readonly host: { readonly skipped: number }; readonly saves: { readonly lastMs: number; readonly lastBytes: number } | null }>;
}

it('clients per process: rooms of 16, 1,000 entities each, 20 snapshots a second', async () => {
  const redis = await startRedis();
  const server = await startRoomServer({
    redis: redis.url,
    script: fileURLToPath(new URL('./crowd-server.ts', import.meta.url)),
    gameWorker: fileURLToPath(new URL('./fixtures/crowd.worker.ts', import.meta.url)),
  });
  const report = async () => (await server.report()) as unknown as CrowdReport;
  const group = await loadGroup('crowd', [server.url]);
  const rows: CapacityRow[] = [];
  try {
    let count = 0;
    for (const step of [0, ...CAPACITY_STEPS]) {
      await group.add(step - count);
      count = step;
      await sleep(WARM_UP_MS);
      await group.report();
      const before = await report();
      await sleep(WINDOW_MS);
      const after = await report();
      const load = await group.report();
      const seconds = (after.at - before.at) / 1000;
      const rates = load.snapshots.map((n) => n / seconds);
      // what each client's room sent in the window (the load's report comes a moment after the server's: a
      // snapshot or two more may have come, hence at most 1)
      const sent = new Map(after.rooms.map((room) => [room.roomId, room.sent - (before.rooms.find((b) => b.roomId === room.roomId)?.sent ?? 0)]));
      const kept = load.snapshots.map((n, i) => Math.min(1, n / (sent.get(load.rooms[i]!) ?? Number.NaN)));
      const roomRates = [...sent.values()].map((n) => n / seconds);
      const cpuPercent = ((after.cpuMs - before.cpuMs) / (after.at - before.at)) * 100;
      const row: CapacityRow = {
        clients: count,
        rooms: after.rooms.length,
        cpuPercent,
        perClientPercent: count === 0 ? Number.NaN : cpuPercent / count,
        minRate: rates.length === 0 ? Number.NaN : Math.min(...rates),
        meanRate: rates.length === 0 ? Number.NaN : rates.reduce((a, b) => a + b, 0) / rates.length,
        minKept: kept.length === 0 ? Number.NaN : Math.min(...kept),
        roomRate: roomRates.length === 0 ? Number.NaN : Math.min(...roomRates),
        gaps: load.gaps.reduce((a, b) => a + b, 0),
        bytesPerClient: count === 0 ? 0 : load.bytes / count / seconds,
        snapshotBytes: after.rooms[0]?.lastBytes ?? 0,
        saveBytes: after.rooms[0]?.saves?.lastBytes ?? 0,
        saveMs: after.rooms[0]?.saves?.lastMs ?? Number.NaN,
        load: loadavg()[0]!,
      };
      rows.push(row);
      console.log(row);
      // three steps in a row that fall short: the process's limit (one or two may be the shared machine's noise)
      const last = rows.slice(-3);
      if (last.length === 3 && last.every((r) => r.clients > 0 && !holds(r))) break;
    }
    results.capacity = rows;
    expect(rows.length).toBeGreaterThan(1);
  } finally {
    await group.exit();
    await server.stop();
    await redis.stop();
  }
}, 600_000);
