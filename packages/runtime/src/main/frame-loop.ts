/**
 * The frame loop: once per frame, pace (present on this refresh?), sample the front pair into the render
 * buffer, tell the worker when the next frame is due, and let the watchdog look at the header words.
 *
 * ```text
 *  frame(ts) ─▶ time (frame-time.ts) ─▶ pacer: render now? ─yes─▶ catch-up ─ acquire ─ sample ─ release ─▶ draw
 *                                              │                                                           │ (cost until
 *                                              └──────── expectFrame(pacer.nextRenderTime) ◀── end of task ◀┘  the task ends)
 * ```
 *
 * A frame that the worker sleeps short of (rAF brought it a refresh or more after the time announced, after a
 * stall) first rings the worker with its own time and waits until the worker's states reach it, bounded
 * (catch-up-wait.ts), before it samples or, for `pace()`, before the game reads the slot itself. Frames come
 * from the game (`frame`, `pace`, `frameAt`) or from the runtime's own loop on the host's animation frames
 * (`startFrames`, with a `draw`). When no frame has looked at the worker for a while (a game that draws nothing
 * yet, a paused loop, Node), a timer of the host's does, so faults, silence and overloads are always reported.
 */
import type { Frame, FrameClockStats, PresentedFrame, RuntimeStats } from '../contracts/app.ts';
import { copyTableWords, createFrameTables, tableWordNames, type FrameTables } from './frame-tables.ts';
import type { FrameSource, PageHost } from '../contracts/host.ts';
import type { PageTransport } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import { NO_EVENTS } from '../core/event-reader.ts';
import { interpolateGame, showsCurrent } from '../core/interpolate.ts';
import { META, fieldViews, type Layout } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { CatchUpWait } from './catch-up-wait.ts';
import { createFramePacer, type FramePacer, type FramePacerOptions, type PacerChange } from './frame-pacer.ts';
import { frameTimeFor } from './frame-time.ts';
import { Sampler, type InterpolationOptions, type SampleResult } from './sampler.ts';
import type { Watchdog } from './watchdog.ts';

type MutableFrame<S extends Schema> = { -readonly [K in keyof Frame<S>]: Frame<S>[K] } & SampleResult;

/** How often, at most, the watch looks at the worker when no frame did, ms of the host's clock. */
export const IDLE_WATCH_MS = 250;

/** What a frame loop is built from (the composition root hands it over). */
export interface FrameLoopParts<S extends Schema> {
  readonly schema: S;
  readonly layout: Layout;
  readonly transport: PageTransport<S>;
  readonly watchdog: Watchdog;
  readonly now: Clock;
  /** The host's animation frames, or null where the app makes its own frames. */
  readonly frames: FrameSource | null;
  readonly host: Pick<PageHost, 'waitFor' | 'every'>;
}

export interface FrameLoopOptions<S extends Schema> {
  readonly draw: ((frame: Frame<S>) => void) | undefined;
  readonly interpolation: InterpolationOptions<S> | undefined;
  readonly pacing: Omit<FramePacerOptions, 'onChange'> | undefined;
  readonly onInterval: (change: PacerChange) => void;
  /** Each frame that presents (the `present` event), when `wantsPresent()` says someone listens. */
  readonly onPresent?: (presented: PresentedFrame<S>) => void;
  readonly wantsPresent?: () => boolean;
}

export class FrameLoop<S extends Schema> {
  readonly frame: MutableFrame<S>;
  readonly sampler: Sampler<S>;
  readonly pacer: FramePacer;
  readonly #transport: PageTransport<S>;
  readonly #watchdog: Watchdog;
  readonly #now: Clock;
  readonly #frames: FrameSource | null;
  readonly #catchUp: CatchUpWait<S>;
  readonly #layout: Layout;
  readonly #draw: ((frame: Frame<S>) => void) | undefined;
  readonly #onPresent: ((presented: PresentedFrame<S>) => void) | undefined;
  readonly #wantsPresent: () => boolean;
  /** What the `present` event carries: one object, rewritten each frame. */
  readonly #presented: { tick: number; time: number; index: number; state: Frame<S>['state']; events: Frame<S>['events'] };
  /** Each table's word as the last sample that took the lock blended it (frame.tables reads its counts here), and their names in frame.state. */
  readonly #tableWords: Float64Array;
  readonly #tableWordNames: readonly string[];
  #presentedFrames = 0;
  /** When the frame being drawn began, for its cost; NaN when no frame is being drawn. */
  #frameStart = Number.NaN;
  /** The next frame time last published to the worker. */
  #expected = Number.NaN;
  #rafHandle = 0;
  /** The animation frame whose first frame was drawn (the next call in it is not its first). */
  #animationUsed = Number.NaN;
  /** The time of the frame `frameAt` drew last, for the default `next` (NaN before the first). */
  #lastAt = Number.NaN;
  /** When a frame (or the idle watch) last let the watchdog look, on the host's clock. */
  #checkedAt = Number.NEGATIVE_INFINITY;
  #stopIdleWatch: () => void = () => {};
  /** The time of the newest frame (`runtime.frameTime`); NaN before the first. Never goes back. */
  time = Number.NaN;
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
    this.#rafHandle = this.#frames!.request(this.#onAnimationFrame);
    if (this.animationFrame(timestamp, true)) this.#draw!(this.frame);
  };

  constructor(parts: FrameLoopParts<S>, options: FrameLoopOptions<S>) {
    this.#transport = parts.transport;
    this.#watchdog = parts.watchdog;
    this.#now = parts.now;
    this.#frames = parts.frames;
    this.#layout = parts.layout;
    this.#draw = options.draw;
    this.#onPresent = options.onPresent;
    this.#wantsPresent = options.wantsPresent ?? (() => options.onPresent !== undefined);
    this.#catchUp = new CatchUpWait(parts.transport, parts.now, parts.host.waitFor, (time) => this.expectFrame(time));
    // the render buffer: plain memory either way (the game hands it to APIs, and some refuse views of shared
    // memory: ImageData, TextDecoder); in the kernels' render memory where they have one, so they blend
    // straight into it
    const simd = parts.transport.simd;
    const renderMemory = simd?.kernels.renderMemory ?? null;
    const render = fieldViews<S>(renderMemory === null ? new ArrayBuffer(parts.layout.blockBytes) : (renderMemory.buffer as ArrayBuffer), 0, parts.layout);
    this.sampler = new Sampler(parts.schema, parts.layout, render, simd);
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
      events: NO_EVENTS,
      // one number per game field, written in place by every sample
      state: Object.seal(Object.fromEntries(parts.layout.game.map((f) => [f.name, 0]))) as Frame<S>['state'] & Record<string, number>,
      tables: {} as FrameTables<S>,
    };
    // each table a range of the render buffer, its count from the state of the sample that wrote it (frame-tables.ts)
    this.#tableWordNames = tableWordNames(parts.layout);
    this.#tableWords = new Float64Array(this.#tableWordNames.length);
    this.frame.tables = createFrameTables<S>(parts.layout, render, this.#tableWords, () => this.frame.index);
    this.#presented = { tick: 0, time: 0, index: 0, state: this.frame.state, events: NO_EVENTS };
    // no frame for a while: look at the worker anyway (a fault, silence, an overload are reported regardless)
    this.#stopIdleWatch = parts.host.every(IDLE_WATCH_MS, () => {
      const now = this.#now();
      if (now - this.#checkedAt >= IDLE_WATCH_MS) this.#check(now);
    });
  }

  /** How rendered frames' times met what the worker was told. */
  get clockStats(): FrameClockStats {
    return this.#catchUp.stats;
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
    // the tables' counts as this sample blended them: `pace()` may write frame.state again (from a newer pair),
    // and a later sample that misses the lock keeps this one's entities
    if (this.#tableWords.length > 0) copyTableWords(this.#tableWordNames, frame.state, this.#tableWords);
    frame.fresh = true;
    return frame;
  }

  /** Announces the next frame's time to the worker (ringing its doorbell if it needs to know). */
  expectFrame(time: number): void {
    this.#expected = time;
    const stats = this.#catchUp.stats;
    stats.announced++;
    if (this.#transport.expectFrame(time)) stats.rings++;
  }

  /** `runtime.frame`: the frame, or null on a refresh the render interval skips. */
  gameFrame(timestamp: number): Frame<S> | null {
    return this.#paced(this.#frameTime(timestamp), true) ? this.frame : null;
  }

  /** `runtime.pace`: whether to draw on this refresh (the game reads the states itself). */
  gamePace(timestamp: number): boolean {
    return this.#paced(this.#frameTime(timestamp), false);
  }

  /**
   * A frame of a loop of the runtime's own (its `draw` loop, the render worker's) at the animation frame's time:
   * paces, samples if `sample`; returns whether to draw.
   */
  animationFrame(time: number, sample: boolean): boolean {
    // the animation frame's first frame is this one: a game's frame() inside the draw is a second
    this.#animationUsed = time;
    return this.#paced(this.#clamp(time), sample);
  }

  /** `runtime.frameAt`: exactly at `time` (or the previous frame's, if later), unpaced; announces `next`. */
  frameAt(time: number, next: number): Frame<S> {
    this.#endFrame();
    const at = this.#clamp(time);
    const gap = at - this.#lastAt;
    this.#lastAt = at;
    this.time = at;
    this.#catchUp.run(at, this.#expected, this.hidden || this.#watchdog.unresponsive);
    this.sample(at);
    this.#presentSampled();
    this.expectFrame(Number.isNaN(next) ? at + (gap > 0 ? gap : this.pacer.interval) : next);
    this.#check(this.#now());
    return this.frame;
  }

  /** Starts calling `draw` on every animation frame (if there is a draw, frames, and the loop is not running). */
  startFrames(): void {
    if (this.#draw !== undefined && this.#frames !== null && this.#rafHandle === 0) this.#rafHandle = this.#frames.request(this.#onAnimationFrame);
  }

  stopFrames(): void {
    if (this.#rafHandle !== 0) this.#frames?.cancel(this.#rafHandle);
    this.#rafHandle = 0;
  }

  /** Stops the frames and the idle watch: the runtime is disposed. */
  close(): void {
    this.stopFrames();
    this.#stopIdleWatch();
  }

  /** The time a frame is drawn at for the timestamp the game gave (NaN: none): see frame-time.ts. */
  #frameTime(timestamp: number): number {
    const current = this.#frames?.current() ?? null;
    if (current === null) {
      this.#catchUp.stats.outsideFrames++;
      this.#frames?.missed?.();
    }
    // the first frame of an animation frame takes its time; later ones in it do not
    const animation = current !== null && current !== this.#animationUsed ? current : null;
    if (animation !== null) this.#animationUsed = animation;
    return frameTimeFor(timestamp, animation, this.#now(), this.time);
  }

  /** Never earlier than the frame before. */
  #clamp(time: number): number {
    return time < this.time ? this.time : time;
  }

  /** Paces, samples if `sample` (and it is a refresh to render), publishes the next frame time, checks the worker. */
  #paced(time: number, sample: boolean): boolean {
    this.#endFrame(); // a frame whose task never ended (a throwing draw) still reports its cost
    this.time = time;
    const render = this.pacer.onAnimationFrame(time);
    if (render) {
      this.#catchUp.run(time, this.#expected, this.hidden || this.#watchdog.unresponsive);
      // the frame's cost starts after the catch-up: a wait for the worker is not what the pacer sizes frames for
      this.#frameStart = this.#now();
      if (sample) {
        this.sample(time);
        this.#presentSampled();
      } else {
        this.#presentAt(time);
      }
      // the cost runs until this task ends: the caller's draw included
      queueMicrotask(this.#endFrame);
    }
    // after the lock is released: the worker can now simulate up to the next frame while this one is drawn
    this.#expectFrameIfMoved();
    this.#check(this.#now());
    return render;
  }

  /**
   * The events of the frame just sampled: those of every tick up to the one it shows (ARCHITECTURE.md, "Events
   * and the frame that shows them"). A frame shows its pair's current tick once it has left the previous one
   * (alpha above 0), the previous tick at alpha 0; 'latest' shows the current tick. A frame that could not take
   * the lock repeats the last good one's ticks, and so presents nothing new.
   */
  #presentSampled(): void {
    const reader = this.#transport.events;
    const f = this.frame;
    const shown = showsCurrent(f.alpha) || this.sampler.options.mode === 'latest' ? f.tick : f.previousTick;
    f.events = reader === null ? NO_EVENTS : reader.present(shown);
    this.#announce(shown, f.time);
  }

  /**
   * The events of a frame at `time` that the game draws from the states itself (`pace`): the same rule, from the
   * front pair's ticks and times, read under the lock (the worker commits a tick's events before it publishes it).
   */
  #presentAt(time: number): void {
    const reader = this.#transport.events;
    const game = this.#layout.game;
    if (reader === null && game.length === 0 && !this.#wantsPresent()) return;
    const source = this.#transport.source;
    const slot = this.#watchdog.unresponsive ? null : source.acquire();
    if (slot === null) return; // the lock stayed busy: nothing new this frame, the next one presents it
    let shown: number;
    try {
      const meta = slot.metaWords;
      const previousTime = meta[META.PREV_TIME]!;
      const currentTime = meta[META.CUR_TIME]!;
      // past the previous state's time is alpha above 0 (core/interpolate.ts, `showsCurrent`)
      shown = time > previousTime ? meta[META.CUR_TICK]! : meta[META.PREV_TICK]!;
      if (game.length > 0) {
        // the game state at the frame's time, as a sampled frame would blend it (held at the newest when late)
        const span = currentTime - previousTime;
        const alpha = span > 0 ? Math.min(1, Math.max(0, (time - previousTime) / span)) : 1;
        interpolateGame(game, slot.previousGame, slot.currentGame, alpha, this.frame.state);
      }
    } finally {
      source.release();
    }
    this.frame.events = reader === null ? NO_EVENTS : reader.present(shown);
    this.#announce(shown, time);
  }

  /** The `present` event, if anyone listens: the frame's shown tick, time, state and events. */
  #announce(shown: number, time: number): void {
    this.#presentedFrames++;
    if (this.#onPresent === undefined || !this.#wantsPresent()) return;
    const p = this.#presented;
    p.tick = shown;
    p.time = time;
    p.index = this.#presentedFrames;
    p.events = this.frame.events;
    this.#onPresent(p);
  }

  #check(now: number): void {
    this.#checkedAt = now;
    this.#watchdog.check(now);
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
