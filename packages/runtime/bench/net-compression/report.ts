/**
 * docs/net-compression.md from one run's results: each scene's table, its goals marked met or not, and what it
 * says of the wire. Numbers only from the run; the fixed ones (Gaffer's, version 3's formula) are named as such.
 */
import { SNAPSHOT_HEAD_BYTES } from '../../src/net/wire.ts';
import type { CubeRun } from './cube-run.ts';
import { CUBE_LINK } from './cube-run.ts';
import { CUBE_TICK_RATE, CUBES, type CubePhase } from './cubes.ts';
import { CROWD, CROWD_LINK, CROWD_SEND_EVERY, type CrowdRun } from './crowd-run.ts';
import { CROWD_LIMIT, CROWD_RADIUS, type CrowdInterestRun } from './crowd-interest-run.ts';
import type { RoomTotals } from './delta-room.ts';
import { WALK_LINK, WALK_SEND_EVERY, WALKERS, type WalkersRun } from './walkers-run.ts';
import { WALK_TICK_RATE } from './walkers.ts';

/** Gaffer on Games, "Snapshot Compression": his result, and his target. */
export const GAFFER_KBPS = 250;
export const CUBE_GOAL_KBPS = 200;
export const CUBE_GOAL_BYTES_PER_CHANGED = 6;
export const WALKER_GOAL_BYTES = 8;

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—');
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
const kbps = (bytes: number, seconds: number) => (bytes * 8) / seconds / 1000;
const linkWords = (l: { baseMs: number; jitterMs: number; loss: number }) => `one-way ${l.baseMs} ms ± ${l.jitterMs} ms, ${f(l.loss * 100, 0)}% loss, snapshots and acks alike`;

export interface CubeFigures {
  readonly seconds: number;
  readonly kbps: number;
  readonly bytesPerSnapshot: number;
  readonly bytesPerChanged: number;
  readonly bytesPerChangedBusy: number;
  readonly changedPerSnapshot: number;
}

/** What scene 1's goals are judged on. */
export function cubeFigures(run: CubeRun): CubeFigures {
  const t = run.totals;
  const seconds = t.pushes / CUBE_TICK_RATE;
  const busy = run.record.filter((r) => r.delta && r.changed >= 20);
  return {
    seconds,
    kbps: kbps(t.bytes, seconds),
    bytesPerSnapshot: t.bytes / t.messages,
    bytesPerChanged: t.deltaBodyBytes / t.deltaChanged,
    bytesPerChangedBusy: busy.reduce((s, r) => s + r.bytes - SNAPSHOT_HEAD_BYTES, 0) / busy.reduce((s, r) => s + r.changed, 0),
    changedPerSnapshot: t.deltaChanged / t.deltas,
  };
}

export function cubeSection(run: CubeRun): string {
  const t = run.totals;
  const c = cubeFigures(run);
  const v3Kbps = kbps(run.v3Bytes * CUBE_TICK_RATE, 1);
  const phases: Array<[string, (phase: CubePhase) => boolean]> = [
    ['settle (0–1 s), deltas', (p) => p === 'settle'],
    ['rolling through the grid (1–35 s, 47–60 s)', (p) => p === 'roll'],
    ['katamari (35–47 s)', (p) => p === 'katamari'],
  ];
  const phaseRows = phases.map(([name, pick]) => {
    const rows = run.record.filter((r) => r.delta && pick(run.phaseOf(r.tick)));
    const bytes = rows.reduce((s, r) => s + r.bytes, 0);
    const changed = rows.reduce((s, r) => s + r.changed, 0);
    return `| ${name} | ${rows.length} | ${f(kbps(bytes, rows.length / CUBE_TICK_RATE))} | ${f(bytes / rows.length, 0)} | ${f(changed / rows.length)} | ${f((bytes - rows.length * SNAPSHOT_HEAD_BYTES) / changed, 2)} |`;
  });
  const full = run.record.filter((r) => !r.delta);
  const fullBytes = full.reduce((s, r) => s + r.bytes, 0);
  return `## 1. Gaffer on Games' cubes: 901 cubes at 60 Hz, one minute

**The scene** (bench/net-compression/cubes.ts), rebuilt from Glenn Fiedler's "Introduction to Networked Physics" and
"Snapshot Compression" in Rapier's deterministic 3D build in Node: a 30 × 30 grid of small cubes and one large player
cube, 60 Hz simulation, every tick sent, a fixed script for ${f(c.seconds, 0)} s, over ${linkWords(CUBE_LINK)}.
- *As he describes it*: 901 cubes; the player moves by forces at its centre of mass and friction makes it roll and
  tumble; it pushes cubes, which push others; a katamari mode pulls the cubes within some distance towards the player's
  centre; positions bounded in [−256, 255] m horizontally, at 1/512 m; orientations as smallest three of 9 bits (29 bits).
- *Guessed* (his articles do not say): small cubes 1 m, the player 2 m, the grid's centres 2 m apart, all of density 1;
  the frictions (floor 0.8, cubes 0.6, player 1.5); the player pushed at one weight up to 5 m/s, and, because a force at
  the centre alone makes Rapier's cube slide rather than tumble, a torque of 1.5 weights × half its size about the axis
  across its heading; the katamari pull (2.5 weights within 5 m); the script: 1 s still, lanes across the grid until
  35 s, the katamari pull on a loop inside the grid until 47 s, lanes again until 60 s. His engine was ODE, z up.
- *Schema*: \`position: { width: 3, kind: 'linear', quantize: { min: −256, max: 256, precision: 1/512 } }\` (18 bits a
  component; one range serves a field's components, so up spends 18 bits where his 14 did, in full snapshots only),
  \`rotation: { width: 4, kind: 'quaternion', quantize: { bits: 9 } }\`.
- *Version 3* for comparison: its formula, ${f(run.v3Bytes, 0)} bytes a snapshot (a 40-byte head, 901 × (7 float32 + a generation) × 4).

| wire | bytes a snapshot | kbps, the minute's average | ÷ Gaffer's 250 kbps | ÷ version 3 |
|---|---:|---:|---:|---:|
| version 3 (every float, formula) | ${f(run.v3Bytes, 0)} | ${f(v3Kbps, 0)} | ${f(v3Kbps / GAFFER_KBPS, 1)}× | 1× |
| version 4, a full snapshot (quantised, no baseline: the first one) | ${f(run.fullBytes, 0)} | ${f(kbps(run.fullBytes * CUBE_TICK_RATE, 1), 0)} | ${f(kbps(run.fullBytes * CUBE_TICK_RATE, 1) / GAFFER_KBPS, 1)}× | ${f(run.fullBytes / run.v3Bytes, 3)}× |
| **version 4, deltas against the acknowledged baseline**, its motion since the one acknowledged before carried on (what was sent) | ${f(c.bytesPerSnapshot, 0)} | **${f(c.kbps)}** | ${f(c.kbps / GAFFER_KBPS, 2)}× | ${f(c.bytesPerSnapshot / run.v3Bytes, 4)}× |

- Goal: under ${CUBE_GOAL_KBPS} kbps on average: ${met(c.kbps < CUBE_GOAL_KBPS)} (${f(c.kbps)} kbps; Gaffer's ${GAFFER_KBPS}). The
  average includes the start: ${full.length} full snapshots (${f(fullBytes / 1024, 0)} KiB) went out before the first ack came back,
  ${f(kbps(fullBytes, c.seconds))} kbps of the minute's average (Gaffer started from an initial state both ends knew).
- Goal: at most ${CUBE_GOAL_BYTES_PER_CHANGED} bytes per changed cube: ${met(c.bytesPerChanged <= CUBE_GOAL_BYTES_PER_CHANGED)}: ${f(c.bytesPerChanged, 2)} body bytes per changed cube over
  every delta snapshot (a cube is changed when a code differs from the baseline's; the body's fixed part, 7 Rice
  parameters and the changed set's header, is spread over the snapshot's changed cubes), ${f(c.bytesPerChangedBusy, 2)} over the delta
  snapshots with 20 or more changed cubes. Gaffer's own figures add to about 7.1 bytes (26.1 bits a position, 23.3 a
  rotation, 5.5 an index, 2 flags).
- ${f(c.changedPerSnapshot)} cubes changed a delta snapshot on average; ${t.deltas} deltas and ${t.full} full snapshots; ${t.lost} lost, ${t.late} too late to
  decode; **${t.wrong} decoded states differed from the server's quantised state** (every one is checked, code for code).
- The heads alone: ${SNAPSHOT_HEAD_BYTES} bytes × 60 = ${f(kbps(SNAPSHOT_HEAD_BYTES * 60, 1))} kbps (Gaffer's own header with UDP and IP was about 33
  bytes). Not counted here or there: the WebSocket frame (2–4 bytes) and TCP/IP. Acks upstream: ${f(kbps(t.ackBytes, c.seconds))} kbps.

| phase (delta snapshots) | snapshots | kbps | bytes a snapshot | cubes changed a snapshot | body bytes per changed cube |
|---|---:|---:|---:|---:|---:|
${phaseRows.join('\n')}

CPU, every snapshot of the minute: the server's push (quantise) and encode ${f((t.serverMs / t.pushes) * 1000, 0)} µs a snapshot, the client's
decode ${f((t.decodeMs / t.decoded) * 1000, 0)} µs. Rapier took ${f(run.physicsMs / t.pushes, 2)} ms a step; ${run.sleepingAtEnd} of 901 bodies were asleep at the end.
`;
}

/** Bytes an entity a delta snapshot: the whole message, and the body alone. */
const perEntity = (t: RoomTotals, count: number) => ({ whole: (t.deltaBodyBytes + t.deltas * SNAPSHOT_HEAD_BYTES) / t.deltas / count, body: t.deltaBodyBytes / t.deltas / count });

export function walkerSection(run: WalkersRun): string {
  const ours = perEntity(run.ours.totals, WALKERS);
  const rich = perEntity(run.withVelocity.totals, WALKERS);
  const col = run.colyseus;
  const colPer = col.bytes / col.patches / WALKERS;
  const us = (t: RoomTotals) => [(t.serverMs / t.pushes) * 1000, (t.decodeMs / t.decoded) * 1000];
  const [oe, od] = us(run.ours.totals);
  const [re, rd] = us(run.withVelocity.totals);
  const changedAll = run.ours.totals.deltaChanged === run.ours.totals.deltas * WALKERS;
  const row = (name: string, v3: number, p: { whole: number; body: number }, t: RoomTotals, e: number, d: number) =>
    `| ${name} | ${f((v3 - 40) / WALKERS, 0)} | ${f(p.whole * WALKERS, 0)} | ${f(p.whole, 2)} | ${f(p.body, 2)} | ${f(e, 0)} | ${f(d, 0)} | ${t.lost} lost, ${t.full} full, ${t.wrong} wrong |`;
  return `## 2. 1,000 moving 2D entities at 20 Hz

**The scene** (bench/net-compression/walkers.ts, walkers-run.ts): 1,000 entities on a seeded random walk in a 200 m
square, each with a heading and a speed between 1 and 6 m/s, both nudged at random every 1/60 s step, bouncing off the
walls; sent every ${WALK_SEND_EVERY}rd tick (20 Hz) for ${run.snapshots} snapshots, over ${linkWords(WALK_LINK)}. Every entity moves at
least 5 cm between snapshots (5 steps of 1/100 m): ${changedAll ? 'every entity changed in every delta snapshot' : '**not every entity changed in every delta snapshot**'}.
- *Ours*: \`position: { min: −100, max: 100, precision: 1/100 }\` (1 cm, 15 bits), \`angle: { bits: 12 }\` (0.09°).
- *Ours with a velocity*: the multiplayer example's fields (position, \`velocity\` at 1/100 m/s in ±8 m/s, heading in
  12 bits): the 5 floats that made version 3's 24 bytes an entity.
- *@colyseus/schema 5.0.34* (colyseus-mirror.ts): \`schema({ x: t.quantized({ min: −100, max: 100, bits: 16 }), y: (the
  same), angle: t.angle({ bits: 16 }) })\` in a \`t.array\`; x, y, angle set from the same walkers every snapshot;
  \`Encoder.encode()\`'s patch counted, then \`discardChanges()\`, a \`Decoder\` applying it (its x and y within
  ${f(col.worstError * 1000, 2)} mm of the truth). 16 bits is its narrowest width that holds 1 cm over 200 m (8 would be 0.78 m
  steps) and 0.09° (8 would be 1.4°). A reliable ordered socket: no loss on its side; its first patch (every entity's
  creation, ${f(col.firstPatch, 0)} bytes) is left out. Bytes as \`encode()\` returns them; a room adds a protocol byte a message.

| wire | version 3, bytes an entity | bytes a snapshot | bytes an entity | body bytes an entity | encode µs a snapshot | decode µs a snapshot | link |
|---|---:|---:|---:|---:|---:|---:|---|
${row('**ours**: position, angle', run.ours.v3Bytes, ours, run.ours.totals, oe!, od!)}
${row('ours with a velocity', run.withVelocity.v3Bytes, rich, run.withVelocity.totals, re!, rd!)}
| @colyseus/schema 5: x, y, angle quantised | — | ${f(colPer * WALKERS, 0)} | ${f(colPer, 2)} | ${f(colPer, 2)} | ${f((col.encodeMs / col.patches) * 1000, 0)} | ${f((col.decodeMs / col.patches) * 1000, 0)} | reliable |

Delta snapshots only (full ones went out until the first ack came back). Encode: the server's push (quantise) and
encode; decode: the client's.

- Goal: at most ${WALKER_GOAL_BYTES} bytes an entity: ${met(ours.whole <= WALKER_GOAL_BYTES)} (${f(ours.whole, 2)} with the head's share, version 3 was
  ${f((run.ours.v3Bytes - 40) / WALKERS, 0)} for these 3 floats; with a velocity ${f(rich.whole, 2)}, where version 3 was 24). @colyseus/schema 5 on the same
  motion: ${f(colPer, 2)} bytes an entity, ${f(colPer / ours.whole, 1)}× ours.
`;
}

export function crowdSection(one: readonly CrowdRun[], many: CrowdRun, seeing: CrowdInterestRun): string {
  const rate = WALK_TICK_RATE / CROWD_SEND_EVERY;
  const perPush = (r: CrowdRun) => r.totals.serverMs / r.totals.pushes;
  const baseline = one.reduce((s, r) => s + perPush(r), 0) / one.length;
  const perClient = (perPush(many) - baseline) / (many.clients - 1);
  const perSecond = (r: CrowdRun) => r.totals.bytes / r.clients / r.seconds;
  const core = (msPerPush: number) => (msPerPush * rate) / 10; // % of a core: ms a second ÷ 1000 × 100
  const fullMs = many.fullMs / many.totals.pushes;
  return `## 3. 10,000 entities in a large world, 100 clients

**The scene** (bench/net-compression/crowd-run.ts): 10,000 walkers (as in scene 2) in a 2 km square, position at
1/100 m (18 bits), angle in 12 bits, simulated at 60 Hz, sent at ${rate} Hz, each client on its own link
(${linkWords(CROWD_LINK)}, its own seeds). ${f(many.seconds, 0)} s measured after ${f(many.warmUpSeconds, 0)} s of warm-up (the full snapshots before the
first acks), run with 1 client (before and after) and with ${many.clients}. The server's time is the encoder's alone (a push
quantises once; then one encode per baseline in use, shared by the clients on it), from performance.now(); the
clients' decoding is not counted in it. A client's cost: what ${many.clients - 1} more clients add, ÷ ${many.clients - 1}.

| wire | clients | bytes per client a second | server ms a push | encodes a push | server, % of a core | per client, % of a core |
|---|---:|---:|---:|---:|---:|---:|
| version 3, everything (formula) | any | ${f(many.v3Bytes * rate, 0)} | — | — | — | — |
| version 4, a full snapshot to everyone (encoded once a push) | any | ${f(many.fullBytes * rate, 0)} | ${f(fullMs, 2)} + the push | 1 | — | ≈ 0 (a send) |
| version 4, deltas | 1 | ${f(perSecond(one[0]!), 0)} | ${one.map((r) => f(perPush(r), 2)).join(', ')} | ${f(one[0]!.totals.encodes / one[0]!.totals.pushes, 2)} | ${f(core(baseline), 2)} | — |
| **version 4, deltas** | ${many.clients} | **${f(perSecond(many), 0)}** | ${f(perPush(many), 2)} | ${f(many.totals.encodes / many.totals.pushes, 2)} | ${f(core(perPush(many)), 2)} | **${f(core(perClient), 3)}** (${f(perClient * 1000, 0)} µs a push) |
| **version 4, deltas, each client seeing the walkers within ${CROWD_RADIUS} m of its own** (interest management) | ${seeing.clients} | **${f(seeing.bytes / seeing.clients / seeing.seconds, 0)}** | ${f(seeing.serverMs / seeing.pushes, 2)} | ${seeing.clients} (a view each) | ${f(core(seeing.serverMs / seeing.pushes), 2)} | **${f(core(seeing.serverMs / seeing.pushes / seeing.clients), 3)}** (${f((seeing.serverMs / seeing.pushes / seeing.clients) * 1000, 0)} µs a push) |

- Deltas: ${f(many.totals.deltaBodyBytes / many.totals.deltas / CROWD, 2)} body bytes an entity a snapshot, every entity changed in every one; ${f(perSecond(many) / (many.v3Bytes * rate) * 100, 1)}% of
  version 3's bytes, ${f(perSecond(many) / (many.fullBytes * rate) * 100, 1)}% of a full version 4 snapshot's. ${many.totals.lost} snapshots lost, ${many.totals.late} late,
  **${many.totals.wrong + one.reduce((s, r) => s + r.totals.wrong, 0)} decoded wrong**. A client's decode: ${f(many.totals.decodeMs / many.totals.decoded, 2)} ms a snapshot.
- Without interest management every client needs every entity, so a delta cannot be shared beyond the clients on one
  baseline; the encodes a push (one per baseline in use) are what 100 clients cost over one.
- Under interest management (bench/net-compression/crowd-interest-run.ts: \`radiusInterest\`, client c's avatar walker
  97·c, a limit of ${CROWD_LIMIT}): ${f(seeing.visible / seeing.messages, 0)} walkers a client on average; ${f(seeing.entered / seeing.seconds / seeing.clients, 1)} came into and ${f(seeing.left / seeing.seconds / seeing.clients, 1)} left a client's view
  a second; ${seeing.deltas} deltas and ${seeing.full} full views, ${seeing.lost} lost, ${seeing.late} late, **${seeing.wrong} decoded wrong**; ${seeing.dropped} left out for
  the limit. ${f((seeing.bytes / seeing.clients / seeing.seconds / (many.fullBytes * rate)) * 100, 2)}% of a full snapshot's bytes, ${f((seeing.bytes / seeing.clients / seeing.seconds / perSecond(many)) * 100, 1)}% of everything's deltas. The server's
  time a push is the quantisation, the copy of the positions, and every client's selection, view and encode (nothing is
  shared between views); a client's decode: ${f(seeing.decodeMs / Math.max(1, seeing.deltas + seeing.full - seeing.lost), 3)} ms a snapshot.
`;
}
