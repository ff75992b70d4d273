/**
 * Drives a runtime's frames from a Phaser game's own loop, with the loop's frame time, and renders only on the
 * refreshes the runtime's pacer presents.
 *
 * ```text
 *  Phaser's TimeStep, one rAF (timestamp ts) ──▶ the loop's callback, wrapped:
 *    game paused or being destroyed ──▶ Phaser's step as it is (it does nothing then)
 *    runtime.frame(ts) ──▶ null: a refresh the render interval skips ──▶ game.headlessStep(ts, delta):
 *                      │      prestep, step, your scenes' update, poststep; nothing drawn, the canvas keeps its picture
 *                      └─▶ a frame ──▶ draw(frame, ts) ──▶ game.step(ts, delta): prestep, step, your scenes'
 *                             update (the sprites already stand where this frame draws them), poststep, render
 * ```
 *
 * With `options.events` (an emitter: the scene's `this.events`, which the plugin passes), each frame presented
 * then also emits each of its events there, as FRAME_EVENT, right after `draw` and before Phaser's step:
 *
 *   runtime.frame(ts) or pace(ts) presents ──▶ draw ──▶ emitter.emit('steadyframe-event', event) per event ──▶ step
 *
 * The time is the rAF timestamp Phaser's loop was called with (`performance.now()`'s timeline, as the runtime's
 * clock); with `fps.forceSetTimeOut` Phaser passes `performance.now()` itself. Phaser's loop started before the
 * runtime existed, so the runtime's own frame hooks cannot enclose it: the timestamp is what places the frame.
 */
import type { GameEvent, Runtime, Schema } from 'steadyframe';
import { framePresenter, type FrameDraw } from 'steadyframe/adapter';

export type { TimedDrawable } from 'steadyframe/adapter';

/** Phaser's `TimeStep`: the part the loop wraps. */
export interface GameTimeStep {
  callback: (time: number, delta: number) => void;
}

/** The parts of a `Phaser.Game` the loop uses. */
export interface LoopGame {
  readonly loop: GameTimeStep;
  readonly isRunning: boolean;
  readonly isPaused: boolean;
  /** Set by `destroy()` until the next step runs it (not in Phaser's published types). */
  readonly pendingDestroy?: boolean;
  readonly events: {
    once(event: 'prestep', listener: (time: number, delta: number) => void): unknown;
    off(event: 'prestep', listener: (time: number, delta: number) => void): unknown;
  };
  step(time: number, delta: number): void;
  headlessStep(time: number, delta: number): void;
}

/** What `attachToGame` returns. */
export interface GameLoop {
  /** Refreshes rendered, and refreshes skipped by the render interval, since attaching. */
  readonly rendered: number;
  readonly skipped: number;
  /** Gives the game its own step back: every refresh renders again, and `draw` is no longer called. */
  detach(): void;
}

/**
 * The event name each presented event is emitted under (`scene.events.on(FRAME_EVENT, (event) => ...)`): one name
 * for every code, so the listener switches on `event.code`. `event` is one reused object over the event ring
 * (`tick`, `code`, `sequence`, `payload(j)`): read it in the listener, copy out what you keep.
 */
export const FRAME_EVENT = 'steadyframe-event';

/** Where presented events go: a Phaser EventEmitter (`scene.events`, `game.events`) or any `emit`. */
export interface EventSink {
  emit(event: string, ...args: unknown[]): unknown;
}

/** Options of `attachToGame`. */
export interface AttachToGameOptions {
  /**
   * Emits each event a drawn frame presents (`runtime.events`: every event of a tick up to the one the frame
   * shows that no frame presented before) on this emitter as FRAME_EVENT, with the event, in the refresh that
   * draws it: after `draw`, before Phaser's step (your listeners run before the scenes' `update` and the render).
   */
  readonly events?: EventSink;
}

/** Games with a loop attached: one runtime paces a game at a time. */
const attached = new WeakSet<object>();

/**
 * Runs `draw` from Phaser's loop on each refresh the runtime's pacer presents, with the frame sampled at the
 * loop's timestamp (or, for GPU-path objects such as `createInterpolatedSprites`' result, `runtime.pace(time)`
 * and their `update(time)`: no sampling on the CPU), and lets Phaser render then and only then. On the
 * refreshes the pacer skips, Phaser runs its headless step: input, tweens, timers and your scenes' `update` run
 * every refresh as before, and nothing is drawn (the canvas keeps the last picture; Phaser's `prerender` and
 * `postrender` game events fire with a null renderer, as in a headless game).
 *
 * ```ts
 * const balls = bindGroup(runtime, this.add.group({ defaultKey: 'ball' }), { position: 'position' });
 * attachToGame(this.game, runtime, (frame) => balls.update(frame));
 * ```
 *
 * Attach whenever: a scene's `create` may run before Phaser's loop starts, and then the loop is wrapped at its
 * first `prestep` (that refresh is drawn and rendered, paced or not). One runtime paces a game at a time:
 * attaching a second before `detach()` throws. `draw` runs before Phaser's `prestep`, so your `update` sees
 * the sprites where this refresh draws them (a camera following one follows the drawn position).
 */
export function attachToGame<S extends Schema>(
  game: LoopGame,
  runtime: Pick<Runtime<S>, 'frame' | 'pace'> & Partial<Pick<Runtime<S>, 'events'>>,
  draw: FrameDraw<S>,
  options: AttachToGameOptions = {},
): GameLoop {
  if (game === null || typeof game !== 'object' || typeof game.step !== 'function' || typeof game.headlessStep !== 'function' || game.loop === undefined) {
    throw new TypeError('@steadyframe/phaser: attachToGame needs a Phaser.Game (this.game in a scene)');
  }
  const sink = options.events;
  if (sink !== undefined && (typeof sink?.emit !== 'function' || runtime.events === undefined)) {
    throw new TypeError('@steadyframe/phaser: attachToGame({ events }) needs an emitter with emit() (this.events in a scene) and the runtime itself (it reads runtime.events)');
  }
  const draws = framePresenter(runtime, draw, '@steadyframe/phaser: attachToGame');
  // one visitor for the loop's life: forEach hands it the ring's reused event object, so nothing is allocated per event
  const emitEvent = sink === undefined ? null : (event: GameEvent): void => void sink.emit(FRAME_EVENT, event);
  /** This refresh's frame, drawn (true) or skipped by the pacer (false); a drawn one's events emitted. */
  const present = emitEvent === null
    ? draws
    : (time: number): boolean => {
        if (!draws(time)) return false;
        runtime.events!.forEach(emitEvent);
        return true;
      };
  if (attached.has(game)) {
    throw new Error('@steadyframe/phaser: this game already has a runtime attached; detach() it first (one runtime paces a game at a time)');
  }
  attached.add(game);
  let rendered = 0;
  let skipped = 0;
  let live = true;
  let original: ((time: number, delta: number) => void) | null = null;
  const paced = (time: number, delta: number): void => {
    if (!live || game.isPaused || game.pendingDestroy === true) {
      original!(time, delta);
      return;
    }
    if (!present(time)) {
      skipped++;
      game.headlessStep(time, delta);
      return;
    }
    rendered++;
    original!(time, delta);
  };
  const wrap = (): void => {
    original = game.loop.callback;
    game.loop.callback = paced;
  };
  // Before the game runs, its loop has no callback yet (Phaser's `start` hands it `step`, or `headlessStep` for
  // a HEADLESS game, after the scenes' first `create`): wrap at its first prestep, drawing that step's frame there.
  const first = (time: number): void => {
    if (!live) return;
    wrap();
    if (present(time)) rendered++;
  };
  if (game.isRunning) wrap();
  else game.events.once('prestep', first);
  return {
    get rendered() {
      return rendered;
    },
    get skipped() {
      return skipped;
    },
    detach() {
      if (!live) return;
      live = false;
      attached.delete(game);
      game.events.off('prestep', first);
      if (original !== null && game.loop.callback === paced) game.loop.callback = original;
    },
  };
}
