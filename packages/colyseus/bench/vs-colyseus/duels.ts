/**
 * One duel (scenes.ts) on one stack over one shaped link (stream-link.ts), start to end: the server, the link, the
 * two players, the acts, then what the server kept (truth.ts, the shots' verdicts). Each run gets a fresh server
 * (ours) or a fresh room (Colyseus's process is shared: colyseus-process.ts).
 */
import type { ColyseusProcess } from './colyseus-process.ts';
import { colyseusPlayer } from './colyseus-player.ts';
import { oursPlayer } from './ours-player.ts';
import { startOurs } from './ours-server.ts';
import { playDuel, type DuelOptions, type DuelRecord } from './scenes.ts';
import { openLink } from './links.ts';
import type { StreamLinkStats, StreamShape } from './stream-link.ts';
import type { SessionLog } from './colyseus-room.ts';
import type { Verdict } from './metrics.ts';

export interface DuelRun {
  readonly record: DuelRecord;
  /** The server's record of the two discs (truth.ts reads it): ours, poses [time, x, y, ...]; Colyseus's, the room's logs. */
  readonly server: { readonly kind: 'ours'; readonly own: number[]; readonly other: number[] | undefined } | { readonly kind: 'colyseus'; readonly own: SessionLog; readonly other: SessionLog | undefined };
  readonly verdicts: Verdict[];
  readonly link: StreamLinkStats;
  /** What else each stack says of the run (ours: its prediction's and its server's counters; Colyseus: its room's input buffer). */
  readonly ours?: OursFacts;
  readonly colyseus?: ColyseusFacts;
  /** Shots judged against a rewind clamped to the window's end. */
  readonly clamped: number;
  /** Colyseus's: the verdicts at each shot's stamp with the window's clamp lifted (room: `hitUnclamped`). */
  readonly unclamped?: Verdict[];
}

/**
 * Ours over `shape`: the stream link (a WebSocket over a lossy path), or with `datagram` the repository's relay
 * (steadyframe/testing/node: lost messages gone, late ones overtaken; a reference, not a link Colyseus can cross).
 */
export interface OursFacts {
  readonly leadMs: number;
  readonly corrections: number;
  readonly largestCorrection: number;
  readonly snaps: number;
  readonly delayMs: number;
  readonly jitterMs: number;
  readonly roundTripMs: number;
  /** Player 0's input events the server took, those after the tick they were due in, and those it refused. */
  readonly inputs: number;
  readonly late: number;
  readonly refused: number;
  readonly lastRefusal: string | null;
}

export interface ColyseusFacts {
  /** Player 0's inputs waiting in the room's buffer at a step. */
  readonly bufferMedian: number;
  readonly bufferMax: number;
  /** How far each shot's render-time stamp was behind the room's newest record, ms. */
  readonly behindMedian: number;
  readonly behindMax: number;
}

export async function oursDuel(shape: StreamShape, options: DuelOptions, datagram = false): Promise<DuelRun> {
  const server = await startOurs({ players: 2, bots: 2, orbs: 0 });
  const link = await openLink(server.url, shape, datagram);
  const wsUrl = link.url.replace(/^http/, 'ws');
  const p0 = await oursPlayer(wsUrl, 3);
  const p1 = await oursPlayer(wsUrl, 3);
  try {
    if (p0.index !== 0) throw new Error(`steadyframe bench: our first client is player ${p0.index}`);
    const record = await playDuel(p0, p1, options);
    const stats = await p0.network();
    const predicted = stats.predicted!;
    const report = await server.report();
    const inputs = report.clients[0];
    return {
      record,
      server: { kind: 'ours', own: report.poses.get(0) ?? [], other: report.poses.get(1) },
      verdicts: report.verdicts,
      link: await link.stats(),
      clamped: report.verdicts.filter((v) => v.clamped).length,
      ours: {
        leadMs: predicted.leadMs,
        corrections: predicted.corrections,
        largestCorrection: predicted.largestCorrection,
        snaps: predicted.snaps,
        delayMs: stats.delay,
        jitterMs: stats.jitter,
        roundTripMs: stats.roundTrip,
        inputs: inputs?.inputs ?? 0,
        late: inputs?.inputsLate ?? 0,
        refused: Object.values(inputs?.refused ?? {}).reduce((a, b) => a + b, 0),
        lastRefusal: inputs?.lastRefusal ?? null,
      },
    };
  } finally {
    await p0.dispose();
    await p1.dispose();
    await link.close();
    await server.close();
  }
}

const median = (x: number[]) => x.slice().sort((a, b) => a - b)[x.length >> 1] ?? Number.NaN;

export async function colyseusDuel(colyseus: ColyseusProcess, shape: StreamShape, options: DuelOptions): Promise<DuelRun> {
  const link = await openLink(colyseus.url, shape);
  const p0 = await colyseusPlayer(link.url, { create: { humans: 2, bots: 0, orbs: 0 } });
  const p1 = await colyseusPlayer(link.url, { roomId: p0.room.roomId });
  try {
    const record = await playDuel(p0, p1, options);
    const report = await colyseus.report(p0.room.roomId);
    const own = report.log?.[p0.room.sessionId];
    const other = report.log?.[p1.room.sessionId];
    if (own === undefined) throw new Error('steadyframe bench: the Colyseus room kept no steps of player 0');
    const buffered: number[] = [];
    for (let k = 4; k < own.steps.length; k += 5) buffered.push(own.steps[k]!);
    const mine = report.verdicts.filter((v) => v.session === p0.room.sessionId);
    return {
      record,
      server: { kind: 'colyseus', own, other },
      verdicts: mine,
      link: await link.stats(),
      clamped: mine.filter((v) => v.time <= v.newest - 500 || v.time >= v.newest).length,
      unclamped: mine.map((v) => ({ shot: v.shot, hit: v.hitUnclamped })),
      colyseus: {
        bufferMedian: median(buffered),
        bufferMax: Math.max(...buffered),
        behindMedian: median(mine.map((v) => v.newest - v.renderTime)),
        behindMax: Math.max(...mine.map((v) => v.newest - v.renderTime)),
      },
    };
  } finally {
    await p0.dispose();
    await p1.dispose();
    await link.close();
  }
}
