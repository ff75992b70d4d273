/**
 * Lag compensation's history (ARCHITECTURE.md, "Prediction, reconciliation and lag compensation"): the states
 * the simulation made over the last `rewindMs`, kept in the worker's own memory, and `tick.rewind(time)`: the
 * world as a client drew it at that shared-clock time, for a step's hit tests.
 *
 * ```text
 *  shared clock  ──|──────|──────|──────|──────|──────|──▶       the step of tick k runs; its world is state k−1
 *  states kept    k−6    k−5    k−4    k−3    k−2    k−1   ◀── pushed as the step of tick k begins (its previousAt)
 *                  ▲ oldest: nothing older than rewindMs before k−1 is kept, save the one before (the window's
 *                    start needs a pair)
 *  rewind(T):            A ──── T ──── B      A's time ≤ T < B's: each field blended at alpha = (T − A) / (B − A)
 *                                              by its kind (core/interpolate.ts, `interpolateField`: the kernels the
 *                                              page's frame and the network client's resampler use); an entity
 *                                              spawned or snapped between A and B takes B's values; the count B's
 *  T before the oldest: the oldest, held; T at or past k−1: k−1, held (each counted in `rewindsClamped`)
 * ```
 *
 * A client's made time (its render time) names a point of the server's timeline it drew from the server's
 * snapshots: with a snapshot every tick, the client's resampled state at T is this blend of the same two states,
 * bit for bit (`test/node/rewind.test.ts`). Sending every k-th tick, the client blended states k ticks apart, and
 * a curved path differs from this finer picture by the corner the client cut.
 *
 * The memory is allocated once (`states` blocks of the layout; a block of the view) and reused: pushing copies the
 * live runs (Int32 words: the generations' bits, whatever they are, copied exactly), a rewind blends into the
 * view; neither allocates. Only the worker's thread touches any of it.
 */
import type { Layout } from '../core/layout.ts';
import { blockRuns, liveSpans, type BlockRuns } from '../core/publish-copy.ts';
import { interpolateField } from '../core/interpolate.ts';
import { describeValue } from '../core/describe-value.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import { MAX_REWIND_BYTES, type RewoundWorld } from './rewind.ts';

interface Kept {
  time: number;
  count: number;
  readonly words: Int32Array;
  readonly generation: Uint32Array;
  /** Each field's run in this state, in layout order. */
  readonly runs: Float32Array[];
}

export class RewindHistory<S extends Schema> {
  /** Rewinds asked for, and those whose time lay outside the history (clamped to its oldest or newest state). */
  rewinds = 0;
  rewindsClamped = 0;
  readonly #layout: Layout;
  readonly #runs: BlockRuns;
  /** The world's block, as Int32 words. */
  readonly #world: Int32Array;
  readonly #kept: Kept[] = [];
  /** Ring of kept states: the oldest at `#first`, `#size` of them. */
  #first = 0;
  #size = 0;
  /** A step is running: rewinding is allowed. */
  #open = false;
  readonly #view: { time: number; clamped: boolean; count: number; fields: FieldViews<S> };
  readonly #viewRuns: Float32Array[];

  constructor(
    layout: Layout,
    /** The window, ms. */
    readonly rewindMs: number,
    /** States kept at most (`rewindStates`). */
    readonly states: number,
    /** The world's block (the worker's world region): what `begin` keeps. */
    world: Float32Array,
  ) {
    if (layout.tables.length > 0) throw new TypeError('steadyframe: rewind takes a plain schema; a schema of tables keeps its entities in ranges the history does not follow');
    const bytes = (states + 1) * layout.blockBytes;
    if (bytes > MAX_REWIND_BYTES) {
      throw new RangeError(`steadyframe: a rewind history of ${rewindMs} ms is ${states} states of ${layout.blockBytes} bytes (${(bytes / 2 ** 20).toFixed(0)} MiB), past ${MAX_REWIND_BYTES / 2 ** 20} MiB: shorten rewind.rewindMs or the capacity`);
    }
    this.#layout = layout;
    this.#world = new Int32Array(world.buffer, world.byteOffset, world.length);
    this.#runs = blockRuns(layout);
    const buffer = new ArrayBuffer(bytes);
    const runsAt = (byteOffset: number): Float32Array[] => layout.fields.map((f) => new Float32Array(buffer, byteOffset + f.offset, f.length));
    for (let i = 0; i < states; i++) {
      const at = i * layout.blockBytes;
      this.#kept.push({ time: 0, count: 0, words: new Int32Array(buffer, at, layout.blockBytes / 4), generation: new Uint32Array(buffer, at + layout.generationOffset, layout.capacity), runs: runsAt(at) });
    }
    const viewAt = states * layout.blockBytes;
    this.#viewRuns = runsAt(viewAt);
    const fields: Record<string, Float32Array> = {};
    layout.fields.forEach((f, i) => (fields[f.name] = this.#viewRuns[i]!));
    this.#view = { time: 0, clamped: false, count: 0, fields: fields as FieldViews<S> };
  }

  /** States kept now. */
  get size(): number {
    return this.#size;
  }

  /** Forgets every state: the world was made anew (init, restart('scratch'), restore, a replay's or playback's start). */
  reset(): void {
    this.#first = 0;
    this.#size = 0;
  }

  /**
   * A step begins: the world as it stands (`count` live entities) is the state at `time`, kept as the newest
   * (replacing a newest of the same time; a time before the newest starts the history again), and rewinding is
   * allowed until `end`.
   */
  begin(time: number, count: number): void {
    const block = this.#world;
    if (this.#size > 0) {
      const newest = this.#kept[(this.#first + this.#size - 1) % this.states]!;
      if (time === newest.time) this.#size--;
      else if (time < newest.time) this.reset();
    }
    // the oldest goes once the one after it is at or before the window's start (it is no pair's A any more), or
    // the ring is full
    while (this.#size >= 2 && this.#kept[(this.#first + 1) % this.states]!.time <= time - this.rewindMs) this.#drop();
    if (this.#size === this.states) this.#drop();
    const kept = this.#kept[(this.#first + this.#size) % this.states]!;
    kept.time = time;
    kept.count = count;
    const spans = this.#runs.spans;
    const words = kept.words;
    for (let k = 0, n = 2 * liveSpans(this.#runs, count); k < n; k += 2) {
      for (let i = spans[k]!, end = spans[k + 1]!; i < end; i++) words[i] = block[i]!;
    }
    this.#size++;
    this.#open = true;
  }

  /** The step ended: rewinding is refused until the next begins. */
  end(): void {
    this.#open = false;
  }

  /** The world as it was at shared-clock ms `time` (see the module comment). Allocates nothing. */
  rewind(time: number): RewoundWorld<S> {
    if (!this.#open) throw new Error('steadyframe: tick.rewind() is for a step: call it while step(world, tick) runs (not from init, a command or after the step returned)');
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      throw new RangeError(`steadyframe: tick.rewind(time) takes a finite shared-clock time in ms (an input's made time); got ${describeValue(time)}`);
    }
    this.rewinds++;
    const view = this.#view;
    const oldest = this.#kept[this.#first]!;
    const newest = this.#kept[(this.#first + this.#size - 1) % this.states]!;
    if (time < oldest.time || time >= newest.time) {
      const held = time < oldest.time ? oldest : newest;
      view.clamped = time !== newest.time;
      if (view.clamped) this.rewindsClamped++;
      view.time = held.time;
      this.#hold(held);
      return view;
    }
    // A: the newest kept at or before the time (the oldest is at or before it, the newest after it)
    let i = this.#size - 2;
    while (this.#kept[(this.#first + i) % this.states]!.time > time) i--;
    const a = this.#kept[(this.#first + i) % this.states]!;
    const b = this.#kept[(this.#first + i + 1) % this.states]!;
    const alpha = (time - a.time) / (b.time - a.time);
    const both = Math.min(a.count, b.count);
    const fields = this.#layout.fields;
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f]!;
      interpolateField(field.kind, field.width, a.runs[f]!, b.runs[f]!, this.#viewRuns[f]!, both, alpha);
    }
    // spawned since A, or snapped between A and B (a teleport, a despawn's swap): B's values, as the client's resampler takes them
    if (b.count > both) this.#copy(b, both, b.count);
    for (let e = 0; e < both; e++) if (a.generation[e] !== b.generation[e]) this.#copy(b, e, e + 1);
    view.time = time;
    view.clamped = false;
    view.count = b.count;
    return view;
  }

  #hold(kept: Kept): void {
    this.#copy(kept, 0, kept.count);
    this.#view.count = kept.count;
  }

  /** Entities `from` .. `to` − 1 of every field, as `kept` has them. */
  #copy(kept: Kept, from: number, to: number): void {
    const fields = this.#layout.fields;
    for (let f = 0; f < fields.length; f++) {
      const w = fields[f]!.width;
      const source = kept.runs[f]!;
      const out = this.#viewRuns[f]!;
      for (let i = from * w, end = to * w; i < end; i++) out[i] = source[i]!;
    }
  }

  #drop(): void {
    this.#first = (this.#first + 1) % this.states;
    this.#size--;
  }
}

