/**
 * Prediction in the network client (ARCHITECTURE.md, "Prediction, reconciliation and lag compensation"): what a
 * client predicts is drawn ahead of the server, the rest a playout delay behind, in the one world the client's
 * worker publishes. Each client tick:
 *
 * ```text
 *  s = server now + lead        lead = one-way (round trip / 2) + a tick + 2 × jitter + margin: an input stamped
 *                               for the tick at s reaches the server before the tick ahead of it is made
 *  a newer snapshot?  old := the predicted entities now; rebase on it and replay to the same tick; the difference
 *                     (old − new) becomes an offset that fades over smoothMs (past snapDistance: snapped, counted),
 *                     and the values of the tick before shift by it too: the blend drawn next is the old one, moved
 *                     by nothing until the offset fades
 *  the tick's inputs  ──▶ predicted in the next tick not yet stepped (due half a tick before its time), and sent
 *  step to P, the tick whose time is at or after s; keep P − 1's values
 *  write: each predicted entity's linear fields at s, between P − 1 and P, plus its offset; other kinds P's
 * ```
 *
 * Each predicted entity is followed by its key: its handle in its table (a despawn that moves it, in either
 * world, keeps its correction and its blend), or its index in a plain schema. It is written where the world drawn
 * now holds that key: the predicted world is ticks ahead of it, and a table's entities may sit at other indices
 * there, or not be there yet (a spawn the server has not sent: not drawn). Every entity must be sent (no interest
 * management: the predicted world is the server's, index for index).
 */
import { checkNumber } from '../core/describe-value.ts';
import { computeLayout, type TableLayout } from '../core/layout.ts';
import { TABLE_HANDLE, type Schema } from '../core/schema.ts';
import { HANDLE_LIMIT } from '../core/tables.ts';
import type { SimulationDefinition } from '../worker/definition.ts';
import type { PrivateFieldSpec, World } from '../worker/world.ts';
import { Predictor, type PredictorStats } from './predictor.ts';
import type { KeptSnapshot } from './snapshot-buffer.ts';

export interface PredictOptions<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  /** The game's simulation: the definition the server runs, imported by the client's worker. */
  readonly simulation: SimulationDefinition<S, never, P> | SimulationDefinition<S, unknown, P>;
  /**
   * The entities this client predicts, given the predicted world and its player (e.g. its avatar): their world
   * indices into `out` (a table's entity i is `world.tables.name.base + i`).
   */
  readonly entities: (world: World<S, P>, player: number, out: number[]) => void;
  /** Ms a correction fades over (default 100): the drawn entity moves from the old prediction to the new one. */
  readonly smoothMs?: number;
  /**
   * A correction larger than this in any component of a linear field that is no other field's `velocity` (a place,
   * not a rate: a knock's change of speed is not a distance) snaps instead of fading (counted). Default: never.
   */
  readonly snapDistance?: number;
  /** Ms past the link's one-way delay, a tick and twice its jitter that the prediction runs ahead (default 10). */
  readonly marginMs?: number;
  /**
   * The server's publisher sets `input.madeTime`: the predicted step's inputs carry the made time in payload value
   * 1 as the server's do (INPUT_MADE_TIME), so the step reads its values where the server's reads them. Default false.
   */
  readonly madeTime?: boolean;
}

/** How much faster or slower than the client's clock the prediction's time may run to follow its target (a fifth). */
const SLEW = 0.2;
/** A target that moved more than this (ms) from where the slewed time is is taken at once (slewing would take seconds). */
const SLEW_LIMIT_MS = 500;

/** What prediction has done: `network().predicted`. */
export interface PredictionStats extends PredictorStats {
  /** Entities predicted now. */
  entities: number;
  /** The tick predicted, and how many ticks ahead of the newest snapshot it is. */
  tick: number;
  ahead: number;
  /** How far ahead of the server's now the prediction draws, ms. */
  leadMs: number;
  /**
   * Rebases that moved a predicted entity, the largest such move (over the components of the linear fields that
   * are no other field's velocity: places, not rates), and those that snapped.
   */
  corrections: number;
  largestCorrection: number;
  snaps: number;
}

/** A client's prediction: the predictor, the offsets of its corrections, and the values it writes. */
export class ClientPrediction<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  readonly predictor: Predictor<S, P>;
  readonly stats: PredictionStats;
  readonly #options: PredictOptions<S, P>;
  readonly #smoothMs: number;
  readonly #snapDistance: number;
  readonly #marginMs: number;
  readonly #tickMs: number;
  /**
   * The linear fields, by name (the ones blended and corrected), and whether each is a place (what a correction
   * is measured by: a field no other names as its `velocity`; every one, when all are rates).
   */
  readonly #linear: readonly { readonly name: string; readonly width: number; readonly place: boolean }[];
  readonly #others: readonly { readonly name: string; readonly width: number }[];
  /** The schema's tables (none: a plain schema, an entity's key is its index). */
  readonly #tables: readonly TableLayout[];
  /** Predicted entities now (indices into the predicted world), and each one's key. */
  readonly #entities: number[] = [];
  readonly #keys: number[] = [];
  /**
   * A slot per predicted key: its linear values at the tick before (and whether it has them), its offset, and a
   * scratch (`#stride` floats each). Slots are the capacity's, taken and given back as keys come and go.
   */
  readonly #slots = new Map<number, number>();
  readonly #freeSlots: number[];
  readonly #before: Float64Array;
  readonly #hasBefore: Uint8Array;
  readonly #offset: Float64Array;
  readonly #scratch: Float64Array;
  /** Floats of linear fields per entity. */
  readonly #stride: number;
  #rebasedTick = -1;
  #lastAt = Number.NaN;
  /** The server time the prediction was last drawn at (slewed: `advance`). */
  #time = Number.NaN;
  /** Keys whose correction snapped: drawn unblended at the next write. */
  readonly #snapping: number[] = [];

  constructor(options: PredictOptions<S, P>, capacity: number, payloadWidth: number) {
    this.#options = options;
    this.#smoothMs = checkNumber('networkClient predict.smoothMs', options.smoothMs ?? 100, 0);
    this.#snapDistance = options.snapDistance === undefined ? Number.POSITIVE_INFINITY : checkNumber('networkClient predict.snapDistance', options.snapDistance, 0);
    this.#marginMs = checkNumber('networkClient predict.marginMs', options.marginMs ?? 10, 0);
    const schema = options.simulation.schema as Schema;
    const fields = (Object.entries(schema) as [string, { kind: string; width: number; scope?: string; table?: string }][]).filter(([, spec]) => spec.scope !== 'game');
    const rates = new Set(fields.map(([, spec]) => (spec as { velocity?: string }).velocity));
    const linear = fields.filter(([, spec]) => spec.kind === 'linear');
    const places = linear.some(([name]) => !rates.has(name));
    this.#linear = linear.map(([name, spec]) => ({ name, width: spec.width, place: !places || !rates.has(name) }));
    this.#others = fields.filter(([, spec]) => spec.kind !== 'linear').map(([name, spec]) => ({ name, width: spec.width }));
    this.#stride = this.#linear.reduce((n, f) => n + f.width, 0);
    this.#tables = computeLayout(schema, capacity).tables;
    this.#freeSlots = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    this.#before = new Float64Array(capacity * this.#stride);
    this.#hasBefore = new Uint8Array(capacity);
    this.#offset = new Float64Array(capacity * this.#stride);
    this.#scratch = new Float64Array(capacity * this.#stride);
    this.#tickMs = 1000 / options.simulation.tickRate;
    this.predictor = new Predictor({ simulation: options.simulation, capacity, payloadWidth });
    this.stats = Object.assign(this.predictor.stats, { entities: 0, tick: -1, ahead: 0, leadMs: 0, corrections: 0, largestCorrection: 0, snaps: 0 });
  }

  /** The lead over the server's now, ms, for a link of this round trip and jitter. */
  leadMs(roundTrip: number, jitter: number): number {
    return roundTrip / 2 + this.#tickMs + 2 * (Number.isFinite(jitter) ? jitter : 0) + this.#marginMs;
  }

  /**
   * Rebases on `newest` when it is newer than the last one, turning the change of each predicted entity's values
   * into an offset that fades (or a snap, counted, of the entity drawn at the next `advance`).
   */
  reconcile(newest: KeptSnapshot, player: number): void {
    if (newest.tick <= this.#rebasedTick) return;
    this.#rebasedTick = newest.tick;
    const predictor = this.predictor;
    const started = predictor.tick >= 0;
    if (started) this.#read(this.#scratch);
    const before = started ? this.#keys.slice() : [];
    predictor.rebase(newest, this.#tickMs, Math.max(predictor.tick, newest.tick));
    this.#choose(player);
    if (!started) return;
    const values = this.predictor.world.fields as unknown as Record<string, Float32Array>;
    const stride = this.#stride;
    let moved = false;
    for (let i = 0; i < this.#entities.length; i++) {
      const e = this.#entities[i]!;
      const key = this.#keys[i]!;
      // one that was not predicted before (a spawn, a new avatar) has no old prediction to fade from
      if (!before.includes(key)) continue;
      const slot = this.#slots.get(key)!;
      let largest = 0;
      let changed = false;
      let k = slot * stride;
      for (const { name, width, place } of this.#linear) {
        for (let c = 0; c < width; c++, k++) {
          const change = this.#scratch[k]! - values[name]![e * width + c]!;
          if (change === 0) continue;
          changed = true;
          if (place) largest = Math.max(largest, Math.abs(change));
          // drawn next: the blend from the tick before to the new tick, plus the offset. The tick before shifts
          // with the tick, so the blend is the old one until the offset fades (left as it was, the blend ran from
          // the old prediction's tick before to the new one's tick: on a client tick that steps no server tick,
          // the entity jumped by (1 − alpha) of the correction, and back at the next)
          this.#offset[k] = this.#offset[k]! + change;
          this.#before[k] = this.#before[k]! - change;
        }
      }
      if (!changed) continue;
      moved = true;
      this.stats.largestCorrection = Math.max(this.stats.largestCorrection, largest);
      if (largest > this.#snapDistance) {
        this.#offset.fill(0, slot * stride, (slot + 1) * stride);
        this.stats.snaps++;
        this.#snapping.push(key);
      }
    }
    if (moved) this.stats.corrections++;
  }

  /**
   * The tick the client's inputs made now go to (the first not yet stepped), and its due time on the server's
   * clock: half a tick before the tick's time, so that the server's tick takes it whatever the rounding.
   */
  inputTick(): number {
    return this.predictor.tick + 1;
  }

  dueOf(tick: number): number {
    return this.predictor.timeOf(tick) - this.#tickMs / 2;
  }

  /**
   * Steps the prediction on to `aim` (the server's now plus the lead, at the client tick's time `at`), slewed,
   * and writes the predicted entities into `world`: linear fields between the tick before and the tick, plus their
   * offsets (faded by the ms since the last write); other kinds as the tick has them.
   *
   * Slewed: the time drawn runs with the client's clock, at most SLEW faster or slower, towards the target, so a
   * lead or a server clock that changed (a round trip measured anew, jitter) moves the drawn entities a little
   * faster or slower for a while instead of jumping them ahead or back; a change past SLEW_LIMIT_MS is taken at once.
   */
  advance(aim: number, at: number, leadMs: number, newestTick: number, world: World<S>, player: number): void {
    const predictor = this.predictor;
    const stride = this.#stride;
    const elapsed = Number.isNaN(this.#lastAt) ? 0 : Math.max(0, at - this.#lastAt);
    const free = this.#time + elapsed;
    const s = Number.isNaN(free) || Math.abs(aim - free) > SLEW_LIMIT_MS ? aim : free + Math.max(-SLEW * elapsed, Math.min(SLEW * elapsed, aim - free));
    this.#time = s;
    const target = Math.max(predictor.tick, Math.ceil((s - predictor.timeOf(0)) / this.#tickMs));
    if (predictor.tick < target) {
      predictor.stepTo(target - 1);
      this.#choose(player);
      this.#read(this.#before);
      for (const key of this.#keys) this.#hasBefore[this.#slots.get(key)!] = 1;
      predictor.stepTo(target);
      this.#choose(player);
    }
    const fade = Number.isNaN(this.#lastAt) || this.#smoothMs === 0 ? 0 : Math.exp((-3 * elapsed) / this.#smoothMs);
    this.#lastAt = at;
    for (let k = 0; k < this.#offset.length; k++) this.#offset[k] = this.#offset[k]! * fade;
    const alpha = Math.min(1, Math.max(0, (s - predictor.timeOf(target - 1)) / this.#tickMs));
    const from = predictor.world.fields as unknown as Record<string, Float32Array>;
    const to = world.fields as unknown as Record<string, Float32Array>;
    for (let i = 0; i < this.#entities.length; i++) {
      const e = this.#entities[i]!;
      const slot = this.#slots.get(this.#keys[i]!)!;
      // where the world drawn now holds it: not there yet (a spawn it has not been sent), not drawn
      const d = this.#shownAt(this.#keys[i]!, world);
      if (d < 0) continue;
      const blend = this.#hasBefore[slot] === 1;
      let k = slot * stride;
      for (const { name, width } of this.#linear) {
        for (let c = 0; c < width; c++, k++) {
          const now = from[name]![e * width + c]!;
          const then = blend ? this.#before[k]! : now;
          to[name]![d * width + c] = then + (now - then) * alpha + this.#offset[k]!;
        }
      }
      for (const { name, width } of this.#others) to[name]!.set(from[name]!.subarray(e * width, (e + 1) * width), d * width);
    }
    for (const key of this.#snapping) {
      const d = this.#shownAt(key, world);
      if (d >= 0) world.snap(d);
    }
    this.#snapping.length = 0;
    const stats = this.stats;
    stats.entities = this.#entities.length;
    stats.tick = predictor.tick;
    stats.ahead = predictor.tick - newestTick;
    stats.leadMs = leadMs + s - aim;
  }

  /**
   * The entities `entities` chooses in the predicted world now, and their keys; a slot for each new key (no
   * offset, no values of the tick before), the slots of keys no longer chosen given back.
   */
  #choose(player: number): void {
    const entities = this.#entities;
    const keys = this.#keys;
    entities.length = 0;
    this.#options.entities(this.predictor.world, player, entities);
    const count = this.predictor.world.count;
    for (let i = entities.length - 1; i >= 0; i--) {
      const e = entities[i]!;
      if (!(Number.isInteger(e) && e >= 0 && e < count) || entities.indexOf(e) !== i) entities.splice(i, 1);
    }
    keys.length = 0;
    for (const e of entities) keys.push(this.#keyOf(e));
    for (const [key, slot] of this.#slots) {
      if (keys.includes(key)) continue;
      this.#slots.delete(key);
      this.#freeSlots.push(slot);
    }
    for (const key of keys) {
      if (this.#slots.has(key)) continue;
      const slot = this.#freeSlots.pop()!;
      this.#offset.fill(0, slot * this.#stride, (slot + 1) * this.#stride);
      this.#hasBefore[slot] = 0;
      this.#slots.set(key, slot);
    }
  }

  /** Entity `e` of the predicted world's key: its table's number × HANDLE_LIMIT + its handle, or `e` (a plain schema). */
  #keyOf(e: number): number {
    const tables = this.#tables;
    for (let t = 0; t < tables.length; t++) {
      const { base, capacity } = tables[t]!;
      if (e >= base && e < base + capacity) return t * HANDLE_LIMIT + this.predictor.world.fields[TABLE_HANDLE as never]![e]!;
    }
    return e;
  }

  /** Where `world` (the one drawn now) holds the entity of key `key`: its index, or -1. */
  #shownAt(key: number, world: World<S>): number {
    if (this.#tables.length === 0) return key < world.count ? key : -1;
    const table = this.#tables[Math.floor(key / HANDLE_LIMIT)]!;
    const handle = key % HANDLE_LIMIT;
    const handles = world.fields[TABLE_HANDLE as never] as Float32Array;
    const live = (world.tables as unknown as Record<string, { count: number }>)[table.name]!.count;
    for (let i = table.base; i < table.base + live; i++) if (handles[i] === handle) return i;
    return -1;
  }

  /** Each predicted entity's linear values now, into its slot of `out` (by field and component). */
  #read(out: Float64Array): void {
    const values = this.predictor.world.fields as unknown as Record<string, Float32Array>;
    for (let i = 0; i < this.#entities.length; i++) {
      const e = this.#entities[i]!;
      let k = this.#slots.get(this.#keys[i]!)! * this.#stride;
      for (const { name, width } of this.#linear) for (let c = 0; c < width; c++, k++) out[k] = values[name]![e * width + c]!;
    }
  }
}
