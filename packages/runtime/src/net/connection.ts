/**
 * The client's connection to a snapshot server (ARCHITECTURE.md, "Multiplayer"), in the network worker: the
 * socket and its reconnects, the pings that keep the server clock, and the snapshots going into the jitter
 * buffer and the playout's samples. It decides nothing about drawing: `renderTime(clientNow)` says which server
 * time a state is wanted for, and the buffer holds what arrived.
 *
 * ```text
 *  open ── ping ×5, 100 ms apart, then 1 a second ──▶ server
 *       ◀── pong ── ServerClock.addSample (a jump goes into the playout: Playout.clockJumped)
 *       ◀── snapshot ── SnapshotBuffer.insert (by tick) ── Playout.addSnapshot (its lateness: arrival − time)
 *                     └ its events ── ServerEvents.receive (each number once) ──▶ ack: the next number wanted
 *  close ── disconnected; reconnect after 250 ms, 500 ms, ... 5 s (each ±20%); the buffer and the render time
 *           stay (the last state is held), and go only if the server came back started over (lower ticks)
 * ```
 *
 * Every time is the caller's clock (the shared clock, ms) until the ServerClock maps it; timers are the realm's
 * `setTimeout`. Nothing a server sends can throw here: refused messages are counted by reason (the buffer's
 * `refused`, the pongs' `refusedPongs`) with the last one in words.
 */
import type { Clock } from '../core/clock.ts';
import { checkNumber } from '../core/describe-value.ts';
import { pingDelay } from './ping-schedule.ts';
import { Playout, type PlayoutOptions } from './playout.ts';
import { ServerClock, type ServerClockOptions } from './server-clock.ts';
import { ServerEvents } from './server-events.ts';
import { SnapshotBuffer } from './snapshot-buffer.ts';
import { decodePong, snapshotClientPart, encodeAck, encodeInputs, encodePing, messageType, MESSAGE, snapshotSend, snapshotTick, WireError, type ClientPart, type InputEvent, type WireFormat } from './wire.ts';

/** A handler both a DOM WebSocket and the `ws` package's accept, whatever their event types (bivariant). */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/**
 * What the connection needs of a socket: a browser's `WebSocket` and the `ws` package's both fit. Messages
 * must arrive as whole binary frames: `binaryType` is set to 'arraybuffer'.
 */
export interface SocketLike {
  binaryType: string;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ readonly data: unknown }> | null;
  onclose: Handler<{ readonly code: number; readonly reason: string }> | null;
  onerror: Handler<unknown> | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

/** Makes a socket to `url`. The default is the realm's `WebSocket` (browsers, their workers, Node 22). */
export type SocketFactory = (url: string) => SocketLike;

export interface ReconnectOptions {
  /** The first wait after a connection is lost, ms (default 250); each failed attempt doubles it. */
  readonly firstMs?: number;
  /** The longest wait, ms (default 5000). */
  readonly maxMs?: number;
}

export interface ConnectionOptions {
  readonly url: string;
  readonly socket?: SocketFactory | undefined;
  readonly format: WireFormat;
  readonly clock: Clock;
  /** Snapshots the jitter buffer keeps (default 32). */
  readonly kept?: number | undefined;
  /** The playout's options; `sendInterval` defaults to what the server's snapshots say (else 50 ms). */
  readonly playout?: Partial<PlayoutOptions> | undefined;
  readonly serverClock?: ServerClockOptions | undefined;
  /** false: never reconnect. */
  readonly reconnect?: ReconnectOptions | false | undefined;
}

/** The connection's counters (`network()` adds the playout's and the clock's). */
export interface ConnectionCounters {
  connects: number;
  disconnects: number;
  /**
   * Snapshots the server sent on this connection that never came (gaps in its send numbers), less the late ones
   * that filled in; what was sent while disconnected is not counted.
   */
  lost: number;
  bytesIn: number;
  bytesOut: number;
  /** Pongs that failed their checks. */
  refusedPongs: number;
  /** The last message refused, in words, or null. */
  lastRefusal: string | null;
  /** Times the server came back started over (its ticks went back): the buffer and the playout began again. */
  restarts: number;
  /**
   * The newest of the client's input numbers that the newest snapshot received reflects (the server's ticks
   * consumed it), −1 for none on this connection: each kept snapshot says its own (`KeptSnapshot.reflected`).
   */
  inputsReflected: number;
  /** The player the server numbers this client's inputs as, as its newest snapshot said (−1: not said). */
  player: number;
}

/** A snapshot's client part when it has none. */
const NO_PART: ClientPart = { player: -1, reflected: -1, events: null };

const DEFAULT_SEND_INTERVAL_MS = 50;
/** Snapshots timed against a synced clock before the first state is drawn. */
const FIRST_SAMPLES = 4;
const JITTER = 0.2;

export class Connection {
  readonly buffer: SnapshotBuffer;
  readonly serverClock: ServerClock;
  /** The server's events that arrived, waiting for the playout to reach them. */
  readonly events = new ServerEvents();
  /** Made at the first snapshot, when the server has said its send interval. */
  playout: Playout | null = null;
  readonly counters: ConnectionCounters = { connects: 0, disconnects: 0, lost: 0, bytesIn: 0, bytesOut: 0, refusedPongs: 0, lastRefusal: null, restarts: 0, inputsReflected: -1, player: -1 };
  /** The socket is open. */
  connected = false;
  readonly #options: ConnectionOptions;
  readonly #firstMs: number;
  readonly #maxMs: number;
  #socket: SocketLike | null = null;
  #closed = false;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pings = 0;
  #sequence = 0;
  #jumps = 0;
  /** The first snapshot since the socket opened is yet to come (a server that restarted shows there). */
  #fresh = true;
  /** The first and the newest send numbers seen since the socket opened (−1: none yet). */
  #firstSend = -1;
  #lastSend = -1;
  /** Snapshots timed against a synced clock since the playout (re)started: the first render time waits for FIRST_SAMPLES. */
  #timed = 0;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    const reconnect = options.reconnect ?? {};
    this.#firstMs = reconnect === false ? 0 : checkNumber('networkClient reconnect.firstMs', reconnect.firstMs ?? 250, 1);
    this.#maxMs = reconnect === false ? 0 : checkNumber('networkClient reconnect.maxMs', reconnect.maxMs ?? 5000, this.#firstMs);
    this.buffer = new SnapshotBuffer(options.format, options.kept);
    this.serverClock = new ServerClock(options.serverClock);
    if (options.playout?.sendInterval !== undefined) this.playout = new Playout(options.playout as PlayoutOptions);
  }

  /** Opens the socket (and, after a loss, opens it again). */
  open(): void {
    if (this.#closed || this.#socket !== null) return;
    const make = this.#options.socket ?? defaultSocket;
    let socket: SocketLike;
    try {
      socket = make(this.#options.url);
    } catch (error) {
      // a URL the realm refuses: said once, no retries (nothing would change)
      this.counters.lastRefusal = `could not open ${this.#options.url}: ${error instanceof Error ? error.message : String(error)}`;
      this.#closed = true;
      return;
    }
    this.#socket = socket;
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      this.connected = true;
      this.counters.connects++;
      this.#attempt = 0;
      this.#pings = 0;
      this.#fresh = true;
      // what the server sent while this client was away is not the link's loss
      this.#firstSend = -1;
      this.#lastSend = -1;
      // nothing of this connection's is reflected yet
      this.counters.inputsReflected = -1;
      // the server numbers each connection's events from 0, and sends a new connection a full snapshot first
      this.events.connected();
      this.buffer.decoder.clear();
      this.#ping();
    };
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onerror = () => {}; // a close follows: that is where it is handled
    socket.onclose = () => this.#lost(socket);
  }

  /** Closes for good: no reconnects. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    const socket = this.#socket;
    this.#socket = null;
    this.connected = false;
    socket?.close(1000, 'closed by the client');
  }

  /**
   * Sends input events (times in server ms), numbered in a row from `first`; false when not connected (they are
   * dropped: the server would refuse them late anyway).
   */
  sendInputs(events: readonly InputEvent[], width: number, first = 0): boolean {
    if (!this.connected || events.length === 0) return false;
    return this.#send(encodeInputs(this.#options.format, events, width, first));
  }

  /**
   * The server time to draw at, for client time `clientNow`: NaN until the clock has synced and FIRST_SAMPLES
   * snapshots have come since (the playout's first delay is then sized from them, not from none, which it would
   * take seconds at a few percent to grow out of).
   */
  renderTime(clientNow: number): number {
    if (!this.serverClock.synced || this.playout === null || this.#timed < FIRST_SAMPLES) return Number.NaN;
    return this.playout.renderTime(this.serverClock.serverTime(clientNow));
  }

  #lost(socket: SocketLike): void {
    if (this.#socket !== socket) return;
    this.#socket = null;
    clearTimeout(this.#timer);
    if (this.connected) this.counters.disconnects++;
    this.connected = false;
    if (this.#closed || this.#firstMs === 0) return;
    const wait = Math.min(this.#maxMs, this.#firstMs * 2 ** this.#attempt) * (1 + JITTER * (2 * Math.random() - 1));
    this.#attempt++;
    this.#timer = setTimeout(() => this.open(), wait);
  }

  #ping(): void {
    if (!this.connected) return;
    this.#send(encodePing(this.#options.format, { sequence: this.#sequence++ >>> 0, clientSent: this.#options.clock() }));
    this.#pings++;
    this.#timer = setTimeout(() => this.#ping(), pingDelay(this.#pings));
  }

  #send(bytes: Uint8Array): boolean {
    try {
      this.#socket!.send(bytes);
    } catch {
      return false; // closing: the close handler reconnects
    }
    this.counters.bytesOut += bytes.byteLength;
    return true;
  }

  #receive(data: unknown): void {
    const received = this.#options.clock();
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    if (bytes === null) {
      this.#refused(new WireError('type', `a message that is not binary (${typeof data}): not a steadyframe server`));
      return;
    }
    this.counters.bytesIn += bytes.byteLength;
    let type: number;
    try {
      type = messageType(this.#options.format, bytes);
    } catch (error) {
      this.#refused(error);
      return;
    }
    if (type === MESSAGE.PONG) {
      this.#pong(bytes, received);
      return;
    }
    // a snapshot whose client part is refused is refused whole (decoding it would refuse it for the same reason)
    const part = type === MESSAGE.SNAPSHOT ? this.#clientPart(bytes) : null;
    if (part === null) return;
    this.#snapshot(bytes, received, part);
    // what this client has, so the server stops sending it: the events, and the state decoded (its next
    // snapshot's baseline). A lost ack loses nothing: the next snapshot carries the events again, and is a delta
    // against an older baseline
    const tick = this.buffer.decodedTick;
    if (part.events !== null || tick >= 0) this.#send(encodeAck(this.#options.format, { next: this.events.expected, tick }));
  }

  /**
   * What a snapshot says to this client alone (even one too late for a frame, or a copy: its events are the
   * client's either way), its events taken; null when it is refused.
   */
  #clientPart(bytes: Uint8Array): ClientPart | null {
    try {
      const part = snapshotClientPart(this.#options.format, bytes);
      if (part === null) return NO_PART;
      if (part.events !== null && !this.events.receive(part.events)) {
        throw new WireError('count', `events numbered from past ${this.events.expected}, the next one wanted: a hole no message fills`);
      }
      return part;
    } catch (error) {
      this.#refused(error);
      if (error instanceof WireError) this.counters.lastRefusal = `a snapshot refused (${error.reason}): ${error.message}`;
      return null;
    }
  }

  #pong(bytes: Uint8Array, received: number): void {
    try {
      const pong = decodePong(this.#options.format, bytes);
      this.serverClock.addSample({ sent: pong.clientSent, serverReceived: pong.serverReceived, serverSent: pong.serverSent, received });
    } catch (error) {
      this.counters.refusedPongs++;
      this.#refused(error);
      return;
    }
    const jumps = this.serverClock.jumps;
    if (jumps !== this.#jumps) {
      this.#jumps = jumps;
      this.playout?.clockJumped(this.serverClock.lastJump);
    }
  }

  #snapshot(bytes: Uint8Array, received: number, part: ClientPart): void {
    const buffer = this.buffer;
    const arrived = this.serverClock.synced ? this.serverClock.serverTime(received) : Number.NaN;
    // the first snapshot after a (re)connect older than the newest kept: the server started over (one that kept
    // running sends only newer ticks), so what is kept is of another world
    if (this.#fresh && buffer.newest !== null && snapshotTick(bytes) < buffer.newest.tick) {
      this.counters.restarts++;
      this.events.restarted();
      buffer.clear();
      buffer.decoder.clear();
      this.playout?.reset();
      this.#timed = 0;
    }
    const outcome = buffer.insert(bytes, arrived);
    if (outcome !== 'stored') {
      if (outcome !== 'duplicate' && outcome !== 'stale') this.counters.lastRefusal = `a snapshot refused (${outcome})`;
      // a stale one came too late to draw, but came: not lost (a duplicate was counted when it first came)
      else if (outcome === 'stale') this.#countLost(snapshotSend(bytes));
      return;
    }
    this.#countLost(snapshotSend(bytes));
    this.#fresh = false;
    const kept = buffer.lastStored!;
    kept.reflected = part.reflected;
    if (kept === buffer.newest) {
      this.counters.inputsReflected = part.reflected;
      if (part.player !== -1) this.counters.player = part.player;
    }
    if (this.playout === null) {
      const sendInterval = kept.interval > 0 ? kept.interval : DEFAULT_SEND_INTERVAL_MS;
      this.playout = new Playout({ ...this.#options.playout, sendInterval });
    }
    if (this.playout.addSnapshot(kept.time, arrived)) this.#timed++;
  }

  /**
   * Snapshots lost on the way, by the publisher's send numbers (modulo 2^16): the numbers skipped. Not by the
   * ticks: a server sends every `every` ticks at most, and the newest state when its loop comes late, so its tick
   * steps vary with its load while nothing is lost.
   *
   * ```text
   *  sends  7 8 _ 10 11       lost 1 (9 never came)      then 9 late: lost 0 (it came after all)
   *  ticks 21 24 _ 36 39      (12 ticks from 24 to 36: one send lost, not three: the tick steps say nothing)
   * ```
   */
  #countLost(send: number): void {
    if (this.#lastSend < 0) {
      this.#firstSend = this.#lastSend = send;
      return;
    }
    const ahead = (send - this.#lastSend) & 0xffff;
    if (ahead === 0) return; // a copy
    if (ahead < 0x8000) {
      this.counters.lost += ahead - 1;
      this.#lastSend = send;
    } else if (this.counters.lost > 0 && ((send - this.#firstSend) & 0xffff) < ((this.#lastSend - this.#firstSend) & 0xffff)) {
      this.counters.lost--; // a late one, sent since the first this connection got: it filled a gap counted lost
    }
  }

  #refused(error: unknown): void {
    if (!(error instanceof WireError)) throw error;
    this.buffer.stats.refused[error.reason]++;
    this.counters.lastRefusal = error.message;
  }
}

function defaultSocket(url: string): SocketLike {
  const WebSocketClass = (globalThis as { WebSocket?: new (url: string) => SocketLike }).WebSocket;
  if (WebSocketClass === undefined) {
    throw new Error("this realm has no WebSocket (Node before 22): pass networkClient({ socket: (url) => new WebSocket(url) }) with the 'ws' package's WebSocket");
  }
  return new WebSocketClass(url);
}
