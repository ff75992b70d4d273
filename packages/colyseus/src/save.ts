/**
 * A room's save (ARCHITECTURE.md, "Rooms on Colyseus": a room outlives its process): what another process needs
 * to bring the room back, and the presence keys it lives under. The contract the saving room (room-saver.ts) and
 * the restoring process (failover.ts) share; it imports no implementation.
 *
 * ```text
 *  key (Colyseus's presence: Redis)      written by, when                             read by
 *  steadyframe:save:<roomId>   string    the room's process: at its start, every      the process that restores
 *    (the newest save, encodeSave)       saveSeconds of ticks and at each seat        it, once
 *                                        change; deleted when the room is disposed;
 *                                        expires saveTtlSeconds after its last write
 *  steadyframe:rooms           hash      the room's process at its first save (its    every process's failover
 *    roomId → {"process","name"}         owner); the restoring process when it        watcher, every checkMs
 *                                        claims it; the field removed at dispose
 *  steadyframe:restoring:<roomId> hash   each watcher that finds the owner dead       (the lock itself: the one
 *    dead owner → count                  counts 1 on the owner's field; expires       that counted 1 restores)
 *                                        RESTORE_LOCK_SECONDS later
 * ```
 *
 * A save is JSON (the snapshot in base64): the presence interface stores strings, so any presence (Redis, or the
 * local one of a single process) keeps it.
 */

/** The version of the save's JSON: a process refuses a save of another. */
export const SAVE_VERSION = 1;

/** The hash of saved rooms: roomId → their owner (`SaveOwner` as JSON). */
export const SAVED_ROOMS_KEY = 'steadyframe:rooms';

/** The key of a room's newest save. */
export const saveKey = (roomId: string): string => `steadyframe:save:${roomId}`;

/** The key of the lock on a room's restore (a field per dead owner). */
export const restoreLockKey = (roomId: string): string => `steadyframe:restoring:${roomId}`;

/** How long a restore's lock is held: past it, another process may restore the room from the same owner. */
export const RESTORE_LOCK_SECONDS = 30;

/** A saved room's entry in SAVED_ROOMS_KEY: the process whose room it is, and the room's name (its class). */
export interface SaveOwner {
  readonly process: string;
  readonly name: string;
}

/** A seat in the save: the session, the token its client reconnects with, and its player number. */
export interface SavedSeat {
  readonly sessionId: string;
  readonly token: string;
  readonly player: number;
}

/** What a room's save holds. */
export interface RoomSave {
  readonly roomId: string;
  /** The room's name (`server.define(name, ...)`): the class another process makes it of. */
  readonly name: string;
  /** The process that saved it. */
  readonly process: string;
  /** The options the room was created with (its `onCreate`'s): its runtime's options are made of them again. */
  readonly createOptions: Record<string, unknown>;
  /** The newest tick the room had sent when the snapshot was asked for (the snapshot is of it, or a tick or two on). */
  readonly tick: number;
  /** When it was saved: ms since the epoch (the saving process's clock). */
  readonly savedAt: number;
  readonly seats: readonly SavedSeat[];
  /** `runtime.snapshot()`: the world, the generator, the simulated time, and the game's own `save()`. */
  readonly snapshot: Uint8Array;
}

export function encodeSave(save: RoomSave): string {
  const { snapshot, ...rest } = save;
  return JSON.stringify({ version: SAVE_VERSION, ...rest, snapshot: Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength).toString('base64') });
}

/** A save read back; throws, saying what is wrong, on anything but a save of this version. */
export function decodeSave(text: string): RoomSave {
  const json = JSON.parse(text) as Partial<Record<keyof RoomSave | 'version', unknown>>;
  if (json.version !== SAVE_VERSION) throw new Error(`steadyframe: a room save of version ${String(json.version)}; this @steadyframe/colyseus reads version ${SAVE_VERSION}`);
  if (typeof json.roomId !== 'string' || typeof json.name !== 'string' || typeof json.process !== 'string' || typeof json.snapshot !== 'string' || !Array.isArray(json.seats)) {
    throw new Error('steadyframe: a room save without its room, name, process, seats or snapshot');
  }
  return {
    roomId: json.roomId,
    name: json.name,
    process: json.process,
    createOptions: (json.createOptions ?? {}) as Record<string, unknown>,
    tick: Number(json.tick),
    savedAt: Number(json.savedAt),
    seats: json.seats as SavedSeat[],
    snapshot: new Uint8Array(Buffer.from(json.snapshot, 'base64')),
  };
}

export const encodeOwner = (owner: SaveOwner): string => JSON.stringify(owner);

/** An owner entry read back, or null if it is not one. */
export function decodeOwner(text: string | null | undefined): SaveOwner | null {
  if (typeof text !== 'string') return null;
  try {
    const owner = JSON.parse(text) as Partial<SaveOwner>;
    return typeof owner.process === 'string' && typeof owner.name === 'string' ? { process: owner.process, name: owner.name } : null;
  } catch {
    return null;
  }
}

/**
 * Where a room class made by `steadyframeRoom` keeps the saves it is to restore, by room id: the failover watcher
 * puts one there, has Colyseus create the room under that id (`matchMaker.handleCreateRoom`), and the room's
 * `onCreate` takes it. Process-local, so no client's join options can ask for a restore.
 */
export const RESTORES = Symbol('steadyframe.colyseus.restores');

/** Where a room class made by `steadyframeRoom` keeps its runtime made ahead (spare-runtime.ts): `createFailover` warms it. */
export const SPARE = Symbol('steadyframe.colyseus.spare');
