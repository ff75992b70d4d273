/**
 * `npm run bench:net`: what a multiplayer server pays per client (ARCHITECTURE.md, "Multiplayer"). A server
 * runtime in Node simulates 1,000 moving entities at 60 ticks a second; the snapshot publisher, hosted on a `ws`
 * server (`hostSnapshots`), sends them at 20, 30 and 60 Hz to 0, 25 and 100 WebSocket clients in a process of
 * their own (bench/net-clients.mjs, so their cost is not the server's). For each send rate, the server process's
 * CPU (every thread: the simulation worker, the publisher, the sockets) with no clients is the baseline measured
 * in the same run; what more clients add, divided by their number, is the CPU a client costs. Bandwidth is what
 * the clients received. Each count is measured twice, in mirrored order, and the two windows averaged. Writes
 * docs/net-scale.md. Not part of `npm test`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createNodeRuntime } from 'steadyframe/node';
import { createSnapshotPublisher } from '../src/net/publisher.ts';
import { hostSnapshots } from '../src/net/socket-host.ts';
import { SNAPSHOT_HEAD_BYTES } from '../src/net/wire.ts';
import type { MotionCommands, MotionSetup } from '../test/browser/fixtures/motion.worker.ts';
import { motionSchema } from '../test/browser/fixtures/schemas.ts';
import { nodeFixture } from '../test/node/support/worker-modules.ts';

const ENTITIES = 1000;
const TICK_RATE = 60;
const RATES = [20, 30, 60];
/** Each send rate's windows, mirrored so that a machine speeding up or slowing down weighs on every count alike. */
const CLIENTS = [0, 25, 100, 100, 25, 0];
const WARM_UP_MS = 1000;
const WINDOW_MS = 4000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The clients' process, and a way to ask it for what arrived since the last ask. */
async function clients(port: number, count: number) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [fileURLToPath(new URL('./net-clients.mjs', import.meta.url)), String(port), String(count)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as { open?: number; messages: number; bytes: number };
  expect((await next()).open).toBe(count);
  return {
    report: async () => {
      child.stdin.write('report\n');
      return next();
    },
    exit: () => child.stdin.write('exit\n'),
  };
}

it('measures the server CPU and bandwidth a client costs at 1,000 entities', async () => {
  const rt = await createNodeRuntime<typeof motionSchema, MotionCommands, MotionSetup>({
    worker: await nodeFixture('motion'),
    schema: motionSchema,
    capacity: ENTITIES,
    setup: { count: ENTITIES, label: 'net-scale' },
  });
  await rt.setTickRate(TICK_RATE);
  await rt.start();
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024 });
  await new Promise<void>((resolve) => server.on('listening', () => resolve()));
  const port = (server.address() as { port: number }).port;
  const windows: Array<{ rate: number; clients: number; cpuPercent: number; bytes: number; messages: number }> = [];
  const load = loadavg();
  let snapshot = 0;
  for (const rate of RATES) {
    const publisher = createSnapshotPublisher(rt, { every: TICK_RATE / rate });
    const host = hostSnapshots(publisher, server);
    const publishing = setInterval(() => publisher.publish(), 4);
    for (const count of CLIENTS) {
      const group = count === 0 ? null : await clients(port, count);
      await sleep(WARM_UP_MS);
      await group?.report();
      const cpu = process.cpuUsage();
      const start = performance.now();
      await sleep(WINDOW_MS);
      const used = process.cpuUsage(cpu);
      const elapsed = performance.now() - start;
      const received = (await group?.report()) ?? { messages: 0, bytes: 0 };
      group?.exit();
      windows.push({
        rate,
        clients: count,
        cpuPercent: ((used.user + used.system) / 1000 / elapsed) * 100,
        bytes: count === 0 ? 0 : (received.bytes / count / elapsed) * 1000,
        messages: count === 0 ? 0 : (received.messages / count / elapsed) * 1000,
      });
      snapshot = publisher.stats.lastBytes;
      await sleep(200); // the clients' sockets close
    }
    clearInterval(publishing);
    host.close();
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rows = RATES.flatMap((rate) =>
    [...new Set(CLIENTS)].map((count) => {
      const own = windows.filter((w) => w.rate === rate && w.clients === count);
      const baseline = mean(windows.filter((w) => w.rate === rate && w.clients === 0).map((w) => w.cpuPercent));
      const cpuPercent = mean(own.map((w) => w.cpuPercent));
      return {
        rate,
        clients: count,
        cpuPercent,
        spread: own.map((w) => w.cpuPercent.toFixed(2)).join(', '),
        perClientPercent: count === 0 ? 0 : (cpuPercent - baseline) / count,
        ratio: cpuPercent / baseline,
        bytesPerClient: mean(own.map((w) => w.bytes)),
        messagesPerClient: mean(own.map((w) => w.messages)),
      };
    }),
  );
  server.close();
  rt.dispose();

  const table = [
    "| send rate | clients | server CPU, % of a core (the two windows) | ÷ the rate's 0-client baseline | per client, % of a core | received per client | snapshots per client a second |",
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.rate} Hz | ${r.clients} | ${r.cpuPercent.toFixed(2)} (${r.spread}) | ${r.ratio.toFixed(2)}× | ${r.clients === 0 ? '—' : r.perClientPercent.toFixed(3)} | ` +
        `${r.clients === 0 ? '—' : `${(r.bytesPerClient / 1024).toFixed(1)} KiB/s`} | ${r.clients === 0 ? '—' : r.messagesPerClient.toFixed(1)} |`,
    ),
  ].join('\n');
  const perEntity = (snapshot - SNAPSHOT_HEAD_BYTES) / ENTITIES;
  const doc = `# What a multiplayer server pays per client

Written by \`npm run bench:net\` (packages/runtime/bench/net-scale.measure.ts): a server runtime in Node simulating
${ENTITIES} moving entities (the motion fixture: position, angle, a quaternion, a frame number) at ${TICK_RATE} ticks a
second, its snapshot publisher on a \`ws\` server (\`hostSnapshots\`), and WebSocket clients on the same machine in a
process of their own. For each send rate, the server process's CPU (all its threads: the simulation worker, the
publisher, the sockets) with no clients is the baseline, measured in the same run; a client costs what more
clients add, divided by their number. Windows of ${WINDOW_MS / 1000} s after ${WARM_UP_MS / 1000} s of warm-up, each count twice in
mirrored order (0, 25, 100, 100, 25, 0 clients), averaged; one run, on a shared 2-core machine where the clients'
process competes with the server for the cores: a guide, not a guarantee.

| | |
|---|---|
| date | ${new Date().toISOString()} |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version} |
| load average at the start | ${load.map((x) => x.toFixed(2)).join(', ')} |
| snapshot | the last sent: ${snapshot} bytes, ${perEntity.toFixed(1)} bytes an entity after the ${SNAPSHOT_HEAD_BYTES}-byte head (wire version 4: a delta against the newest state the client acknowledged; the motion fixture's 8 float32 values are not quantised, so they cross as their bits' differences) |

${table}

Bandwidth is the snapshots' sizes times the send rate, per client (plus the WebSocket frame's few bytes). The
clients acknowledge every snapshot (bench/net-clients.mjs), as decoding clients do. The publisher quantises each
state once and encodes it once per baseline in use (clients that acknowledged the same tick share the bytes); what
a client adds is the socket's send, its acks, and the encodings its baseline alone needs.
`;
  writeFileSync(fileURLToPath(new URL('../../../docs/net-scale.md', import.meta.url)), doc);
  console.log(`${doc}\nwritten to docs/net-scale.md`);
  expect(rows.every((r) => r.clients === 0 || r.messagesPerClient > 0)).toBe(true);
}, 180_000);
