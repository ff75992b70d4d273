/**
 * A state as the wire codes it (core/quantize.ts: every field's codes, entity by entity), and the window of them
 * both ends keep as baselines (ARCHITECTURE.md, "Multiplayer": deltas against acknowledged baselines).
 *
 * ```text
 *  server: state ── quantizeState ──▶ window (the last BASELINE_WINDOW sent, by tick) ── per client: delta against
 *          the newest tick the client acknowledged that the window still has, else a full snapshot
 *  client: snapshot ── decode against window.find(its baseline) ──▶ window (the last 2 × BASELINE_WINDOW decoded, by tick)
 *          ──▶ dequantizeState into the jitter buffer's block; ack: the tick
 * ```
 *
 * Why a baseline the server picks is one the client still has: the client acknowledged it, so it decoded it.
 * The server encodes against a baseline at most BASELINE_WINDOW − 1 sends older than the state (its window is the
 * last BASELINE_WINDOW it sent, the new state put in first). The client keeps the CLIENT_BASELINE_WINDOW newest
 * ticks it decoded, and drops a baseline only once that many newer ones have come, all sent after it: so a
 * snapshot finds its baseline unless BASELINE_WINDOW or more snapshots newer than itself overtook it on the way.
 * Such a snapshot is too late for any frame (the jitter buffer would find it stale): it is let go as `late`. A
 * client that cannot find a baseline otherwise (a hostile or broken server) refuses the snapshot (`baseline`),
 * acknowledges nothing new, and gets a full one once its last acknowledged tick leaves the server's window.
 */
import type { WireFormat } from './wire-head.ts';

/** Snapshots the server keeps as baselines: a client's acknowledged tick is its baseline for BASELINE_WINDOW − 1 sends. */
export const BASELINE_WINDOW = 32;
/**
 * Snapshots a client keeps: twice the server's, so that a snapshot overtaken on the way still finds its baseline
 * unless BASELINE_WINDOW newer ones came first (it is then too late for any frame, and let go as `late`).
 */
export const CLIENT_BASELINE_WINDOW = 2 * BASELINE_WINDOW;

/** One state's codes: `count` entities of `format.codesPerEntity` codes, their generations, the game run. */
export class SnapshotCodes {
  tick = -1;
  count = 0;
  readonly codes: Uint32Array;
  readonly generation: Uint32Array;
  readonly game: Float64Array;
  /** The game run as 32-bit words, two a value (low first): compared and sent bit for bit. */
  readonly gameWords: Uint32Array;

  /** `capacity`: entities it holds (the layout's by default; a client's view under interest management, fewer). */
  constructor(format: WireFormat, capacity = format.layout.capacity) {
    this.codes = new Uint32Array(capacity * format.codesPerEntity);
    this.generation = new Uint32Array(capacity);
    this.game = new Float64Array(format.gameValues);
    this.gameWords = new Uint32Array(this.game.buffer);
  }
}

/**
 * Quantises a block of `format.layout` (`block` over all of it, its game run included; `generation` its
 * generation run): entities 0 to count − 1 and the game run, into `out`.
 */
export function quantizeState(format: WireFormat, block: Float32Array, generation: Uint32Array, count: number, out: SnapshotCodes): void {
  const raw = new Uint32Array(block.buffer, block.byteOffset, block.length);
  const fields = format.layout.fields;
  const C = format.codesPerEntity;
  const codes = out.codes;
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f]!;
    const q = format.quantizers[f]!;
    const first = format.fieldCodes[f]!;
    const base = field.offset / 4;
    for (let i = 0; i < count; i++) q.encode(block, raw, base + i * field.width, codes, i * C + first);
  }
  out.generation.set(generation.subarray(0, count));
  out.count = count;
  if (format.gameValues > 0) out.game.set(new Float64Array(block.buffer, block.byteOffset + format.layout.gameOffset, format.gameValues));
}

/** The codes back to values: entities 0 to count − 1 of every field, their generations and the game run, into a block. */
export function dequantizeState(format: WireFormat, from: SnapshotCodes, block: Float32Array, generation: Uint32Array): void {
  const raw = new Uint32Array(block.buffer, block.byteOffset, block.length);
  const fields = format.layout.fields;
  const C = format.codesPerEntity;
  const count = from.count;
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f]!;
    const q = format.quantizers[f]!;
    const first = format.fieldCodes[f]!;
    const base = field.offset / 4;
    for (let i = 0; i < count; i++) q.decode(from.codes, i * C + first, block, raw, base + i * field.width);
  }
  generation.set(from.generation.subarray(0, count));
  if (format.gameValues > 0) new Float64Array(block.buffer, block.byteOffset + format.layout.gameOffset, format.gameValues).set(from.game);
}

/**
 * The last `size` states by tick (the newest kept), and one spare to decode or quantise into: `take()` the spare,
 * fill it, `put()` it, which keeps it unless it is older than every state of a full window. Made once; nothing is
 * allocated after.
 */
export class BaselineWindow {
  /** Kept, oldest tick first. */
  readonly #kept: SnapshotCodes[] = [];
  #spare: SnapshotCodes[];

  constructor(
    readonly format: WireFormat,
    readonly size: number = BASELINE_WINDOW,
    capacity = format.layout.capacity,
  ) {
    this.#spare = Array.from({ length: size + 1 }, () => new SnapshotCodes(format, capacity));
  }

  /** The state of tick `tick`, or null. */
  find(tick: number): SnapshotCodes | null {
    const kept = this.#kept;
    for (let i = kept.length - 1; i >= 0; i--) if (kept[i]!.tick === tick) return kept[i]!;
    return null;
  }

  /** The newest tick kept, or −1. */
  get newest(): number {
    return this.#kept.at(-1)?.tick ?? -1;
  }

  /** Whether `tick` is older than every tick of a full window: one it kept once and dropped, or never would keep. */
  passed(tick: number): boolean {
    return this.#kept.length === this.size && tick < this.#kept[0]!.tick;
  }

  /** An entry to fill (not kept until `put`). */
  take(): SnapshotCodes {
    return this.#spare.pop()!;
  }

  /** Gives back an entry taken and not put (its decoding failed). */
  release(entry: SnapshotCodes): void {
    this.#spare.push(entry);
  }

  /** Keeps `entry` (its `tick` set) in tick order; the oldest goes past `size`. Returns whether `entry` is kept. */
  put(entry: SnapshotCodes): boolean {
    const kept = this.#kept;
    let at = kept.length;
    while (at > 0 && kept[at - 1]!.tick > entry.tick) at--;
    kept.splice(at, 0, entry);
    if (kept.length <= this.size) return true;
    const oldest = kept.shift()!;
    this.#spare.push(oldest);
    return oldest !== entry;
  }

  clear(): void {
    for (const entry of this.#kept.splice(0)) this.#spare.push(entry);
  }
}
