/**
 * A Colyseus room that is a steadyframe server (ARCHITECTURE.md, "Rooms on Colyseus"): the game's simulation
 * module runs in the room's own runtime (`createNodeRuntime`, a worker thread of the room's process), its
 * snapshots go to the room's clients as Colyseus bytes messages, and their pings, inputs and acks come back the
 * same way, through the same publisher and host a `ws` server uses (`createSnapshotPublisher`,
 * `createSnapshotHost`). Colyseus does what it is for: matchmaking, seat reservation, the room's lifecycle, and
 * across processes its presence and driver.
 *
 * ```text
 *  Colyseus                         this room                           steadyframe
 *  onCreate(options) ───────────── runtime(options) ── createNodeRuntime ── start; publisher; host; publish timer
 *  onJoin(client) ──────────────── a seat (seats.ts: the lowest free player) ── join hook ── host.connect(link)
 *  bytes message ROOM_MESSAGE ──── the client's connection.receive ──▶ pings, inputs (the seat's player), acks
 *  publish timer ───────────────── publisher.publish() ──▶ link.send ── client.sendBytes(ROOM_MESSAGE, bytes)
 *  onDrop(client) ──────────────── connection gone; the seat kept; allowReconnection(reconnectSeconds)
 *  onReconnect(client) ─────────── the same seat, a new connection (a full snapshot first: nothing acknowledged)
 *  onLeave(client) ─────────────── connection gone; the seat freed ── leave hook
 *  publish timer ───────────────── a save due? (room-saver.ts: every saveSeconds of ticks, and at seat changes)
 *  onDispose ───────────────────── the timer stopped; the save deleted; runtime.dispose() (its worker ends)
 * ```
 *
 * A room another process saved and died with (failover.ts) is created here under its id with the save waiting
 * in the class's RESTORES: `onCreate` restores the runtime from it (`runtime.restore`) before it starts, and holds
 * each saved seat for its client's reconnect (restored-seats.ts); the `join` hook is not called for them.
 *
 * A connection the host ends (nothing but refusals: 1008; a fault of ours: 1011) gets no reconnection window:
 * its seat is freed as for a leave. The room keeps no Colyseus state (`patchRate` null): the world is the
 * snapshots.
 */
import { CloseCode, matchMaker, Room, type Client } from '@colyseus/core';
import type { Schema } from 'steadyframe';
import {
  createNodeRuntime,
  createSnapshotHost,
  createSnapshotPublisher,
  type HostedConnection,
  type NodeRuntimeOptions,
  type PublisherOptions,
  type Runtime,
  type SnapshotHost,
  type SnapshotHostOptions,
  type SnapshotPublisher,
} from 'steadyframe/node';
import { ROOM_MESSAGE } from './protocol.ts';
import { holdSavedSeats } from './restored-seats.ts';
import { RoomSaver, type RoomSaveStats } from './room-saver.ts';
import { RESTORES, SPARE, type RoomSave, type SavedSeat } from './save.ts';
import { SpareRuntime } from './spare-runtime.ts';
import { Seats } from './seats.ts';

/** The seconds a dropped client keeps its seat by default: Colyseus's own seat reservation time. */
export const DEFAULT_RECONNECT_SECONDS = 15;

/** Seconds of the simulation's ticks between a room's saves by default: what a failover loses at most. */
export const DEFAULT_SAVE_SECONDS = 1;

/** What a restored room was made of (`room.restored`). */
export interface RestoredFrom {
  /** The process that saved it, and the save's tick (the newest it had sent) and time (ms since the epoch). */
  readonly process: string;
  readonly tick: number;
  readonly savedAt: number;
  /** Seats held for their clients' reconnects. */
  readonly seats: number;
}

/** What the hooks (and a subclass) see of a steadyframe room. */
export interface SteadyframeRoomContext<S extends Schema, C extends object> {
  /** The room's runtime: the game's simulation, running from `onCreate` to `onDispose`. */
  readonly runtime: Runtime<S, C>;
  readonly publisher: SnapshotPublisher;
  /** The room's connections: refusals, closes by why, snapshots skipped to slow readers (`host.stats`). */
  readonly host: SnapshotHost;
  /** The seats held (players joined, or dropped and within their reconnection window). */
  readonly seats: Seats;
  readonly roomId: string;
  /** Ms `onCreate` took: the runtime's worker started and its first ticks run (Colyseus waits 2 s for a room another process creates). */
  readonly createMs: number;
  /** The room's saves (room-saver.ts), or null if it saves none (`saveSeconds` 0). */
  readonly saves: RoomSaveStats | null;
  /** The save it was restored from (another process died), or null for a room created anew. */
  readonly restored: RestoredFrom | null;
}

/** The options of the matchmaking request that created the room, or of a client's join. */
export type RoomOptions = Record<string, unknown>;

export interface SteadyframeRoomOptions<S extends Schema, C extends object> {
  /**
   * The room's runtime: the game's worker module, schema, capacity, input ring (with a payload value for the
   * player first: the publisher puts it there)... as `createNodeRuntime` takes them; or a function of the
   * creating request's options (a map, a mode: its `setup`). The clock is the real one: a room runs in time.
   */
  readonly runtime: NodeRuntimeOptions<S> | ((options: RoomOptions) => NodeRuntimeOptions<S>);
  /** The publisher's options: `every` (ticks between snapshots), `input` (the codes clients may send), `events`, `interest`. */
  readonly publisher?: PublisherOptions;
  /** The host's: `maxBufferedBytes` (a slow reader's snapshots skipped), `maxRefusingMs`. */
  readonly host?: SnapshotHostOptions;
  /** Seats in the room (Colyseus's `maxClients`; the room locks when they are taken). Default: no limit. */
  readonly maxClients?: number;
  /** Seconds a dropped client keeps its seat for its reconnect (`allowReconnection`); 0: none. Default DEFAULT_RECONNECT_SECONDS. */
  readonly reconnectSeconds?: number;
  /** Ms between the publisher's looks for a new state. Default: half a tick of the simulation's rate. */
  readonly publishMs?: number;
  /**
   * Seconds of the simulation's ticks between the room's saves to Colyseus's presence (Redis), from which another
   * process restores the room if this one dies (`createFailover`); also saved at each seat change. A failover
   * loses at most these ticks (while saves land in about the time the last took). 0: no saves. Default
   * DEFAULT_SAVE_SECONDS. A restored room holds each saved seat for `reconnectSeconds` (DEFAULT_RECONNECT_SECONDS if
   * that is 0).
   */
  readonly saveSeconds?: number;
  /** A player took a seat (before its first snapshot): spawn its avatar. Not called for a reconnect. */
  readonly join?: (room: SteadyframeRoomContext<S, C>, player: number, options: RoomOptions) => void | Promise<void>;
  /** A player's seat was freed (it left, or its window passed): remove its avatar. Not called for a drop. */
  readonly leave?: (room: SteadyframeRoomContext<S, C>, player: number) => void | Promise<void>;
}

/** The room class `steadyframeRoom` makes: a Colyseus `Room` with the context above (`server.define(name, it)`). */
export type SteadyframeRoomClass<S extends Schema, C extends object> = (new () => Room & SteadyframeRoomContext<S, C>) & {
  readonly [RESTORES]: Map<string, RoomSave>;
  readonly [SPARE]: SpareRuntime<S, C>;
};

/**
 * A Colyseus room class that runs the game described by `options` in each room: `gameServer.define('game',
 * steadyframeRoom({ runtime: { worker, schema, capacity, input: { payloadWidth: 3 } }, publisher: { every: 3,
 * input: { codes: 4 } }, maxClients: 16 }))`. Checks its options now, not at the first room.
 */
export function steadyframeRoom<S extends Schema, C extends object = Record<never, never>>(options: SteadyframeRoomOptions<S, C>): SteadyframeRoomClass<S, C> {
  const reconnectSeconds = options.reconnectSeconds ?? DEFAULT_RECONNECT_SECONDS;
  if (!(reconnectSeconds >= 0) || !Number.isFinite(reconnectSeconds)) {
    throw new RangeError(`steadyframe: steadyframeRoom's reconnectSeconds must be a number of seconds from 0; got ${String(options.reconnectSeconds)}`);
  }
  if (options.maxClients !== undefined && (!Number.isInteger(options.maxClients) || options.maxClients < 1)) {
    throw new RangeError(`steadyframe: steadyframeRoom's maxClients must be a whole number from 1; got ${String(options.maxClients)}`);
  }
  if (options.publishMs !== undefined && !(options.publishMs > 0)) {
    throw new RangeError(`steadyframe: steadyframeRoom's publishMs must be a number of ms above 0; got ${String(options.publishMs)}`);
  }
  const saveSeconds = options.saveSeconds ?? DEFAULT_SAVE_SECONDS;
  if (!(saveSeconds >= 0) || !Number.isFinite(saveSeconds)) {
    throw new RangeError(`steadyframe: steadyframeRoom's saveSeconds must be a number of seconds from 0; got ${String(options.saveSeconds)}`);
  }
  // a restored room's clients all come back at once, after a death they did not see coming: their seats wait for
  // them even where a dropped client's do not
  const restoredSeconds = reconnectSeconds > 0 ? reconnectSeconds : DEFAULT_RECONNECT_SECONDS;

  return class SteadyframeRoom extends Room implements SteadyframeRoomContext<S, C> {
    /** Saves to restore, by room id (failover.ts puts one here before it has Colyseus create the room). */
    static readonly [RESTORES] = new Map<string, RoomSave>();
    /** A runtime made ahead for the next room of this class here (spare-runtime.ts; `createFailover` warms it). */
    static readonly [SPARE] = new SpareRuntime<S, C>(typeof options.runtime === 'function' ? null : options.runtime);
    runtime!: Runtime<S, C>;
    publisher!: SnapshotPublisher;
    host!: SnapshotHost;
    readonly seats = new Seats();
    /** Each seat's reconnection token, by session: what a save keeps so a client comes back to a restored room. */
    readonly tokens = new Map<string, string>();
    /** Each joined client's connection, by session (a reconnect replaces it). */
    readonly connections = new Map<string, HostedConnection>();
    publishTimer: ReturnType<typeof setInterval> | undefined;
    saver: RoomSaver | null = null;
    createMs = Number.NaN;
    restored: RestoredFrom | null = null;

    get saves(): RoomSaveStats | null {
      return this.saver?.stats ?? null;
    }

    override async onCreate(createOptions: RoomOptions = {}): Promise<void> {
      const began = performance.now();
      // no Colyseus state to patch: the world travels as the snapshots
      this.patchRate = null;
      if (options.maxClients !== undefined) this.maxClients = options.maxClients;
      const save = SteadyframeRoom[RESTORES].get(this.roomId) ?? null;
      const made = save?.createOptions ?? createOptions;
      const runtimeOptions = typeof options.runtime === 'function' ? options.runtime(made) : options.runtime;
      // the runtime made ahead, if this process keeps one (a spare that failed: one made now)
      const make = () => createNodeRuntime<S, C>(runtimeOptions);
      const runtime = await (SteadyframeRoom[SPARE].take()?.catch(make) ?? make());
      try {
        // a restored room goes on from its save: the world, the generator, the simulated time, the game's own state
        if (save !== null) await runtime.restore(save.snapshot);
        await runtime.start();
      } catch (error) {
        await runtime.dispose();
        throw error;
      }
      this.runtime = runtime;
      this.publisher = createSnapshotPublisher(runtime, options.publisher);
      this.host = createSnapshotHost(this.publisher, options.host);
      this.onMessageBytes(ROOM_MESSAGE, (client: Client, bytes: Uint8Array) => this.connections.get(client.sessionId)?.receive(bytes));
      if (save !== null) {
        holdSavedSeats(this, save.seats, restoredSeconds, (player) => options.leave?.(this, player));
        this.restored = { process: save.process, tick: save.tick, savedAt: save.savedAt, seats: save.seats.length };
      }
      if (saveSeconds > 0) this.saver = this.makeSaver(made, Math.max(1, Math.round(saveSeconds * runtime.info.tickRate)));
      const every = options.publishMs ?? 1000 / runtime.info.tickRate / 2;
      this.publishTimer = setInterval(() => {
        this.publisher.publish();
        this.saver?.due(this.publisher.stats.lastTick);
      }, every);
      this.createMs = performance.now() - began;
    }

    override async onJoin(client: Client, joinOptions: RoomOptions = {}): Promise<void> {
      const player = this.seats.take(client.sessionId);
      try {
        await options.join?.(this, player, joinOptions);
      } catch (error) {
        this.seats.free(client.sessionId);
        throw error;
      }
      this.tokens.set(client.sessionId, client.reconnectionToken);
      this.attach(client, player);
      this.saver?.changed();
    }

    override onDrop(client: Client): void {
      const endedByHost = this.detach(client);
      // a connection the host ended gets no window: Colyseus calls onLeave next, which frees its seat
      if (endedByHost || reconnectSeconds === 0) return;
      // its seat is kept: onReconnect within the window, else Colyseus calls onLeave when it passes
      void this.allowReconnection(client, reconnectSeconds);
    }

    override onReconnect(client: Client): void {
      const player = this.seats.of(client.sessionId);
      if (player === undefined) throw new Error(`steadyframe: session ${client.sessionId} came back without a seat`);
      // each connection has its token: the next reconnect (to this process or a restored room) uses the new one
      this.tokens.set(client.sessionId, client.reconnectionToken);
      this.attach(client, player);
      this.saver?.changed();
    }

    override async onLeave(client: Client): Promise<void> {
      this.detach(client);
      this.tokens.delete(client.sessionId);
      const player = this.seats.free(client.sessionId);
      this.saver?.changed();
      if (player !== undefined) await options.leave?.(this, player);
    }

    override async onDispose(): Promise<void> {
      clearInterval(this.publishTimer);
      for (const connection of this.connections.values()) connection.gone();
      this.connections.clear();
      // disposed as a room ends (the last client gone, a shutdown): its save goes with it
      await this.saver?.close();
      await this.runtime?.dispose();
    }

    makeSaver(createOptions: RoomOptions, everyTicks: number): RoomSaver {
      return new RoomSaver({
        presence: this.presence,
        roomId: this.roomId,
        name: this.roomName,
        process: matchMaker.processId,
        createOptions,
        everyTicks,
        tickMs: 1000 / this.runtime.info.tickRate,
        sendEvery: options.publisher?.every ?? 1,
        // a save no process restored within the seats' window (at least 5 s) is of no use to anyone
        ttlSeconds: Math.ceil(Math.max(restoredSeconds, 5) + saveSeconds),
        take: () => {
          const snapshot = this.runtime.snapshot();
          const seats: SavedSeat[] = [];
          for (const [sessionId, player] of this.seats.entries()) {
            const token = this.tokens.get(sessionId);
            if (token !== undefined) seats.push({ sessionId, token, player });
          }
          return { snapshot, seats };
        },
        // another process restored this room while this one looked dead: the clients go there (they keep their tokens)
        superseded: () => void this.disconnect(CloseCode.MAY_TRY_RECONNECT),
      });
    }

    /** The client's connection to the host: its link is the client's bytes messages. */
    attach(client: Client, player: number): void {
      const ref = client.ref as { readonly bufferedAmount?: number };
      const connection = this.host.connect(
        {
          // the socket's queue (the ws transport's); before the client has joined, Colyseus queues it itself
          get bufferedAmount() {
            return ref.bufferedAmount ?? 0;
          },
          send: (bytes) => client.sendBytes(ROOM_MESSAGE, bytes),
          close: (code, reason) => client.leave(code, reason),
        },
        player,
      );
      this.connections.get(client.sessionId)?.gone();
      this.connections.set(client.sessionId, connection);
    }

    /** The client's connection gone; whether the host had ended it. */
    detach(client: Client): boolean {
      const connection = this.connections.get(client.sessionId);
      if (connection === undefined) return false;
      const ended = connection.ended;
      connection.gone();
      this.connections.delete(client.sessionId);
      return ended;
    }
  };
}
