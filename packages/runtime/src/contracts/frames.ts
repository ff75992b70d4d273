/**
 * The app API's types about frames: how they are made from ticks (interpolation), paced (the adaptive render
 * interval), counted (sampling), read raw (`runtime.reader`), and how the two clocks were aligned. Types only;
 * the sampler, the frame pacer, the state reader and the clock alignment (src/main) apply them.
 */
import type { InterpolationMode, LatePolicy } from '../core/frame-placement.ts';
import type { StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { TableName, TableViews } from '../core/tables.ts';
import type { ReadLockStats } from '../core/slot-reader.ts';

/** What moved the render interval. */
export type PacerChangeReason = 'overrun' | 'spare' | 'refresh-change';

/** One change of the render interval. A new record per change; frames where nothing changes allocate nothing. */
export interface PacerChange {
  /** Render interval before the change, ms. */
  readonly from: number;
  /** Render interval after the change, ms. */
  readonly to: number;
  /** `n` before and after. */
  readonly fromMultiple: number;
  readonly toMultiple: number;
  /** The refresh period estimate after the change, ms. */
  readonly refreshPeriod: number;
  readonly reason: PacerChangeReason;
  /** The rAF timestamp of the frame that caused it: the rendered frame for 'overrun' and 'spare'. */
  readonly at: number;
}

/** The adaptive render interval's options (`createRuntime`'s `pacing`): the frame pacer (main/frame-pacer.ts) applies them. */
export interface FramePacerOptions {
  /** False: render on every callback, interval = the refresh period estimate. Default true. */
  readonly adaptive?: boolean;
  /** Largest `n`. Default 4: a quarter of the display rate (15 fps at 60 Hz) is about where motion stops reading
   *  as motion; past it, frames simply render as soon as the last one lets them (counted as overruns). */
  readonly maxMultiple?: number;
  /** How long, in wall time (ms), every rendered frame must fit a smaller interval with 20% to spare before
   *  n shrinks (to the smallest n the costliest of them fits with that margin). Default 250: one outlier costs
   *  a quarter second of reduced rate. A grow within four such runs after a shrink doubles it, up to 16 times
   *  (4 s), so a load that keeps proving too heavy is not tried again every quarter second. Wall time, not
   *  rendered frames: at a reduced rate frames come slowly, and recovery must not wait for them. */
  readonly spareMs?: number;
  /** Refresh period assumed until rAF timestamps say otherwise, ms. Default 1000 / 60. */
  readonly initialPeriod?: number;
  /** Called synchronously after each change, once the pacer's state is complete. Must not throw. */
  readonly onChange?: (change: PacerChange) => void;
}

/** How frames are made from ticks (`createRuntime`'s `interpolation`, `runtime.setInterpolation`): the sampler applies them. */
export interface InterpolationOptions<S extends Schema> {
  /** Default 'interpolate'. */
  readonly mode?: InterpolationMode;
  /** Ticks (0 to 2) to show the world in the past, to absorb a late or uneven worker. Default 0. */
  readonly renderDelay?: number;
  /** What a frame past the newest state shows. Default 'hold'. */
  readonly whenLate?: LatePolicy;
  /** Most ticks past a state that extrapolation predicts. Default 1. */
  readonly maxPrediction?: number;
  /** Entities that move more than `distance` in `field` within one tick snap (a teleport the game did not mark). */
  readonly snapDistance?: { readonly field: keyof S & string; readonly distance: number } | null;
}

/** Counters of what sampling had to do; plain numbers on the main thread. */
export interface SampleStats {
  /** Frames whose time was past the newest state. */
  late: number;
  /** Late frames shown by extrapolating. */
  extrapolated: number;
  /** Frames blended across a tick the main thread never saw (the worker published more than once between frames). */
  gaps: number;
  /** Entity snaps drawn. */
  snapped: number;
  /**
   * Frames the worker had published past (see `recovered`) whose two states around their time the main thread
   * had not kept, and delayed frames older than every state kept: drawn at the nearest state or blend at hand,
   * each flagged `overtaken`.
   */
  overtaken: number;
  /**
   * Frames whose time fell before the front slot's previous state (the worker had published past it: the
   * frame's callback ran late) that were blended from their exact pair all the same, from the states the main
   * thread keeps after an overtaken frame. `overtaken + recovered` is every frame the worker overtook.
   */
  recovered: number;
  /**
   * States copied into the main thread's history (each the live part of a block, `keptBytes` in all): for a
   * render delay, and after an overtaken frame whose pair had been read whole (one copies could recover).
   * Overtakes that no copy could serve (frames farther apart than ticks) start none, and stop those under way.
   */
  keptCopies: number;
  /** Bytes copied into the history (see `keptCopies`). */
  keptBytes: number;
}

/** How far the worker's clock was from the page's, and how sure we are of it. */
export interface ClockSkew {
  /** Ms the worker's shared clock read ahead of the page's before it was corrected. */
  readonly skew: number;
  /** Half the shortest probe round trip: the skew is known to within this many ms. */
  readonly uncertainty: number;
}

/** `runtime.reader`: the raw published states behind a scoped `read(fn)` (main/state-reader.ts makes it). */
export interface StateReader<S extends Schema> {
  /**
   * Calls `fn` with the newest pair of states and returns what it returns, or `undefined` when no pair could be
   * had (the lock stayed busy for `maxSpins` attempts, counted in `stats.misses`; or a `read` inside `fn`).
   * The pair, its views and its meta words are valid only during the call: copy out what you keep. The meta
   * words' COUNT and PREV_COUNT are checked (whole numbers within the capacity). `publishCount` is the number of
   * states published so far (mod 2^32), exact for this pair. Allocates nothing (pass a function made once).
   */
  read<T>(fn: (pair: StatePair<S>, publishCount: number) => T): T | undefined;
  /**
   * States published so far, mod 2^32 (an unsigned count: compare two with `(a - b) >>> 0`). Can be late by a
   * publish outside `read`.
   */
  publishCount(): number;
  /** Lock contention seen from this thread (acquires, spins, misses). */
  readonly stats: Readonly<ReadLockStats>;
}

/** How rendered frames' times met what the worker was told (`stats().frameClock`). */
export interface FrameClockStats {
  /**
   * Rendered frames drawn more than 1 ms away from the time announced to the worker for them (NEXT_FRAME):
   * rAF brought them a refresh or more later (after a stall), or the game passed another time.
   */
  unannounced: number;
  /** The farthest of them, ms (positive: later than announced). */
  maxOffsetMs: number;
  /** Frames that found the worker asleep short of their time, rang it and waited until its states reached them. */
  waits: number;
  /** Ms spent in those waits, in all and at most once. */
  waitMs: number;
  maxWaitMs: number;
  /**
   * Waits that gave up after CATCH_UP_WAIT_MS: those frames were drawn late (three in a row: no waits for a second;
   * each probe after such a spell that gives up too doubles the next, up to 8 s).
   */
  timeouts: number;
  /**
   * Frames (`frame`, `pace`) made outside any animation frame the runtime knew of: from a timer, a message
   * handler, a server loop, or a loop that began before the runtime (its frame hooks cannot enclose it). Drawn at
   * the timestamp passed, or now: pass rAF's timestamp in such a loop.
   */
  outsideFrames: number;
  /**
   * Frame times announced to the worker (NEXT_FRAME), and those that rang its doorbell (Atomics.notify: the
   * frame was past what the sleeping worker's states reach, core/doorbell.ts). A ring is a futex wake-up on this
   * thread (its cost, measured: ARCHITECTURE.md, "Measurements behind the code"); with ticks slower than frames,
   * about one frame in each tick rings.
   */
  announced: number;
  rings: number;
  /** Frames short of the worker's states drawn without a wait, late, in such a second. */
  unwaited: number;
  /**
   * Frames short of the worker's states whose callback came more than FRAME_HOLD_MS (50 ms) after their time:
   * the worker no longer holds for such a frame (it follows the wall clock), so it is drawn without a wait,
   * usually late.
   */
  unheld: number;
}

/** One table as a frame shows it. Indices are the table's own: 0 .. count - 1. */
export interface FrameTable<F extends Readonly<Record<string, Float32Array>> = Readonly<Record<string, Float32Array>>> {
  readonly name: string;
  /** The table's fields at the frame's time, over its own range of the render buffer: entity i at `fields.x[i * w]`. */
  readonly fields: F;
  readonly capacity: number;
  /** The table's first entity in `frame.fields` (its entity i is the frame's `base + i`). */
  readonly base: number;
  /** Live entities of the table in the state drawn. */
  readonly count: number;
  /** The handle of entity `index` as the frame shows it: stable for the entity's life (world-tables.ts). */
  handle(index: number): number;
  /**
   * The index in this frame of the entity whose handle is `handle`, or -1. The first call after a new frame
   * indexes the table's handles (count steps; allocates nothing); later ones look up.
   */
  indexOf(handle: number): number;
}

/** A schema's tables, by name, as a frame shows them (empty for a plain schema). */
export type FrameTables<S extends Schema> = { readonly [N in TableName<S>]: FrameTable<TableViews<S, N>> };
