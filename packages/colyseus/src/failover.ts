/**
 * Failover (ARCHITECTURE.md, "Rooms on Colyseus": a room outlives its process): each Colyseus process watches the
 * saved rooms (room-saver.ts) and brings back, under the same room id, those whose process died. Their clients'
 * own reconnects (the network client's, with their reconnection tokens) find the room again through matchmaking,
 * and the restored room holds their seats.
 *
 * ```text
 *  every checkMs ── HGETALL steadyframe:rooms (roomId → owner) ── PUBSUB CHANNELS p:* (Colyseus's process channels:
 *    │                                                             a live process is subscribed to its own)
 *    └─ an owner with no channel, at two looks in a row: dead (a killed process's Redis connections close with it)
 *         ├─ once per dead process: out of the process stats (no new room goes there), its room listings removed
 *         │  (what Colyseus's health check does when a process does not answer; here without waiting 2 s for it)
 *         ├─ HINCRBYEX steadyframe:restoring:<roomId> <owner> 1: the process that counts 1 restores it, no other
 *         ├─ GET steadyframe:save:<roomId> ── HSET steadyframe:rooms <roomId> → this process (the room is ours now)
 *         └─ matchMaker.handleCreateRoom(name, createOptions, _, roomId): the room's onCreate takes the save
 *            (room.ts): runtime.restore(snapshot), then each saved seat held for its client's reconnect
 *  client ── reconnect(roomId:token) at any process ── the listing (this process now) ── checkReconnectionToken ──
 *            the held seat ── onReconnect: a new connection to the same seat (the same player)
 * ```
 *
 * Why the channel and not Colyseus's own health check: that one is an IPC request that waits
 * COLYSEUS_PRESENCE_SHORT_TIMEOUT (2 s) for the answer a dead process never sends, and Colyseus only makes it when a
 * seat reservation fails. A process whose Redis subscription is gone answers nothing either, so Colyseus would
 * sweep it too; the second look keeps a subscription being renewed from counting as a death.
 *
 * Each process restores on itself the rooms it wins, into a runtime it made ahead (spare-runtime.ts: the worker's
 * start is most of a restore's time). A process whose Redis link was cut while it ran on (a network
 * partition) is taken for dead; when its link comes back, its room's next save finds the room owned elsewhere and
 * hands its clients over (`stats.superseded`, room.ts).
 */
import { debugAndPrintError, matchMaker } from '@colyseus/core';
import { decodeOwner, decodeSave, encodeOwner, RESTORE_LOCK_SECONDS, restoreLockKey, RESTORES, SAVED_ROOMS_KEY, saveKey, SPARE, type RoomSave, type SaveOwner } from './save.ts';
import type { SpareRuntime } from './spare-runtime.ts';

/** Ms between a process's looks for rooms whose process died, by default. */
export const DEFAULT_CHECK_MS = 100;

export interface FailoverOptions {
  /** Ms between looks (default DEFAULT_CHECK_MS). A dead process is found within two looks. */
  readonly checkMs?: number;
  /**
   * Keep a runtime made ahead for each steadyframe room class this process defines (spare-runtime.ts), so a room
   * restored here (or created here) starts without waiting for a worker thread: the most of a restore's time.
   * Default true; an idle worker thread each.
   */
  readonly spares?: boolean;
}

export interface FailoverStats {
  looks: number;
  /** Processes found dead that owned saved rooms. */
  deadProcesses: number;
  /** Rooms restored on this process, and restores that failed (the room is lost: its entry goes). */
  restored: number;
  failed: number;
  /** Ms the newest restore took on this process: from its owner found dead to the room listed again. */
  lastRestoreMs: number;
  lastError: string | null;
}

export interface Failover {
  readonly stats: FailoverStats;
  /** Stops looking (a restore under way finishes). */
  stop(): void;
}

/**
 * Starts this process's watch for rooms whose process died (`await server.listen(port)` first: it watches through
 * Colyseus's presence and driver, Redis with several processes). Call it in every process that defines the rooms.
 */
export function createFailover(options: FailoverOptions = {}): Failover {
  const checkMs = options.checkMs ?? DEFAULT_CHECK_MS;
  if (!(checkMs > 0) || !Number.isFinite(checkMs)) throw new RangeError(`steadyframe: createFailover's checkMs must be a number of ms above 0; got ${String(options.checkMs)}`);
  if (matchMaker.state !== matchMaker.MatchMakerState.READY) throw new Error('steadyframe: createFailover() after `await server.listen(...)`: it watches through the Colyseus server\'s presence and driver');
  const stats: FailoverStats = { looks: 0, deadProcesses: 0, restored: 0, failed: 0, lastRestoreMs: Number.NaN, lastError: null };
  /** Owners found missing at the last look: missing again, they are dead. */
  let missing = new Set<string>();
  const swept = new Set<string>();
  const restoring = new Set<string>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const fail = (error: unknown): void => {
    stats.lastError = error instanceof Error ? error.message : String(error);
    debugAndPrintError(error instanceof Error ? error : String(error));
  };

  /** What Colyseus's health check does with a process that does not answer, without the wait. */
  const sweep = async (dead: string): Promise<void> => {
    if (swept.has(dead)) return;
    swept.add(dead);
    stats.deadProcesses++;
    // no new room goes there; a reconnect to one of its rooms no longer waits for an answer that cannot come
    await matchMaker.stats.excludeProcess(dead);
    await matchMaker.driver.cleanup?.(dead);
  };

  const restore = async (roomId: string, owner: SaveOwner): Promise<void> => {
    const began = performance.now();
    const presence = matchMaker.presence;
    await sweep(owner.process);
    // one process restores it: the first to count 1 on the dead owner's field
    if ((await presence.hincrbyex(restoreLockKey(roomId), owner.process, 1, RESTORE_LOCK_SECONDS)) !== 1) return;
    try {
      const text = (await presence.get(saveKey(roomId))) as string | null;
      // expired: no process was there to restore it within its time
      if (typeof text !== 'string') return void (await presence.hdel(SAVED_ROOMS_KEY, roomId));
      const save = decodeSave(text);
      const restores = restoresOf(save.name)!;
      // ours now: its saves are this process's, and a watcher that finds this process dead restores it again
      await presence.hset(SAVED_ROOMS_KEY, roomId, encodeOwner({ process: matchMaker.processId, name: save.name }));
      restores.set(roomId, save);
      try {
        await matchMaker.handleCreateRoom(save.name, save.createOptions, undefined, roomId);
      } finally {
        restores.delete(roomId);
      }
      stats.restored++;
      stats.lastRestoreMs = performance.now() - began;
    } catch (error) {
      // lost: its entry goes (its clients' reconnects fail, and they join anew)
      stats.failed++;
      fail(error);
      await presence.hdel(SAVED_ROOMS_KEY, roomId);
    }
  };

  const look = async (): Promise<void> => {
    const presence = matchMaker.presence;
    const self = matchMaker.processId;
    const [entries, channels] = await Promise.all([presence.hgetall(SAVED_ROOMS_KEY), presence.channels('p:*')]);
    stats.looks++;
    const live = new Set(channels.map((channel) => channel.slice(2)));
    const missingNow = new Set<string>();
    for (const [roomId, text] of Object.entries(entries ?? {})) {
      const owner = decodeOwner(text);
      if (owner === null || owner.process === self || live.has(owner.process) || restoring.has(roomId)) continue;
      missingNow.add(owner.process);
      // a room of a name this process does not define: a process that does restores it
      if (!missing.has(owner.process) || restoresOf(owner.name) === undefined) continue;
      restoring.add(roomId);
      void restore(roomId, owner)
        .catch(fail)
        .finally(() => restoring.delete(roomId));
    }
    missing = missingNow;
  };

  const loop = (): void => {
    look()
      .catch(fail)
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(loop, checkMs);
        timer.unref();
      });
  };
  const spares = options.spares === false ? [] : spareRuntimes();
  for (const spare of spares) spare.warm();
  loop();
  return {
    stats,
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const spare of spares) void spare.stop();
    },
  };
}

/** The spare runtimes of the steadyframe room classes this process defines. */
function spareRuntimes(): Array<SpareRuntime<never, never>> {
  const found = new Set<SpareRuntime<never, never>>();
  for (const handler of Object.values(matchMaker.getAllHandlers())) {
    const spare = (handler.klass as unknown as { [SPARE]?: SpareRuntime<never, never> })[SPARE];
    if (spare !== undefined) found.add(spare);
  }
  return [...found];
}

/** The saves a room class of this name takes, if `steadyframeRoom` made it (and this process defines it). */
function restoresOf(name: string): Map<string, RoomSave> | undefined {
  let klass: unknown;
  try {
    klass = matchMaker.getRoomClass(name);
  } catch {
    return undefined;
  }
  return (klass as { [RESTORES]?: Map<string, RoomSave> } | undefined)?.[RESTORES];
}
