/**
 * The motion-quality recorder (suite 3, and the render suite's judder): for every drawn frame and body, the
 * distance between what was drawn and the true position at the time the frame stands for, in ticks of motion;
 * and the frame intervals. Runs on the page or in a render worker.
 */
import { motionAt } from './sims.ts';
import { percentiles } from './stats.ts';

export interface MotionWindow {
  /** Error in ticks of motion over every (frame, body). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly frames: number;
  /** Frames whose time was past the newest state (steadyframe's own count; NaN for MainLoop.js). */
  readonly lateFrames: number;
  /**
   * Frames whose time was before the front slot's previous state (steadyframe's `stats().sampling.overtaken +
   * recovered`; NaN for MainLoop.js): the worker had already published past the frame's time, so the slot no
   * longer held the pair around it. Since the runtime serves such frames from states it keeps (`recovered`) the
   * frame's own fields no longer show it (its previousTime is then at or before its time): count from stats.
   */
  readonly overtakenFrames: number;
  /** rAF intervals longer than 1.5 refresh periods: frames the display did not get. */
  readonly droppedFrames: number;
  /** The longest rAF interval, ms. */
  readonly longestFrame: number;
  /** The frame with the largest error, described (for the record). */
  readonly worst: string;
}

/** What a design draws: position of body i is at [2i, 2i + 1]; `shown` the simulated seconds it should show. */
export interface Sample {
  readonly ts: number;
  readonly late: boolean;
}

/** Collects per-frame errors into windows. */
export class Recorder {
  errors: number[] = [];
  gaps: number[] = [];
  late = 0;
  frames = 0;
  lastTs = Number.NaN;
  worstError = -1;
  worst = '';
  readonly truth = new Float64Array(4);

  constructor(
    readonly bodies: number,
    readonly tickRate: number,
  ) {}

  record(sample: Sample, position: ArrayLike<number>, simSeconds: number, describe: () => string): void {
    this.frames++;
    if (sample.late) this.late++;
    if (!Number.isNaN(this.lastTs)) this.gaps.push(sample.ts - this.lastTs);
    this.lastTs = sample.ts;
    for (let i = 0; i < this.bodies; i++) {
      motionAt(i, simSeconds, this.tickRate, this.truth);
      // every body moves 1 unit per tick: units are ticks of motion
      const error = Math.hypot(position[2 * i]! - this.truth[0]!, position[2 * i + 1]! - this.truth[1]!);
      this.errors.push(error);
      if (error > this.worstError) {
        this.worstError = error;
        this.worst = `${(100 * error).toFixed(2)}% at ${sample.ts.toFixed(1)} ms (sim ${simSeconds.toFixed(4)} s): ${describe()}`;
      }
    }
  }

  /** The window so far; `overtaken`: steadyframe's count of frames overtaken in it (NaN for MainLoop.js). */
  take(period: number, countsLate: boolean, overtaken = Number.NaN): MotionWindow {
    const p = percentiles(this.errors);
    const window: MotionWindow = {
      p50: p.p50,
      p99: p.p99,
      max: p.max,
      frames: this.frames,
      lateFrames: countsLate ? this.late : Number.NaN,
      overtakenFrames: overtaken,
      droppedFrames: this.gaps.filter((g) => g > 1.5 * period).length,
      longestFrame: Math.max(0, ...this.gaps),
      worst: this.worst,
    };
    this.worstError = -1;
    this.worst = '';
    this.errors = [];
    this.gaps = [];
    this.late = 0;
    this.frames = 0;
    return window;
  }
}

