/**
 * Client-side prediction and reconciliation (ARCHITECTURE.md, "Prediction, reconciliation and lag compensation"):
 * the game's own step, run in the client's network worker over a world of its own, ahead of the server, from the
 * client's own inputs.
 *
 * ```text
 *  snapshot of server tick T, reflecting the client's inputs up to n
 *     rebase: predicted world := state T; inputs up to n let go
 *     replay: step T+1 ... P with the inputs kept for each tick (those after n)      P: the tick predicted now
 *  each tick after: step P+1 with the inputs made for it (`input`), and so on
 * ```
 *
 * The prediction is never further off than the inputs the server has not reflected yet and what the client cannot
 * know (other players' inputs after T; state the server does not send: private fields, the generator, `tick.time`
 * as the server sums it). Given the same state, the same inputs and the same tick, a deterministic step makes the
 * same world on both ends, bit for bit where the wire carries fields exactly (unquantised): once the client's
 * inputs stop and a snapshot reflects them all, the prediction is the server's world (predictor.test.ts).
 *
 * What the step gets: `tick.tick` and `tick.dt` as the server's; `tick.at` and `tick.previousAt` on the server's
 * clock from the snapshot's time and the tick length; `tick.time` as tick × dt; `tick.input` the client's own
 * inputs for the tick (`sequence(i)` is the client's number, not the ring's); `tick.random()` a generator seeded by
 * the tick (not the server's); `tick.emit` kept nowhere (the server's events arrive with its snapshots).
 */
import { computeLayout, fieldViews, generationView } from '../core/layout.ts';
import { SeededRandom } from '../core/random.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationDefinition, TickInfo } from '../worker/definition.ts';
import type { RewoundWorld } from '../worker/rewind.ts';
import { createWorld, type PrivateFieldSpec, type World, type WorldInternals } from '../worker/world.ts';
import { PredictedInputs } from './predicted-input.ts';
import type { KeptSnapshot } from './snapshot-buffer.ts';

export interface PredictorOptions<S extends Schema, P extends PrivateFieldSpec> {
  /** The game's simulation: the definition the server runs (its schema, tick rate, private fields and step). */
  readonly simulation: SimulationDefinition<S, never, P> | SimulationDefinition<S, unknown, P>;
  /** Entities the world holds: the client's capacity. */
  readonly capacity: number;
  /** Payload values of the server's input ring (the player first, then the client's values). */
  readonly payloadWidth: number;
  /** Inputs kept until acknowledged, at most (default 1024). */
  readonly keep?: number;
}

/** What the predictor has done: ticks stepped, of them replayed after a rebase, rebases, and inputs let go unacknowledged. */
export interface PredictorStats {
  stepped: number;
  replayed: number;
  rebases: number;
  dropped: number;
}

export class Predictor<S extends Schema, P extends PrivateFieldSpec = Record<never, never>> {
  /** The predicted world (the step's own). */
  readonly world: World<S, P>;
  readonly stats: PredictorStats = { stepped: 0, replayed: 0, rebases: 0, dropped: 0 };
  /** The tick the world holds (−1 before the first rebase). */
  tick = -1;
  readonly #internals: WorldInternals<S, P>;
  readonly #inputs: PredictedInputs;
  readonly #step: (world: World<S, P>, tick: TickInfo) => void;
  readonly #info: { tick: number; dt: number; time: number; at: number; previousAt: number; input: PredictedInputs; random: () => number; emit: () => boolean; emitPayload: () => boolean; rewind: () => RewoundWorld<S> };
  readonly #random = new SeededRandom(0);
  /** What a predicted step's `tick.rewind` answers: the world as it stands (made once). */
  readonly #rewound: { time: number; clamped: boolean; count: number; fields: RewoundWorld<S>['fields'] };
  /** The server's clock at tick 0, as the last rebase's snapshot placed it, and a tick's ms. */
  #origin = 0;
  #tickMs: number;

  constructor(options: PredictorOptions<S, P>) {
    const { simulation, capacity, payloadWidth } = options;
    const layout = computeLayout(simulation.schema, capacity);
    const buffer = new ArrayBuffer(layout.blockBytes);
    this.#internals = createWorld<S, P>(layout, new Float32Array(buffer), fieldViews<S>(buffer, 0, layout), generationView(buffer, 0, layout), simulation.privateFields ?? ({} as P));
    this.world = this.#internals.world;
    this.#inputs = new PredictedInputs(payloadWidth, options.keep ?? 1024);
    this.#step = simulation.step.bind(simulation) as (world: World<S, P>, tick: TickInfo) => void;
    this.#tickMs = 1000 / simulation.tickRate;
    const random = this.#random;
    this.#info = {
      tick: 0,
      dt: 1 / simulation.tickRate,
      time: 0,
      at: 0,
      previousAt: 0,
      input: this.#inputs,
      random: () => random.next(),
      emit: () => false,
      emitPayload: () => false,
      // no history on the client: a predicted step's hit test sees the predicted world as it stands (what it
      // predicts of other entities is not kept; the server's rewind decides a hit)
      rewind: () => {
        const world = this.world;
        const rewound = this.#rewound;
        rewound.time = this.#info.previousAt;
        rewound.count = world.count;
        return rewound;
      },
    };
    this.#rewound = { time: 0, clamped: true, count: 0, fields: this.world.fields };
  }

  /** A tick's time on the server's clock, as the last rebase placed the ticks. */
  timeOf(tick: number): number {
    return this.#origin + tick * this.#tickMs;
  }

  /** The inputs kept, not yet acknowledged. */
  get pending(): number {
    return this.#inputs.size;
  }

  /**
   * An input the client made for tick `tick` (its number `number`, due at `due` on the server's clock, `payload`
   * the server ring's: the player first). Keep it before stepping `tick`.
   */
  input(number: number, tick: number, due: number, code: number, payload: ArrayLike<number>): void {
    this.#inputs.add(number, tick, due, code, payload);
    this.stats.dropped = this.#inputs.dropped;
  }

  /**
   * Starts again from a server state: `snapshot` (its tick, time, count and block), reflecting the client's
   * inputs up to `snapshot.reflected` (−1: none), with ticks `tickMs` long; then replays the kept inputs' ticks up
   * to `through` (the tick predicted before the snapshot came; nothing when it is not past the snapshot's).
   */
  rebase(snapshot: KeptSnapshot, tickMs: number, through: number): void {
    if (snapshot.reflected !== -1) this.#inputs.acknowledge(snapshot.reflected);
    this.#tickMs = tickMs;
    this.#origin = snapshot.time - snapshot.tick * tickMs;
    this.#internals.restore(snapshot.block, snapshot.count);
    this.tick = snapshot.tick;
    this.stats.rebases++;
    const from = this.stats.stepped;
    this.stepTo(through);
    this.stats.replayed += this.stats.stepped - from;
  }

  /** Steps the world on to tick `tick` (nothing when it holds that tick or a later one). */
  stepTo(tick: number): void {
    const info = this.#info;
    while (this.tick < tick) {
      const next = this.tick + 1;
      info.tick = next;
      info.time = next * info.dt;
      info.previousAt = this.timeOf(this.tick);
      info.at = this.timeOf(next);
      this.#random.seed(next);
      this.#inputs.select(next);
      this.#step(this.world, info as unknown as TickInfo);
      this.tick = next;
      this.stats.stepped++;
    }
  }
}
