/**
 * The control bar: every input writes the one `Settings` object and tells the demo what changed. Keys:
 * space pauses, `.` steps, 1 to 4 pick the right panel's mode.
 */
import type { InterpolationOptions } from 'steadyframe';
import { DEFAULT_COUNT, DEFAULT_TICK_RATE, type DemoSchema } from './schema.ts';

/** The slow-frame control's frame, ms: about the first frame of a 50k-sprite PixiJS scene (issue 11). */
export const SLOW_FRAME_MS = 500;

export type PanelMode = 'latest' | 'interpolate' | 'extrapolate' | 'delay';
const MODES: readonly PanelMode[] = ['latest', 'interpolate', 'extrapolate', 'delay'];

export interface Settings {
  tickRate: number;
  count: number;
  timeScale: number;
  paused: boolean;
  /** Busy-wait per step, ms. */
  loadMs: number;
  /** One long step every two seconds, ms; 0 is off. */
  jankMs: number;
  mode: PanelMode;
  /** The delayed mode's render delay, in ticks. */
  delayTicks: number;
  whenLate: 'hold' | 'extrapolate';
  adaptive: boolean;
  /** Where the blue panel is drawn: on the page's main thread, or in a render worker (an OffscreenCanvas). */
  drawIn: 'main' | 'worker';
  /** A busy loop of this many ms on the page every 500 ms (main-thread jank); 0 is off. */
  pageJankMs: number;
}

export function defaultSettings(): Settings {
  return {
    tickRate: DEFAULT_TICK_RATE,
    count: DEFAULT_COUNT,
    timeScale: 1,
    paused: false,
    loadMs: 0,
    jankMs: 0,
    mode: 'interpolate',
    delayTicks: 1,
    whenLate: 'hold',
    adaptive: true,
    drawIn: 'main',
    pageJankMs: 0,
  };
}

/**
 * The modes a control of the blue panel changes anything in (the runtime's sampler, core/frame-placement.ts):
 * the render delay only under interpolation, and only the delayed mode sets one; `whenLate` only under
 * interpolation too ('latest' shows the newest state whatever the time, 'extrapolate' predicts by its own
 * rule). Elsewhere the control is disabled, not left to do nothing.
 */
export const MODES_READING: Readonly<Record<'delay' | 'whenLate', readonly PanelMode[]>> = {
  delay: ['delay'],
  whenLate: ['interpolate', 'delay'],
};

/** The runtime's interpolation options for the right panel's mode. */
export function interpolationFor(settings: Settings): InterpolationOptions<DemoSchema> {
  const { mode, delayTicks, whenLate } = settings;
  return {
    mode: mode === 'delay' ? 'interpolate' : mode,
    renderDelay: mode === 'delay' ? delayTicks : 0,
    whenLate,
    maxPrediction: 1,
  };
}

export interface ControlHandlers {
  tickRate(hz: number): void;
  count(n: number): void;
  timeScale(scale: number): void;
  pause(paused: boolean): void;
  step(): void;
  load(ms: number): void;
  jank(ms: number): void;
  /** Mode, delay or when-late changed. */
  interpolation(): void;
  adaptive(on: boolean): void;
  /** Draw the blue panel on the page or in the render worker (recreates the runtime). */
  drawIn(where: 'main' | 'worker'): void;
  pageJank(ms: number): void;
  /** Make the next rendered frame take this long (one slow frame). */
  slowFrame(ms: number): void;
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function bindControls(settings: Settings, on: ControlHandlers): { setEnabled(enabled: boolean): void } {
  const tickRate = byId<HTMLInputElement>('tickRate');
  const load = byId<HTMLInputElement>('load');
  const delay = byId<HTMLInputElement>('delay');
  const pause = byId<HTMLButtonElement>('pause');
  const step = byId<HTMLButtonElement>('step');
  const adaptive = byId<HTMLInputElement>('adaptive');
  const whenLate = byId<HTMLSelectElement>('whenLate');
  let enabled = true;
  /** The delay and when-late controls: enabled where the mode reads them (and the bar is enabled). */
  const syncModeControls = (): void => {
    delay.disabled = !enabled || !MODES_READING.delay.includes(settings.mode);
    whenLate.disabled = !enabled || !MODES_READING.whenLate.includes(settings.mode);
  };
  const show = (id: string, text: string) => (byId<HTMLOutputElement>(id).textContent = text);
  const number = (element: EventTarget | null) => Number((element as HTMLInputElement | HTMLSelectElement).value);

  tickRate.addEventListener('input', () => {
    settings.tickRate = number(tickRate);
    show('tickRateOut', `${settings.tickRate} Hz`);
    on.tickRate(settings.tickRate);
  });
  byId('count').addEventListener('change', (e) => on.count((settings.count = number(e.target))));
  byId('timeScale').addEventListener('change', (e) => on.timeScale((settings.timeScale = number(e.target))));
  const setPaused = (paused: boolean) => {
    settings.paused = paused;
    pause.textContent = paused ? 'resume' : 'pause';
    pause.classList.toggle('active', paused);
    step.disabled = !paused;
    on.pause(paused);
  };
  pause.addEventListener('click', () => setPaused(!settings.paused));
  step.addEventListener('click', () => on.step());
  load.addEventListener('input', () => {
    settings.loadMs = number(load);
    show('loadOut', `${settings.loadMs} ms`);
    on.load(settings.loadMs);
  });
  byId('jank').addEventListener('change', (e) => on.jank((settings.jankMs = number(e.target))));
  const modeInputs = [...document.querySelectorAll<HTMLInputElement>('#mode input')];
  const setMode = (mode: PanelMode) => {
    settings.mode = mode;
    for (const input of modeInputs) input.checked = input.value === mode;
    syncModeControls();
    on.interpolation();
  };
  for (const input of modeInputs) input.addEventListener('change', () => setMode(input.value as PanelMode));
  syncModeControls();
  delay.addEventListener('input', () => {
    settings.delayTicks = number(delay);
    show('delayOut', `${settings.delayTicks} tick${settings.delayTicks === 1 ? '' : 's'}`);
    on.interpolation();
  });
  whenLate.addEventListener('change', () => {
    settings.whenLate = whenLate.value as Settings['whenLate'];
    on.interpolation();
  });
  adaptive.addEventListener('change', () => on.adaptive((settings.adaptive = adaptive.checked)));
  // the slow frame is one of the page's frames: with the render worker drawing, the page draws none
  const slowFrame = byId<HTMLButtonElement>('slowFrame');
  slowFrame.disabled = settings.drawIn === 'worker';
  byId('drawIn').addEventListener('change', (e) => {
    settings.drawIn = (e.target as HTMLSelectElement).value as Settings['drawIn'];
    slowFrame.disabled = settings.drawIn === 'worker';
    on.drawIn(settings.drawIn);
  });
  byId('pageJank').addEventListener('change', (e) => on.pageJank((settings.pageJankMs = number(e.target))));
  slowFrame.addEventListener('click', () => on.slowFrame(SLOW_FRAME_MS));

  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'radio' && e.target.type !== 'checkbox') return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') {
      e.preventDefault();
      setPaused(!settings.paused);
    } else if (e.key === '.' && settings.paused) {
      on.step();
    } else if (e.key >= '1' && e.key <= '4') {
      setMode(MODES[Number(e.key) - 1]!);
    }
  });

  const all = [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>('#controls input, #controls select, #controls button')];
  return {
    setEnabled(bar: boolean): void {
      enabled = bar;
      for (const element of all) {
        if (element === step) element.disabled = !bar || !settings.paused;
        else if (element === slowFrame) element.disabled = !bar || settings.drawIn === 'worker';
        else element.disabled = !bar;
      }
      syncModeControls();
    },
  };
}
