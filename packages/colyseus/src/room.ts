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
 *  onDispose ───────────────────── the timer stopped; runtime.dispose() (its worker ends)
 * ```
 *
 * A connection the host ends (nothing but refusals: 1008; a fault of ours: 1011) gets no reconnection window:
 * its seat is freed as for a leave. The room keeps no Colyseus state (`patchRate` null): the world is the
 * snapshots.
 */
import { Room, type Client } from '@colyseus/core';
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
import { Seats } from './seats.ts';

/** The seconds a dropped client keeps its seat by default: Colyseus's own seat reservation time. */
export const DEFAULT_RECONNECT_SECONDS = 15;

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
  /** A player took a seat (before its first snapshot): spawn its avatar. Not called for a reconnect. */
  readonly join?: (room: SteadyframeRoomContext<S, C>, player: number, options: RoomOptions) => void | Promise<void>;
  /** A player's seat was freed (it left, or its window passed): remove its avatar. Not called for a drop. */
  readonly leave?: (room: SteadyframeRoomContext<S, C>, player: number) => void | Promise<void>;
}

/** The room class `steadyframeRoom` makes: a Colyseus `Room` with the context above (`server.define(name, it)`). */
export type SteadyframeRoomClass<S extends Schema, C extends object> = new () => Room & SteadyframeRoomContext<S, C>;

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

  return class SteadyframeRoom extends Room implements SteadyframeRoomContext<S, C> {
    runtime!: Runtime<S, C>;
    publisher!: SnapshotPublisher;
    host!: SnapshotHost;
    readonly seats = new Seats();
    /** Each joined client's connection, by session (a reconnect replaces it). */
    readonly connections = new Map<string, HostedConnection>();
    publishTimer: ReturnType<typeof setInterval> | undefined;
    createMs = Number.NaN;

    override async onCreate(createOptions: RoomOptions = {}): Promise<void> {
      const began = performance.now();
      // no Colyseus state to patch: the world travels as the snapshots
      this.patchRate = null;
      if (options.maxClients !== undefined) this.maxClients = options.maxClients;
      const runtimeOptions = typeof options.runtime === 'function' ? options.runtime(createOptions) : options.runtime;
      const runtime = await createNodeRuntime<S, C>(runtimeOptions);
      try {
        await runtime.start();
      } catch (error) {
        await runtime.dispose();
        throw error;
      }
      this.runtime = runtime;
      this.publisher = createSnapshotPublisher(runtime, options.publisher);
      this.host = createSnapshotHost(this.publisher, options.host);
      this.onMessageBytes(ROOM_MESSAGE, (client: Client, bytes: Uint8Array) => this.connections.get(client.sessionId)?.receive(bytes));
      const every = options.publishMs ?? 1000 / runtime.info.tickRate / 2;
      this.publishTimer = setInterval(() => this.publisher.publish(), every);
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
      this.attach(client, player);
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
      this.attach(client, player);
    }

    override async onLeave(client: Client): Promise<void> {
      this.detach(client);
      const player = this.seats.free(client.sessionId);
      if (player !== undefined) await options.leave?.(this, player);
    }

    override async onDispose(): Promise<void> {
      clearInterval(this.publishTimer);
      for (const connection of this.connections.values()) connection.gone();
      this.connections.clear();
      await this.runtime?.dispose();
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
