/**
 * The frame loop: once per animation frame, pace (present on this refresh?), sample the front pair into the
 * render buffer, tell the worker when the next frame is due, and let the watchdog look at the header words.
 *
 * ```text
 *  rAF(ts) ─▶ pacer: render now? ─yes─▶ acquire ─ sampler.read ─ release ─ sampler.finish ─▶ draw(frame)
 *                  │                                                                         │ (cost until
 *                  └──────────── expectFrame(pacer.nextRenderTime) ◀── end of the task ◀─────┘  the task ends)
 * ```
 *
 * A frame that the worker sleeps short of (rAF brought it a refresh or more after the time announced, after a
 * stall) first rings the worker with its own time and spins until the worker's states reach it, bounded
 * (core/frame-catch-up.ts), before it samples or, for `pace()`, before the game reads the slot itself.
 */
import type { Clock } from '../core/clock.ts';
import { CATCH_UP_BACKOFF_MS, CATCH_UP_GIVE_UP, CATCH_UP_WAIT_MS, needsCatchUp } from '../core/frame-catch-up.ts';
import { FRAME_HOLD_MS } from '../core/fixed-step.ts';
import { fieldViews, I32, META, STATUS, type Layout } from '../core/layout.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { BlendKernels } from '../core/simd-kernel.ts';
import { animationFrameTime, frameTimeFor } from './frame-time.ts';
import { createFramePacer, type FramePacer, type FramePacerOptions, type PacerChange } from './frame-pacer.ts';
import type { Frame, RuntimeStats } from './runtime.ts';
import { Sampler, type InterpolationOptions, type SampleResult } from './sampler.ts';
import type { MainTransport } from './transport.ts';
import type { Watchdog } from './watchdog.ts';

type MutableFrame<S extends Schema> = { -readonly [K in keyof Frame<S>]: Frame<S>[K] } & SampleResult;

/** How rendered frames' times met what the worker was told (`stats().frameClock`). */
export interface FrameClockStats {
  /**
   * Rendered frames drawn more than 1 ms away from the time announced to the worker for them (NEXT_FRAME):
   * rAF brought them a refresh or more later (after a stall), or the game passed another time.
   */
  unannounced: number;
  /** The farthest of them, ms (positive: later than announced). */
  maxOffsetMs: number;
  /** Frames that found the worker asleep short of their time, rang it and spun until its states reached them. */
  waits: number;
  /** Ms spent in those spins, in all and at most once. */
  waitMs: number;
  maxWaitMs: number;
  /** Spins that gave up after CATCH_UP_WAIT_MS: those frames were drawn late (three in a row: no waits for a second). */
  timeouts: number;
  /**
   * Frame times announced to the worker (NEXT_FRAME), and those that rang its doorbell (Atomics.notify: the
   * frame was past what the sleeping worker's states reach, core/doorbell.ts). A ring is a futex wake-up, tens
   * of µs of this thread; with 30 Hz ticks and 60 Hz frames, about every other frame rings.
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

/** A frame this far from its announced time counts as unannounced, ms (float rounding and clock steps aside). */
const ANNOUNCED_SLACK_MS = 1;

export interface FrameLoopOptions<S extends Schema> {
  readonly draw: ((frame: Frame<S>) => void) | undefined;
  readonly interpolation: InterpolationOptions<S> | undefined;
  readonly pacing: Omit<FramePacerOptions, 'onChange'> | undefined;
  readonly onInterval: (change: PacerChange) => void;
}

export class FrameLoop<S extends Schema> {
  readonly frame: MutableFrame<S>;
  readonly sampler: Sampler<S>;
  readonly pacer: FramePacer;
  readonly #transport: MainTransport<S>;
  readonly #watchdog: Watchdog;
  readonly #now: Clock;
  readonly #draw: ((frame: Frame<S>) => void) | undefined;
  /** When the frame being drawn began, for its cost; NaN when no frame is being drawn. */
  #frameStart = Number.NaN;
  /** The next frame time last published to the worker. */
  #expected = Number.NaN;
  #rafHandle = 0;
  /** The animation frame the newest frame was drawn at (frame-time.ts). */
  #animationTime = Number.NEGATIVE_INFINITY;
  /** The time of the newest frame paced (`runtime.frameTime`); NaN before the first. */
  time = Number.NaN;
  readonly clockStats: FrameClockStats = { unannounced: 0, maxOffsetMs: 0, waits: 0, waitMs: 0, maxWaitMs: 0, timeouts: 0, unwaited: 0, unheld: 0, announced: 0, rings: 0 };
  /** No catch-up waits before this time (after CATCH_UP_GIVE_UP in a row gave up). */
  #waitAgainAt = Number.NEGATIVE_INFINITY;
  /** Catch-up waits in a row that gave up. */
  #timeoutsInRow = 0;
  /**
   * The page is hidden (the runtime's visibility hook): a worker with `whenHidden: 'pause'` makes no states then,
   * so a frame made anyway (a game's own timer loop) does not wait for it.
   */
  hidden = false;
  readonly #endFrame = (): void => {
    if (Number.isNaN(this.#frameStart)) return;
    const now = this.#now();
    // and from the frame's own time: a stall before runtime.frame() held the next animation frame back too
    this.pacer.reportFrameCost(now - this.#frameStart, now - this.time);
    this.#frameStart = Number.NaN;
    // a new interval moves the next render time: tell the worker (only then: the frame already told it)
    this.#expectFrameIfMoved();
  };
  readonly #onAnimationFrame = (timestamp: number): void => {
    // schedule first, so a throwing draw does not end the loop
    this.#rafHandle = requestAnimationFrame(this.#onAnimationFrame);
    // a rAF timestamp is on this thread's performance.now() timeline, which is the shared clock here
    const frame = this.frameAt(timestamp);
    if (frame !== null) this.#draw!(frame);
  };

  constructor(
    schema: S,
    layout: Layout,
    transport: MainTransport<S>,
    simd: { readonly kernels: BlendKernels; readonly scratch: FieldViews<S> } | null,
    watchdog: Watchdog,
    now: Clock,
    options: FrameLoopOptions<S>,
  ) {
    this.#transport = transport;
    this.#watchdog = watchdog;
    this.#now = now;
    this.#draw = options.draw;
    // the render buffer: plain memory either way (the game hands it to APIs, and some refuse views of shared
    // memory: ImageData, TextDecoder; WebGL in Chromium 156 takes them); in the kernels' render memory
    // where they have one, so they blend straight into it
    const renderMemory = simd?.kernels.renderMemory ?? null;
    const render = fieldViews<S>(renderMemory === null ? new ArrayBuffer(layout.blockBytes) : (renderMemory.buffer as ArrayBuffer), 0, layout);
    this.sampler = new Sampler(schema, layout, render, simd);
    this.pacer = createFramePacer({ ...options.pacing, onChange: options.onInterval });
    if (options.interpolation !== undefined) this.sampler.configure(options.interpolation);
    this.frame = {
      fields: render,
      count: 0,
      alpha: 1,
      time: 0,
      previousTick: 0,
      tick: 0,
      previousTime: 0,
      currentTime: 0,
      simSeconds: 0,
      late: false,
      overtaken: false,
      snapped: 0,
      fresh: false,
      index: 0,
    };
  }

  /** Samples the world at `time` into the render buffer; `fresh` false (the last good frame) if the lock stayed busy. */
  sample(time: number): Frame<S> {
    const frame = this.frame;
    frame.index++;
    const source = this.#transport.source;
    // a worker that stopped beating may have died holding the lock: do not spin on it every frame
    const slot = this.#watchdog.unresponsive ? null : source.acquire();
    if (slot === null) {
      // the lock stayed busy: everything in the frame is still the last good sample's
      frame.fresh = false;
      return frame;
    }
    try {
      // the sampler reads the slot we hold; the worker cannot publish over it until release()
      this.sampler.read(slot, time, frame);
    } finally {
      // never leave the worker locked out, whatever happened
      source.release();
    }
    this.sampler.finish(time, frame);
    frame.fresh = true;
    return frame;
  }

  /** Announces the next frame's time to the worker (ringing its doorbell if it needs to know). */
  expectFrame(time: number): void {
    this.#expected = time;
    this.clockStats.announced++;
    if (this.#transport.expectFrame(time)) this.clockStats.rings++;
  }

  /** The time a frame is drawn at for the timestamp the game gave (NaN: none): see frame-time.ts. */
  frameTime(timestamp: number): number {
    const animationTime = animationFrameTime();
    const time = frameTimeFor(timestamp, animationTime, this.#animationTime, this.#now());
    if (animationTime !== null && time === animationTime) this.#animationTime = animationTime;
    return time;
  }

  /** `runtime.frame`: the frame, or null on a refresh the render interval skips. */
  frameAt(timestamp: number): Frame<S> | null {
    return this.paced(timestamp, true) ? this.frame : null;
  }

  /** Paces, samples if `sample` (and it is a refresh to render), publishes the next frame time, checks the worker. */
  paced(timestamp: number, sample: boolean): boolean {
    this.#endFrame(); // a frame whose task never ended (a throwing draw) still reports its cost
    this.time = timestamp;
    const render = this.pacer.onAnimationFrame(timestamp);
    if (render) {
      this.#catchUp(timestamp);
      // the frame's cost starts after the catch-up: a wait for the worker is not what the pacer sizes frames for
      this.#frameStart = this.#now();
      if (sample) this.sample(timestamp);
      // the cost runs until this task ends: the caller's draw included
      queueMicrotask(this.#endFrame);
    }
    // after the lock is released: the worker can now simulate up to the next frame while this one is drawn
    this.#expectFrameIfMoved();
    this.#watchdog.check(this.#now());
    return render;
  }

  /** Starts calling `draw` on every animation frame (if there is a draw and the loop is not running). */
  startFrames(): void {
    if (this.#draw !== undefined && this.#rafHandle === 0) this.#rafHandle = requestAnimationFrame(this.#onAnimationFrame);
  }

  stopFrames(): void {
    if (this.#rafHandle !== 0) cancelAnimationFrame(this.#rafHandle);
    this.#rafHandle = 0;
  }

  /**
   * A rendered frame at `time`: counts how far it is from the time announced for it, and if the worker sleeps
   * short of it (core/frame-catch-up.ts), rings the worker with `time` and spins until its states reach it
   * (COVERED at or past `time`: the worker published them and went back to sleep) or CATCH_UP_WAIT_MS pass.
   * Allocates nothing; on the message transport (no COVERED) it only counts.
   */
  #catchUp(time: number): void {
    const stats = this.clockStats;
    const offset = time - this.#expected;
    if (offset > ANNOUNCED_SLACK_MS || offset < -ANNOUNCED_SLACK_MS) {
      stats.unannounced++;
      if (Math.abs(offset) > Math.abs(stats.maxOffsetMs)) stats.maxOffsetMs = offset;
    }
    const covered = this.#transport.covered;
    if (covered === undefined || this.hidden || this.#watchdog.unresponsive) return;
    const start = this.#now();
    const reach = covered();
    if (!needsCatchUp(time, start, reach)) {
      if (!(reach >= time) && start - time > FRAME_HOLD_MS) stats.unheld++;
      return;
    }
    // only a running worker makes states (a paused, stopped or faulted one holds its tick on purpose)
    if (Atomics.load(this.#transport.header, I32.STATUS) !== STATUS.RUNNING) return;
    const source = this.#transport.source;
    let published = source.publishCount();
    // an awake worker may be past the frame already
    if (this.#frontReaches(time)) return;
    if (start < this.#waitAgainAt) {
      stats.unwaited++; // drawn late: waits are off after several gave up; the ring still serves later frames
      this.expectFrame(time);
      return;
    }
    // rings it (the frame is past what it covers): it targets `time`, overdue, so it holds there, not past it
    this.expectFrame(time);
    const until = start + CATCH_UP_WAIT_MS;
    let now = start;
    let reached = false;
    // COVERED is stored (Atomics) after the publish's flip: once it reaches `time`, the sample's acquire sees the
    // states; a worker that publishes but does not go back to sleep is seen through the front slot itself
    while (!(reached = covered() >= time)) {
      const count = source.publishCount();
      if (count !== published) {
        published = count;
        if ((reached = this.#frontReaches(time))) break;
      }
      if ((now = this.#now()) >= until) break;
    }
    // once more after the deadline: this thread may have been preempted through it while the worker went on
    if (!reached) reached = covered() >= time || this.#frontReaches(time);
    now = this.#now();
    const waited = now - start;
    stats.waits++;
    stats.waitMs += waited;
    if (waited > stats.maxWaitMs) stats.maxWaitMs = waited;
    if (reached) {
      this.#timeoutsInRow = 0;
    } else {
      stats.timeouts++;
      if (++this.#timeoutsInRow >= CATCH_UP_GIVE_UP) {
        this.#timeoutsInRow = 0;
        this.#waitAgainAt = now + CATCH_UP_BACKOFF_MS;
      }
    }
  }

  /** Whether the front slot's newest state is at or past `time` (a look under the lock). */
  #frontReaches(time: number): boolean {
    const source = this.#transport.source;
    const slot = source.acquire();
    if (slot === null) return false;
    const current = slot.metaWords[META.CUR_TIME]!;
    source.release();
    return current >= time;
  }

  #expectFrameIfMoved(): void {
    const next = this.pacer.nextRenderTime;
    if (next === this.#expected) return;
    this.expectFrame(next);
  }
}

/** The pacer's counters as `stats().pacing` reports them (the page's runtime and the render worker alike). */
export function pacingStats(pacer: FramePacer): RuntimeStats['pacing'] {
  return {
    adaptive: pacer.adaptive,
    refreshPeriod: pacer.refreshPeriod,
    multiple: pacer.multiple,
    interval: pacer.interval,
    renderedFrames: pacer.renderedFrames,
    skippedVsyncs: pacer.skippedVsyncs,
    overruns: pacer.overruns,
    grows: pacer.grows,
    shrinks: pacer.shrinks,
    lastChange: pacer.lastChange,
  };
}
