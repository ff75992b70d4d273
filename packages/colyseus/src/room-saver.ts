/**
 * A room's saves (ARCHITECTURE.md, "Rooms on Colyseus": a room outlives its process): the room's simulation
 * (`runtime.snapshot()`, the game's own `save()` in it) with its seats, written to Colyseus's presence (Redis) so
 * that another process can bring the room back when this one dies (failover.ts). Only the newest save is kept, one
 * key per room, and it goes when the room is disposed.
 *
 * ```text
 *  the room's publish loop (every half tick) ── due(newest tick sent) ── a save due? (saveSeconds of ticks since the
 *     │                                                                   last, or the seats changed) and none under way
 *     │                                        ┌───────────────────────────┘ yes
 *     │ (goes on: the save is not awaited)     runtime.snapshot() ── the worker copies its world between two ticks
 *     │                                        the seats (session, token, player), as they are now
 *     │                                        HGET steadyframe:rooms <roomId>: still ours? (no: another process
 *     │                                             restored it while this one looked dead; superseded, no more saves)
 *     │                                        SETEX steadyframe:save:<roomId> (JSON, the snapshot in base64)
 *     │                                        HSET steadyframe:rooms <roomId> (the first time: its owner, its name)
 *  onDispose ── close() ── the save under way finished ── DEL the save, HDEL its entry (unless superseded)
 * ```
 *
 * The tick loop never waits on a save: the worker's only part is the snapshot's copy, made between two ticks
 * like any command; encoding and Redis are the room's event loop's. A save that fails is counted
 * (`stats.failed`, `stats.lastError`) and tried again at the next interval; the room goes on.
 */
import type { Presence } from '@colyseus/core';
import { decodeOwner, encodeOwner, encodeSave, SAVED_ROOMS_KEY, saveKey, type SavedSeat } from './save.ts';

/** What a room's saves have done. */
export interface RoomSaveStats {
  /** Saves written. */
  saves: number;
  /** Saves that failed (the snapshot, or the presence). */
  failed: number;
  /** The tick of the newest save written (the newest sent when it was asked for), or -1. */
  lastTick: number;
  /** Ms the newest save took, from the snapshot asked for to the presence's answer; and the most any took. */
  lastMs: number;
  maxMs: number;
  /** The newest save's size as stored (JSON, the snapshot in base64), bytes. */
  lastBytes: number;
  lastError: string | null;
  /** Another process restored this room (it looked dead): this one saves no more. */
  superseded: boolean;
}

export interface RoomSaverOptions {
  readonly presence: Presence;
  readonly roomId: string;
  readonly name: string;
  /** This process (`matchMaker.processId`). */
  readonly process: string;
  readonly createOptions: Record<string, unknown>;
  /** Ticks between saves (the room's saveSeconds at its tick rate): the most a failover loses. */
  readonly everyTicks: number;
  /** Ms a tick takes (1000 / the tick rate). */
  readonly tickMs: number;
  /** Ticks between the states the room sends (the publisher's `every`): how far apart the ticks `due` sees are. */
  readonly sendEvery: number;
  /** A save expires this long after its last write. */
  readonly ttlSeconds: number;
  /** The snapshot (asked for now) and the seats as they are now. */
  readonly take: () => { readonly snapshot: Promise<Uint8Array>; readonly seats: SavedSeat[] };
  /** Another process holds the room now: the room hands its clients over (they reconnect there). */
  readonly superseded: () => void;
}

export class RoomSaver {
  readonly stats: RoomSaveStats = { saves: 0, failed: 0, lastTick: -1, lastMs: Number.NaN, maxMs: 0, lastBytes: 0, lastError: null, superseded: false };
  readonly #options: RoomSaverOptions;
  #saving: Promise<void> | null = null;
  /** The seats changed since the last save (the first save is due at once). */
  #changed = true;
  #lastTick = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(options: RoomSaverOptions) {
    this.#options = options;
  }

  /** The seats changed (a join, a reconnect's new token, a leave): a save at the next look, not at the interval. */
  changed(): void {
    this.#changed = true;
  }

  /**
   * The room's loop, with the newest tick it sent: starts a save if one is due and none is under way. A save is
   * due `everyTicks` after the last, less the ticks the last took to land and the ticks between two states sent
   * (the ticks it is told of are those; at most half the interval in all), so that the newest save landed is never
   * more than `everyTicks` old while saves take about as long as the last:
   *
   * ```text
   *  ticks  0 ······························ every − lead ···· every
   *         save i asked ── landed (d)        save i+1 asked ── landed: save i was the newest for under `every`
   * ```
   */
  due(tick: number): void {
    if (this.#saving !== null || this.#closed || this.stats.superseded || !Number.isFinite(tick)) return;
    const { everyTicks, tickMs, sendEvery } = this.#options;
    const landing = Number.isNaN(this.stats.lastMs) ? 1 : Math.ceil(this.stats.lastMs / tickMs);
    const lead = Math.min(Math.floor(everyTicks / 2), landing + sendEvery);
    if (!this.#changed && tick - this.#lastTick < everyTicks - lead) return;
    this.#changed = false;
    this.#lastTick = tick;
    this.#saving = this.#save(tick).finally(() => (this.#saving = null));
  }

  async #save(tick: number): Promise<void> {
    const o = this.#options;
    const began = performance.now();
    try {
      const { snapshot, seats } = o.take();
      const bytes = await snapshot;
      const owner = decodeOwner(await o.presence.hget(SAVED_ROOMS_KEY, o.roomId));
      if (owner !== null && owner.process !== o.process) {
        this.stats.superseded = true;
        o.superseded();
        return;
      }
      const text = encodeSave({ roomId: o.roomId, name: o.name, process: o.process, createOptions: o.createOptions, tick, savedAt: Date.now(), seats, snapshot: bytes });
      // the save before its entry: a watcher that finds the entry finds a save
      await o.presence.setex(saveKey(o.roomId), text, o.ttlSeconds);
      if (owner === null) await o.presence.hset(SAVED_ROOMS_KEY, o.roomId, encodeOwner({ process: o.process, name: o.name }));
      const ms = performance.now() - began;
      Object.assign(this.stats, { saves: this.stats.saves + 1, lastTick: tick, lastMs: ms, maxMs: Math.max(this.stats.maxMs, ms), lastBytes: text.length });
    } catch (error) {
      // tried again at the next interval (the seats' change, if that was why, goes with it)
      this.stats.failed++;
      this.stats.lastError = error instanceof Error ? error.message : String(error);
    }
  }

  /** The room is disposed: no more saves, and its save and entry go (unless another process holds the room now). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#saving;
    if (this.stats.superseded) return;
    const o = this.#options;
    // another process's room now (restored while this one looked dead): its save is its own
    const owner = decodeOwner(await o.presence.hget(SAVED_ROOMS_KEY, o.roomId));
    if (owner !== null && owner.process !== o.process) return;
    await o.presence.del(saveKey(o.roomId));
    await o.presence.hdel(SAVED_ROOMS_KEY, o.roomId);
  }
}
