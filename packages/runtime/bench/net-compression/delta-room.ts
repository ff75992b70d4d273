/**
 * A server's delta stream to N clients over simulated links, in simulated time, with the real wire: the
 * server's DeltaEncoder and a ClientBaseline per client, each client's DeltaDecoder, acks encoded and decoded as
 * the network client and the publisher do (net/connection.ts acks every snapshot it decoded and kept).
 *
 * ```text
 *  publish(t): push (quantise once) ── per client: messageFor(its acked tick, and the one before: motion carried on) ── down link: + delay, or lost
 *                                                                                     │
 *  client: decode against its window ── kept ── encodeAck(tick) ── up link: + delay, or lost ── decodeAck
 *                                                                                     │
 *  server: ClientBaseline.ack(encoder, tick): the next message is a delta against it ◀┘
 * ```
 *
 * Both directions of every client's link are seeded draws (test/node/support/net-link.ts: one-way delay plus
 * uniform jitter, or a loss). Every decoded state is checked against the server's quantised state of its tick,
 * code for code: a wire that decodes wrongly stops the benchmark instead of flattering it. The server's time
 * (push and every messageFor) and the clients' (decode) are summed apart, from performance.now().
 */
import { ClientBaseline, DeltaDecoder, DeltaEncoder } from '../../src/net/delta-stream.ts';
import type { SnapshotCodes } from '../../src/net/snapshot-codes.ts';
import { decodeAck, encodeAck, SNAPSHOT_HEAD_BYTES, type WireFormat } from '../../src/net/wire.ts';
import { createLink, EventQueue } from '../../test/node/support/net-link.ts';

export interface LinkSpec {
  /** One-way delay, ms. */
  readonly baseMs: number;
  /** Each message takes baseMs plus a uniform draw in [−jitterMs, +jitterMs]. */
  readonly jitterMs: number;
  /** Share of messages lost, snapshots and acks alike. */
  readonly loss: number;
}

/** What a room sent, received and spent since its last `resetTotals()`. */
export interface RoomTotals {
  pushes: number;
  /** Snapshot messages sent (lost ones included), their bytes, and the heads' share of them. */
  messages: number;
  bytes: number;
  headBytes: number;
  deltas: number;
  full: number;
  /** Delta messages: body bytes, and entities changed from their baseline (a code or the generation differs). */
  deltaBodyBytes: number;
  deltaChanged: number;
  /** Snapshots lost on the way, arrived too late to decode, decoded, and decoded to a state not the server's. */
  lost: number;
  late: number;
  decoded: number;
  wrong: number;
  /** Acks sent (lost ones included) and their bytes. */
  acks: number;
  ackBytes: number;
  /** Messages the encoder encoded (one per baseline in use per push), and its ms: push and every messageFor. */
  encodes: number;
  serverMs: number;
  /** The clients' ms decoding. */
  decodeMs: number;
}

/** Ticks of server states kept for the check: far more than any snapshot's time on the way. */
const TRUTH_KEPT = 256;

const zeroTotals = (): RoomTotals => ({
  pushes: 0,
  messages: 0,
  bytes: 0,
  headBytes: 0,
  deltas: 0,
  full: 0,
  deltaBodyBytes: 0,
  deltaChanged: 0,
  lost: 0,
  late: 0,
  decoded: 0,
  wrong: 0,
  acks: 0,
  ackBytes: 0,
  encodes: 0,
  serverMs: 0,
  decodeMs: 0,
});

/** What the first client was sent at one push: for a scene's phases. */
export interface PushRecord {
  readonly tick: number;
  readonly bytes: number;
  readonly delta: boolean;
  readonly changed: number;
}

interface Client {
  readonly baseline: ClientBaseline;
  readonly decoder: DeltaDecoder;
  readonly down: () => number | null;
  readonly up: () => number | null;
}

/** Entities of `state` whose codes or generation differ from `base`'s (null: from zeros, as a full snapshot codes them). */
export function changedEntities(format: WireFormat, state: SnapshotCodes, base: SnapshotCodes | null): number {
  const C = format.codesPerEntity;
  const baseCount = base === null ? 0 : Math.min(base.count, state.count);
  let changed = 0;
  for (let i = 0; i < state.count; i++) {
    const inBase = i < baseCount;
    let differs = state.generation[i]! !== (inBase ? base!.generation[i]! : 0);
    for (let c = i * C; !differs && c < (i + 1) * C; c++) differs = state.codes[c]! !== (inBase ? base!.codes[c]! : 0);
    if (differs) changed++;
  }
  return changed;
}

export class DeltaRoom {
  readonly encoder: DeltaEncoder;
  readonly queue = new EventQueue();
  totals: RoomTotals = zeroTotals();
  /** The first client's message at every push (kept when `record` is on). */
  readonly record: PushRecord[] = [];
  readonly #clients: Client[];
  /** The server's quantised states by tick, for checking what the clients decode, and their ticks in order. */
  readonly #truth = new Map<number, { codes: Uint32Array; generation: Uint32Array }>();
  readonly #truthTicks: number[] = [];

  constructor(
    readonly format: WireFormat,
    clients: number,
    link: LinkSpec,
    seed: number,
    readonly recording = false,
  ) {
    this.encoder = new DeltaEncoder(format);
    this.#clients = Array.from({ length: clients }, (_, c) => ({
      baseline: new ClientBaseline(),
      decoder: new DeltaDecoder(format),
      down: createLink(seed + 2 * c, link),
      up: createLink(seed + 2 * c + 1, link),
    }));
  }

  /** Starts the totals over (a warm-up's end). */
  resetTotals(): void {
    this.totals = zeroTotals();
  }

  /**
   * The state of `tick` (entities 0 to count − 1 of `block`, their `generation`s) at simulated ms `now`: what
   * arrived by then is taken first (snapshots decoded, acks applied), then the state is sent to every client.
   */
  publish(tick: number, now: number, count: number, block: Float32Array, generation: Uint32Array): void {
    this.queue.runUntil(now);
    const t = this.totals;
    const encoder = this.encoder;
    const encodedBefore = encoder.stats.full + encoder.stats.deltas;
    const start = performance.now();
    encoder.push({ tick, time: now, count, snaps: 0 }, block, generation);
    const messages = this.#clients.map((client) => client.baseline.message(encoder));
    t.serverMs += performance.now() - start;
    t.encodes += encoder.stats.full + encoder.stats.deltas - encodedBefore;
    t.pushes++;
    const state = encoder.window.find(tick)!;
    this.#truth.set(tick, { codes: state.codes.slice(0, count * this.format.codesPerEntity), generation: state.generation.slice(0, count) });
    this.#truthTicks.push(tick);
    while (this.#truthTicks[0]! < tick - TRUTH_KEPT) this.#truth.delete(this.#truthTicks.shift()!);
    // changed entities, once per baseline in use
    const changedBy = new Map<number, number>();
    this.#clients.forEach((client, c) => {
      const bytes = messages[c]!;
      const acked = client.baseline.acked;
      const delta = encoder.isDelta(acked);
      const key = delta ? acked : -1;
      let changed = changedBy.get(key);
      if (changed === undefined) changedBy.set(key, (changed = changedEntities(this.format, state, delta ? encoder.window.find(acked) : null)));
      t.messages++;
      t.bytes += bytes.byteLength;
      t.headBytes += SNAPSHOT_HEAD_BYTES;
      if (delta) {
        t.deltas++;
        t.deltaBodyBytes += bytes.byteLength - SNAPSHOT_HEAD_BYTES;
        t.deltaChanged += changed;
      } else {
        t.full++;
      }
      if (c === 0 && this.recording) this.record.push({ tick, bytes: bytes.byteLength, delta, changed });
      const delay = client.down();
      if (delay === null) t.lost++;
      else this.queue.schedule(now + delay, () => this.#arrive(client, bytes));
    });
  }

  #arrive(client: Client, bytes: Uint8Array): void {
    const t = this.totals;
    const start = performance.now();
    const result = client.decoder.decode(bytes);
    t.decodeMs += performance.now() - start;
    if (result === null) {
      t.late++;
      return;
    }
    t.decoded++;
    const { head, state, kept } = result;
    const truth = this.#truth.get(head.tick);
    if (truth === undefined || !same(state, truth)) t.wrong++;
    if (!kept) return;
    // the network client's ack: the tick it decoded (and its events' next number, none here)
    const ack = encodeAck(this.format, { next: 0, tick: head.tick });
    t.acks++;
    t.ackBytes += ack.byteLength;
    const delay = client.up();
    if (delay === null) return;
    this.queue.schedule(this.queue.now + delay, () => client.baseline.ack(this.encoder, decodeAck(this.format, ack).tick));
  }
}

function same(state: SnapshotCodes, truth: { codes: Uint32Array; generation: Uint32Array }): boolean {
  if (state.count !== truth.generation.length) return false;
  for (let i = 0; i < truth.codes.length; i++) if (state.codes[i] !== truth.codes[i]) return false;
  for (let i = 0; i < state.count; i++) if (state.generation[i] !== truth.generation[i]) return false;
  return true;
}
