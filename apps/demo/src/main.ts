/**
 * The demo page. One runtime, sampled twice every animation frame:
 *
 * ```text
 *  rAF(ts) ─▶ runtime.frame()        right panel, in the mode picked (paces, and tells the worker the next frame)
 *          ─▶ runtime.sample(...)    left panel, the newest tick as it is
 *          ─▶ overlay                one sample per frame for each frame plot, one per tick for the worker's
 * ```
 *
 * The runtime has one set of interpolation options, so the left panel's sample switches them to 'latest' and
 * the next frame switches them back. Under interpolation it keeps the mode (switching would drop the history a
 * render delay needs) and samples at Infinity with `whenLate: 'hold'`, which gives the newest state as it is.
 *
 * Without cross-origin isolation the page says so and runs anyway, on the runtime's message transport.
 */
import { createRenderWorkerRuntime, createRuntime, type InterpolationOptions, type PacerChange, type RenderWorkerRuntime, type Runtime } from 'steadyframe';
import { bindControls, defaultSettings, interpolationFor, type Settings } from './controls.ts';
import type { DemoHooks, FrameMetrics } from './hooks.ts';
import { Overlay } from './overlay.ts';
import { create2dRenderer } from './renderer-2d.ts';
import { createGlRenderer } from './renderer-gl.ts';
import { CAPACITY, schema, type DemoSchema } from './schema.ts';
import type { Commands, SavedState } from './sim.worker.ts';
import { createTickLog, TickLogReader } from './tick-log.ts';
import { PANEL_RENDERER_CHANNEL, panelRenderer } from './panel-renderer.ts';
import { LEFT_PALETTE, RIGHT_PALETTE, type BodyRenderer, type Palette } from './view.ts';

type DemoRuntime = Runtime<DemoSchema, Commands>;
type DemoRenderWorkerRuntime = RenderWorkerRuntime<DemoSchema, Commands>;

interface Session {
  /** The runtime, when the page draws (null while the render worker draws: then the page never reads the buffer). */
  readonly runtime: DemoRuntime | null;
  /** The control calls and stats, whichever draws. */
  readonly control: DemoRuntime | DemoRenderWorkerRuntime;
  /** Where the blue panel is drawn, and why not in the render worker when it was asked for. */
  readonly drawnIn: 'main' | 'worker';
  readonly renderFallback: string | null;
  /** The worker's per-tick timing; null without cross-origin isolation. */
  readonly log: TickLogReader | null;
}

const LATEST: InterpolationOptions<DemoSchema> = { mode: 'latest' };
const HOLD: InterpolationOptions<DemoSchema> = { whenLate: 'hold' };

/** An isolated page in an engine that keeps SharedArrayBuffer off (WebKitGTK as it ships). */
const NO_SHARED_MEMORY =
  'This browser has no SharedArrayBuffer, although the page is cross-origin isolated (WebKitGTK turns it on only ' +
  'with JSC_useSharedArrayBuffer=1; Safari has it on isolated pages): the demo runs on the slower message ' +
  'transport (every state posted from the worker), the worker tick plots are off, and the blue panel is drawn on ' +
  'the page (a render worker reads the states from shared memory).';

const NOT_ISOLATED =
  'This page is not cross-origin isolated, so SharedArrayBuffer is unavailable: the demo runs on the slower ' +
  'message transport (every state posted from the worker), and the worker tick plots are off. For the shared ' +
  'double buffer, serve it with these two response headers (`npm start`, `vite` and `vite preview` in apps/demo ' +
  'send them):\n' +
  '  Cross-Origin-Opener-Policy: same-origin\n' +
  '  Cross-Origin-Embedder-Policy: require-corp';

const CAPTIONS: Record<Settings['mode'], (s: Settings) => [string, string]> = {
  latest: () => ['newest tick only', 'the same as the orange panel: no interpolation'],
  interpolate: () => ['interpolated', "between the two newest ticks, at each frame's own time"],
  extrapolate: () => ['extrapolated', 'the newest tick moved on by its velocity: watch the walls'],
  delay: (s) => ['interpolated, delayed', `${s.delayTicks} tick${s.delayTicks === 1 ? '' : 's'} in the past: rides out a late worker, adds latency`],
};

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** 2nd, 3rd, 4th... refresh. */
const ordinal = (n: number): string => `${n}${n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** Says in words, at the top of the page, whether it is cross-origin isolated, and if not, why. */
function showIsolation(): void {
  const line = byId('isolation');
  const isolated = globalThis.crossOriginIsolated === true;
  line.classList.toggle('isolated', isolated && typeof SharedArrayBuffer === 'function');
  line.textContent = isolated
    ? typeof SharedArrayBuffer === 'function'
      ? 'Cross-origin isolated: the worker and the page share one SharedArrayBuffer (the fast transport).'
      : 'Cross-origin isolated, but this browser has no SharedArrayBuffer (WebKitGTK keeps it off; Safari has it), so states travel by message (the slower transport).'
    : !globalThis.isSecureContext
      ? 'Not cross-origin isolated: the page is not a secure context (https or localhost), so states travel by message (the slower transport).'
      : 'Not cross-origin isolated: the server did not send the COOP/COEP headers, so states travel by message (the slower transport).';
}

/** WebGL2 where there is one; `?renderer=canvas2d` asks for the fallback. */
const wantedRenderer = (): 'webgl2' | 'canvas2d' => (new URLSearchParams(location.search).get('renderer') === 'canvas2d' ? 'canvas2d' : 'webgl2');
function bodyRenderer(canvas: HTMLCanvasElement, palette: Palette): BodyRenderer {
  return (wantedRenderer() === 'canvas2d' ? null : createGlRenderer(canvas, palette)) ?? create2dRenderer(canvas, palette);
}

/**
 * A runtime for the settings. Drawing in the render worker, the blue panel's canvas moves there for good
 * (`transferControlToOffscreen`), so the panel gets a fresh canvas element first: `onCanvas` hears of it.
 */
async function openSession(
  settings: Settings,
  saved: SavedState | null,
  onInterval: (change: PacerChange) => void,
  onCanvas: (canvas: HTMLCanvasElement) => void,
  onRenderer: (kind: 'webgl2' | 'canvas2d') => void,
): Promise<Session> {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'simulation' });
  const old = byId<HTMLCanvasElement>('right');
  const canvas = old.cloneNode(false) as HTMLCanvasElement;
  old.replaceWith(canvas);
  onCanvas(canvas);
  let runtime: DemoRuntime | null = null;
  let control: DemoRuntime | DemoRenderWorkerRuntime;
  let drawnIn: Session['drawnIn'] = 'main';
  let renderFallback: string | null = null;
  const options = { worker, schema, capacity: CAPACITY, pacing: { adaptive: settings.adaptive }, interpolation: interpolationFor(settings) };
  try {
    if (settings.drawIn === 'worker') {
      const renderWorker = new Worker(new URL('./panel.render.ts', import.meta.url), { type: 'module', name: wantedRenderer() });
      const made = await createRenderWorkerRuntime<DemoSchema, Commands>({ ...options, renderWorker, canvas, fallback: panelRenderer(RIGHT_PALETTE, wantedRenderer(), onRenderer) });
      control = made;
      drawnIn = made.renderer;
      renderFallback = made.renderFallback;
    } else {
      runtime = await createRuntime<DemoSchema, Commands>(options);
      control = runtime;
    }
  } catch (error) {
    worker.terminate();
    throw error;
  }
  control.on('interval', onInterval);
  // the worker's tick log is a SharedArrayBuffer of the demo's own: only on an isolated page
  const logBuffer = control.transport === 'shared' ? createTickLog() : null;
  const { commands } = control;
  await Promise.all([
    logBuffer === null ? null : commands.setTickLog(logBuffer, performance.timeOrigin, control.clock.skew),
    commands.setCount(settings.count),
    commands.setLoad(settings.loadMs),
    commands.setJank(settings.jankMs),
    control.setTickRate(settings.tickRate),
    control.setTimeScale(settings.timeScale),
  ]);
  if (saved !== null) await commands.restore(saved);
  await control.start();
  if (settings.paused) await control.pause();
  return { runtime, control, drawnIn, renderFallback, log: logBuffer === null ? null : new TickLogReader(logBuffer) };
}

/** The newest state's bodies, copied, to carry the scene over to a new runtime. */
function saveState(runtime: DemoRuntime): SavedState {
  runtime.setInterpolation(LATEST);
  const { fields, count } = runtime.sample(Number.POSITIVE_INFINITY);
  return {
    count,
    position: fields.position.slice(0, 2 * count),
    velocity: fields.velocity.slice(0, 2 * count),
    angle: fields.angle.slice(0, count),
    spin: fields.spin.slice(0, count),
  };
}

async function main(): Promise<void> {
  const settings = defaultSettings();
  const metrics: FrameMetrics = {
    frames: 0,
    skipped: 0,
    newestTick: 0,
    count: 0,
    alpha: 0,
    shownBehindMs: 0,
    stateAge: 0,
    lateFrames: 0,
    rightMode: '',
    rightDelay: 0,
    whenLate: '',
    ticksLogged: 0,
    maxStepMs: 0,
    slowFrames: 0,
    slowFrameRecoveryMs: Number.NaN,
  };
  let session: Session | null = null;
  const hooks = {
    settings,
    get runtime() {
      return session?.runtime ?? null;
    },
    get drawnIn() {
      return session?.drawnIn ?? null;
    },
    get renderFallback() {
      return session?.renderFallback ?? null;
    },
    metrics,
    stats: null,
    renderer: null,
    recreations: 0,
    ready: false,
    problem: null,
    plotData: (card) => overlay.plots[card].data(performance.now()),
  } as { -readonly [K in keyof DemoHooks]: DemoHooks[K] };
  window.demo = hooks;

  /** Shows why the page is not as it should be; `fatal` hides everything else (the demo cannot run). */
  const showProblem = (message: string, fatal = true) => {
    hooks.problem = message;
    const problem = byId('problem');
    problem.textContent = message;
    problem.hidden = false;
    problem.classList.toggle('warning', !fatal);
    if (fatal) {
      document.body.classList.add('broken');
      byId('status').textContent = '';
    }
  };
  if (!globalThis.crossOriginIsolated) showProblem(NOT_ISOLATED, false);
  else if (typeof SharedArrayBuffer === 'undefined') showProblem(NO_SHARED_MEMORY, false);
  showIsolation();

  const left = bodyRenderer(byId('left'), LEFT_PALETTE);
  /** The blue panel's renderer on the page (null while the render worker draws it). */
  let right: BodyRenderer | null = null;
  const onCanvas = (canvas: HTMLCanvasElement) => {
    right = settings.drawIn === 'main' ? bodyRenderer(canvas, RIGHT_PALETTE) : null;
    // drawn elsewhere (the render worker, or its fallback on the page), the panel says which renderer it got
    hooks.renderer = right?.kind ?? null;
    // one reader per runtime: while the render worker reads the buffer, the page samples nothing for the other panel
    byId('left').parentElement!.querySelector('span')!.textContent =
      settings.drawIn === 'main' ? 'no interpolation: what a plain renderer shows' : 'paused while the render worker draws the blue panel (the page reads no state)';
  };
  const onRenderer = (kind: 'webgl2' | 'canvas2d'): void => void (hooks.renderer = kind);
  // the render worker's renderer, told over a channel (panel.render.ts)
  new BroadcastChannel(PANEL_RENDERER_CHANNEL).onmessage = (event: MessageEvent<'webgl2' | 'canvas2d'>) => {
    if (settings.drawIn === 'worker') onRenderer(event.data);
  };
  const overlay = new Overlay(byId('overlay'));
  const plots = overlay.plots;

  /** The render interval's n as the pacer last moved it (NaN until it moves: then the polled stats say). */
  let pacerMultiple = Number.NaN;
  /** The slow-frame control: busy-wait this long in the next rendered frame (then 0), ms. */
  let slowFrameMs = 0;
  /** When the last injected slow frame ended (the page clock; NaN: none yet, or its recovery was shown). */
  let slowFrameEnd = Number.NaN;
  const onInterval = (change: PacerChange) => {
    pacerMultiple = change.toMultiple;
    // at the rendered frame that moved it: the step rises at the slow frame itself, falls where the pacer let go
    plots.interval.push(1, change.at, change.toMultiple);
    // back to every refresh: by a run of frames with time to spare, or (headless Chromium's rAF cadence wanders
    // between refresh rates: ARCHITECTURE.md, "Measurements behind the code") by a new refresh estimate that
    // re-sizes n for the last, cheap frame
    if (change.toMultiple === 1 && change.fromMultiple > 1 && !Number.isNaN(slowFrameEnd)) {
      metrics.slowFrameRecoveryMs = change.at - slowFrameEnd;
      overlay.setLegend('interval', 1, `a slow frame: every refresh again ${(metrics.slowFrameRecoveryMs / 1000).toFixed(2)} s after it`);
      slowFrameEnd = Number.NaN;
    }
  };
  let lastTick = -1;

  let rightOptions = interpolationFor(settings);
  /** Whether the runtime holds the right panel's options (false after the left panel switched them). */
  let rightConfigured = true;
  /** The right panel's options changed: read back what the runtime took, once (the getter allocates). */
  let optionsChanged = true;
  const showCaption = () => {
    const [title, note] = CAPTIONS[settings.mode](settings);
    byId('rightTitle').textContent = title;
    byId('rightNote').textContent = note;
  };
  showCaption();

  try {
    session = await openSession(settings, null, onInterval, onCanvas, onRenderer);
  } catch (error) {
    showProblem(error instanceof Error ? error.message : String(error));
    return;
  }

  const withRuntime = (act: (runtime: DemoRuntime | DemoRenderWorkerRuntime) => Promise<unknown>) => {
    if (session !== null) void act(session.control);
  };
  let recreating = false;
  // the page's own jank: a busy loop on the main thread every 500 ms (the render worker draws on through it)
  let pageJankTimer: ReturnType<typeof setInterval> | undefined;
  const setPageJank = (ms: number) => {
    clearInterval(pageJankTimer);
    pageJankTimer = ms > 0 ? setInterval(() => {
      for (const until = performance.now() + ms; performance.now() < until; );
    }, 500) : undefined;
  };
  /** Makes a new runtime for the settings, carrying the bodies over where the page can read them. */
  const recreate = () => {
    if (session === null || recreating) return;
    recreating = true;
    controls.setEnabled(false);
    const old = session;
    session = null;
    const saved = old.runtime === null ? null : saveState(old.runtime);
    old.control.dispose();
    pacerMultiple = Number.NaN;
    openSession(settings, saved, onInterval, onCanvas, onRenderer)
      .then((next) => {
        session = next;
        rightConfigured = true;
        optionsChanged = true;
        lastTick = -1;
        hooks.recreations++;
      })
      .catch((error: unknown) => showProblem(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        recreating = false;
        controls.setEnabled(true);
      });
  };
  const controls = bindControls(settings, {
    tickRate: (hz) => withRuntime((r) => r.setTickRate(hz)),
    count: (n) => withRuntime((r) => r.commands.setCount(n)),
    timeScale: (scale) => withRuntime((r) => r.setTimeScale(scale)),
    pause: (paused) => withRuntime((r) => (paused ? r.pause() : r.resume())),
    step: () => withRuntime((r) => r.stepOnce()),
    load: (ms) => withRuntime((r) => r.commands.setLoad(ms)),
    jank: (ms) => withRuntime((r) => r.commands.setJank(ms)),
    interpolation: () => {
      rightOptions = interpolationFor(settings);
      rightConfigured = false;
      optionsChanged = true;
      showCaption();
    },
    // the pacing option is fixed when a runtime is made: make a new one, carrying the bodies over
    adaptive: recreate,
    drawIn: recreate,
    pageJank: setPageJank,
    slowFrame: (ms) => (slowFrameMs = ms),
  });

  // stats: one comlink round trip four times a second, for the readings beside the plots
  let polling = false;
  let windowStart = performance.now();
  let windowFrames = 0;
  let windowTicks = 0;
  let windowAge = 0;
  let windowJitter = 0;
  let windowJitterCount = 0;
  let windowInterval = 0;
  let windowCost = 0;
  const poll = async () => {
    const current = session;
    if (current === null || polling) return;
    polling = true;
    try {
      const stats = await current.control.stats();
      if (current !== session) return;
      hooks.stats = stats;
      updateReadings(stats);
    } catch (error) {
      // a runtime replaced meanwhile (the adaptive switch) fails the call it was answering: nothing to show
      if (current === session) throw error;
    } finally {
      polling = false;
    }
  };
  setInterval(() => void poll(), 250);

  /** The render worker's frame count at the last reading (its frames are counted there, not on the page). */
  let workerFramesSeen = 0;
  const updateReadings = (stats: NonNullable<DemoHooks['stats']>) => {
    const now = performance.now();
    if (session?.runtime === null) {
      windowFrames = Math.max(0, stats.frames - workerFramesSeen);
      workerFramesSeen = stats.frames;
    } else workerFramesSeen = 0;
    const seconds = (now - windowStart) / 1000;
    const frames = Math.max(1, windowFrames);
    const fps = windowFrames / seconds;
    const { pacing, worker, lock } = stats;
    overlay.setValue('frameTime', `${(windowInterval / frames).toFixed(1)} ms · work ${(windowCost / frames).toFixed(1)}`);
    overlay.setValue('interval', `${pacing.multiple === 1 ? 'every refresh' : `every ${ordinal(pacing.multiple)}`} · ${pacing.interval.toFixed(1)} ms${pacing.adaptive ? '' : ' (fixed)'}`);
    overlay.setValue('ticks', `${(windowTicks / frames).toFixed(2)} · ${(windowTicks / seconds).toFixed(0)}/s`);
    overlay.setValue('alpha', metrics.alpha.toFixed(2));
    const age = windowAge / frames;
    // below 0 the newest state was made before the frame's time: the worker runs ahead on purpose, so that
    // every frame finds the state it needs already published
    overlay.setValue('age', age < 0 ? `ahead by ${(-age).toFixed(1)} ms` : `${age.toFixed(1)} ms late`);
    overlay.setValue('jitter', session?.log === null ? 'off: not isolated' : windowJitterCount === 0 ? '–' : `±${(windowJitter / windowJitterCount).toFixed(1)} ms`);
    overlay.setValue('step', `${worker.lastStepMs.toFixed(1)} ms · max ${worker.maxStepMs.toFixed(0)}`);
    overlay.setValue('lock', `${lock.spins} spins · ${lock.misses} missed · ${worker.flipWaits} waits`);
    if (session?.runtime === null) {
      // the render worker draws: the page reads no frames, so the per-frame readings come from its stats
      metrics.frames = stats.frames;
      metrics.count = settings.count;
      if (stats.frames > 0) hooks.ready = true;
    }
    const overloads = worker.overloads > 0 ? ` · ${worker.overloads} overloads (${worker.droppedMs.toFixed(0)} ms dropped)` : '';
    byId('status').textContent =
      `${fps.toFixed(0)} fps · tick ${worker.tick} at ${worker.tickRate} Hz × ${worker.timeScale} · ${metrics.count.toLocaleString('en')} bodies · ` +
      `${worker.status} · ${hooks.renderer === 'webgl2' ? 'WebGL2' : hooks.renderer === 'canvas2d' ? 'Canvas2D' : 'renderer starting'} · ` +
      `${session?.drawnIn === 'worker' ? 'drawn in the render worker' : session?.renderFallback ? `drawn on the page (${session.renderFallback})` : 'drawn on the page'} · ` +
      `${session?.control.transport !== 'message' ? 'SharedArrayBuffer (isolated)' : globalThis.crossOriginIsolated ? 'message transport (no SharedArrayBuffer)' : 'message transport (not isolated)'}${overloads}`;
    windowStart = now;
    windowFrames = windowTicks = windowAge = windowJitter = windowJitterCount = windowInterval = windowCost = 0;
  };

  // per tick, from the worker's log: jitter is how much the gap between making two ticks differs from the
  // time between the two ticks themselves (0 for a worker that makes each tick exactly one tick after the last)
  let previousAt = Number.NaN;
  let previousMade = Number.NaN;
  let previousLogged = -1;
  const onTick = (tick: number, at: number, lead: number, stepMs: number): void => {
    const made = at - lead;
    if (tick === previousLogged + 1) {
      const jitter = made - previousMade - (at - previousAt);
      plots.jitter.push(0, made, jitter);
      windowJitter += Math.abs(jitter);
      windowJitterCount++;
    }
    previousLogged = tick;
    previousAt = at;
    previousMade = made;
    plots.step.push(0, made, stepMs);
    metrics.ticksLogged++;
    if (stepMs > metrics.maxStepMs) metrics.maxStepMs = stepMs;
  };

  let lastRendered = Number.NaN;
  let lastPlotDraw = 0;
  let spinsSeen = 0;
  let missesSeen = 0;
  let acquiresSeen = 0;

  const onAnimationFrame = (ts: number): void => {
    requestAnimationFrame(onAnimationFrame);
    const current = session;
    if (current === null) return;
    const runtime = current.runtime;
    // drawn in the render worker: the page reads nothing (the render worker is the buffer's one reader)
    if (runtime === null || right === null) return;
    const started = performance.now();
    if (!rightConfigured) {
      runtime.setInterpolation(rightOptions);
      rightConfigured = true;
    }
    // at this animation frame's time: this loop began before the runtime (runtimes come and go with the mode), so
    // the runtime's frame hooks do not enclose it and it is handed the timestamp
    const frame = runtime.frame(ts);
    if (frame === null) {
      metrics.skipped++;
      return;
    }
    // the right panel: interpolated at this frame's time, in the mode picked
    if (frame.fresh) right.draw(frame.fields, frame.count);
    if (slowFrameMs > 0) {
      // one slow frame, as a first frame that makes every object or a long GC pause would be: the runtime counts
      // this frame's cost until its task ends, so the pacer sees it
      for (const until = performance.now() + slowFrameMs; performance.now() < until; );
      slowFrameMs = 0;
      slowFrameEnd = performance.now();
      metrics.slowFrames++;
      metrics.slowFrameRecoveryMs = Number.NaN;
      plots.interval.push(0, ts, slowFrameEnd - ts); // the frame, from its timestamp to the end of its work
      overlay.setLegend('interval', 1, 'a slow frame: the pacer recovering…');
    }
    metrics.alpha = frame.alpha;
    metrics.shownBehindMs = ts - frame.time;
    if (frame.late) metrics.lateFrames++;
    if (optionsChanged) {
      const options = runtime.interpolation;
      metrics.rightMode = options.mode;
      metrics.rightDelay = options.renderDelay;
      metrics.whenLate = options.whenLate;
      optionsChanged = false;
    }
    plots.alpha.push(0, ts, frame.alpha);

    // the left panel: the same world, newest tick only
    let newest;
    if (rightOptions.mode === 'interpolate') {
      // past every state, a hold shows the newest; an extrapolating late policy would carry it on
      if (rightOptions.whenLate !== 'hold') {
        runtime.setInterpolation(HOLD);
        rightConfigured = false;
      }
      newest = runtime.sample(Number.POSITIVE_INFINITY);
    } else {
      if (rightOptions.mode !== 'latest') {
        runtime.setInterpolation(LATEST);
        rightConfigured = false;
      }
      newest = runtime.sample(runtime.frameTime);
    }
    if (newest.fresh) left.draw(newest.fields, newest.count);
    const ticks = lastTick < 0 ? 0 : Math.max(0, newest.tick - lastTick);
    lastTick = newest.tick;
    metrics.newestTick = newest.tick;
    metrics.count = newest.count;
    metrics.stateAge = ts - newest.currentTime;
    metrics.frames++;
    hooks.ready = true;

    const interval = Number.isNaN(lastRendered) ? Number.NaN : ts - lastRendered;
    lastRendered = ts;
    const cost = performance.now() - started;
    const lock = runtime.reader.stats;
    if (lock.acquires < acquiresSeen) spinsSeen = missesSeen = 0; // a new runtime, new counters
    acquiresSeen = lock.acquires;
    plots.frameTime.push(0, ts, cost);
    plots.frameTime.push(1, ts, interval);
    const pacing = hooks.stats?.pacing;
    if (pacing !== undefined) plots.interval.push(1, ts, Number.isNaN(pacerMultiple) || !pacing.adaptive ? pacing.multiple : pacerMultiple);
    plots.ticks.push(0, ts, ticks);
    plots.age.push(0, ts, metrics.stateAge);
    plots.lock.push(0, ts, lock.spins - spinsSeen);
    plots.lock.push(1, ts, lock.misses - missesSeen);
    spinsSeen = lock.spins;
    missesSeen = lock.misses;
    current.log?.drain(onTick);

    windowFrames++;
    windowTicks += ticks;
    windowAge += metrics.stateAge;
    if (!Number.isNaN(interval)) windowInterval += interval;
    windowCost += cost;
    if (ts - lastPlotDraw >= 30) {
      lastPlotDraw = ts;
      overlay.draw(ts);
    }
  };
  requestAnimationFrame(onAnimationFrame);
}

void main();
