/**
 * The events `runtime.on` offers, and the frame the `present` event carries. Types only.
 */
import type { FrameEvents } from '../core/event-reader.ts';
import type { GameState, Schema } from '../core/schema.ts';
import type { PacerChange } from './frames.ts';

/**
 * A frame as it was presented: the tick it shows (the discrete rule: its pair's current tick once alpha is above
 * 0), its time and index, the game state and the events it presents. The same object every frame: read it in the
 * listener.
 */
export interface PresentedFrame<S extends Schema = Schema> {
  /** The tick the frame shows. */
  readonly tick: number;
  /** Shared-clock ms the frame shows. */
  readonly time: number;
  /** Frames presented so far, this one included. */
  readonly index: number;
  readonly state: GameState<S>;
  readonly events: FrameEvents;
}

/** The events `runtime.on` offers. */
export interface RuntimeEvents<S extends Schema = Schema> {
  /**
   * Each frame that presents (`frame`, the `draw` loop, `frameAt`, `pace`; with a render worker, each frame it
   * drew, as its report reaches the page): the tick it shows, its game state and its events. For code that
   * answers to the game rather than draws it (a HUD, sounds), the same on every host.
   */
  present: PresentedFrame<S>;
  /** The simulation's step threw; the simulation stopped and the last good state stays on screen. */
  fault: Error;
  /** The worker dropped backlog (see its `backlog` policy); counts since attach. */
  overload: { readonly overloads: number; readonly droppedMs: number };
  /** The page was hidden or shown (as the visibility hook says). */
  visibility: { readonly hidden: boolean };
  /** The render interval changed, and why. */
  interval: PacerChange;
  /**
   * The worker's heartbeat stopped for `heartbeatTimeout` ms (it died, was terminated, or one step is taking
   * that long). Frames keep showing the last good state and stop taking the lock meanwhile.
   */
  unresponsive: { readonly silentMs: number };
  /** The heartbeat came back after `unresponsive`. */
  responsive: { readonly silentMs: number };
  /**
   * The page held the shared lock past 500 ms (a frame stuck between acquire and release), so the worker gave
   * up publishes rather than wait: the page's fault, not the worker's, which goes on beating. `stalls` counts
   * them since attach (READER_STALLS).
   */
  readerStall: { readonly stalls: number };
  /**
   * With a render worker (`createRenderWorkerRuntime`) only: it threw after set-up (its `error` event: a draw,
   * or a callback of the renderer's). Its loop schedules the next frame before it draws, so frames go on where
   * they can; `stats().render.errors` counts them, and the console gets each distinct message once.
   */
  renderFault: Error;
  /**
   * With a render worker only: it finished no frame for `renderTimeout` ms while the page was visible and the
   * runtime started (a draw that never returns, a worker terminated or crashed): the picture is frozen. The
   * console gets a warning naming the fix.
   */
  renderUnresponsive: { readonly silentMs: number };
  /** With a render worker only: its frames came back after `renderUnresponsive`. */
  renderResponsive: { readonly silentMs: number };
}

