/**
 * A display on a manual clock, for the Node timing tests: animation-frame callbacks that rAF hands a vsync's
 * timestamp and that begin when the test says (at the vsync, or later: after a stall before the frame, or a
 * slow task before the callback). Everything the browser's stalls do to a frame's time, without a wall clock.
 *
 * ```text
 *  vsync:      V ───────────── V + R ───────────── V + 2R
 *  callback:   ts = V, begins at V + 25 (a 25 ms stall before runtime.frame(): performance.now() reads V + 25)
 *  the test:   await clock.advanceTo(V + 25); clock.animationFrame(() => runtime.frame(...), V)
 * ```
 */
import type { Frame, Runtime } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import type { Schema } from '../../../src/core/schema.ts';

/** 60 Hz. */
export const REFRESH = 1000 / 60;

/** What the game passes to `runtime.frame`: nothing, rAF's timestamp, or a `performance.now()` read in the callback. */
export type TimestampStyle = 'none' | 'raf' | 'now';
export const STYLES: readonly TimestampStyle[] = ['none', 'raf', 'now'];

/** One callback: rAF's timestamp (a vsync) and when the callback begins (at or after it). */
export interface Callback {
  readonly ts: number;
  readonly begins: number;
}

/** A drawn frame's numbers, copied (the runtime's frame object is reused). */
export interface Drawn {
  readonly ts: number;
  readonly begins: number;
  readonly time: number;
  readonly previousTime: number;
  readonly currentTime: number;
  readonly previousTick: number;
  readonly tick: number;
  readonly alpha: number;
  readonly late: boolean;
  readonly overtaken: boolean;
  readonly fresh: boolean;
  /** Entity 0's position.x: the motion fixture's x is the tick number, blended. */
  readonly x: number;
}

export function copyFrame<S extends Schema>(f: Frame<S>, callback: Callback): Drawn {
  const position = (f.fields as unknown as { position: Float32Array }).position;
  return {
    ts: callback.ts,
    begins: callback.begins,
    time: f.time,
    previousTime: f.previousTime,
    currentTime: f.currentTime,
    previousTick: f.previousTick,
    tick: f.tick,
    alpha: f.alpha,
    late: f.late,
    overtaken: f.overtaken,
    fresh: f.fresh,
    x: position[0]!,
  };
}

/**
 * Runs one callback: the clock moves to when it begins (the worker settles there), then one animation frame at
 * its timestamp, in which the game calls `runtime.frame` with the timestamp `style` says; then the frame's task
 * ends (a microtask turn: the runtime measures the frame's cost then). Returns the frame drawn, or null on a
 * refresh the render interval skips.
 */
export async function runCallback<S extends Schema>(runtime: Runtime<S>, clock: ManualClock, style: TimestampStyle, callback: Callback): Promise<Drawn | null> {
  await clock.advanceTo(callback.begins);
  let drawn: Drawn | null = null;
  clock.animationFrame(() => {
    const f = style === 'none' ? runtime.frame() : runtime.frame(style === 'raf' ? callback.ts : clock.now());
    if (f !== null) drawn = copyFrame(f, callback);
  }, callback.ts);
  await Promise.resolve();
  return drawn;
}
