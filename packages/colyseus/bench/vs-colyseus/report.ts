/**
 * docs/net-vs-colyseus.md from one run of vs-colyseus.measure.ts: every figure beside the other stack's from the
 * same run, the issue's goals marked met or not, and the reason where not (in the numbers that make it).
 */
import type { DuelRun } from './duels.ts';
import { TICK_MS } from './game.ts';
import type { MainThread, PageCost } from './main-thread.ts';
import { CROWD } from './main-thread.ts';
import { corrections, FAR, LATENCY_GOAL_MS, latency, percentile, shots, type Corrections, type Latency, type Shots } from './metrics.ts';
import type { DuelOptions } from './scenes.ts';
import { colyseusTruth, oursTruth } from './truth.ts';

export interface LinkRuns {
  readonly oneWayMs: number;
  readonly ours: DuelRun;
  readonly colyseus: DuelRun;
  /** Ours over the repository's datagram relay (a reference). */
  readonly datagram: DuelRun;
}

export interface ReportInput {
  readonly date: string;
  readonly seconds: number;
  readonly machine: string;
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly versions: Readonly<Record<string, string>>;
  readonly options: DuelOptions;
  readonly shape: { readonly jitterMs: number; readonly loss: number };
  readonly links: readonly LinkRuns[];
  readonly main: MainThread;
  readonly mainFrames: number;
}

interface Scored {
  readonly run: DuelRun;
  readonly latency: Latency;
  readonly corrections: Corrections;
  readonly shots: Shots;
}

const truthOf = (run: DuelRun) => (run.server.kind === 'ours' ? oursTruth(run.server.own, run.server.other) : colyseusTruth(run.server.own, run.server.other));
const score = (run: DuelRun): Scored => ({ run, latency: latency(run.record), corrections: corrections(run.record, truthOf(run)), shots: shots(run.record, run.verdicts) });
const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

/** "p50 17.3 / p99 31.0 / max 35.2 ms": a latency's spread. */
function spread(l: Latency): string {
  return `p50 ${f(percentile(l.samples, 0.5))} / p99 ${f(percentile(l.samples, 0.99))} / max ${f(Math.max(...l.samples))} ms`;
}

/** How many presses showed in the 1st, 2nd, 3rd and later frame after them. */
function frameCounts(l: Latency): string {
  const counts = [1, 2, 3].map((k) => l.frames.filter((n) => n === k).length);
  const later = l.frames.filter((n) => n > 3).length;
  return `${counts.join(' / ')} / ${later}${l.missed > 0 ? ` (${l.missed} never moved)` : ''}`;
}

function over(l: Latency): number {
  return l.samples.filter((x) => x > LATENCY_GOAL_MS).length;
}

function latencyReason(name: string, link: number, s: Scored): string {
  const l = s.latency;
  const late = s.run.record.lateFrames / Math.max(1, s.run.record.allFrames);
  return `${name} at ${link} ms: ${over(l)} of ${l.samples.length} presses over ${f(LATENCY_GOAL_MS)} ms (p99 ${f(percentile(l.samples, 0.99))} ms; frames after the press 1st/2nd/3rd/later: ${frameCounts(l)}); ${pct(s.run.record.lateFrames, s.run.record.allFrames)} of the run's frames ran over 4 ms late${late > 0.05 ? ' (a loaded machine)' : ''}`;
}

function hitRate(s: Shots): number {
  return s.screenHits === 0 ? Number.NaN : s.agreed / s.screenHits;
}

function shotsReason(name: string, s: Scored): string {
  const sh = s.shots;
  const depth = sh.byDepth.map((d) => `${d.label}: ${d.agreed}/${d.hits}`).join(', ');
  return `${name}: ${sh.screenHits - sh.agreed} of ${sh.screenHits} screen hits judged misses (${depth}; ${sh.missedFar} with the server's target more than ${FAR} from the screen's); ${s.run.clamped} of ${s.run.record.shots.length} shots rewound to the end of the server's window${sh.unjudged > 0 ? `; ${sh.unjudged} never judged` : ''}`;
}

/** Colyseus's shots judged at their stamps with the window's clamp lifted: whether the stamp or the window missed. */
function unclampedNote(s: Scored): string {
  if (s.run.unclamped === undefined) return '';
  const u = shots(s.run.record, s.run.unclamped);
  return `; at the same stamps without the window's clamp, the room's history says ${u.agreed}/${u.screenHits} = ${pct(u.agreed, u.screenHits)}`;
}

function duelRows(link: number, name: string, s: Scored): string {
  const c = s.corrections;
  const sh = s.shots;
  return `| ${link} ms | ${name} | ${spread(s.latency)} (${f(percentile(s.latency.samples, 0.99) / TICK_MS, 2)} ticks) | ${frameCounts(s.latency)} | ${c.collisions} (${c.contactSteps} steps) | ${f(c.nearP99, 3)} / ${f(c.nearJump, 3)} (${c.nearFrames} frames) | ${f(c.errorP50, 3)} / ${f(c.errorP99, 3)} / ${f(c.errorMax, 3)} (alone: ${f(c.aloneP99, 4)}) | ${f(c.largestJump, 3)} (server's step ≤ ${f(c.serverLargestStep, 3)}) | ${sh.agreed}/${sh.screenHits} = ${pct(sh.agreed, sh.screenHits)} | ${sh.byDepth.map((d) => `${d.agreed}/${d.hits}`).join(' · ')} | ${sh.missesAgreed}/${sh.screenMisses} | ${s.run.clamped} |`;
}

function pageRow(name: string, c: PageCost, idle: PageCost): string {
  const sorted = c.drawMs.slice().sort((a, b) => a - b);
  const hz = (1000 * (c.frames - 1)) / c.spanMs;
  return `| ${name} | ${f(mean(c.drawMs), 3)} (p99 ${f(percentile(sorted, 0.99), 3)}) | ${f(c.messageMs / c.frames, 3)} (${c.messages} messages) | ${f(c.taskMs / c.frames, 3)} | ${f((c.taskMs - idle.taskMs) / c.frames, 3)} | ${f(c.scriptMs / c.frames, 3)} | ${f(hz, 1)} |`;
}

/** What a run's stack said of itself, in words. */
function notes(s: Scored): string {
  const o = s.run.ours;
  const c = s.run.colyseus;
  if (o !== undefined) {
    return `lead ${f(o.leadMs, 0)} ms, playout delay ${f(o.delayMs, 0)} ms (jitter ${f(o.jitterMs, 0)} ms, round trip ${f(o.roundTripMs, 0)} ms); ${o.corrections} corrections (largest ${f(o.largestCorrection, 2)}), ${o.snaps} snaps; the server took ${o.inputs} of player 0's input events, ${o.late} after the tick they were due in, and refused ${o.refused}${o.lastRefusal === null ? '' : ` (the last: ${o.lastRefusal})`}`;
  }
  if (c !== undefined) {
    return `inputs waiting in the room's buffer at a step: median ${c.bufferMedian}, max ${c.bufferMax} (a tick each); the shots' render-time stamps behind the room's newest record: median ${f(c.behindMedian, 0)} ms, max ${f(c.behindMax, 0)} ms (the window: 500)${unclampedNote(s)}`;
  }
  return '';
}

/** What the duel's numbers say, in sentences made from them (true of any run that writes them). */
function readings(scored: ReadonlyArray<{ oneWayMs: number; ours: Scored; colyseus: Scored; datagram: Scored }>): string {
  const lines: string[] = [];
  const first = (s: Scored) => s.latency.frames.filter((n) => n === 1).length;
  lines.push(
    `- *Input → drawn.* Ours draws a press in the first frame after it ${scored.map((l) => `${first(l.ours)} of ${l.ours.latency.samples.length} times at ${l.oneWayMs} ms`).join(', ')}: the key goes into the next predicted tick at the client tick that takes it (120 a second), and the frame blends the ticks around its time. Colyseus's ${scored.map((l) => `${first(l.colyseus)} of ${l.colyseus.latency.samples.length}`).join(' and ')}: the step made for a key is taken at the next frame's \`predict.tick\`, and the reconciler draws between its two latest steps (\`renderAlpha\`, a step's worth behind the newest), so the disc starts moving a frame later.`,
  );
  lines.push(
    `- *Corrections.* Ours fades a correction as e^(−3t/100 ms) (the guide's \`smoothMs\` 100: a fifth of it in a client tick), Colyseus's reconciler as e^(−t/65 ms) (\`smoothMs: 65\`): ours moves the drawn disc back sooner, a larger share of the correction in each frame (largest jump around collisions, ours against Colyseus: ${scored.map((l) => `${f(l.ours.corrections.nearJump, 2)} against ${f(l.colyseus.corrections.nearJump, 2)} at ${l.oneWayMs} ms`).join(', ')}). Ours predicts the other discs too (its step runs the whole world from the last snapshot, so a push the server will make can be drawn before it comes, and one that will not come can be drawn too); Colyseus's reconciler steps its own disc alone.`,
  );
  for (const l of scored) {
    const o = l.ours.run.ours!;
    lines.push(
      `- *Ours at ${l.oneWayMs} ms.* Its lead ended at ${f(o.leadMs, 0)} ms (over the datagram link: ${f(l.datagram.run.ours!.leadMs, 0)} ms): the lead is half the round trip, a tick, twice the playout's jitter estimate (${f(o.jitterMs, 0)} ms here) and 10 ms, and on a stream a lost segment holds what follows it for about ${f(2.5 * l.oneWayMs, 0)} ms, which the estimate counts. ${o.late} of player 0's ${o.inputs} input events reached the server after the tick they were due in (a stall longer than the lead: taken late, a correction) and the server refused ${o.refused}${o.refused > 0 ? ' (due more than 1,000 ms past its now: the publisher\'s limit, which the lead does not keep under)' : ''}${o.refused > 0 ? `: those keys never happened on the server, and the prediction drew them until the snapshots said otherwise (the presses act's error p99, ${f(l.ours.corrections.aloneP99, 2)})` : ''}.`,
    );
  }
  for (const l of scored) {
    const c = l.colyseus.run.colyseus!;
    lines.push(
      `- *Colyseus at ${l.oneWayMs} ms.* The room takes one input a step (\`next()\`, the guide's loop for a shared world); a stall of the stream holds the client's inputs, which then come together and wait their turn, and nothing drains them (the client sends one a step, the room takes one a step): the room's buffer held a median of ${c.bufferMedian} inputs, ${c.bufferMedian} ticks of delay on each. Its render-time stamps were then a median ${f(c.behindMedian, 0)} ms behind the room's newest record when a shot was judged, ${c.behindMedian > 500 ? 'past' : 'within'} its 500 ms window (\`maxRewindMs\`), and ${l.colyseus.run.clamped} of ${l.colyseus.run.record.shots.length} shots were judged at the window's end: ${pct(l.colyseus.shots.agreed, l.colyseus.shots.screenHits)} of screen hits agreed${unclampedNote(l.colyseus).replace(/^; at/, ', where at')}.`,
    );
  }
  lines.push(
    `- *Ours's shots.* Of the screen hits the server judged misses (${scored.map((l) => `${l.ours.shots.screenHits - l.ours.shots.agreed} at ${l.oneWayMs} ms; over the datagram link ${l.datagram.shots.screenHits - l.datagram.shots.agreed}`).join('; ')}), ${scored.map((l) => `${l.ours.shots.missedNear} (datagram: ${l.datagram.shots.missedNear}) at ${l.oneWayMs} ms`).join(', ')} had the server's target within ${FAR} of the screen's across the ray: the made time is the click's, and the screen showed the frame before it (the target moves 0.1 a frame), so a shot within a frame's motion of the edge can go either way (the depth columns). ${scored.map((l) => `${l.ours.shots.missedFar} (datagram: ${l.datagram.shots.missedFar}) at ${l.oneWayMs} ms`).join(', ')} had it farther, which the stream's waits explain: a frame drawn while its snapshots wait behind a lost segment shows the target past the newest snapshot it has (extrapolated for up to 100 ms, then held), where the server's history has it moving on (the datagram link, where nothing waits, has ${scored.every((l) => l.datagram.shots.missedFar === 0) ? 'none' : scored.map((l) => l.datagram.shots.missedFar).join(' and ')}).`,
  );
  return lines.join('\n');
}

export function renderReport(input: ReportInput): { markdown: string; goals: { latency: boolean; hits: boolean } } {
  const scored = input.links.map((l) => ({ oneWayMs: l.oneWayMs, ours: score(l.ours), colyseus: score(l.colyseus), datagram: score(l.datagram) }));
  const at100 = scored.find((l) => l.oneWayMs === 100)!;
  const latencyMet = scored.every((l) => percentile(l.ours.latency.samples, 0.99) <= LATENCY_GOAL_MS && l.ours.latency.missed === 0);
  const colyseusLatencyMet = scored.every((l) => percentile(l.colyseus.latency.samples, 0.99) <= LATENCY_GOAL_MS && l.colyseus.latency.missed === 0);
  const hitsMet = hitRate(at100.ours.shots) >= 0.99;
  const colyseusHitsMet = hitRate(at100.colyseus.shots) >= 0.99;
  const { idle, ours: mo, colyseus: mc } = input.main;
  const busy = (c: PageCost) => c.taskMs / c.frames;
  const work = (c: PageCost) => mean(c.drawMs) + c.messageMs / c.frames;

  const goals = [
    '| goal (issue #41) | ours | Colyseus 0.18 | verdict (ours) | where not met |',
    '|---|---|---|---|---|',
    `| local input to the predicted avatar drawn ≤ 1 tick + 1 frame (${f(LATENCY_GOAL_MS)} ms), p99 at every link | ${scored.map((l) => `${l.oneWayMs} ms: ${f(percentile(l.ours.latency.samples, 0.99))}`).join('; ')} | ${scored.map((l) => `${l.oneWayMs} ms: ${f(percentile(l.colyseus.latency.samples, 0.99))}`).join('; ')} (${colyseusLatencyMet ? 'within' : 'not within'} the goal) | ${verdict(latencyMet)} | ${latencyMet ? '' : scored.filter((l) => percentile(l.ours.latency.samples, 0.99) > LATENCY_GOAL_MS || l.ours.latency.missed > 0).map((l) => latencyReason('ours', l.oneWayMs, l.ours)).join('; ')} |`,
    `| hit registration ≥ 99% of screen hits at 100 ms one-way, ±${input.shape.jitterMs} ms, ${100 * input.shape.loss}% loss | ${at100.ours.shots.agreed}/${at100.ours.shots.screenHits} = ${pct(at100.ours.shots.agreed, at100.ours.shots.screenHits)} | ${at100.colyseus.shots.agreed}/${at100.colyseus.shots.screenHits} = ${pct(at100.colyseus.shots.agreed, at100.colyseus.shots.screenHits)} (${colyseusHitsMet ? 'within' : 'not within'} the goal) | ${verdict(hitsMet)} | ${hitsMet ? '' : shotsReason('ours', at100.ours)}${colyseusHitsMet ? '' : `${hitsMet ? '' : '. '}${shotsReason('Colyseus', at100.colyseus)}${unclampedNote(at100.colyseus)}`} |`,
    `| correction error p99, largest jump in a frame, when two players collide (no number set) | ${scored.map((l) => `${l.oneWayMs} ms: ${f(l.ours.corrections.nearP99, 3)}, ${f(l.ours.corrections.nearJump, 3)} (${l.ours.corrections.collisions} collisions)`).join('; ')} | ${scored.map((l) => `${l.oneWayMs} ms: ${f(l.colyseus.corrections.nearP99, 3)}, ${f(l.colyseus.corrections.nearJump, 3)} (${l.colyseus.corrections.collisions} collisions)`).join('; ')} | measured | units of the arena (a disc is 1 wide; a tick of motion 0.1), over the frames from 100 ms before a contact to 500 ms after |`,
    `| main-thread ms a frame at ${CROWD.players} players and ${CROWD.entities.toLocaleString('en')} entities, against Colyseus's client (no number set) | ${f(busy(mo), 3)} busy (its own code ${f(work(mo), 3)}) | ${f(busy(mc), 3)} busy (its own code ${f(work(mc), 3)}) | ${busy(mo) < busy(mc) ? `**lower** (${f(busy(mc) / busy(mo), 1)}× busy, ${f(work(mc) / work(mo), 0)}× its own code)` : '**not lower**'} | busy: Chromium's count of the page's main thread (the same loop drawing nothing: ${f(busy(idle), 3)}); its own code: the frame callback and the WebSocket handlers, timed by the page |`,
  ].join('\n');

  const duelTable = [
    '| link (one-way) | stack | input → drawn | frames after the press: 1st / 2nd / 3rd / later | collisions | around them: correction error p99 / largest jump | the whole act: correction error p50 / p99 / max | largest jump in a frame | screen hits the server agreed | by depth inside the edge: ≥ 0.1 · 0.05–0.1 · < 0.05 | screen misses agreed | shots at the window\'s end |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...scored.flatMap((l) => [duelRows(l.oneWayMs, 'ours', l.ours), duelRows(l.oneWayMs, 'Colyseus 0.18', l.colyseus)]),
  ].join('\n');
  const datagramTable = [
    '| link (one-way) | stack | input → drawn | frames after the press: 1st / 2nd / 3rd / later | collisions | around them: correction error p99 / largest jump | the whole act: correction error p50 / p99 / max | largest jump in a frame | screen hits the server agreed | by depth inside the edge: ≥ 0.1 · 0.05–0.1 · < 0.05 | screen misses agreed | shots at the window\'s end |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...scored.map((l) => duelRows(l.oneWayMs, 'ours, datagram link', l.datagram)),
  ].join('\n');
  const linkTable = [
    '| link (one-way) | run | messages | retransmitted (datagram: lost) | held behind an earlier one | frames over 4 ms late | what the stack says |',
    '|---|---|---:|---:|---:|---:|---|',
    ...scored.flatMap((l) =>
      (
        [
          ['ours', l.ours],
          ['Colyseus 0.18', l.colyseus],
          ['ours, datagram link', l.datagram],
        ] as const
      ).map(([name, s]) => `| ${l.oneWayMs} ms | ${name} | ${s.run.link.messages} | ${s.run.link.retransmitted} | ${s.run.link.held} | ${pct(s.run.record.lateFrames, s.run.record.allFrames)} | ${notes(s)} |`),
    ),
  ].join('\n');
  const mainTable = [
    '| page | its frame callback, ms (mean, p99) | WebSocket handlers on the thread, ms a frame | main thread busy, ms a frame (Chromium) | over the idle page | of it script | frames a second |',
    '|---|---:|---:|---:|---:|---:|---:|',
    pageRow('idle (the loop alone)', idle, idle),
    pageRow('ours', mo, idle),
    pageRow('Colyseus 0.18', mc, idle),
  ].join('\n');
  const versions = Object.entries(input.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

  const markdown = `# Ours against Colyseus 0.18: prediction, corrections, hit registration, main thread

Written by \`npm run bench:net -- colyseus\` (packages/colyseus/bench/vs-colyseus.measure.ts; \`npm run bench:net\` runs it with
the other network benchmarks). Everything below is from one run; every Colyseus figure was measured in it, on the same
game, the same links and the same machine.

| | |
|---|---|
| date, duration | ${input.date}, ${f(input.seconds, 0)} s |
| machine | ${input.machine} |
| load average at the start, at the end | ${input.load.start.map((x) => x.toFixed(2)).join(', ')}; ${input.load.end.map((x) => x.toFixed(2)).join(', ')} |
| versions | ${versions} |
| duel | ${input.options.presses} presses, ${f(input.options.collisionMs / 1000, 0)} s of collisions, ${input.options.shots} shots, per stack and link; seed ${input.options.seed} |

## Goals

${goals}

## The game, the stacks, the links

**The game** (bench/vs-colyseus/game.ts, the same functions on both stacks): discs of radius 0.5 in a 10 × 10 arena,
moved at 6 units a second by the key a player holds (velocity = key × 6: 0.1 units a tick), clamped by the walls,
pushed apart (positions only) when they overlap; a target moving at the same speed on a circle of radius 2; a shot is
a ray from the shooter's disc, a hit when it passes within 0.5 of the target's centre. 60 ticks a second, the world
sent 20 times a second (ours: a snapshot every third tick; Colyseus: its default patchRate, 50 ms).

**Ours** (bench/vs-colyseus/ours-game.ts, ours-client.ts, ours-server.ts): a steadyframe server runtime with its
snapshot publisher (every third tick, inputs with their made time) on a \`ws\` server; each client a runtime whose
worker is \`networkClient({ predict: { simulation, entities: its own disc, madeTime: true } })\` with the guide's
defaults (a correction fades over 100 ms, none snaps); the step judges a shot with \`tick.rewind(made time)\` over
the default window (\`rewind: true\`, 1 s). A key is \`runtime.sendInput\` when it changes; a frame \`runtime.frame()\`.

**Colyseus 0.18** (bench/vs-colyseus/colyseus-room.ts, colyseus-player.ts), as its netcode guide sets one up: the room
\`defineInput(MoveInput, { bufferMaxSize: 64 })\`, \`allowRewindState({ maxRewindMs: 500 })\` with the players and the
target attached, \`setFixedTimestep(step, 60)\` taking one input per player per step with \`inputs.get(id).next()\`
(the guide's loop for a shared world: the discs are pushed apart once a step), the shared \`applyInput\`, a shot
judged at \`rewind.lastSeenBy(sessionId)\`; the client \`Predict.get(room, { mode: 'lerp', delay: 100 })\`,
\`attachAll('players', { mode: 'lerp', fields: ['x', 'y'] })\` and the target attached the same way,
\`predict.reconciler(self, { input: room.input(), step: applyInput, smoothMs: 65 })\`, and each frame
\`predict.tick(now)\`, the due inputs staged and sent (the held key; a shot with the first), then \`predict.value\`
read. Colyseus's server runs in a Node 22 process (0.18 needs it); everything else, both clients included, on Node 20.

**The links** (bench/vs-colyseus/stream-link.ts): one-way ${input.links.map((l) => l.oneWayMs).join(' and ')} ms, ±${input.shape.jitterMs} ms
of jitter (uniform), ${100 * input.shape.loss}% of TCP segments lost, each way, a relay between each client's socket and its server's. Both
stacks run over WebSocket, which is TCP: a lost segment is retransmitted once the sender sees it missing (modelled
at 1.25 round trips, twice as long for a copy lost again) and every message behind it waits (one ordered stream),
so loss shows as stalls (${input.links.map((l) => `${f(2.5 * l.oneWayMs, 0)} ms at ${l.oneWayMs} ms one-way`).join(', ')}) and the bursts after them. The repository's relay
(\`createShapedRelay\`, used by the other network benchmarks) drops and reorders messages instead, a datagram link
neither stack has on WebSocket: Colyseus's state patches and inputs assume the ordered stream (its SDK says so of
its WebSocket transport), so it is not run there. Ours is, below, as a reference.

**The duel** (bench/vs-colyseus/scenes.ts), two clients a stack, driven as two pages: a frame each on a 60 Hz
vsync grid, keys and clicks at random moments between frames (handlers run when the user acts):
1. *Presses*: player 0 alone and at rest holds a key for 250 ms (right, left, up, down, ...), lets go, rests 400 ms.
   Input to drawn: from the key's handler to the vsync of the first frame whose own disc moved along the key (by
   more than 0.001 units, a hundredth of a tick's motion). Frames after the press: 1 is the first frame after it.
2. *Collisions*: player 1 chases player 0 (steering at where its own frames show it, re-aimed every 100 ms) while
   player 0 wanders, a new key every 300–700 ms (40% of them at where its frames show player 1, 15% none, the rest
   one of 8 directions): collisions player 0's client cannot predict (player 1's keys are not its to know). Correction error:
   each of player 0's frames against the server's path of its disc at the moment the frame shows, on each stack's
   own index of that moment (ours: the server time its prediction draws; Colyseus: the inputs its reconciler has
   stepped, against the room's steps that had consumed them), the path a tick either way of it, three ticks wide
   (bench/vs-colyseus/truth.ts). The same distance over the presses act (nothing to correct) is the measure's own
   floor ("alone"). Largest jump: the largest move of the drawn disc from one frame to the next, beside the largest
   move of the server's disc in a step (its motion and a push).
3. *Shots*: both players park; player 0 clicks every 150–250 ms at a random moment between frames, aiming at the
   target as its last frame showed it, off the centre by a Gaussian offset (σ 0.25, half the radius) across the line
   of sight; a screen hit is a ray within 0.5 of the target's centre in that frame. The server's verdict: ours, the
   step's \`tick.rewind\` at the input's made time; Colyseus, the room's \`rewind.lastSeenBy\`.

## Duel: per link

${duelTable}

Input → drawn in ms, and its p99 in ticks (16.7 ms); the goal is ${f(LATENCY_GOAL_MS)} ms (a tick and a frame, at 60 Hz). Distances
are in units of the arena (a disc is 1 wide, a tick's motion 0.1, the server's largest step in the act beside). A
collision is a run of server steps in which the two discs touch; *around them* takes the frames from 100 ms before a
contact to 500 ms after it (Colyseus: 6 inputs before, 30 after, its reconciler's index), *the whole act* every frame
of the collisions act. Each stack's collisions are its own: how often the chaser catches the wanderer depends on what
each player's frames show and when its inputs reach the server.

The links as each run crossed them, and what each stack said of itself at the end of its run:

${linkTable}

Reading it:
${readings(scored)}

## Reference: ours over the repository's datagram relay

The same duel, ours alone, over \`createShapedRelay\` with the same one-way delay, jitter and loss: lost messages are
gone (ours sends each input in 3 messages and re-sends unacknowledged events), late ones overtake.

${datagramTable}

## Main thread at ${CROWD.players} players and ${CROWD.entities.toLocaleString('en')} entities (Chromium)

Each stack's client in a page of its own in headless Chromium (${input.main.browser}), ${input.mainFrames} animation frames each after 3 s
of settling, over loopback (what a frame costs the thread does not depend on how late the data came). Each page's
server holds ${CROWD.entities.toLocaleString('en')} moving entities: the page's player, 49 players the server steers, the target and 949 orbs (ours:
one runtime, the orbs and bots moved by its step; Colyseus: one room, the same); the page's player holds a key, a new
one every second. Ours: \`runtime.frame(ts)\` and the
positions copied out; the network client, its decoding and its prediction run in the worker. Colyseus's: its
SDK decodes each patch in the WebSocket's handler on the page's thread (timed, by a wrapper of \`onmessage\` set
before the SDK loaded), and each frame runs \`predict.tick(ts)\`, the due inputs and \`predict.value\` for every
entity (lerped). *Main thread busy* is Chromium's own count (DevTools protocol \`Performance.getMetrics\`,
TaskDuration) over the measured frames: every task, garbage collection and the browser's frame work included;
*over the idle page* takes away what the same loop costs drawing nothing (a difference of two noisy counts: near
the floor it can come out below zero).

${mainTable}

## What this does not measure, and why

- The duel's clients run in Node (the same network client, worker thread and \`frame()\` ours runs in a page; the
  SDK Colyseus runs in a page), not in Chromium: what they show and when is the stacks' logic over real sockets, and
  a page's compositor would add the same frame to both. Frames are timed by the wall clock on a loaded machine
  (the link table says how many ran late). The main-thread costs are measured in Chromium.
- Colyseus over unreliable transport: its \`mode: "unreliable"\` inputs need \`@colyseus/h3-transport\`
  (WebTransport), experimental in 0.18 and not run here; on WebSocket its SDK sends them reliably.
- Colyseus's \`predict.sim\` (a rollback world of several entities) is not used: the other player's inputs are not
  the client's to know either way, and the guide sets up \`predict.reconciler\` for the local player.
`;
  return { markdown, goals: { latency: latencyMet, hits: hitsMet } };
}
