/**
 * The client's jitter buffer (ARCHITECTURE.md, "Multiplayer"): the snapshots received, kept by server tick in
 * blocks made once, so that a frame finds the pair around its render time however the network delivered them.
 *
 * ```text
 *  arrivals:      t7  t9  t8 (late, reordered)  t9 (duplicate)  t3 (older than every kept: stale)
 *  kept, by tick: [t5][t6][t7][t8][t9]      pairAt(render time between t7's and t8's) ──▶ (t7, t8)
 *                  ▲ recycled first: the oldest (or the one past the render time's pair: never needed again)
 * ```
 *
 * Every snapshot is decoded first into the baselines (net/delta-stream.ts: a delta needs the state it is a delta
 * against, and every decoded state may be the next one's), then its values into a free block. A snapshot older
 * than everything kept once the buffer is full, or older than the pair a frame already drew from, is stale: the
 * render time never goes back, so no frame could use it (it is still decoded, and acknowledged: a baseline). One
 * whose baseline was let go for 32 newer ones is stale too, and not decoded. Counts of each outcome are kept for
 * `stats()`.
 */
import { gameView, generationView } from '../core/layout.ts';
import { DeltaDecoder } from './delta-stream.ts';
import { dequantizeState, messageType, MESSAGE, snapshotTick, WireError, type WireFormat, type WireRefusal } from './wire.ts';

/** One kept snapshot: its head, its block (a block of the layout) and when it arrived (server-clock ms). */
export interface KeptSnapshot {
  tick: number;
  time: number;
  count: number;
  snaps: number;
  /** The server's send interval as the snapshot said it (ms; 0: unknown). */
  interval: number;
  arrived: number;
  /** The newest of this client's input numbers the state reflects, −1 for none (the connection sets it). */
  reflected: number;
  readonly block: Float32Array;
  readonly generation: Uint32Array;
  /** The block's game run: one float64 per game field. */
  readonly game: Float64Array;
}

/** What became of a message given to `insert`. */
export type InsertOutcome = 'stored' | 'duplicate' | 'stale' | WireRefusal;

/** Where a render time falls among the snapshots kept (the snapshots are valid until the next `insert`). */
export interface PairAt {
  /** The newest snapshot at or before the time (or the oldest kept, when the time is before all of them). */
  readonly previous: KeptSnapshot;
  /** The oldest snapshot after the time (or `previous` itself, when none is after it). */
  readonly current: KeptSnapshot;
  /** (time − previous.time) / (current.time − previous.time), in [0, 1]; 0 before all, 1 past the newest. */
  readonly alpha: number;
  /** The time is before every snapshot kept (the buffer ran dry at its old end: none older arrived in time). */
  readonly before: boolean;
  /** The time is past the newest snapshot (none newer arrived yet): `previous` is the newest. */
  readonly after: boolean;
}

export interface SnapshotBufferStats {
  stored: number;
  duplicates: number;
  stale: number;
  /** Snapshots stored out of tick order (a later tick had arrived first). */
  reordered: number;
  /** Snapshots decoded against a baseline (deltas), and whole (full ones). */
  deltas: number;
  full: number;
  readonly refused: Record<WireRefusal, number>;
}

/** Snapshots kept by default: 32 is over a second of sends at 30 Hz, past any delay worth waiting for. */
export const DEFAULT_KEPT = 32;

export class SnapshotBuffer {
  readonly stats: SnapshotBufferStats = {
    stored: 0,
    duplicates: 0,
    stale: 0,
    reordered: 0,
    deltas: 0,
    full: 0,
    refused: { truncated: 0, magic: 0, version: 0, type: 0, signature: 0, length: 0, count: 0, time: 0, baseline: 0 },
  };
  /** The states decoded, kept as baselines for the deltas to come. */
  readonly decoder: DeltaDecoder;
  /** The tick of the last snapshot decoded and kept as a baseline (what to acknowledge), or −1. */
  decodedTick = -1;
  /** Kept snapshots in tick order, oldest first. */
  readonly #kept: KeptSnapshot[] = [];
  /** Blocks not holding a snapshot. */
  readonly #free: KeptSnapshot[] = [];
  /** The oldest tick a frame may still need (the pair's `previous` of the last `pairAt`): older ones are stale. */
  #floorTick = Number.NEGATIVE_INFINITY;
  #lastStored: KeptSnapshot | null = null;

  constructor(
    readonly format: WireFormat,
    readonly capacity: number = DEFAULT_KEPT,
  ) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError(`steadyframe: a snapshot buffer keeps at least 2 snapshots (a pair); got ${String(capacity)}`);
    this.decoder = new DeltaDecoder(format);
    for (let i = 0; i < capacity; i++) {
      const buffer = new ArrayBuffer(format.layout.blockBytes);
      this.#free.push({ tick: 0, time: 0, count: 0, snaps: 0, interval: 0, arrived: 0, reflected: -1, block: new Float32Array(buffer), generation: generationView(buffer, 0, format.layout), game: gameView(buffer, 0, format.layout) });
    }
  }

  /** Snapshots kept now, oldest first (valid until the next `insert`). */
  get kept(): readonly KeptSnapshot[] {
    return this.#kept;
  }

  /** The snapshot the last insert that returned 'stored' wrote (valid until the next insert), or null. */
  get lastStored(): KeptSnapshot | null {
    return this.#lastStored;
  }

  /** The newest snapshot kept, or null. */
  get newest(): KeptSnapshot | null {
    return this.#kept.at(-1) ?? null;
  }

  /**
   * Takes a message that arrived at `arrived` (server-clock ms): decodes it into a free block, in its place by
   * tick. A message that is not a valid snapshot is refused and counted by reason (never thrown).
   */
  insert(bytes: Uint8Array, arrived: number): InsertOutcome {
    const kept = this.#kept;
    this.decodedTick = -1;
    let tick: number;
    try {
      const type = messageType(this.format, bytes);
      if (type !== MESSAGE.SNAPSHOT) throw new WireError('type', `a message of type ${type} where a snapshot was expected`);
      tick = snapshotTick(bytes);
    } catch (error) {
      return this.#refuse(error);
    }
    // a copy of one decoded already (stale if no frame could use it now anyway)
    const stale = tick < this.#floorTick || (kept.length === this.capacity && tick < kept[0]!.tick);
    if (this.decoder.has(tick) || kept.some((s) => s.tick === tick)) return this.#count(stale ? 'stale' : 'duplicate');
    let decoded;
    try {
      decoded = this.decoder.decode(bytes);
    } catch (error) {
      return this.#refuse(error);
    }
    // its baseline let go: 32 newer snapshots overtook it, far too late for a frame
    if (decoded === null) return this.#count('stale');
    const { head, state } = decoded;
    if (decoded.kept) this.decodedTick = head.tick;
    if (head.baseline! >= 0) this.stats.deltas++;
    else this.stats.full++;
    // one no frame can use now: decoded (a baseline), not kept here
    if (stale) return this.#count('stale');
    // a free block, or the oldest kept one (which the check above says is older than this snapshot)
    const into = this.#free.length === 0 ? kept.shift()! : this.#free.pop()!;
    dequantizeState(this.format, state, into.block, into.generation);
    into.tick = head.tick;
    into.time = head.time;
    into.count = head.count;
    into.snaps = head.snaps;
    into.interval = head.interval ?? 0;
    into.arrived = arrived;
    into.reflected = -1;
    // in tick order: nearly always at the end
    let at = kept.length;
    while (at > 0 && kept[at - 1]!.tick > head.tick) at--;
    if (at < kept.length) this.stats.reordered++;
    kept.splice(at, 0, into);
    this.#lastStored = into;
    this.stats.stored++;
    return 'stored';
  }

  /**
   * The pair around server time `time` (null when nothing is kept). Frees the snapshots older than the pair's
   * `previous`, and makes anything older than it stale: call it with render times that never go back.
   */
  pairAt(time: number): PairAt | null {
    const kept = this.#kept;
    if (kept.length === 0) return null;
    // the first kept snapshot after `time`
    let next = 0;
    while (next < kept.length && kept[next]!.time <= time) next++;
    let result: PairAt;
    if (next === 0) {
      result = { previous: kept[0]!, current: kept[0]!, alpha: 0, before: true, after: false };
    } else if (next === kept.length) {
      const newest = kept[next - 1]!;
      result = { previous: newest, current: newest, alpha: 1, before: false, after: true };
    } else {
      const previous = kept[next - 1]!;
      const current = kept[next]!;
      result = { previous, current, alpha: (time - previous.time) / (current.time - previous.time), before: false, after: false };
    }
    // what lies before the pair is needed by no frame from now on
    const keepFrom = next === 0 ? 0 : next - 1;
    for (const old of kept.splice(0, keepFrom)) this.#release(old);
    this.#floorTick = result.previous.tick;
    return result;
  }

  /**
   * Forgets every snapshot (a reconnect to a server that started over; a hidden tab that resumes at the newest).
   * The baselines stay: call `decoder.clear()` too for a server that started over.
   */
  clear(): void {
    for (const old of this.#kept.splice(0)) this.#release(old);
    this.#floorTick = Number.NEGATIVE_INFINITY;
    this.#lastStored = null;
  }

  #release(block: KeptSnapshot): void {
    this.#free.push(block);
  }

  #refuse(error: unknown): WireRefusal {
    if (!(error instanceof WireError)) throw error;
    this.stats.refused[error.reason]++;
    return error.reason;
  }

  #count(outcome: 'stale' | 'duplicate'): InsertOutcome {
    if (outcome === 'stale') this.stats.stale++;
    else this.stats.duplicates++;
    return outcome;
  }
}
