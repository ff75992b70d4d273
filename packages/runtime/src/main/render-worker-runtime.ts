/**
 * `createRenderWorkerRuntime`: the page's side of the render worker (the third thread; ARCHITECTURE.md, "The
 * render worker"). It makes the state buffer and the input ring and attaches the simulation worker exactly as
 * `createRuntime` does, then hands the canvas (`transferControlToOffscreen`), the buffer and a host port to the
 * render worker, which from then on is the buffer's one reader and draws on its own requestAnimationFrame. The
 * page keeps the control calls, the game's commands, the events and `sendInput` (straight into the shared
 * ring). Where a render worker cannot be used, it says why (console, `renderFallback`, `stats().render`) and
 * draws on the page with the same `setup` (`fallback`).
 */
import { expose, releaseProxy, transfer, wrap, type Remote } from 'comlink';
import type { PresentedFrame, RuntimeEvents } from '../contracts/app.ts';
import { PackedEvents } from '../core/event-reader.ts';
import type { RenderWorkerRuntime, RenderWorkerRuntimeOptions } from '../contracts/render.ts';
import type { SimulationRemote } from '../contracts/remote.ts';
import { composeRuntime } from '../compose/runtime.ts';
import { createRenderBeat, readBeat } from '../core/render-beat.ts';
import type { Schema } from '../core/schema.ts';
import { browserPageHost, browserSharedMemory, documentVisibility, SHARED_MEMORY_OFF } from '../hosts/browser-page.ts';
import type { RenderHostRemote, RenderProbe, RenderStats, RenderWorkerRemote } from '../contracts/render-worker.ts';
import { canvasSize, followCanvasSize } from './canvas-size.ts';
import { attachDeadline, describeHeld } from './attach-deadline.ts';
import { alignClocks } from './clock-align.ts';
import { Emitter } from './events.ts';
import { RenderWatch } from './render-watch.ts';
import { createMainThreadRenderer, forward } from './render-fallback.ts';
import { DEFAULT_ATTACH_TIMEOUT, DEFAULT_HEARTBEAT_TIMEOUT } from './runtime-options.ts';

/** Why a render worker cannot be used on this page, checked before anything is transferred; null: it can. */
export function renderWorkerUnavailable(canvas: HTMLCanvasElement): string | null {
  // the page host's own rule for shared memory, in the render worker's words
  const missing = browserSharedMemory();
  if (missing === SHARED_MEMORY_OFF) {
    // WebKitGTK as it ships: isolated, yet no SharedArrayBuffer; more headers would not help
    return 'the page is cross-origin isolated, but this browser has no SharedArrayBuffer for the render worker to read';
  }
  if (missing !== null || globalThis.crossOriginIsolated !== true) {
    return 'the page is not cross-origin isolated (no SharedArrayBuffer for the render worker to read; serve COOP/COEP headers)';
  }
  if (typeof canvas?.transferControlToOffscreen !== 'function' || typeof OffscreenCanvas === 'undefined') {
    return 'this browser has no OffscreenCanvas (canvas.transferControlToOffscreen)';
  }
  return null;
}

/**
 * The render worker's answer, or a rejection naming the likely cause when its script fails to load or throws
 * (its `error` event) or, within `timeout` ms, never answers (it does not call exposeRenderer).
 */
function answerOf<T>(worker: Worker, answer: Promise<T>, timeout: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let cancelDeadline = (): void => {};
    const onError = (event: ErrorEvent): void => {
      event.preventDefault();
      done();
      reject(new Error(`steadyframe: the render worker failed: ${event.message || 'it did not load (check its URL and that it calls exposeRenderer)'}`));
    };
    const done = (): void => {
      cancelDeadline();
      worker.removeEventListener('error', onError);
    };
    worker.addEventListener('error', onError);
    cancelDeadline = attachDeadline(timeout, (held) => {
      done();
      reject(
        new Error(
          `steadyframe: the render worker did not answer within ${timeout} ms${describeHeld(held)}: its module must call exposeRenderer() at its top level (raise attachTimeout if it is only slow to load)`,
        ),
      );
    });
    answer.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** Ms without a finished render-worker frame before `renderUnresponsive`, by default (`renderTimeout`). */
export const DEFAULT_RENDER_TIMEOUT = 5000;

/**
 * Creates the runtime with its drawing in a render worker: the state buffer and input ring, the simulation
 * worker attached (as `createRuntime`), then the canvas, the buffer and a port handed to the render worker.
 * Falls back to drawing on this thread with `fallback` where the render worker cannot be used, and says why.
 * Rejects as `createRuntime` does, and for a render worker that fails its `setup`.
 */
export async function createRenderWorkerRuntime<S extends Schema, C extends object = Record<never, never>>(
  options: RenderWorkerRuntimeOptions<S>,
): Promise<RenderWorkerRuntime<S, C>> {
  const { renderWorker, canvas } = options;
  if (typeof renderWorker?.postMessage !== 'function') {
    throw new TypeError("steadyframe: options.renderWorker must be a Worker whose module calls exposeRenderer(setup) from 'steadyframe/render-worker'");
  }
  const wanted = options.renderIn ?? 'auto';
  const renderTimeout = options.renderTimeout === false ? Number.POSITIVE_INFINITY : (options.renderTimeout ?? DEFAULT_RENDER_TIMEOUT);
  if (!(renderTimeout > 0)) throw new RangeError(`steadyframe: renderTimeout must be a number of ms above 0, or false (never); got ${String(options.renderTimeout)}`);
  let reason = wanted === 'main' ? "renderIn: 'main' was asked for" : renderWorkerUnavailable(canvas);
  const renderRemote = wrap<RenderWorkerRemote>(renderWorker);
  const attachTimeout = options.attachTimeout ?? DEFAULT_ATTACH_TIMEOUT;
  if (reason === null) {
    let probe: RenderProbe;
    try {
      probe = await answerOf(renderWorker, renderRemote.probe(), attachTimeout);
    } catch (error) {
      renderRemote[releaseProxy]();
      throw error;
    }
    if (!probe.animationFrames) reason = 'this browser has no requestAnimationFrame in workers';
    else if (!probe.crossOriginIsolated) reason = 'the render worker is not cross-origin isolated';
  }
  if (reason !== null) {
    if (wanted === 'worker') throw new Error(`steadyframe: renderIn: 'worker', but the render worker cannot be used: ${reason}`);
    renderRemote[releaseProxy]();
    renderWorker.terminate();
    return createMainThreadRenderer<S, C>(options, reason);
  }

  const events = new Emitter<RuntimeEvents<S>>();
  events.on('fault', options.onError ?? ((error) => console.error(error)));
  const visibility = options.visibility === undefined ? documentVisibility() : options.visibility;
  // the simulation worker attached as createRuntime attaches it, over the shared transport; this page reads
  // nothing (the render worker is the buffer's one reader), so it makes no frames and keeps no watch of its own
  const runtime = await composeRuntime<S, C>(
    browserPageHost(),
    { ...options, visibility, onError: (error) => events.emit('fault', error) },
    { reads: false, transport: 'shared' },
  );
  let disposed = false;
  const channel = new MessageChannel();
  const host: RenderHostRemote = {
    emit: (type, event) => {
      if (!disposed) events.emit(type as keyof RuntimeEvents<S>, event as never);
    },
    workerStats: () => runtime.remote.stats(),
    present: (report) => {
      if (disposed) return;
      // the render worker's frame, as the page's listeners see a page frame's (one object, rewritten)
      presented.tick = report.tick;
      presented.time = report.time;
      presented.index = report.index;
      for (const g of runtime.layout.game) (presented.state as Record<string, number>)[g.name] = report.state[g.index]!;
      presentedEvents.set(report.events, report.count, report.recordWords || 1);
      try {
        events.emit('present', presented);
      } catch (error) {
        console.error(error);
      }
    },
  };
  const presentedEvents = new PackedEvents();
  const presented: { tick: number; time: number; index: number; state: PresentedFrame<S>['state']; events: PackedEvents } = {
    tick: 0,
    time: 0,
    index: 0,
    state: Object.seal(Object.fromEntries(runtime.layout.game.map((g) => [g.name, 0]))) as PresentedFrame<S>['state'],
    events: presentedEvents,
  };
  // the render worker reports presented frames only while someone listens
  let presentListeners = 0;
  const on: RenderWorkerRuntime<S, C>['on'] = (type, listener) => {
    const off = events.on(type, listener);
    if (type !== 'present') return off;
    if (presentListeners++ === 0) void renderRemote.setPresent(true);
    let removed = false;
    return () => {
      off();
      if (removed) return;
      removed = true;
      if (--presentListeners === 0 && !disposed) void renderRemote.setPresent(false);
    };
  };
  expose(host, channel.port1);
  const size = canvasSize(canvas);
  const offscreen = canvas.transferControlToOffscreen();
  const heartbeatTimeout =
    options.heartbeatTimeout === false ? Number.POSITIVE_INFINITY : (options.heartbeatTimeout ?? DEFAULT_HEARTBEAT_TIMEOUT);
  const beatWords = createRenderBeat();
  try {
    await answerOf(renderWorker, renderRemote.init(
      // the canvas and the port move to the render worker; the buffer is shared
      transfer(
        {
          canvas: offscreen,
          host: channel.port2,
          buffer: runtime.views!.buffer as SharedArrayBuffer,
          // the page's SIMD kernels' shared memory (a shared WebAssembly.Memory posts like the buffer)
          memory: runtime.wasmMemory,
          beat: beatWords.buffer,
          // the event ring: the render worker, the one reader, presents its events
          events: runtime.eventRing,
          schema: options.schema,
          capacity: options.capacity,
          maxSpins: options.maxSpins ?? 10_000,
          heartbeatTimeout,
          interpolation: options.interpolation,
          pacing: options.pacing,
          info: runtime.info,
          ...size,
        },
        [offscreen, channel.port2],
      ),
    ), Number.POSITIVE_INFINITY);
  } catch (error) {
    runtime.dispose();
    renderWorker.terminate();
    channel.port1.close();
    throw error;
  }
  // the render worker's clock against the page's, corrected as the simulation worker's was
  await alignClocks(renderRemote as unknown as Remote<SimulationRemote>, runtime.now);
  // answered while the render worker surely can: what stats() shows if it later cannot answer
  let renderStats: RenderStats = await renderRemote.stats();

  // the page's watch over the render worker: its error events, and silence on the render beat
  let errors = 0;
  let lastError: string | null = null;
  const reported = new Set<string>();
  const onRenderError = (event: ErrorEvent): void => {
    event.preventDefault();
    errors++;
    lastError = event.message || 'an error without a message (a script that failed to load?)';
    const where = event.filename ? ` (${event.filename}:${event.lineno})` : '';
    const error = new Error(
      `steadyframe: the render worker threw: ${lastError}${where}. Its frames go on where they can; fix the renderer ` +
        "(the setup or draw its module hands exposeRenderer), or handle runtime.on('renderFault')",
    );
    if (!reported.has(lastError)) {
      reported.add(lastError);
      console.error(error);
    }
    events.emit('renderFault', error);
  };
  renderWorker.addEventListener('error', onRenderError);
  const watch = new RenderWatch(() => readBeat(beatWords).frames, renderTimeout, (type, event) => {
    if (disposed) return;
    // a warning, not an error: it may be one slow frame, and renderResponsive follows when frames come back
    if (type === 'renderUnresponsive') {
      console.warn(
        `steadyframe: the render worker finished no frame for ${Math.round(event.silentMs)} ms while the page was visible: ` +
          'its draw is stuck (a loop that never ends?) or throws on every frame (see the renderFault events), or the worker was terminated or crashed. The canvas is the render ' +
          "worker's, so the picture stays frozen: fix the renderer's draw, or dispose() this runtime and create it again " +
          "(renderIn: 'main' draws on the page)",
      );
    }
    events.emit(type, event);
  });
  let started = false;
  let hidden = visibility?.hidden === true;
  // the page's own visibility too: with `visibility: null` or a manual hook, a hidden tab still stops the render
  // worker's requestAnimationFrame, and that silence is no fault
  const pageHidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';
  const watching = (): void => watch.expect(started && !hidden && !pageHidden());
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', watching);
  // a few checks per timeout: silence is noticed within a quarter of it late at most (and a page stall later)
  const timer = Number.isFinite(renderTimeout)
    ? setInterval(() => watch.check(performance.now()), Math.min(250, Math.max(20, renderTimeout / 4)))
    : undefined;

  const unsubscribe = runtime.on('visibility', (event) => {
    hidden = event.hidden;
    watching();
    void renderRemote.setHidden(event.hidden);
    events.emit('visibility', event);
  });
  if (hidden) void renderRemote.setHidden(true);
  const unfollow =
    options.autoResize === false ? () => {} : followCanvasSize(canvas, (next) => void renderRemote.resize(next.width, next.height, next.dpr));

  return {
    ...forward(runtime),
    on,
    renderer: 'worker',
    renderFallback: null,
    renderRemote,
    async start() {
      await runtime.start();
      await renderRemote.start();
      started = true;
      watching();
    },
    async stop() {
      started = false;
      watching();
      await renderRemote.stop();
      await runtime.stop();
    },
    setInterpolation: async (interpolation) => renderRemote.setInterpolation(interpolation),
    resize: async (width, height, dpr) => renderRemote.resize(width, height, dpr),
    async stats() {
      // a render worker that hangs or was terminated never answers: then its last answer, marked `unresponsive`
      const asked = async (): Promise<void> => {
        if (watch.unresponsive) return;
        const wait = Number.isFinite(renderTimeout) ? renderTimeout : DEFAULT_RENDER_TIMEOUT;
        let timeout: ReturnType<typeof setTimeout> | undefined;
        const answer = await Promise.race([
          renderRemote.stats(),
          new Promise<null>((resolve) => (timeout = setTimeout(() => resolve(null), wait))),
        ]);
        clearTimeout(timeout);
        if (answer !== null) renderStats = answer;
      };
      const [main] = await Promise.all([runtime.stats(), asked()]);
      const render = renderStats;
      return {
        ...main,
        frames: render.frames,
        lock: render.lock,
        sampling: render.sampling,
        pacing: render.pacing,
        frameClock: render.frameClock,
        events: render.events,
        render: {
          thread: 'worker',
          fallback: null,
          // from the beat: fresh even when the render worker cannot answer
          drawn: readBeat(beatWords).drawn,
          crossOriginIsolated: render.crossOriginIsolated,
          kernels: render.kernels,
          kernelCalls: render.kernelCalls,
          canvas: render.canvas,
          errors,
          lastError,
          unresponsive: watch.unresponsive,
        },
      };
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      clearInterval(timer);
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', watching);
      renderWorker.removeEventListener('error', onRenderError);
      unfollow();
      unsubscribe();
      runtime.dispose();
      renderRemote[releaseProxy]();
      renderWorker.terminate();
      channel.port1.close();
    },
  };
}

