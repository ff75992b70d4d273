/**
 * Prediction in the network client (ARCHITECTURE.md, "Prediction, reconciliation and lag compensation"): what a
 * client predicts is drawn ahead of the server, the rest a playout delay behind, in the one world the client's
 * worker publishes. Each client tick:
 *
 * ```text
 *  s = server now + lead        lead = one-way (round trip / 2) + a tick + 2 × jitter + margin: an input stamped
 *                               for the tick at s reaches the server before the tick ahead of it is made
 *  a newer snapshot?  old := the predicted entities now; rebase on it and replay to the same tick; the difference
 *                     (old − new) becomes an offset that fades over smoothMs (past snapDistance: snapped, counted)
 *  the tick's inputs  ──▶ predicted in the next tick not yet stepped (due half a tick before its time), and sent
 *  step to P, the tick whose time is at or after s; keep P − 1's values
 *  write: each predicted entity's linear fields at s, between P − 1 and P, plus its offset; other kinds P's
 * ```
 *
 * The entity indices are the server's: a plain schema, every entity sent (no interest management, no tables).
 */
import { checkNumber } from '../core/describe-value.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationDefinition } from '../worker/definition.ts';
import type { PrivateFieldSpec, World } from '../worker/world.ts';
import { Predictor, type PredictorStats } from './predictor.ts';
import type { KeptSnapshot } from './snapshot-buffer.ts';

export interface PredictOptions<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  /** The game's simulation: the definition the server runs, imported by the client's worker. */
  readonly simulation: SimulationDefinition<S, never, P> | SimulationDefinition<S, unknown, P>;
  /** The entities this client predicts, given the predicted world and its player (e.g. its avatar): their indices into `out`. */
  readonly entities: (world: World<S, P>, player: number, out: number[]) => void;
  /** Ms a correction fades over (default 100): the drawn entity moves from the old prediction to the new one. */
  readonly smoothMs?: number;
  /** A correction larger than this in any linear component snaps instead of fading (counted). Default: never. */
  readonly snapDistance?: number;
  /** Ms past the link's one-way delay, a tick and twice its jitter that the prediction runs ahead (default 10). */
  readonly marginMs?: number;
  /**
   * The server's publisher sets `input.madeTime`: the predicted step's inputs carry the made time in payload value
   * 1 as the server's do (INPUT_MADE_TIME), so the step reads its values where the server's reads them. Default false.
   */
  readonly madeTime?: boolean;
}

/** What prediction has done: `network().predicted`. */
export interface PredictionStats extends PredictorStats {
  /** Entities predicted now. */
  entities: number;
  /** The tick predicted, and how many ticks ahead of the newest snapshot it is. */
  tick: number;
  ahead: number;
  /** How far ahead of the server's now the prediction draws, ms. */
  leadMs: number;
  /** Rebases that moved a predicted entity, the largest such move (over components), and those that snapped. */
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
  /** The linear fields, by name (the ones blended and corrected). */
  readonly #linear: readonly { readonly name: string; readonly width: number }[];
  readonly #others: readonly { readonly name: string; readonly width: number }[];
  /** Predicted entities now, and per entity its linear values at the tick before, its offset, and a scratch. */
  readonly #entities: number[] = [];
  readonly #before: Float64Array;
  readonly #offset: Float64Array;
  readonly #scratch: Float64Array;
  /** Floats of linear fields per entity. */
  readonly #stride: number;
  #rebasedTick = -1;
  #lastAt = Number.NaN;
  /** Entities whose correction snapped: drawn unblended at the next write. */
  readonly #snapping: number[] = [];

  constructor(options: PredictOptions<S, P>, capacity: number, payloadWidth: number) {
    this.#options = options;
    this.#smoothMs = checkNumber('networkClient predict.smoothMs', options.smoothMs ?? 100, 0);
    this.#snapDistance = options.snapDistance === undefined ? Number.POSITIVE_INFINITY : checkNumber('networkClient predict.snapDistance', options.snapDistance, 0);
    this.#marginMs = checkNumber('networkClient predict.marginMs', options.marginMs ?? 10, 0);
    const schema = options.simulation.schema as Schema;
    const fields = (Object.entries(schema) as [string, { kind: string; width: number; scope?: string; table?: string }][]).filter(([, spec]) => spec.scope !== 'game');
    if (fields.some(([, spec]) => spec.table !== undefined)) throw new TypeError('steadyframe: networkClient predict needs a plain schema: entity tables are not predicted yet');
    this.#linear = fields.filter(([, spec]) => spec.kind === 'linear').map(([name, spec]) => ({ name, width: spec.width }));
    this.#others = fields.filter(([, spec]) => spec.kind !== 'linear').map(([name, spec]) => ({ name, width: spec.width }));
    this.#stride = this.#linear.reduce((n, f) => n + f.width, 0);
    this.#before = new Float64Array(capacity * this.#stride);
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
    const before = started ? this.#entities.slice() : [];
    predictor.rebase(newest, this.#tickMs, Math.max(predictor.tick, newest.tick));
    this.#choose(player);
    if (!started) return;
    const values = this.predictor.world.fields as unknown as Record<string, Float32Array>;
    let moved = false;
    for (const e of this.#entities) {
      // one that was not predicted before (a spawn, a new avatar) has no old prediction to fade from
      if (!before.includes(e)) continue;
      let largest = 0;
      let k = e * this.#stride;
      for (const { name, width } of this.#linear) {
        for (let c = 0; c < width; c++, k++) {
          const change = this.#scratch[k]! - values[name]![e * width + c]!;
          largest = Math.max(largest, Math.abs(change));
          this.#offset[k] = this.#offset[k]! + change;
        }
      }
      if (largest === 0) continue;
      moved = true;
      this.stats.largestCorrection = Math.max(this.stats.largestCorrection, largest);
      if (largest > this.#snapDistance) {
        this.#offset.fill(0, e * this.#stride, (e + 1) * this.#stride);
        this.stats.snaps++;
        this.#snapping.push(e);
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
   * Steps the prediction to the server time `s` (the server's now plus the lead, at the client tick's time `at`)
   * and writes the predicted entities into `world`: linear fields between the tick before and the tick, plus their
   * offsets (faded by the ms since the last write); other kinds as the tick has them.
   */
  advance(s: number, at: number, leadMs: number, newestTick: number, world: World<S>, player: number): void {
    const predictor = this.predictor;
    const target = Math.max(predictor.tick, Math.ceil((s - predictor.timeOf(0)) / this.#tickMs));
    if (predictor.tick < target) {
      predictor.stepTo(target - 1);
      this.#choose(player);
      this.#read(this.#before);
      predictor.stepTo(target);
      this.#choose(player);
    }
    const fade = Number.isNaN(this.#lastAt) || this.#smoothMs === 0 ? 0 : Math.exp((-3 * Math.max(0, at - this.#lastAt)) / this.#smoothMs);
    this.#lastAt = at;
    for (let k = 0; k < this.#offset.length; k++) this.#offset[k] = this.#offset[k]! * fade;
    const alpha = Math.min(1, Math.max(0, (s - predictor.timeOf(target - 1)) / this.#tickMs));
    const from = predictor.world.fields as unknown as Record<string, Float32Array>;
    const to = world.fields as unknown as Record<string, Float32Array>;
    for (const e of this.#entities) {
      if (e >= world.count) continue;
      let k = e * this.#stride;
      for (const { name, width } of this.#linear) {
        for (let c = 0; c < width; c++, k++) {
          const now = from[name]![e * width + c]!;
          to[name]![e * width + c] = this.#before[k]! + (now - this.#before[k]!) * alpha + this.#offset[k]!;
        }
      }
      for (const { name, width } of this.#others) to[name]!.set(from[name]!.subarray(e * width, (e + 1) * width), e * width);
    }
    for (const e of this.#snapping) if (e < world.count) world.snap(e);
    this.#snapping.length = 0;
    const stats = this.stats;
    stats.entities = this.#entities.length;
    stats.tick = predictor.tick;
    stats.ahead = predictor.tick - newestTick;
    stats.leadMs = leadMs;
  }

  #choose(player: number): void {
    this.#entities.length = 0;
    this.#options.entities(this.predictor.world, player, this.#entities);
    const count = this.predictor.world.count;
    for (let i = this.#entities.length - 1; i >= 0; i--) {
      const e = this.#entities[i]!;
      if (!(Number.isInteger(e) && e >= 0 && e < count)) this.#entities.splice(i, 1);
    }
  }

  /** Each predicted entity's linear values now, into `out` (by entity, then field and component). */
  #read(out: Float64Array): void {
    const values = this.predictor.world.fields as unknown as Record<string, Float32Array>;
    for (const e of this.#entities) {
      let k = e * this.#stride;
      for (const { name, width } of this.#linear) for (let c = 0; c < width; c++, k++) out[k] = values[name]![e * width + c]!;
    }
  }
}
