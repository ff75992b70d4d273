/**
 * `npm run bench:net -- compression` (or all of `npm run bench:net`): what snapshots cost on the wire of version
 * 4 (issue 40: quantised per field, deltas against the newest acknowledged baseline), in three scenes, each with
 * the real wire code (DeltaEncoder, ClientBaseline, DeltaDecoder, acks encoded and decoded) over simulated links in
 * simulated time (net-compression/delta-room.ts), and compared in the same run with version 3's size (a formula)
 * and, for the 2D scene, @colyseus/schema 5 on the same motion:
 * 1. Gaffer on Games' 901 cubes in Rapier, 60 Hz, one minute (net-compression/cubes.ts, cube-run.ts);
 * 2. 1,000 moving 2D entities at 20 Hz (walkers.ts, walkers-run.ts, colyseus-mirror.ts);
 * 3. 10,000 entities, 1 and 100 clients: bytes and the server's encode time per client (crowd-run.ts), and 100
 *    clients each seeing about 200 of them (interest management: crowd-interest-run.ts).
 * Writes docs/net-compression.md (net-compression/report.ts). Bytes do not depend on the machine; the µs and ms
 * do. Not part of `npm test`.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runCrowdInterest } from './net-compression/crowd-interest-run.ts';
import { runCrowd } from './net-compression/crowd-run.ts';
import { runCubes } from './net-compression/cube-run.ts';
import { CUBE_SECONDS } from './net-compression/cubes.ts';
import { CUBE_GOAL_BYTES_PER_CHANGED, CUBE_GOAL_KBPS, crowdSection, cubeFigures, cubeSection, walkerSection, WALKER_GOAL_BYTES } from './net-compression/report.ts';
import { runWalkers, WALKERS } from './net-compression/walkers-run.ts';

const WALK_SECONDS = 60;
/** Scene 3: 100 clients decode 10,000 entities 20 times a second in this process, so its window is short. */
const CROWD_SECONDS = 3;
const CROWD_WARM_UP = 1;
const CROWD_CLIENTS = 100;

const met = (ok: boolean) => (ok ? 'met' : 'not met');

it('measures snapshot bytes and encode time on wire version 4 in three scenes', async () => {
  const started = performance.now();
  const load = loadavg();
  const cubes = await runCubes(CUBE_SECONDS);
  const walkers = runWalkers(WALK_SECONDS);
  // the 1-client baseline before and after the 100, so a machine speeding up or slowing down weighs on both
  const one = [runCrowd(1, CROWD_SECONDS, CROWD_WARM_UP)];
  const many = runCrowd(CROWD_CLIENTS, CROWD_SECONDS, CROWD_WARM_UP);
  one.push(runCrowd(1, CROWD_SECONDS, CROWD_WARM_UP));
  const seeing = runCrowdInterest(CROWD_CLIENTS, CROWD_SECONDS, CROWD_WARM_UP);

  const c = cubeFigures(cubes);
  const t = walkers.ours.totals;
  const perEntity = (t.deltaBodyBytes + t.deltas * 48) / t.deltas / WALKERS;
  const doc = `# Snapshots at a fraction of the bytes: wire version 4, measured

Written by \`npm run bench:net -- compression\` (packages/runtime/bench/net-compression.measure.ts; \`npm run bench:net\`
runs it with the judder and server-scale benchmarks). Everything below is from one run: each scene sends its states
through the real wire code (the server's \`DeltaEncoder\` and a \`ClientBaseline\` per client, each client's
\`DeltaDecoder\`, acks encoded and decoded as the network client and the publisher do) over simulated links in
simulated time, one-way delay, jitter and loss applied to snapshots and acks alike (bench/net-compression/delta-room.ts).
Every decoded state is checked against the server's quantised state of its tick, code for code. Version 3's sizes are
its formula (a 40-byte head, then (float32 values + a generation) × 4 bytes an entity, + 8 a game field); the other
baselines were measured in this run. Bytes are the snapshot messages' (their 48-byte head included), not the WebSocket
frame's or TCP/IP's; kbps are 1,000 bits a second.

| | |
|---|---|
| date, duration | ${new Date().toISOString()}, ${((performance.now() - started) / 1000).toFixed(0)} s |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, shared with other work: the µs and ms are a guide |
| load average at the start | ${load.map((x) => x.toFixed(2)).join(', ')} |
| commands | \`npm run bench:net -- compression\`, or \`STEADYFRAME_BENCH_NET=1 npx vitest run --project bench-net compression\` |

| goal (issue 40) | measured | |
|---|---|---|
| Gaffer's cubes: under ${CUBE_GOAL_KBPS} kbps on average | ${c.kbps.toFixed(1)} kbps | **${met(c.kbps < CUBE_GOAL_KBPS)}** |
| Gaffer's cubes: at most ${CUBE_GOAL_BYTES_PER_CHANGED} bytes per changed cube | ${c.bytesPerChanged.toFixed(2)} body bytes | **${met(c.bytesPerChanged <= CUBE_GOAL_BYTES_PER_CHANGED)}** |
| 1,000 2D entities at 20 Hz: at most ${WALKER_GOAL_BYTES} bytes an entity | ${perEntity.toFixed(2)} bytes | **${met(perEntity <= WALKER_GOAL_BYTES)}** |
| 10,000 entities, 100 clients each seeing about 200: bytes and server CPU a client, against sending everything | ${(seeing.bytes / seeing.clients / seeing.seconds / 1024).toFixed(1)} KiB/s and ${((seeing.serverMs / seeing.pushes / seeing.clients) * 1000).toFixed(0)} µs a push a client, against ${((many.fullBytes * 20) / 1024).toFixed(0)} KiB/s of full snapshots | measured (no goal set) |

${cubeSection(cubes)}
${walkerSection(walkers)}
${crowdSection(one, many, seeing)}`;
  writeFileSync(fileURLToPath(new URL('../../../docs/net-compression.md', import.meta.url)), doc);
  console.log(`${doc}\nwritten to docs/net-compression.md`);
  // what the numbers rest on: every decoded state the server's (not a timing)
  expect(seeing.wrong).toBe(0);
  for (const totals of [cubes.totals, walkers.ours.totals, walkers.withVelocity.totals, many.totals, ...one.map((r) => r.totals)]) {
    expect(totals.wrong).toBe(0);
    expect(totals.decoded).toBeGreaterThan(0);
  }
  expect(walkers.ours.totals.deltaChanged).toBe(walkers.ours.totals.deltas * WALKERS);
}, 300_000);
