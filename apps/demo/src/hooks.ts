/**
 * `window.demo`: what the page is doing, for the end-to-end test and for the curious (open the console).
 * Everything here is read-only from outside; the controls are the way to change it.
 */
import type { Runtime, RuntimeStats } from 'steadyframe';
import type { CardName } from './overlay.ts';
import type { SeriesData } from './plot.ts';
import type { Settings } from './controls.ts';
import type { DemoSchema } from './schema.ts';
import type { Commands } from './sim.worker.ts';

export interface FrameMetrics {
  /** Frames drawn, and display refreshes the adaptive render interval skipped. */
  frames: number;
  skipped: number;
  /** The newest tick and its body count, as the left panel last drew them. */
  newestTick: number;
  count: number;
  /** The right panel's last frame: alpha, how far behind the frame's time it shows the world (render delay). */
  alpha: number;
  shownBehindMs: number;
  /** Frame time minus the newest state's time: below 0 the state was ready ahead of the frame. */
  stateAge: number;
  /** Right-panel frames whose time was past the newest state. */
  lateFrames: number;
  /** The interpolation options the right panel was last sampled with. */
  rightMode: string;
  rightDelay: number;
  whenLate: string;
  /** Ticks the worker logged (see tick-log.ts), and the longest step among them, ms. */
  ticksLogged: number;
  maxStepMs: number;
  /** Slow frames injected by the control, and how long after the last one ended every refresh rendered again
   *  (the pacer's change back to n = 1), ms; NaN until it has. */
  slowFrames: number;
  slowFrameRecoveryMs: number;
}

export interface DemoHooks {
  readonly settings: Readonly<Settings>;
  readonly runtime: Runtime<DemoSchema, Commands> | null;
  readonly metrics: Readonly<FrameMetrics>;
  /** The last `stats()`, polled four times a second (`render` says where frames were drawn, with a render worker). */
  readonly stats: RuntimeStats | null;
  /** The blue panel's renderer (null until it starts; a render worker tells the page which it got). */
  readonly renderer: 'webgl2' | 'canvas2d' | null;
  /** Where the blue panel is drawn ('worker': the render worker, and then `runtime` is null: the page reads nothing). */
  readonly drawnIn: 'main' | 'worker' | null;
  /** Why the blue panel is drawn on the page although the render worker was asked for. */
  readonly renderFallback: string | null;
  /** Times the runtime was made again (the adaptive interval is fixed at creation). */
  readonly recreations: number;
  /** True once the first frame has been drawn. */
  readonly ready: boolean;
  /** Why the page cannot run, if it cannot. */
  readonly problem: string | null;
  /** What a card's plot draws now, per series (the render interval: [slow frames (time, ms), n at each rendered frame and change]). */
  plotData(card: CardName): SeriesData[];
}

declare global {
  interface Window {
    demo?: DemoHooks;
  }
}
