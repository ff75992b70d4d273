/**
 * `npm run bench:net -- judder` (or all of `npm run bench:net`): how smoothly, how late and at what cost each
 * way of drawing a server's world shows it (issue #25, item 6). Writes docs/net-judder.md.
 *
 * One trace recorded from a real server (net-judder/trace.ts: 64 entities on swelling circles, 60 ticks a
 * second, a snapshot every third tick) is replayed over nine links (one-way 100 ms, jitter ±0/30/80 ms, loss
 * 0/2/5%, three seeds each) through every pipeline in simulated time (net-judder/replay.ts), and each frame is
 * held against the truth (net-judder/score.ts):
 * - ours: `networkClient` (Hermite on the velocity field) on wire version 4, quantised as ORBIT_QUANTIZE says
 *   (net-judder/orbits.ts) and delta-coded against the states the client acknowledged; the same with quantisation
 *   off (every value its float32 bits, still delta-coded), which is what quantisation costs in judder; and with
 *   Hermite off. On the clean and the worst link, coarser position precisions too;
 * - @geckos.io/snapshot-interpolation 1.1.1 as its README sets it up for a 20 Hz server (3 intervals: 150 ms),
 *   and again with its buffer tuned so that it draws as late as ours did on that link;
 * - the latest snapshot as it is.
 * Then the main thread's ms per frame at 1,000 and 10,000 entities (net-judder/main-thread.ts), and bytes per
 * entity per snapshot. All baselines are measured in the same run. Not part of `npm test`.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { computeLayout } from '../src/core/layout.ts';
import type { RangeQuantize } from '../src/core/quantize.ts';
import { encodeSnapshot, SNAPSHOT_HEAD_BYTES, WIRE_VERSION, wireFormat } from '../src/net/wire.ts';
import { geckosMainThread, latestMainThread, oursMainThread, type FrameCosts } from './net-judder/main-thread.ts';
import { ORBIT_QUANTIZE, orbitSchema, orbitSchemaWith, type OrbitQuantize } from './net-judder/orbits.ts';
import { geckosMessages, LEAD, replayGeckos, replayLatest, replayOurs, type ReplaySetup, type WireCounts } from './net-judder/replay.ts';
import { percentileOf, score, summarize, type Samples, type Score } from './net-judder/score.ts';
import { arrivals, recordTrace, type Condition, type Trace } from './net-judder/trace.ts';

const ENTITIES = 64;
const SECONDS = Number(process.env.STEADYFRAME_JUDDER_SECONDS ?? 60);
const BASE_MS = 100;
const JITTERS = [0, 30, 80];
const LOSSES = [0, 0.02, 0.05];
const SEEDS = [1, 2, 3];
/** Frames before this true ms are not scored: every pipeline has had 4 s of snapshots. */
const SCORE_FROM_MS = 5000;
const PIPELINES = ['ours', 'ours, quantize off', 'ours, no Hermite', 'geckos (150 ms)', 'geckos at our delay', 'latest'] as const;
type Pipeline = (typeof PIPELINES)[number];
/** The same schema with quantisation off: every value crosses as its float32 bits. */
const exactSchema = orbitSchemaWith(null);
/** Coarser position precisions, measured on the clean and the worst link: what a coarser step would cost. */
const COARSER: readonly number[] = [1 / 512, 1 / 100];
/** The old wire's (version 3) snapshot: a 40-byte head, each entity's float32 values and its generation, 8 bytes a game field. */
const V3_HEAD_BYTES = 40;
const v3Bytes = (count: number, valuesPerEntity: number, gameValues: number) => V3_HEAD_BYTES + count * (valuesPerEntity + 1) * 4 + gameValues * 8;
/**
 * The judder goals' numbers in the last run before wire version 4 (commit 437a9fd's docs/net-judder.md: every value
 * as its float32 bits, every snapshot full), shown beside this run's.
 */
const BEFORE_V4 = { run: '2026-11-26, wire version 3', clean: 0.012, worst: 2.125 } as const;

/** A field's quantisation in words: its step and range, and the bits a code takes. */
function describeRange(q: RangeQuantize, unit: string): string {
  const steps = q.precision !== undefined ? Math.ceil((q.max - q.min) / q.precision - 1e-9) : 2 ** q.bits! - 1;
  const step = q.precision ?? (q.max - q.min) / steps;
  return `steps of ${+step.toPrecision(4)} ${unit} over ${q.min}..${q.max} (${Math.ceil(Math.log2(steps + 1))} bits)`;
}
const describeQuantize = (q: OrbitQuantize) => `position in ${describeRange(q.position, 'units')}, velocity in ${describeRange(q.velocity, 'units a second')}`;

/** The median of the arrived snapshots' lateness (server ms at arrival − the state's time): the link's share of the delay. */
function lateness(trace: Trace, setup: ReplaySetup): number {
  const first = trace.snapshots[0]!.sent;
  const values = Float64Array.from(setup.arrivals.flatMap((at, k) => (at === null ? [] : [at + first - LEAD - trace.snapshots[k]!.time]))).sort();
  return percentileOf(values, 0.5);
}

interface Row {
  readonly condition: string;
  readonly jitterMs: number;
  readonly loss: number;
  readonly lateness: number;
  readonly scores: Record<Pipeline, Score>;
  readonly tunedBufferMs: number;
  /** What the server sent ours, over the three seeds: quantised, and with quantisation off. */
  readonly wire: WireCounts;
  readonly wireExact: WireCounts;
  /** Ours with a coarser position precision (COARSER's order; the clean and the worst link only). */
  readonly coarser: ReadonlyArray<{ readonly precision: number; readonly score: Score; readonly wire: WireCounts }>;
}

const addWire = (into: WireCounts, from: WireCounts): void => {
  into.snapshots += from.snapshots;
  into.bytes += from.bytes;
  into.deltas += from.deltas;
  into.full += from.full;
  into.acks += from.acks;
};

function measureCondition(trace: Trace, messages: readonly string[], jitterMs: number, loss: number): Row {
  const setups = SEEDS.map((seed) => {
    const condition: Condition = { baseMs: BASE_MS, jitterMs, loss, seed: 1000 * seed + 10 * jitterMs + 1000 * loss };
    return { trace, condition, arrivals: arrivals(trace, condition, LEAD) } satisfies ReplaySetup;
  });
  const run = (replay: (setup: ReplaySetup) => Parameters<typeof score>[1]): Score => summarize(setups.map((setup): Samples => score(trace, replay(setup), SCORE_FROM_MS)));
  // ours, with the wire's counts summed over the seeds
  const runOurs = (options: Parameters<typeof replayOurs>[1]) => {
    const wire: WireCounts = { snapshots: 0, bytes: 0, deltas: 0, full: 0, acks: 0 };
    const result = run((s) => {
      const drawn = replayOurs(s, options);
      addWire(wire, drawn.wire);
      return drawn;
    });
    return { score: result, wire };
  };
  const quantized = runOurs({ hermite: true, schema: orbitSchema });
  const exact = runOurs({ hermite: true, schema: exactSchema });
  const ours = quantized.score;
  const geckos = run((s) => replayGeckos(s, messages));
  // geckos draws at its offset (the first snapshot's lateness, re-taken past 50 ms) plus its buffer: moved by the
  // difference, then once more by what is left (its re-taken offsets move with what it draws)
  let tunedBufferMs = Math.max(0, 150 + ours.delayMs - geckos.delayMs);
  let tuned = run((s) => replayGeckos(s, messages, tunedBufferMs));
  tunedBufferMs = Math.max(0, tunedBufferMs + ours.delayMs - tuned.delayMs);
  tuned = run((s) => replayGeckos(s, messages, tunedBufferMs));
  const scores: Record<Pipeline, Score> = {
    ours,
    'ours, quantize off': exact.score,
    'ours, no Hermite': run((s) => replayOurs(s, { hermite: false, schema: orbitSchema })),
    'geckos (150 ms)': geckos,
    'geckos at our delay': tuned,
    latest: run(replayLatest),
  };
  const late = percentileOf(Float64Array.from(setups.map((s) => lateness(trace, s))).sort(), 0.5);
  const sweep = (jitterMs === 0 && loss === 0) || (jitterMs === 80 && loss === 0.05);
  const coarser = sweep
    ? COARSER.map((precision) => {
        const q: OrbitQuantize = { ...ORBIT_QUANTIZE, position: { min: ORBIT_QUANTIZE.position.min, max: ORBIT_QUANTIZE.position.max, precision } };
        return { precision, ...runOurs({ hermite: true, schema: orbitSchemaWith(q) }) };
      })
    : [];
  return { condition: `±${jitterMs} ms, ${loss * 100}% loss`, jitterMs, loss, lateness: late, scores, tunedBufferMs, wire: quantized.wire, wireExact: exact.wire, coarser };
}

const mean = (values: Float64Array) => values.reduce((a, b) => a + b, 0) / values.length;
const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
/** A difference in percentage points, its sign always shown (3 decimals; rounding to nothing: ±0.000). */
const signed = (x: number) => (Math.abs(x) < 0.0005 ? '±0.000' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`);

it('measures judder, delay, main-thread time and bytes of drawing a server world', async () => {
  const started = performance.now();
  const load = loadavg();
  const trace = await recordTrace(ENTITIES, SECONDS, 7);
  const messages = geckosMessages(trace);
  const rows = JITTERS.flatMap((jitterMs) => LOSSES.map((loss) => measureCondition(trace, messages, jitterMs, loss)));

  const costs: Array<{ count: number; ours: FrameCosts; geckos: FrameCosts & { bytesPerEntity: number }; latest: FrameCosts & { bytesPerEntity: number } }> = [];
  for (const count of [1000, 10_000]) {
    costs.push({
      count,
      ours: await oursMainThread(count, 600),
      geckos: await geckosMainThread(count, count > 5000 ? 20 : 120, 6),
      latest: await latestMainThread(count, 600, 30),
    });
  }

  const judderTable = [
    '| link | pipeline | judder p50 | judder p99 | judder max | held | behind the server, ms (p1–p99) | added delay, ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.flatMap((row) =>
      PIPELINES.map((p) => {
        const s = row.scores[p];
        const name = p === 'geckos at our delay' ? `geckos at our delay (buffer ${f(row.tunedBufferMs, 0)} ms)` : p;
        return `| ${p === 'ours' ? `**${row.condition}**` : ''} | ${name} | ${f(s.judderP50)}% | ${f(s.judderP99)}% | ${f(s.judderMax, 0)}% | ${f(100 * s.held, 1)}% | ${f(s.delayMs, 0)} (${f(s.delayP01, 0)}–${f(s.delayP99, 0)}) | ${f(s.delayMs - row.lateness, 0)} |`;
      }),
    ),
  ].join('\n');

  const costTable = [
    '| entities | pipeline | ms a frame at 60 Hz (mean, p99) | ÷ ours | ms a frame back to back (mean) | ÷ ours |',
    '|---:|---|---:|---:|---:|---:|',
    ...costs.flatMap((c) =>
      (['ours', 'geckos', 'latest'] as const).map((p) => {
        const cost = c[p];
        const cadenced = mean(cost.cadenced);
        const back = mean(cost.backToBack);
        return `| ${p === 'ours' ? c.count : ''} | ${p} | ${f(cadenced, 4)} (${f(percentileOf(cost.cadenced.slice().sort(), 0.99), 4)}) | ${p === 'ours' ? '1' : f(cadenced / mean(c.ours.cadenced))}× | ${f(back, 4)} | ${p === 'ours' ? '1' : f(back / mean(c.ours.backToBack))}× |`;
      }),
    ),
  ].join('\n');

  // how late the server sent each state after its time (its loop's own jitter: every link, the clean one too, carries it)
  const sendLag = Float64Array.from(trace.snapshots, (t) => t.sent - t.time).sort();
  const clean = rows.find((r) => r.jitterMs === 0 && r.loss === 0)!;
  const worst = rows.find((r) => r.jitterMs === 80 && r.loss === 0.05)!;
  // what quantisation adds: ours against ours with quantisation off, the same trace and draws, on every link
  const quantizeCost = rows.map((r) => r.scores.ours.judderP99 - r.scores['ours, quantize off'].judderP99);
  const worstQuantizeCost = Math.max(...quantizeCost.map(Math.abs));

  // bytes: a snapshot's mean as sent, the full one (a new client's first), and the old wire's, computed
  const format = wireFormat(computeLayout(orbitSchema, ENTITIES));
  const v3 = v3Bytes(ENTITIES, format.valuesPerEntity, format.gameValues);
  const traced = trace.snapshots[trace.snapshots.length >> 1]!;
  const fullBytes = encodeSnapshot(format, traced.head, traced.block, traced.generation).byteLength;
  const perSnapshot = (w: WireCounts) => w.bytes / w.snapshots;
  const perEntity = (w: WireCounts) => (perSnapshot(w) - SNAPSHOT_HEAD_BYTES) / ENTITIES;
  const bytesTable = [
    '| link | ours: bytes a snapshot | an entity | sent as deltas | ÷ wire version 3 | quantisation off: bytes a snapshot | an entity |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.condition} | ${f(perSnapshot(r.wire), 0)} | ${f(perEntity(r.wire), 1)} | ${f((100 * r.wire.deltas) / r.wire.snapshots, 1)}% | ${f(perSnapshot(r.wire) / v3, 3)} | ${f(perSnapshot(r.wireExact), 0)} | ${f(perEntity(r.wireExact), 1)} |`,
    ),
  ].join('\n');
  const judder = (x: Score) => `${f(x.judderP50)}% / ${f(x.judderP99)}% / ${f(x.judderMax, 0)}%`;
  const sweepRow = (step: string, a: { score: Score; wire: WireCounts }, b: { score: Score; wire: WireCounts }) =>
    `| ${step} | ${judder(a.score)} | ${f(perSnapshot(a.wire), 0)} | ${judder(b.score)} | ${f(perSnapshot(b.wire), 0)} |`;
  const sweepTable = [
    `| position step | ${clean.condition}: judder p50 / p99 / max | bytes a snapshot | ${worst.condition}: judder p50 / p99 / max | bytes a snapshot |`,
    '|---|---:|---:|---:|---:|',
    sweepRow('off (float32 bits)', { score: clean.scores['ours, quantize off'], wire: clean.wireExact }, { score: worst.scores['ours, quantize off'], wire: worst.wireExact }),
    sweepRow(`${+ORBIT_QUANTIZE.position.precision!.toPrecision(4)} (ours)`, { score: clean.scores.ours, wire: clean.wire }, { score: worst.scores.ours, wire: worst.wire }),
    ...COARSER.map((precision, k) => sweepRow(`${+precision.toPrecision(4)}`, clean.coarser[k]!, worst.coarser[k]!)),
  ].join('\n');
  const tenK = costs.find((c) => c.count === 10_000)!;
  const ratio10k = mean(tenK.geckos.cadenced) / mean(tenK.ours.cadenced);
  const lessDelay = rows.every((r) => r.scores.ours.delayMs < r.scores['geckos (150 ms)'].delayMs);
  const noWorse = rows.every((r) => r.scores.ours.judderP99 <= r.scores['geckos (150 ms)'].judderP99);
  const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
  const goals = [
    '| goal | measured (quantised, wire version 4) | the same run, quantisation off | before wire version 4 | verdict |',
    '|---|---|---|---|---|',
    `| judder p99 ≤ 1% on a clean link | ${f(clean.scores.ours.judderP99, 3)}% | ${f(clean.scores['ours, quantize off'].judderP99, 3)}% | ${f(BEFORE_V4.clean, 3)}% | ${verdict(clean.scores.ours.judderP99 <= 1)} |`,
    `| judder p99 ≤ 5% at ±80 ms jitter and 5% loss | ${f(worst.scores.ours.judderP99, 3)}% | ${f(worst.scores['ours, quantize off'].judderP99, 3)}% | ${f(BEFORE_V4.worst, 3)}% | ${verdict(worst.scores.ours.judderP99 <= 5)} |`,
  ].join('\n');
  const otherGoals = [
    '| goal | measured | verdict |',
    '|---|---|---|',
    `| less added delay than geckos's 3 intervals, for no more judder, on every link | added ${rows.map((r) => f(r.scores.ours.delayMs - r.lateness, 0)).join(' / ')} ms against ${rows.map((r) => f(r.scores['geckos (150 ms)'].delayMs - r.lateness, 0)).join(' / ')} ms; judder p99 ${rows.map((r) => f(r.scores.ours.judderP99)).join(' / ')}% against ${rows.map((r) => f(r.scores['geckos (150 ms)'].judderP99)).join(' / ')}% (the nine links in the table's order) | ${verdict(lessDelay && noWorse)} |`,
    `| ≥ 10× less main-thread time than geckos at 10k entities | ${f(mean(tenK.geckos.cadenced), 1)} / ${f(mean(tenK.ours.cadenced), 3)} ms a frame = ${f(ratio10k, 0)}× | ${verdict(ratio10k >= 10)} |`,
  ].join('\n');

  const doc = `# Drawing a server's world: judder, delay, main-thread time, bytes

Written by \`npm run bench:net -- judder\` (packages/runtime/bench/net-judder.measure.ts; \`npm run bench:net\` runs it with
the server-scale benchmark). Everything below is from one run; every baseline was measured in it.

| | |
|---|---|
| date, duration | ${new Date().toISOString()}, ${f((performance.now() - started) / 1000, 0)} s |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version} |
| load average at the start | ${load.map((x) => x.toFixed(2)).join(', ')} |
| trace | ${trace.snapshots.length} snapshots (${SECONDS} s at 20 Hz) of ${ENTITIES} entities from a real server runtime; ${trace.serverGaps} sends the server's loop missed; each sent ${f(percentileOf(sendLag, 0.5), 1)} ms after its state's time (p1 ${f(percentileOf(sendLag, 0.01), 1)}, p99 ${f(percentileOf(sendLag, 0.99), 1)}, max ${f(sendLag[sendLag.length - 1]!, 1)}); every state within ${trace.worstMismatch.toExponential(1)} units of the truth at its time |
| wire | version ${WIRE_VERSION}: ${describeQuantize(ORBIT_QUANTIZE)} (\`ORBIT_QUANTIZE\`, bench/net-judder/orbits.ts, which says why); each snapshot a delta against the newest state the client acknowledged |

## How it is measured

**The trace.** A Node runtime simulates ${ENTITIES} entities on circles whose angular speed swells and ebbs (between half and
one and a half times its mean; 0.15–2.7 units and 2–13° of turn between two snapshots), 60 ticks a second, within
±62 units of the origin; its snapshot publisher, polled every millisecond, sends every third tick (20 Hz) to a client
that records each state, exactly (quantisation off, no acknowledgements: every snapshot full), and when it left. Each
entity's true position is known at any time (bench/net-judder/orbits.ts).

**The wire.** What a client is sent depends on its link: a delta against the newest state it acknowledged, a full
snapshot when it has acknowledged none the server still keeps. So each replay of ours re-sends the traced states, at
their traced times, through the publisher's own encoder (\`DeltaEncoder\`, which quantises each state as the schema
says, and \`ClientBaseline\`), and the client's acknowledgements (one per snapshot decoded) cross an up-link of the
same shape with draws of its own: a lost snapshot or a lost ack costs an older baseline, as it costs a real client.
Quantisation: ${describeQuantize(ORBIT_QUANTIZE)}. A position's step, 0.001 units, is 2% of the slowest entity's
motion in one 60 Hz frame and 0.7% of its motion between two snapshots (the motion judder is counted in).

**The links.** One-way ${BASE_MS} ms plus a uniform jitter of ±0, ±30 or ±80 ms (past ±25 ms snapshots overtake each other), and
0, 2 or 5% loss; each link three times with different seeds, the samples pooled. The same draws for every pipeline.
Our client's pings cross links of the same shape. Everything runs in simulated time: no result depends on how busy the
machine was, except the main-thread costs.

**The pipelines.**
- *ours*: \`networkClient\` (steadyframe/network), unchanged, driven as its worker drives it (a step per 120 Hz tick, one
  tick ahead), its socket and timers simulated; each 60 Hz frame blends the two ticks around it as the page does.
- *ours, quantize off*: the same, on the same trace and draws, with the schema's \`quantize\` taken off (every value
  crosses as its float32 bits, still delta-coded): the difference from *ours* is what quantisation costs.
- *ours, no Hermite*: *ours* with \`hermite: false\` (each kind's blend between snapshots).
- *geckos (150 ms)*: @geckos.io/snapshot-interpolation 1.1.1 as its README sets it up: \`new SnapshotInterpolation(20)\`
  (a buffer of 3 intervals), the server's \`SI.snapshot.create(state)\` sent as JSON, the client's \`JSON.parse\`,
  \`SI.snapshot.add\` and a \`SI.calcInterpolation('x y')\` each frame (undefined: the last drawn stays). Its snapshots
  are stamped with their tick's time (its best case: its server stamps them with \`Date.now()\` when it makes them).
- *geckos at our delay*: the same with its buffer set so that it draws as far behind as ours did on that link.
- *latest*: the newest snapshot that arrived, as it is.

**The numbers.**
- *Judder*: how far each frame's motion is from the true motion over the same frame, at the pipeline's own median
  delay, in % of the entity's motion between two snapshots. A constant delay costs nothing; a frame that stands still
  (33% at 60 Hz with 20 Hz snapshots), jumps, speeds up or cuts a corner does. Over every entity of every frame from
  5 s on.
- *Behind the server*: for each drawn entity, the time whose true position is nearest the point drawn, subtracted from
  the server's time at the frame; the median, and its 1st and 99th percentiles (how much it moved).
- *Added delay*: behind the server minus the link's median lateness (a snapshot's arrival on the server's clock minus
  the time it stands for: the one-way delay, less the ${Math.round(1000 / 60)} ms the server's simulation runs ahead of its clock).
  Drawing each snapshot as it comes adds about half an interval; interpolating needs at least one interval.
- *Held*: entity-frames that did not move at all.

## Goals

The issue's (#40) goals for the judder with quantisation on, beside this run's replay of the same trace and draws with
quantisation off, and the run before wire version 4 (${BEFORE_V4.run}: every value as its float32 bits, every snapshot
full; another trace, so compare it loosely). A trace is a real server's sends on this machine: a send its loop missed
is a loss on every link, the clean one included, and sends late by a few ms are jitter on it (the trace row above
says how many and how late), so a run's clean-link numbers move with the trace; the column beside, the same trace
and draws, is the one that isolates the wire:

${goals}

The benchmark's own goals (issue #25), with quantisation on:

${otherGoals}

## Judder and delay

${judderTable}

Reading it:
- *ours* blends with Hermite between snapshots (the velocity field gives each end its slope), so on a clean link a
  frame's motion is the true motion to within the quantisation step and the page's blend of two 120 Hz ticks, but for
  the sends the server's loop missed or sent late (the trace row; see Goals); a lost or late snapshot is bridged by extrapolating from the newest (at most 100 ms), corrected when the next arrives: the
  max column. Its delay follows the link (the 95th percentile of lateness, one interval, 10 ms), reached by playing
  a few percent fast or slow, so it changes by a few ms over seconds, not between frames.
- *ours, quantize off* against *ours*: quantisation at these precisions moves judder p99 by ${quantizeCost.map(signed).join(' / ')}
  percentage points (the nine links in order; at most ${f(worstQuantizeCost, 3)}). The section below measures coarser steps.
- *ours, no Hermite* is the blend's own error: a straight chord between snapshots on a curving path, a kink at each.
- *geckos* on a clean link: its render time is \`Date.now()\` (whole ms) minus its offset and buffer, so a frame's
  motion is off by up to a millisecond of motion, 2% of a snapshot's at 20 Hz, on top of the chord. With jitter it
  re-takes its clock offset from any snapshot whose lateness differs by more than 50 ms from the one it holds
  (\`autoCorrectTimeOffset\`, on by default), and the picture jumps by that much in one frame, back and forth: the
  p99 in the hundreds of %. Its buffer does not follow the link: at our delay it runs out of snapshots where ours
  bridges them (\`calcInterpolation\` returns nothing and the game shows the last frame again: a held frame, then a
  double step).
- *latest* moves once a snapshot and stands still in between: two frames in three held at 60 Hz.

## What quantisation costs: coarser position steps

*ours* again on the clean and the worst link (the same trace and draws), with the position's step made coarser
(velocity as above); bytes a snapshot are the mean over every snapshot sent, head included.

${sweepTable}

A step of s units moves a quantised position by up to s/2 on each axis; between two snapshots the drawn motion is
off by the difference of the two ends' rounding, up to s per axis spread over the three frames of an interval, against
a frame's motion of 0.05–0.9 units here. Judder is in % of a snapshot's motion, so a slower world (or a faster send rate)
needs a finer step for the same judder.

## Main-thread time

${costTable}

*ours* is a client runtime (\`createNodeRuntime\` running \`networkClient\`) drawing a live server runtime's entities over
loopback WebSockets: its main thread's part is \`runtime.frame()\` (the blend of two resampled ticks from the shared
buffer); decoding, the jitter buffer and the resampling run in its worker. *geckos* pays on the main thread, where its
vault lives, for each message's \`JSON.parse\` and \`SI.snapshot.add\` and each frame's \`calcInterpolation\` (an
\`Array.find\` per entity: quadratic in the entity count) with the result copied into a Float32Array. *latest* decodes each
binary snapshot (full ones: it keeps no baselines; wire version 4's bit coding, decoded on the main thread) and copies
its positions each frame. At 60 Hz: frames on a wall-clock 60 Hz grid with the thread idle
between them, as a game's frames are (the first touch of memory another core wrote, and of code, after 16 ms idle, is
most of ours: ${f(1000 * mean(costs[0]!.ours.backToBack), 1)} µs back to back against ${f(1000 * mean(costs[0]!.ours.cadenced), 1)} µs at 60 Hz at 1k); a frame that overruns waits for the next vsync.
Back to back: frames one after another, warm (ours through \`frameAt\`, a microsecond apart).

## Bytes per entity per snapshot

Ours on each link: every snapshot the server sent (lost ones too), head included, over the three seeds; every entity
moves every snapshot here, so a delta carries all ${ENTITIES}. The old wire (version 3: a ${V3_HEAD_BYTES}-byte head, every value as
float32 and a uint32 generation, every snapshot whole) is computed: ${v3} bytes a snapshot, ${f((v3 - V3_HEAD_BYTES) / ENTITIES, 1)} an entity.

${bytesTable}

| pipeline | bytes an entity | what |
|---|---:|---|
| ours, clean link | ${f(perEntity(clean.wire), 1)} (+ a ${SNAPSHOT_HEAD_BYTES}-byte head a snapshot) | quantised (${describeQuantize(ORBIT_QUANTIZE)}), deltas against acknowledged states, a generation unchanged costs a bit |
| ours, full snapshot | ${f((fullBytes - SNAPSHOT_HEAD_BYTES) / ENTITIES, 1)} (+ the head) | the same state with no baseline (a new client's first) |
| wire version 3 | ${f((v3 - V3_HEAD_BYTES) / ENTITIES, 1)} (+ a ${V3_HEAD_BYTES}-byte head) | position and velocity as float32, a generation (uint32): computed |
| geckos | ${f(costs[0]!.geckos.bytesPerEntity, 1)} at 1k | its JSON: \`{"id":"e12","x":…,"y":…}\`, position only (17 significant digits) |
| latest | ${f(costs[0]!.latest.bytesPerEntity, 1)} at 1k | our wire, full snapshots (it acknowledges nothing) |
`;
  writeFileSync(fileURLToPath(new URL('../../../docs/net-judder.md', import.meta.url)), doc);
  console.log(`${doc}\nwritten to docs/net-judder.md`);
  // a replay that drew nothing scores nothing: every pipeline must have drawn on every link
  expect(rows.every((r) => PIPELINES.every((p) => r.scores[p].frames > 0))).toBe(true);
}, 900_000);
