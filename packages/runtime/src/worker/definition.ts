/** What a game hands `exposeSimulation`, what each tick tells its step, and the checks of the values that may change later. */
import type { Clock } from '../core/clock.ts';
import { describeValue } from '../core/describe-value.ts';
import type { BacklogPolicy } from '../core/fixed-step.ts';
import type { Schema } from '../core/schema.ts';
import type { NonFinitePolicy } from './finite-check.ts';
import type { RewindOptions, RewoundWorld } from './rewind.ts';
import type { TickInput } from './tick-input.ts';
import type { PrivateFieldSpec, World } from './world.ts';

export const MAX_TICK_RATE = 100_000;
export const MAX_TIME_SCALE = 1_000;

/** What one tick is about. The same object every tick: read it, do not keep it. */
export interface TickInfo<S extends Schema = Schema> {
  /** Number of the tick being produced (the first `step` produces tick 1; `init` is tick 0). */
  readonly tick: number;
  /** Simulated seconds this tick advances: 1 / tickRate. Not affected by the time scale. */
  readonly dt: number;
  /** Simulated seconds since tick 0 at the end of this tick. */
  readonly time: number;
  /** Shared-clock ms this tick's state stands for, and the previous state's (what the main thread blends). */
  readonly at: number;
  readonly previousAt: number;
  /** The input events for this tick, from `runtime.input` on the main thread (empty without an input ring). */
  readonly input: TickInput;
  /**
   * The run's seeded generator: a number in [0, 1) (32 random bits), the same sequence from the same seed on
   * every machine (xoshiro128**, core/random.ts; `createRuntime`'s `seed`). Use it instead of `Math.random()`
   * wherever the step draws, so that a seed, the setup and the inputs say everything about a run.
   */
  random(): number;
  /**
   * Tells the page something happened in this tick (a hit, a pickup, a shot): `code` is the game's (a whole
   * number, 0 or more), `p0`..`p3` its numbers (as many as the page's `events.payloadWidth` keeps, default 4).
   * The page gets it exactly once, in `frame.events` of the first frame that shows this tick. Returns false if
   * the event was lost: the runtime has no event ring (`events: false`) or the ring is full (counted, and
   * reported to the page as an EVENTS_LOST event). A step that throws emits nothing. Allocates nothing.
   */
  emit(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean;
  /** `emit` with the numbers from an array you reuse (for payloads wider than 4). */
  emitPayload(code: number, payload: ArrayLike<number>): boolean;
  /**
   * Lag compensation: the world as a client drew it at shared-clock ms `time` (an input's made time: the
   * publisher's `input.madeTime` puts it in payload value 1), blended from the states this simulation made as the
   * client's frame blended them; for hit tests. Needs the definition's `rewind`. The returned object is reused
   * by the next call; read-only. A time before the history's oldest state (`rewindMs` back) or past its newest
   * (the state this step started from) is clamped to it and counted (`stats().rewindsClamped`). Throws outside a
   * step, for a time that is not a finite number, and without `rewind`. Allocates nothing; costs a blend of
   * every live entity's fields.
   */
  rewind(time: number): RewoundWorld<S>;
}

/** What `init` gets besides the world and the set-up data: the worker's side of the runtime, for work outside the ticks. */
export interface SimulationContext {
  /**
   * The shared clock, ms: the clock `tick.at` is on (a manual clock's time under one). For timing what happens
   * between ticks, such as a network client stamping the messages it receives.
   */
  readonly clock: Clock;
  /** The run's seeded generator, as `tick.random()` (`init` draws first, the ticks after). */
  random(): number;
}

/**
 * `Setup` is the type of the set-up data `createRuntime({ setup })` sends (structured-cloneable: counts, bounds,
 * a seed, a level); `init` gets it. Export it from the worker module (`export type Setup = ...`) and name it on
 * the main thread (`createRuntime<typeof schema, Commands, Setup>`) to type both ends.
 */
export interface SimulationDefinition<S extends Schema, Setup = undefined, P extends PrivateFieldSpec = Record<never, never>> {
  readonly schema: S;
  /**
   * Per-entity state that is simulated but not drawn (velocity, health, timers), e.g. `{ velocity: { width: 2 } }`:
   * `world.private.velocity`, laid out in the worker only, never published (publishes copy none of it), moved by
   * `despawn` with the entity, and restored by `restart('last')` as it was at the last publish. None by default;
   * costs nothing when there are none.
   */
  readonly privateFields?: P;
  /** Ticks per simulated second. */
  readonly tickRate: number;
  /**
   * Fills the world for tick 0, with `createRuntime`'s `setup` (undefined when none was given). Runs once,
   * when the main thread attaches, and again (same `setup`) on `restart('scratch')`. `context` has the shared
   * clock.
   */
  init?(world: World<S, P>, setup: Setup, context: SimulationContext): void;
  /** Advances the world by one tick of `tick.dt` seconds, in place. */
  step(world: World<S, P>, tick: TickInfo<S>): void;
  /**
   * Keep a history of the states made for lag compensation (`tick.rewind(time)`): `true` for the last
   * DEFAULT_REWIND_MS (1000), or `{ rewindMs }` (at most MAX_REWIND_MS, 2000). Its memory is allocated at attach,
   * once: `ceil(rewindMs × tickRate / 1000) + 2` blocks of the layout (at 60 Hz, 1000 ms and 1,000 3D entities:
   * 62 × 32 KB, 2 MB); a faster tick rate or time scale set later keeps as many states, so a shorter window.
   * Plain schemas only (not tables). Default: none.
   */
  readonly rewind?: boolean | RewindOptions;
  /**
   * The simulation's own state kept outside the world (game rules' counters and timers, a physics engine's
   * world), as bytes, between two ticks. With `save` and `load`, `runtime.snapshot()` and `restore()` take that
   * state too, and a recording started mid-session replays; without them a snapshot holds the world and the
   * generator only, and a replay of a game that keeps state elsewhere must start from `init`. `load` gets what
   * `save` returned (possibly in another run, another process): put every bit back.
   */
  save?(): Uint8Array;
  load?(saved: Uint8Array): void;
  /** Most ticks run in one go. Default: a quarter second's worth, at least 4. */
  readonly maxCatchUpSteps?: number;
  /**
   * Most ticks the newest state may be ahead of the wall clock. Running ahead lets every frame be drawn at its
   * own time; running further decides ticks before the input that should shape them (ARCHITECTURE.md, Source
   * notes: "Simulating ahead and input"). Default 2; on a frameless host (Node) while no frame is expected
   * (a server that makes none), 0: each tick starts at its time. A value set here holds in both.
   */
  readonly maxLeadTicks?: number;
  /** What happens to time the simulation falls behind by (see `BacklogPolicy`). Default 'catch-up'. */
  readonly backlog?: BacklogPolicy;
  /** Under 'catch-up', the most backlog in ms kept to be caught up; more is dropped. Default 250. */
  readonly maxBacklog?: number;
  /**
   * Most ms of each timed wait spent spinning rather than sleeping, for ticks that start on time: a timed
   * wait alone wakes a fraction of a ms late (ARCHITECTURE.md, "The loop", has the figures). Spinning costs
   * CPU: at most `spinMs` per tick (frames wake the worker without it). Default: 6% of a tick, at most 1 ms
   * (1 ms at 60 Hz: 6% of a core at most); never more than half a tick, whatever is asked. 0: never.
   */
  readonly spinMs?: number;
  /** While the page is hidden: 'pause' sleeps and resumes without a burst (default); 'run' keeps ticking. */
  readonly whenHidden?: 'pause' | 'run';
  /**
   * NaN or infinite values a step writes to live entities: 'count' them (default; `stats().nonFiniteValues`),
   * 'hold' (count, and publish the entity's last finite value instead), or 'off' (no scan, for the last 1% of
   * speed: a scan costs about a nanosecond per float).
   */
  readonly nonFinite?: NonFinitePolicy;
  /**
   * The game's own calls, served over comlink as `runtime.commands` (functions of plain, cloneable values).
   * They run in the worker between ticks: record what they ask for and let `step` change the world.
   */
  readonly commands?: object;
}

/**
 * Shared-clock ms a tick takes at `tickRate` and `timeScale`: the one formula the loop, a recording and its
 * replay use, so that the tick times a recording leaves out come back bit for bit.
 */
export function tickLengthMs(tickRate: number, timeScale: number): number {
  return 1000 / tickRate / timeScale;
}

export function checkTickRate(hz: unknown): number {
  if (typeof hz !== 'number' || !Number.isFinite(hz) || hz <= 0 || hz > MAX_TICK_RATE) {
    throw new RangeError(`steadyframe: tick rate must be a finite number of Hz above 0 and at most ${MAX_TICK_RATE}; got ${describeValue(hz)}`);
  }
  return hz;
}

export function checkTimeScale(scale: unknown): number {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0 || scale > MAX_TIME_SCALE) {
    throw new RangeError(
      `steadyframe: time scale must be a finite number above 0 and at most ${MAX_TIME_SCALE} (use pause() to stop time); got ${describeValue(scale)}`,
    );
  }
  return scale;
}
