/**
 * `npm run bench:net -- server-ticks` (or all of `npm run bench:net`): when a server's ticks start, on the wall
 * clock (issue #41, item 6). Writes docs/server-ticks.md.
 *
 * A server runtime in Node at 60 Hz, made as apps/multiplayer/src/server.ts makes one (`createNodeRuntime`, its
 * snapshot publisher read every 1000/240 ms, no `frame()` calls), its step keeping when each tick started and the
 * time it stands for (fixtures/server-ticks.ts); input events sent at random moments (2 to 30 ms apart, as a
 * client's arrive) with `runtime.sendInput`, each step keeping the events it took. Four servers, each in a fresh
 * runtime:
 * - frameless, `maxLeadTicks: 2` set explicitly: the lead every host had before (the baseline, in the same run);
 * - frameless, the default (0 on a frameless host with no frame expected: worker/settings.ts, `leadTicks`);
 * - a server loop that calls `runtime.frame()` every 50 ms (site/guides/node.md), the default lead (2:
 *   frames are expected) and `maxLeadTicks: 1`: what frames cost a server's ticks.
 * Each server runs two windows, in mirrored order, whose samples are pooled. Not part of `npm test`.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { buildWorkerModule } from 'steadyframe/testing/node';
import { createNodeRuntime, createSnapshotPublisher } from 'steadyframe/node';
import { SERVER_TICK_RATE, serverTicksSchema, type ServerTicksCommands, type TickRecord } from './fixtures/server-ticks.ts';

const WARM_UP_MS = 1000;
const WINDOW_MS = 4000;
/** A server loop's frames (site/guides/node.md), ms apart. */
const FRAME_EVERY_MS = 50;
const TICK_MS = 1000 / SERVER_TICK_RATE;

interface Server {
  readonly name: string;
  /** The fixture module: the default lead, or one set explicitly. */
  readonly module: 'server-ticks' | 'server-ticks-lead2' | 'server-ticks-lead1';
  readonly lead: string;
  readonly frames: boolean;
}
const SERVERS: readonly Server[] = [
  { name: 'frameless (as apps/multiplayer), before', module: 'server-ticks-lead2', lead: '2, set (the old default)', frames: false },
  { name: 'frameless (as apps/multiplayer), now', module: 'server-ticks', lead: 'default (0 here)', frames: false },
  { name: `frame() every ${FRAME_EVERY_MS} ms (README's headless loop)`, module: 'server-ticks', lead: 'default (2: frames expected)', frames: true },
  { name: `frame() every ${FRAME_EVERY_MS} ms (README's headless loop)`, module: 'server-ticks-lead1', lead: '1, set', frames: true },
];
/** Window order: each server twice, mirrored, so a machine speeding up or slowing down weighs on all alike. */
const ORDER = [0, 1, 2, 3, 3, 2, 1, 0];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The nearest-rank percentile `p` (0..1) of `values`. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** What one window of one server measured. */
interface Samples {
  /** Ms between successive ticks' starts. */
  intervals: number[];
  /** Ms each tick started before the time it stands for (negative: after it). */
  ahead: number[];
  /** Per input event: ms from its time to the time of the tick that took it, and to that tick's start. */
  toTickTime: number[];
  toStart: number[];
  late: number;
  inputs: number;
  /** The worker's timed wakes that came more than 1 ms after their plan (the OS ran it late), and the latest, ms. */
  lateWakes: number;
  maxWakeLateMs: number;
}

function samplesOf(record: TickRecord): Samples {
  const { starts, ats, inputs } = record;
  const out: Samples = { intervals: [], ahead: [], toTickTime: [], toStart: [], late: 0, inputs: 0, lateWakes: 0, maxWakeLateMs: 0 };
  for (let i = 0; i < starts.length; i++) {
    out.ahead.push(ats[i]! - starts[i]!);
    if (i > 0) out.intervals.push(starts[i]! - starts[i - 1]!);
  }
  for (let i = 0; i < inputs.length; i += 4) {
    const [time, at, late, start] = [inputs[i]!, inputs[i + 1]!, inputs[i + 2]!, inputs[i + 3]!];
    out.toTickTime.push(at - time);
    out.toStart.push(start - time);
    out.late += late;
    out.inputs++;
  }
  return out;
}

const modules = new Map<Server['module'], Promise<string>>();
function moduleOf(server: Server): Promise<string> {
  let built = modules.get(server.module);
  if (built === undefined) {
    built = buildWorkerModule(fileURLToPath(new URL(`./fixtures/${server.module}.worker.ts`, import.meta.url)));
    modules.set(server.module, built);
  }
  return built;
}

/** One window: a fresh runtime, warmed up, measured for WINDOW_MS while inputs arrive at random moments. */
async function measure(server: Server): Promise<Samples> {
  const rt = await createNodeRuntime<typeof serverTicksSchema, ServerTicksCommands>({ worker: await moduleOf(server), schema: serverTicksSchema, capacity: 4 });
  await rt.start();
  const publisher = createSnapshotPublisher(rt, { every: 3 });
  const publishing = setInterval(() => publisher.publish(), 1000 / 240);
  const framing = server.frames ? setInterval(() => rt.frame(), FRAME_EVERY_MS) : undefined;
  let sending = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = () => {
    if (!sending) return;
    rt.sendInput(1, 0);
    timer = setTimeout(send, 2 + Math.random() * 28);
  };
  send();
  await sleep(WARM_UP_MS);
  await rt.commands.take();
  const from = (await rt.stats()).worker;
  await sleep(WINDOW_MS);
  const record = await rt.commands.take();
  const to = (await rt.stats()).worker;
  sending = false;
  clearTimeout(timer);
  clearInterval(framing);
  clearInterval(publishing);
  rt.dispose();
  // the latest wake since attach: the warm-up's included (the counter has no window of its own)
  return { ...samplesOf(record), lateWakes: to.lateWakes - from.lateWakes, maxWakeLateMs: to.maxWakeLateMs };
}

const ms = (x: number) => x.toFixed(2);

it('measures when a server ticks start, on the wall clock, and which tick an input lands in', async () => {
  const load = loadavg();
  const pooled: Samples[] = SERVERS.map(() => ({ intervals: [], ahead: [], toTickTime: [], toStart: [], late: 0, inputs: 0, lateWakes: 0, maxWakeLateMs: 0 }));
  for (const index of ORDER) {
    const s = await measure(SERVERS[index]!);
    const into = pooled[index]!;
    into.intervals.push(...s.intervals);
    into.ahead.push(...s.ahead);
    into.toTickTime.push(...s.toTickTime);
    into.toStart.push(...s.toStart);
    into.late += s.late;
    into.inputs += s.inputs;
    into.lateWakes += s.lateWakes;
    into.maxWakeLateMs = Math.max(into.maxWakeLateMs, s.maxWakeLateMs);
  }
  const rows = SERVERS.map((server, i) => {
    const s = pooled[i]!;
    const spread = (xs: number[]) => `${ms(percentile(xs, 0.5))} / ${ms(percentile(xs, 0.99))} / ${ms(Math.max(...xs))}`;
    return (
      `| ${server.name} | ${server.lead} | ${s.intervals.length + 2} | ${spread(s.intervals)} | ${((s.intervals.filter((x) => x < TICK_MS / 2).length / s.intervals.length) * 100).toFixed(1)}% | ${spread(s.ahead)} | ` +
      `${s.inputs} | ${((s.late / s.inputs) * 100).toFixed(1)}% | ${ms(percentile(s.toTickTime, 0.5))} / ${ms(percentile(s.toTickTime, 0.99))} | ` +
      `${ms(percentile(s.toStart, 0.5))} / ${ms(percentile(s.toStart, 0.99))} | ${s.lateWakes} (${ms(s.maxWakeLateMs)}) |`
    );
  });
  const table = [
    '| server | maxLeadTicks | ticks | ms between tick starts: p50 / p99 / max | under half a tick (back to back) | ms a tick starts ahead of its time: p50 / p99 / max | inputs | late | ms from an input to its tick\'s time: p50 / p99 | ms from an input to its tick\'s start: p50 / p99 | wakes > 1 ms late (the latest, ms) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  const doc = `# When a server's ticks start

Written by \`npm run bench:net -- server-ticks\` (packages/runtime/bench/server-ticks.measure.ts): a server runtime in
Node at ${SERVER_TICK_RATE} ticks a second, made as apps/multiplayer/src/server.ts makes one (\`createNodeRuntime\`, its
snapshot publisher read every ${(1000 / 240).toFixed(2)} ms), whose step keeps when each tick started (the shared clock, read
first thing in the step) and the time the tick stands for (\`tick.at\`), and the input events it took; input events
are sent with \`runtime.sendInput\` at random moments 2 to 30 ms apart. Each server in a fresh runtime, two windows of
${WINDOW_MS / 1000} s after ${WARM_UP_MS / 1000} s of warm-up, in mirrored order, pooled; one run on a shared 2-core machine: a guide,
not a guarantee.

| | |
|---|---|
| date | ${new Date().toISOString()} |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version} |
| load average at the start | ${load.map((x) => x.toFixed(2)).join(', ')} |

${table}

- **Frameless, before / now.** A server that makes no frames had the lead pages have (\`maxLeadTicks\` 2): with no
  frame expected the loop's target is the wall clock, and it made the newest state reach it, so every tick was
  made a whole tick (${ms(TICK_MS)} ms) before its time. An input that arrived within a tick's interval found that tick
  made already: it went to the next one, flagged late. A frameless host now runs no tick ahead unless the game sets
  \`maxLeadTicks\` (worker/settings.ts, \`leadTicks\`): each tick starts at its time (µs after it: the loop's precise
  wake), and an input is in the tick whose interval it arrived in, not late in the next. The steps run at the same
  wall-clock moments either way, so an input waits as long for the step that takes it (the last column but one);
  what changes is the time that step stands for: a state is no longer stamped a tick in the server's future, and an
  input's effect is in the state of its own tick.
- **Intervals.** Without frames the old lead did not make ticks bursty: both frameless rows tick evenly, and their
  p99 and max are the machine's scheduling (the late wakes column; this machine was shared, at the load above),
  and a stall is caught up with ticks back to back under either lead (the intervals under half a tick, if any).
- **A server loop that calls \`frame()\`** makes frames, and the worker runs ahead for them, as on a page: toward the
  next frame (${FRAME_EVERY_MS} ms away), at most \`maxLeadTicks\` ahead, so with the default 2 its ticks come in bursts
  (two at once, then a wait: many more intervals under half a tick, and the state two ticks ahead) and its inputs
  come late; this is where a lead of two ticks and uneven ticks show.
  \`maxLeadTicks: 1\` keeps them a tick ahead, evenly. A server that only publishes (\`createSnapshotPublisher\` reads
  the newest state itself) needs no \`frame()\`.
`;
  writeFileSync(fileURLToPath(new URL('../../../docs/server-ticks.md', import.meta.url)), doc);
  console.log(`${doc}\nwritten to docs/server-ticks.md`);
  // the frameless default starts no tick ahead of its time; the old lead started every one a tick ahead
  const [before, now] = [pooled[0]!, pooled[1]!];
  expect(Math.max(...now.ahead)).toBeLessThan(percentile(before.ahead, 0.5));
  expect(now.late / now.inputs).toBeLessThan(before.late / before.inputs);
}, 180_000);
