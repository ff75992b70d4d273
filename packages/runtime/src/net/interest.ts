/**
 * Interest management (ARCHITECTURE.md, "Multiplayer": interest): each client receives only the entities it may
 * see, as a world of its own: `count` slots that stay with an entity while it stays seen. The server quantises a
 * state once; each client's view gathers its entities' codes into slots and is delta-coded against that client's
 * own acknowledged views (its own DeltaEncoder: views differ, so they share no encoding).
 *
 * ```text
 *  the state (quantised once) ── select(client): indices ──▶ ClientView.update
 *     an entity it saw and still sees: its slot stays       [ 7 | 2 | 9 | 4 ]  slots (entity indices)
 *     one that left: the last slot's entity moves into its slot, which snaps it (a new generation there)
 *     one that entered: a new last slot, snapped
 *  each slot's generation: the entity's, mixed with its index, so a slot whose entity changed is a respawn to the
 *  client (drawn snapped, never blended from another entity's place)
 * ```
 *
 * A schema of tables (core/tables.ts) keeps its entities in ranges, which a view's slots do not: interest takes
 * plain schemas.
 */
import { ClientBaseline, DeltaEncoder } from './delta-stream.ts';
import type { SnapshotCodes } from './snapshot-codes.ts';
import type { SnapshotHead } from './wire.ts';
import type { WireFormat } from './wire-head.ts';

/** The state a client's entities are chosen from: the live values of each field, copied at the snapshot. */
export interface InterestState {
  readonly tick: number;
  readonly count: number;
  /** Entity i's component c of a field of width w at `field(name)[i * w + c]`. Valid during the selection. */
  field(name: string): Float32Array;
}

/** What `select` is told of the client it chooses for. */
export interface InterestClient {
  readonly player: number;
}

export interface InterestOptions {
  /**
   * The entities `client` receives in this snapshot: their indices (each below `state.count`, none twice) written
   * into `out`, how many returned (at most `out.length`, the limit). `radiusInterest` makes one.
   */
  readonly select: (client: InterestClient, state: InterestState, out: Uint32Array) => number;
  /** Most entities one client sees (default 1024, or the server's capacity if less): the clients' capacity must hold it. */
  readonly limit?: number;
}

/** Default most entities a client sees. */
export const DEFAULT_INTEREST_LIMIT = 1024;

/** One client's view: which entity each slot holds, and its own delta stream. */
export class ClientView {
  readonly encoder: DeltaEncoder;
  readonly baseline = new ClientBaseline();
  /** Slot → entity index. */
  readonly #members: Uint32Array;
  /** Entity index → slot, or −1. */
  readonly #slotOf: Int32Array;
  #count = 0;
  /** Marks of the entities selected this time (the tick's number), to find the ones that left. */
  readonly #seen: Float64Array;
  readonly stats = { visible: 0, entered: 0, left: 0 };

  constructor(
    readonly format: WireFormat,
    readonly limit: number,
  ) {
    this.encoder = new DeltaEncoder(format, limit);
    this.#members = new Uint32Array(limit);
    this.#slotOf = new Int32Array(format.layout.capacity).fill(-1);
    this.#seen = new Float64Array(format.layout.capacity).fill(-1);
  }

  /**
   * Takes this snapshot's selection (`selected[0..n)`, checked: in range, no repeats) and pushes the view of
   * `state` (the server's quantised state) to the encoder, under `head` (its count replaced by the view's).
   */
  update(head: SnapshotHead, state: SnapshotCodes, selected: Uint32Array, n: number): void {
    const mark = head.tick;
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const index = selected[j]!;
      if (!(index < state.count) || this.#seen[index] === mark) {
        throw new RangeError(`steadyframe: interest select chose entity ${index} ${index < state.count ? 'twice' : `of ${state.count}`}: each live entity at most once`);
      }
      this.#seen[index] = mark;
      if (this.#slotOf[index]! >= 0) kept++;
    }
    // the ones that left: swap-remove, the last slot's entity into the hole
    if (kept < this.#count) {
      for (let slot = this.#count - 1; slot >= 0; slot--) {
        const index = this.#members[slot]!;
        if (this.#seen[index] === mark && index < state.count) continue;
        this.#slotOf[index] = -1;
        const last = this.#members[--this.#count]!;
        if (slot !== this.#count) {
          this.#members[slot] = last;
          this.#slotOf[last] = slot;
        }
        this.stats.left++;
      }
    }
    for (let j = 0; j < n; j++) {
      const index = selected[j]!;
      if (this.#slotOf[index]! >= 0) continue;
      this.#slotOf[index] = this.#count;
      this.#members[this.#count++] = index;
      this.stats.entered++;
    }
    this.stats.visible = this.#count;
    const C = this.format.codesPerEntity;
    const members = this.#members;
    const count = this.#count;
    this.encoder.pushCodes({ ...head, count }, (view) => {
      for (let slot = 0; slot < count; slot++) {
        const index = members[slot]!;
        view.codes.set(state.codes.subarray(index * C, index * C + C), slot * C);
        // a slot's generation names its entity: another entity there is a respawn to the client
        view.generation[slot] = (state.generation[index]! + Math.imul(index + 1, 0x9e3779b1)) >>> 0;
      }
      view.game.set(state.game);
    });
  }

  /** The view's message for this client (a delta against the view it acknowledged last). */
  message(): Uint8Array {
    return this.baseline.message(this.encoder);
  }
}

/**
 * The publisher's side of interest: the state's live values copied at each snapshot (under the reader's lock, one
 * copy a field), and each client's selection made from them into its view.
 */
export function interestViews(format: WireFormat, options: InterestOptions) {
  const layout = format.layout;
  if (layout.tables.length > 0) throw new TypeError('steadyframe: interest management takes a plain schema; a schema of tables keeps its entities in ranges that a client view does not');
  if (typeof options.select !== 'function') throw new TypeError('steadyframe: interest needs select(client, state, out), e.g. radiusInterest({ radius, focus })');
  const limit = options.limit ?? Math.min(DEFAULT_INTEREST_LIMIT, layout.capacity);
  if (!Number.isInteger(limit) || limit < 1 || limit > layout.capacity) throw new RangeError(`steadyframe: interest's limit must be a whole number from 1 to the capacity (${layout.capacity}); got ${String(limit)}`);
  const copy = new Float32Array(layout.blockBytes / 4);
  const selected = new Uint32Array(limit);
  let tick = -1;
  let count = 0;
  const byName = new Map(layout.fields.map((f) => [f.name, f]));
  const state: InterestState = {
    get tick() {
      return tick;
    },
    get count() {
      return count;
    },
    field(name) {
      const field = byName.get(name);
      if (field === undefined) throw new RangeError(`steadyframe: interest asked for field "${name}", which the schema does not have`);
      return copy.subarray(field.offset / 4, field.offset / 4 + count * field.width);
    },
  };
  return {
    limit,
    /** The live values of `block` (the state just pushed), copied. */
    copy(block: Float32Array, head: SnapshotHead): void {
      tick = head.tick;
      count = head.count;
      for (const field of layout.fields) copy.set(block.subarray(field.offset / 4, field.offset / 4 + count * field.width), field.offset / 4);
    },
    /** `client`'s selection, its view updated and pushed. */
    select(client: InterestClient, view: ClientView, head: SnapshotHead, quantized: SnapshotCodes): void {
      const n = options.select(client, state, selected);
      if (!Number.isInteger(n) || n < 0 || n > limit) throw new RangeError(`steadyframe: interest select returned ${String(n)}; a count from 0 to the limit (${limit})`);
      view.update(head, quantized, selected, n);
    },
  };
}
