/**
 * The frame loop: once per animation frame, pace (present on this refresh?), sample the front pair into the
 * render buffer, tell the worker when the next frame is due, and let the watchdog look at the header words.
 *
 * ```text
 *  rAF(ts) ─▶ pacer: render now? ─yes─▶ acquire ─ sampler.read ─ release ─ sampler.finish ─▶ draw(frame)
 *                  │                                                                         │ (cost until
 *                  └──────────── expectFrame(pacer.nextRenderTime) ◀── end of the task ◀─────┘  the task ends)
 * ```
 */
import type { Clock } from '../core/clock.ts';
import { fieldViews, type Layout } from '../core/layout.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { BlendKernels } from '../core/simd-kernel.ts';
import { animationFrameTime, frameTimeFor } from './frame-time.ts';
import { createFramePacer, type FramePacer, type FramePacerOptions, type PacerChange } from './frame-pacer.ts';
import type { Frame, RuntimeStats } from './runtime.ts';
import { Sampler, type InterpolationOptions, type SampleResult } from './sampler.ts';
import type { MainTransport } from './transport.ts';
import type { Watchdog } from './watchdog.ts';

type MutableFrame<S extends Schema> = { -readonly [K in keyof Frame<S>]: Frame<S>[K] } & SampleResult;

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
  readonly #endFrame = (): void => {
    if (Number.isNaN(this.#frameStart)) return;
    this.pacer.reportFrameCost(this.#now() - this.#frameStart);
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

  expectFrame(time: number): void {
    this.#expected = time;
    this.#transport.expectFrame(time);
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
