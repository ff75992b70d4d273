/**
 * A failover, done and measured (the failover test and the failover bench share it): the room's process killed
 * with SIGKILL mid-game, then what the clients and the process that restored the room show.
 *
 * ```text
 *  victim.history(room) ── kill -9 ──────────── survivor restores the room (its game's history from the save on)
 *  clients: frames of the old room ... played out, held ... rejoin ... frames of the restored room (ticks anew)
 *                                                                       └ back: the first of them
 * ```
 *
 * - *Lost ticks*: the newest step the old room was known to have made (its game's history, read just before the
 *   kill, or a client's newest frame) less the step the restored room went on from (the state its game started
 *   from): what the save did not have.
 * - *Back*: for each client, the time from the kill to its first frame of the restored room: the first whose
 *   server tick (x0: the restored runtime's tick numbers start over) is below the newest the client drew before
 *   the kill. Frames of the old room still drawn after the kill (its last snapshots, played out) are not it.
 *   The old room must have run longer than the restored one has when the clients are back (it is checked).
 * - *The same world*: every frame a client drew from its return on shows, at its step, the chain the server's game
 *   had at that step (the old room's history up to the kill, the restored room's from its save: both agree where
 *   both ran, since the restored room replays the same generator and state), and the steps never go back.
 */
import type { GameClient } from './game-client.ts';
import type { GameHistory, RoomServer, RoomServerReport } from './processes.ts';
import { waitFor } from './wait.ts';

export interface FailoverOutcome {
  /** The restored room as the survivor reports it. */
  readonly room: RoomServerReport['rooms'][number];
  /** Ms from the kill to each client's first frame of the restored room. */
  readonly backMs: number[];
  /** The step the restored room went on from, and the newest the old room was known to have made. */
  readonly savedSteps: number;
  readonly lastSteps: number;
  readonly lostTicks: number;
  /** Steps both rooms made (after the save, before the kill), and those whose chain differs between them. */
  readonly replayed: number;
  readonly replayedDiffering: number;
  /** Frames compared after the clients' return, and those not the server's world at their step (or going back). */
  readonly compared: number;
  readonly differing: string[];
}

/** The timeline of `Drawn.at` and the clients' join times. */
const now = () => performance.timeOrigin + performance.now();

export async function killAndRecover(options: {
  readonly victim: RoomServer;
  readonly survivor: RoomServer;
  readonly roomId: string;
  readonly clients: readonly GameClient[];
  /** Frames each client is to draw after its return before the worlds are compared (default 30). */
  readonly frames?: number;
  /** A hang guard, not a timing check. */
  readonly timeoutMs?: number;
}): Promise<FailoverOutcome> {
  const { victim, survivor, roomId, clients } = options;
  const before: GameHistory | null = await victim.history(roomId);
  if (before === null) throw new Error(`the room ${roomId} is not the victim's`);
  const killedAt = now();
  await victim.kill();

  let room: FailoverOutcome['room'] | undefined;
  const backAt: Array<number | null> = clients.map(() => null);
  await waitFor(
    'every client back in the restored room',
    async () => {
      room = (await survivor.report()).rooms.find((r) => r.roomId === roomId);
      if (room === undefined || room.clients.length < clients.length) return false;
      for (const [i, client] of clients.entries()) backAt[i] ??= redrawn(client, killedAt);
      return backAt.every((at) => at !== null);
    },
    options.timeoutMs ?? 20_000,
  );
  // the restored runtime's ticks must still be below the old room's (else its frames could not be told apart)
  const oldTicks = clients.map((c) => Math.max(...c.drawn.filter((f) => f.at < killedAt).map((f) => f.x0)));
  if (room!.lastTick >= Math.min(...oldTicks)) throw new Error(`the restored room's ticks (${room!.lastTick}) reached the old room's (${Math.min(...oldTicks)}): run the old room longer`);
  const frames = options.frames ?? 30;
  await waitFor(`${frames} frames drawn by every client since its return`, () => clients.every((c, i) => c.drawn.filter((f) => f.at >= backAt[i]!).length >= frames), 10_000);
  const after = (await survivor.history(roomId))!;

  // the server's world at each step: the old room's up to the kill, the restored room's from its save on
  const chainAt = new Map<number, number>();
  for (const [steps, chain] of before.states) chainAt.set(steps, chain);
  let replayed = 0;
  let replayedDiffering = 0;
  for (const [steps, chain] of after.states) {
    const old = chainAt.get(steps);
    if (old !== undefined) {
      replayed++;
      if (old !== chain) replayedDiffering++;
    }
    chainAt.set(steps, chain);
  }
  const savedSteps = after.firstSteps;
  let lastSteps = before.states.at(-1)?.[0] ?? 0;
  for (const client of clients) for (const f of client.drawn) if (f.at < killedAt) lastSteps = Math.max(lastSteps, f.steps);

  const differing: string[] = [];
  let compared = 0;
  for (const [i, client] of clients.entries()) {
    let previous = -1;
    for (const f of client.drawn) {
      if (f.at < backAt[i]!) continue;
      compared++;
      const chain = chainAt.get(f.steps);
      if (chain !== f.chain) differing.push(`client ${i}: step ${f.steps} drawn with chain ${f.chain}, the server's ${String(chain)}`);
      if (f.steps < previous) differing.push(`client ${i}: step ${f.steps} drawn after step ${previous}`);
      previous = f.steps;
    }
  }
  if (differing.length > 0 && process.env.STEADYFRAME_FAILOVER_DEBUG) {
    console.log('old room, last states', before.states.slice(-6), 'restored from', after.firstSteps, after.states.slice(0, 6));
    for (const [i, client] of clients.entries()) {
      const at = client.drawn.findIndex((f) => f.at >= backAt[i]!);
      console.log(`client ${i}: killed at ${killedAt.toFixed(0)}, back at ${backAt[i]!.toFixed(0)}, joins at ${(await client.joinTimes()).map((t) => t.toFixed(0)).join(' ')}`, client.drawn.slice(Math.max(0, at - 4), at + 6).map((f) => [f.at.toFixed(0), f.steps, f.chain, f.x0]));
    }
  }
  return {
    room: room!,
    backMs: backAt.map((at) => at! - killedAt),
    savedSteps,
    lastSteps,
    lostTicks: lastSteps - savedSteps,
    replayed,
    replayedDiffering,
    compared,
    differing,
  };
}

/** When the client first drew the restored room (a frame after the kill of a tick below any it drew before), or null if not yet. */
function redrawn(client: GameClient, killedAt: number): number | null {
  let oldTick = Number.NEGATIVE_INFINITY;
  for (const f of client.drawn) {
    if (f.at < killedAt) oldTick = Math.max(oldTick, f.x0);
    else if (f.x0 < oldTick) return f.at;
  }
  return null;
}
