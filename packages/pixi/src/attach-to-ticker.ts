/**
 * Drives a runtime's frames from a Pixi Application's ticker, with the ticker's own frame time, and renders
 * only on the refreshes the runtime's pacer presents.
 *
 * ```text
 *  app.ticker, one rAF (timestamp ts):
 *    HIGH priority   runtime.frame(ts) ──▶ null: a refresh the render interval skips ──▶ nothing more, no render
 *                                      └─▶ a frame ──▶ draw(frame, ts)
 *    your listeners  (NORMAL) as before
 *    LOW priority    app.render(), only after a frame was drawn (this replaces the app's own render listener)
 * ```
 *
 * The time is the rAF timestamp the ticker was called with, on the `performance.now()` timeline. Inside a
 * listener Pixi has not yet moved `ticker.lastTime` on (it does so after its listeners), so that timestamp is
 * `ticker.lastTime + ticker.elapsedMS`. A fresh `performance.now()` read there is later than the frame's time
 * by whatever ran before it, and after a main-thread stall it is the stall's end, not the frame's.
 */
import { UPDATE_PRIORITY, type Ticker } from 'pixi.js';
import type { Runtime, Schema } from 'steadyframe';
import { framePresenter, type FrameDraw } from 'steadyframe/adapter';

export type { TimedDrawable } from 'steadyframe/adapter';

/** The parts of a Pixi `Application` the loop uses. */
export interface TickerApp {
  readonly ticker: Ticker;
  render(): void;
}

/** What `attachToTicker` returns. */
export interface TickerLoop {
  /** Refreshes rendered, and refreshes skipped by the render interval, since attaching. */
  readonly rendered: number;
  readonly skipped: number;
  /** Removes the loop's listeners and gives the app its own render listener back. */
  detach(): void;
}

/** The frame time of the tick being run: the rAF timestamp Pixi's ticker got (see the top of this file). */
export function tickerTime(ticker: Ticker): number {
  return ticker.lastTime + ticker.elapsedMS;
}

/**
 * Runs `draw` from `app.ticker` on each refresh the runtime's pacer presents, and renders the stage then and
 * only then. `draw` is either a function, given each sampled frame (`runtime.frame(ts)`, for `bindSprites`
 * and `bindParticles`), or a GPU-path object such as `createInterpolatedSprites`' result (or an array of
 * them), whose `update(ts)` is called after `runtime.pace(ts)`: no sampling on the CPU at all.
 *
 * ```ts
 * const bunnies = bindParticles(runtime, container, { position: 'position', angle: 'angle' });
 * attachToTicker(app, runtime, (frame) => bunnies.update(frame));
 * // or, on the GPU path:
 * attachToTicker(app, runtime, createInterpolatedSprites(runtime, { position: 'position' }, { texture }));
 * ```
 *
 * The loop runs while `app.ticker` does: `Application`'s `autoStart` (the default) starts it at `init`; with
 * `autoStart: false`, `app.start()` does. The app's own render listener is removed (Pixi would otherwise
 * redraw the unchanged stage on every skipped refresh) and `detach()` puts it back. Listeners you add to the
 * ticker still run every refresh, between the frame and the render.
 */
export function attachToTicker<S extends Schema>(
  app: TickerApp,
  runtime: Pick<Runtime<S>, 'frame' | 'pace'>,
  draw: FrameDraw<S>,
): TickerLoop {
  const ticker = app.ticker;
  if (ticker === null || ticker === undefined) {
    throw new TypeError('@steadyframe/pixi: attachToTicker needs an initialised Application (await app.init() first): app.ticker is missing');
  }
  const present = framePresenter(runtime, draw, '@steadyframe/pixi: attachToTicker');
  let drawn = false;
  let rendered = 0;
  let skipped = 0;
  const frame = (t: Ticker): void => {
    drawn = present(tickerTime(t));
    if (!drawn) skipped++;
  };
  const render = (): void => {
    if (!drawn) return;
    drawn = false;
    rendered++;
    app.render();
  };
  ticker.remove(app.render, app);
  ticker.add(frame, undefined, UPDATE_PRIORITY.HIGH);
  ticker.add(render, undefined, UPDATE_PRIORITY.LOW);
  let attached = true;
  return {
    get rendered() {
      return rendered;
    },
    get skipped() {
      return skipped;
    },
    detach() {
      if (!attached) return;
      attached = false;
      ticker.remove(frame);
      ticker.remove(render);
      ticker.add(app.render, app, UPDATE_PRIORITY.LOW);
    },
  };
}
