/**
 * What a publish copies: entities 0 .. n - 1 of every field run and of the generation run of a block, never
 * the rest of the capacity, and the game run (the game fields) whole. A block (layout.ts) is a run per field, then the generations, each run
 * `capacity * width` elements long; the live part of each run is its first `n * width` elements:
 *
 * ```text
 *   block   ┌ position: capacity * 3 ──────────┬ rotation: capacity * 4 ──────────────┬ generation ─┐
 *   copied   ████████░░░░░░░░░░░░░░░░░░░░░░░░░░  ██████████░░░░░░░░░░░░░░░░░░░░░░░░░░░  ███░░░░░░░░░
 *            n * 3                               n * 4                                 n
 * ```
 *
 * Runs whose live parts lie close together (little dead capacity between them, as when most of the capacity is
 * live) are copied as one span, gap included: one call instead of several. The gap's bytes are dead in source
 * and destination alike, so copying them changes nothing a reader may look at.
 *
 * The worker's world lies in the same buffer as the slots (layout.ts, `worldOffset`), so both of a publish's
 * copies (world -> back current, front current -> back previous) are copies within one buffer, which need no
 * view of their own and allocate nothing: WebAssembly `memory.copy` (memory-copy.ts) where the buffer is a
 * WebAssembly.Memory the worker was given (the shared transport with the SIMD kernels), else
 * `Float32Array.prototype.copyWithin` over a view of the whole buffer. Both are memmoves; memory.copy is the
 * cheaper where it runs (the bench's publish suite measures both: ARCHITECTURE.md, "How it copies").
 * `copyAcross` is the fallback for a block in another buffer (a test's private world, the message
 * transport's pooled buffers): per-span views and `set`, which allocates two views per span.
 */
import { blockOffset, gameView, type Layout, type SharedViews } from './layout.ts';
import { createMemoryCopy, type MemoryCopy } from './memory-copy.ts';
import type { Schema } from './schema.ts';
import { tableCount } from './tables.ts';

/**
 * Floats of dead capacity between two live parts below which they are copied as one span (4 KB): a call into
 * the engine's copy has a fixed cost, so copying a few KB of dead bytes is cheaper than a second call
 * (ARCHITECTURE.md, "Measurements behind the code").
 */
export const MERGE_GAP_FLOATS = 1024;

/**
 * The runs of a block as float offsets and floats per entity: the fields, then the generations (1 per entity);
 * then the game run (one float64 per game field, so two floats each), which every copy takes whole, whatever
 * the count.
 */
export interface BlockRuns {
  /** Float index of each run from the start of its block. */
  readonly offsets: Int32Array;
  /** Floats per entity of each run. */
  readonly widths: Int32Array;
  /** Float index and floats of the game run (0 floats without game fields). */
  readonly gameOffset: number;
  readonly gameFloats: number;
  /** Scratch for `liveSpans`: [start, end) float indices, two per span (one thread uses a BlockRuns). */
  readonly spans: Int32Array;
  /**
   * A schema of tables (core/tables.ts): each table's first entity, and its word's index in the game run
   * (empty for a plain schema). `tableSpans` copies each table's live entities alone.
   */
  readonly tableBases: Int32Array;
  readonly tableWords: Int32Array;
}

export function blockRuns(layout: Layout): BlockRuns {
  const n = layout.fields.length + 1;
  const offsets = new Int32Array(n);
  const widths = new Int32Array(n);
  layout.fields.forEach((field, i) => {
    offsets[i] = field.offset / 4;
    widths[i] = field.width;
  });
  offsets[n - 1] = layout.generationOffset / 4;
  widths[n - 1] = 1;
  const tables = layout.tables.length;
  return {
    offsets,
    widths,
    gameOffset: layout.gameOffset / 4,
    gameFloats: 2 * layout.game.length,
    spans: new Int32Array(2 * (n * Math.max(1, tables) + 1)),
    tableBases: Int32Array.from(layout.tables, (t) => t.base),
    tableWords: Int32Array.from(layout.tables, (t) => t.countIndex),
  };
}

/**
 * `liveSpans` for a schema of tables: in every run, each table's live entities (`base .. base + count - 1`, the
 * count from the table's word in the block's game run, `game`: a Float64Array over that run), spans closer than
 * MERGE_GAP_FLOATS merged; then the game run. The dead entities between tables are not copied: a reader blends
 * each table's live entities alone, and one new since the previous state snaps by its generation (a spawn bumps
 * it past any value a dead one left behind). Writes `runs.spans`, returns how many. Allocates nothing.
 */
export function tableSpans(runs: BlockRuns, game: Float64Array): number {
  const { offsets, widths, spans, gameOffset, gameFloats, tableBases, tableWords } = runs;
  // each run's live ranges in block order (runs ascend, tables ascend within a run), then merged in place
  let n = 0;
  for (let r = 0; r < offsets.length; r++) {
    const offset = offsets[r]!;
    const width = widths[r]!;
    for (let t = 0; t < tableBases.length; t++) {
      const count = tableCount(game[tableWords[t]!]!);
      if (count === 0) continue;
      const from = offset + tableBases[t]! * width;
      spans[n++] = from;
      spans[n++] = from + count * width;
    }
  }
  if (gameFloats > 0) {
    spans[n++] = gameOffset;
    spans[n++] = gameOffset + gameFloats;
  }
  let kept = 0;
  for (let k = 0; k < n; k += 2) {
    if (kept > 0 && spans[k]! - spans[kept - 1]! <= MERGE_GAP_FLOATS) {
      spans[kept - 1] = spans[k + 1]!;
    } else {
      spans[kept++] = spans[k]!;
      spans[kept++] = spans[k + 1]!;
    }
  }
  return kept / 2;
}

/**
 * The spans a copy of entities 0 .. count - 1 of every run takes: the live part of each run, runs closer than
 * MERGE_GAP_FLOATS merged into one span. Writes them into `runs.spans` ([start, end) float indices from the
 * start of a block) and returns how many there are (0 for no entities). Allocates nothing.
 */
export function liveSpans(runs: BlockRuns, count: number): number {
  const { offsets, widths, spans, gameOffset, gameFloats } = runs;
  if (count <= 0) {
    // no entities: the game run alone
    if (gameFloats === 0) return 0;
    spans[0] = gameOffset;
    spans[1] = gameOffset + gameFloats;
    return 1;
  }
  let n = 0;
  let start = offsets[0]!;
  let end = start + count * widths[0]!;
  for (let i = 1; i < offsets.length; i++) {
    const runStart = offsets[i]!;
    const runEnd = runStart + count * widths[i]!;
    if (runStart - end <= MERGE_GAP_FLOATS) {
      end = runEnd;
      continue;
    }
    spans[n++] = start;
    spans[n++] = end;
    start = runStart;
    end = runEnd;
  }
  if (gameFloats > 0) {
    // the game run, whole: after the generations, merged with them when close (it always is, but for a gap of
    // dead generations past the live ones)
    if (gameOffset - end <= MERGE_GAP_FLOATS) {
      end = gameOffset + gameFloats;
    } else {
      spans[n++] = start;
      spans[n++] = end;
      start = gameOffset;
      end = gameOffset + gameFloats;
    }
  }
  spans[n++] = start;
  spans[n++] = end;
  return n / 2;
}

/**
 * Copies entities 0 .. count - 1 of every run from the block at float index `from` to the block at float
 * index `to`, both in `f32` (a view over a whole buffer). Blocks may not overlap. Allocates nothing.
 */
export function copyLive(f32: Float32Array, runs: BlockRuns, from: number, to: number, count: number): void {
  const { spans } = runs;
  for (let k = 0, n = 2 * liveSpans(runs, count); k < n; k += 2) f32.copyWithin(to + spans[k]!, from + spans[k]!, from + spans[k + 1]!);
}

/** `copyLive` by WebAssembly `memory.copy`: the blocks at byte offsets `from` and `to` of the memory. */
export function copyLiveBytes(copy: MemoryCopy, runs: BlockRuns, from: number, to: number, count: number): void {
  const { spans } = runs;
  for (let k = 0, n = 2 * liveSpans(runs, count); k < n; k += 2) copy(to + 4 * spans[k]!, from + 4 * spans[k]!, 4 * (spans[k + 1]! - spans[k]!));
}

/**
 * The same copy between two blocks that may lie in different buffers (`from` and `to` each a view of one whole
 * block). Allocates two views per copied span.
 */
export function copyAcross(from: Float32Array, to: Float32Array, runs: BlockRuns, count: number): void {
  const { spans } = runs;
  for (let k = 0, n = 2 * liveSpans(runs, count); k < n; k += 2) to.set(from.subarray(spans[k]!, spans[k + 1]!), spans[k]!);
}

/**
 * A publish's two copies for one buffer: `SlotWriter.publish` calls it between writing nothing and flipping,
 * so everything here happens outside the lock, to the back slot only (see slot-writer.ts).
 */
export class PublishCopier {
  readonly #f32: Float32Array;
  readonly #runs: BlockRuns;
  /** Float index of each block: [slot][0 previous, 1 current]. */
  readonly #blocks: readonly [readonly [number, number], readonly [number, number]];
  /** Float index of the world in the same buffer, or -1 when it lies elsewhere (then `copyAcross`). */
  readonly #world: number;
  /** `memory.copy` over the buffer, when it is the given WebAssembly.Memory's and the world lies in it. */
  readonly #copy: MemoryCopy | null;
  /**
   * A schema of tables: the game run of each block ([slot][0 previous, 1 current]) and of the world, whose
   * table words say what each table has live (`tableSpans`); null for a plain schema.
   */
  readonly #games: { readonly blocks: readonly (readonly [Float64Array, Float64Array])[]; readonly world: Float64Array } | null;

  constructor(
    private readonly views: SharedViews<Schema>,
    private readonly world: Float32Array,
    /** The WebAssembly.Memory whose buffer `views` lays out, if it is one. */
    memory: WebAssembly.Memory | null = null,
  ) {
    const { buffer, layout } = views;
    this.#f32 = new Float32Array(buffer, 0, Math.floor(buffer.byteLength / 4));
    this.#runs = blockRuns(layout);
    const at = (slot: number, which: 'previous' | 'current') => blockOffset(layout, slot, which) / 4;
    this.#blocks = [
      [at(0, 'previous'), at(0, 'current')],
      [at(1, 'previous'), at(1, 'current')],
    ];
    this.#world = world.buffer === buffer ? world.byteOffset / 4 : -1;
    this.#copy = memory !== null && memory.buffer === buffer && this.#world >= 0 ? createMemoryCopy(memory) : null;
    this.#games =
      layout.tables.length === 0
        ? null
        : {
            blocks: views.slots.map((slot) => [slot.previousGame, slot.currentGame] as const),
            world: gameView(world.buffer, world.byteOffset, layout),
          };
  }

  /** Which copy the publishes use: 'memory.copy', 'copyWithin' or 'set' (a world in another buffer). */
  get method(): 'memory.copy' | 'copyWithin' | 'set' {
    return this.#copy !== null ? 'memory.copy' : this.#world >= 0 ? 'copyWithin' : 'set';
  }

  /**
   * Slot `back`'s previous block <- slot `front`'s current block, entities 0 .. previousCount - 1 (a fault
   * test passes back === front: the block's own current); then its current block <- the world, entities
   * 0 .. count - 1. Allocates nothing when the world lies in the buffer.
   */
  publish(front: 0 | 1, back: 0 | 1, previousCount: number, count: number): void {
    const f32 = this.#f32;
    const runs = this.#runs;
    const to = this.#blocks[back];
    const copy = this.#copy;
    const games = this.#games;
    if (games !== null) {
      // a schema of tables: each table's live entities, as the front's current and the world's words say
      this.#copySpans(tableSpans(runs, games.blocks[front]![1]), this.#blocks[front][1], to[0], this.views.blocks[front].current, this.views.blocks[back].previous, true);
      this.#copySpans(tableSpans(runs, games.world), this.#world, to[1], this.world, this.views.blocks[back].current, this.#world >= 0);
      return;
    }
    if (copy !== null) {
      // byte offsets: the float indices times 4
      copyLiveBytes(copy, runs, 4 * this.#blocks[front][1], 4 * to[0], previousCount);
      copyLiveBytes(copy, runs, 4 * this.#world, 4 * to[1], count);
      return;
    }
    copyLive(f32, runs, this.#blocks[front][1], to[0], previousCount);
    if (this.#world >= 0) copyLive(f32, runs, this.#world, to[1], count);
    else copyAcross(this.world, this.views.blocks[back].current, runs, count);
  }

  /** `runs.spans`' first `n` spans from the block at float `from` to the one at `to` (`source`/`target` its views, for a world elsewhere). */
  #copySpans(n: number, from: number, to: number, source: Float32Array, target: Float32Array, sameBuffer: boolean): void {
    const spans = this.#runs.spans;
    const copy = this.#copy;
    for (let k = 0; k < 2 * n; k += 2) {
      const a = spans[k]!;
      const b = spans[k + 1]!;
      if (!sameBuffer) target.set(source.subarray(a, b), a);
      else if (copy !== null) copy(4 * (to + a), 4 * (from + a), 4 * (b - a));
      else this.#f32.copyWithin(to + a, from + a, from + b);
    }
  }

  /** Every block <- the whole world (all of the capacity): the first publish, before any reader exists. */
  initial(): void {
    const { blocks } = this.views;
    for (const slot of [0, 1] as const) {
      blocks[slot].previous.set(this.world);
      blocks[slot].current.set(this.world);
    }
  }
}
