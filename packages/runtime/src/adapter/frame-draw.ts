/**
 * What an engine's loop draws on each refresh the runtime's pacer presents, and the one decision the engine
 * adapters share (`@steadyframe/pixi`'s `attachToTicker`, `@steadyframe/phaser`'s `attachToGame`): a function is
 * given each sampled frame (`runtime.frame(time)`, the CPU paths); GPU-path objects blend in their shaders, so
 * the runtime only paces (`runtime.pace(time)`) and they get the time (`update(time)`).
 *
 * ```text
 *   present(time):  a function ──▶ runtime.frame(time) ──▶ null: skipped (false) │ a frame: draw(frame, time), true
 *                   objects    ──▶ runtime.pace(time)  ──▶ false: skipped       │ true: each update(time), true
 * ```
 */
import type { Frame, Runtime } from '../contracts/app.ts';
import type { Schema } from '../core/schema.ts';

/** A GPU-path drawable: it blends in the shader, so the loop paces without sampling and hands it the time. */
export interface TimedDrawable {
  update(time: number): unknown;
}

/** A loop's draw: a function of each sampled frame, or GPU-path objects (one or several). */
export type FrameDraw<S extends Schema> = ((frame: Frame<S>, time: number) => void) | TimedDrawable | readonly TimedDrawable[];

/**
 * Checks `draw` at set-up (`who`, such as `'@steadyframe/pixi: attachToTicker'`, starts the error) and returns
 * the refresh's step: true when a frame was drawn, false when the pacer skipped this refresh. Allocates nothing
 * per call.
 */
export function framePresenter<S extends Schema>(runtime: Pick<Runtime<S>, 'frame' | 'pace'>, draw: FrameDraw<S>, who: string): (time: number) => boolean {
  const sample = typeof draw === 'function' ? draw : null;
  const drawables: readonly TimedDrawable[] = sample !== null ? [] : Array.isArray(draw) ? draw : [draw as TimedDrawable];
  for (const d of drawables) {
    if (typeof d?.update !== 'function') {
      throw new TypeError(`${who} draws with a function (frame, time) => void or objects with update(time)`);
    }
  }
  if (sample !== null) {
    return (time) => {
      const frame = runtime.frame(time);
      if (frame === null) return false;
      sample(frame, time);
      return true;
    };
  }
  return (time) => {
    if (!runtime.pace(time)) return false;
    for (let i = 0; i < drawables.length; i++) drawables[i]!.update(time);
    return true;
  };
}
