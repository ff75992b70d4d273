/**
 * The render worker's frames: the page's own FrameLoop (pacer, sampler, kernels), SlotReader and Watchdog,
 * built over the state buffer the page handed over, driven by this worker's requestAnimationFrame. The render
 * worker is the buffer's one reader (ARCHITECTURE.md, "The render worker"); it never blocks: its acquire is
 * the bounded spin, its loop rAF-driven.
 *
 * ```text
 *  rAF(ts) ─▶ t = ts + origin gap ─▶ FrameLoop.frameAt(t) ─frame─▶ draw(frame, t) ─▶ OffscreenCanvas
 *                                        └ pace, acquire, sample, release, NEXT_FRAME, watchdog
 * ```
 */
import { transfer, wrap } from 'comlink';
import type { Frame } from '../contracts/app.ts';
import type { PageHost } from '../contracts/host.ts';
import type { SharedAttachConfig, SimulationInfo } from '../contracts/remote.ts';
import type { Transport } from '../contracts/transport.ts';
import { composeFrames } from '../compose/runtime.ts';
import { currentTimeOrigin, type Clock } from '../core/clock.ts';
import { computeLayout, F64, type Layout } from '../core/layout.ts';
import { beat, readBeat } from '../core/render-beat.ts';
import type { Schema } from '../core/schema.ts';
import { spinUntil } from '../hosts/browser-page.ts';
import { pacingStats, type FrameLoop } from '../main/frame-loop.ts';
import type { FramePacerOptions } from '../main/frame-pacer.ts';
import type { InterpolationOptions } from '../main/sampler.ts';
import { createStateReader, type StateReader } from '../main/state-reader.ts';
import type { Watchdog } from '../main/watchdog.ts';
import { DEFAULT_TRANSPORTS } from '../transports/library.ts';
import { transportOfKind } from '../transports/registry.ts';
import type { RenderContext, Renderer, RendererSetup } from '../contracts/render.ts';
import type { PresentedReport, RenderHostRemote, RenderInit, RenderProbe, RenderStats, RenderWorkerRemote } from '../contracts/render-worker.ts';

export type { RenderContext, Renderer, RendererSetup } from '../contracts/render.ts';

/** The parts of a renderer, normalised. */
export function rendererParts<S extends Schema>(renderer: Renderer<S>): {
  draw: (frame: Frame<S>, time: number) => void;
  resize: (width: number, height: number, dpr: number) => void;
  sample: boolean;
} {
  if (typeof renderer === 'function') return { draw: renderer, resize: () => {}, sample: true };
  if (typeof renderer?.draw !== 'function') {
    throw new TypeError('steadyframe: a renderer setup must return a draw function, or { draw, resize?, sample? }');
  }
  return { draw: renderer.draw, resize: renderer.resize ?? (() => {}), sample: renderer.sample ?? true };
}

/** Sets a canvas's backing store to its CSS size times the pixel ratio (at least one pixel). */
export function sizeCanvas(canvas: OffscreenCanvas | HTMLCanvasElement, width: number, height: number, dpr: number): void {
  canvas.width = Math.max(1, Math.round(width * dpr));
  canvas.height = Math.max(1, Math.round(height * dpr));
}

/** The render worker's side: what `exposeRenderer` serves. */
export function createRenderWorker<S extends Schema>(setup: RendererSetup<S>): RenderWorkerRemote {
  const scope = globalThis as unknown as {
    requestAnimationFrame?: (callback: (timestamp: number) => void) => number;
    cancelAnimationFrame?: (handle: number) => void;
    crossOriginIsolated?: boolean;
  };
  let loop: FrameLoop<S> | null = null;
  let parts: ReturnType<typeof rendererParts<S>> | null = null;
  let canvas: OffscreenCanvas | null = null;
  let beatWords: Int32Array | null = null;
  let watchdog: Watchdog | null = null;
  let statsOf: (() => Pick<RenderStats, 'lock' | 'kernels' | 'kernelCalls'>) | null = null;
  /** Ms to add to this worker's performance.now() (and rAF timestamps) for the shared clock. */
  let offset = 0;
  let running = false;
  let hidden = false;
  /** The page listens to `present`: report each presenting frame. */
  let presentWanted = false;
  let eventStatsOf: () => RenderStats['events'] = () => ({ delivered: 0, pending: 0, lost: 0 });
  let handle = 0;

  const onFrame = (timestamp: number): void => {
    handle = 0;
    if (!running || hidden || loop === null || parts === null) return;
    // schedule first, so a throwing draw does not end the loop
    handle = scope.requestAnimationFrame!(onFrame);
    const time = timestamp + offset;
    // paced, and sampled unless the renderer reads the raw states itself (the GPU path)
    const drew = loop.animationFrame(time, parts.sample);
    if (drew) parts.draw(loop.frame, time);
    // reached only when draw returned: a draw that hangs or throws stops the beat the page watches
    beat(beatWords!, drew);
  };
  const schedule = (): void => {
    if (running && !hidden && handle === 0) handle = scope.requestAnimationFrame!(onFrame);
  };
  const unschedule = (): void => {
    if (handle !== 0) scope.cancelAnimationFrame?.(handle);
    handle = 0;
  };

  return {
    probe: (): RenderProbe => ({
      animationFrames: typeof scope.requestAnimationFrame === 'function',
      crossOriginIsolated: scope.crossOriginIsolated === true,
    }),
    async init(config: RenderInit<Schema>): Promise<void> {
      if (loop !== null) throw new Error('steadyframe: this render worker is already initialised; make one render worker per runtime');
      const schema = config.schema as S;
      const layout = computeLayout(schema, config.capacity);
      // the page's transport, seen from here: its buffer (over the page's WebAssembly.Memory, so the same SIMD
      // kernels blend here), the reader, the header words and the doorbell; the input ring stays on the page
      const shared = transportOfKind('shared', DEFAULT_TRANSPORTS) as Transport<SharedAttachConfig>;
      const transport = shared.join!<S>(
        { schema, layout, maxSpins: config.maxSpins },
        {
          kind: 'shared',
          buffer: config.buffer,
          signature: layout.signature,
          capacity: layout.capacity,
          ...(config.memory === null ? {} : { memory: config.memory }),
          // this worker is the buffer's one reader: it presents the events too
          ...(config.events === null ? {} : { events: config.events }),
        },
      );
      const views = transport.views!;
      beatWords = new Int32Array(config.beat);
      // the shared clock is this realm's timeOrigin + now less the page's time origin (the header's anchor)
      offset = currentTimeOrigin() - views.f64[F64.CLOCK_ANCHOR]!;
      const now: Clock = () => offset + performance.now();
      const host = wrap<RenderHostRemote>(config.host);
      const emit = (type: string, event: unknown): void => void host.emit(type, event);
      const source = transport.source;
      const simd = transport.simd;
      const eventReader = transport.events;
      if (eventReader !== null) eventStatsOf = () => ({ delivered: eventReader.delivered, pending: eventReader.pending, lost: eventReader.lost });
      statsOf = () => ({
        lock: { ...source.stats },
        kernels: simd === null ? 'js' : 'wasm-simd',
        kernelCalls: { ...(simd?.kernels.calls ?? { wasm: 0, fallback: 0 }) },
      });
      // this worker's own frames drive the loop (onFrame above); its idle watch runs on this worker's timers
      const renderHost: Pick<PageHost, 'frames' | 'waitFor' | 'every'> = {
        frames: null,
        waitFor: spinUntil,
        every(ms, fn) {
          const timer = setInterval(fn, ms);
          return () => clearInterval(timer);
        },
      };
      ({ watchdog, loop } = composeFrames<S>({
        schema,
        layout,
        transport,
        clock: now,
        host: renderHost,
        heartbeatTimeout: config.heartbeatTimeout,
        // the watchdog asks the simulation's stats for a fault or an overload: only the page can, so it asks the page
        simulation: { stats: () => host.workerStats() },
        emit,
        wantsOverloads: () => true,
        frames: {
          draw: undefined,
          interpolation: config.interpolation as InterpolationOptions<S> | undefined,
          pacing: config.pacing as Omit<FramePacerOptions, 'onChange'> | undefined,
          onInterval: (change) => emit('interval', change),
          // each presenting frame, to the page while it listens to `present`: the events packed, the game state
          onPresent: (p) => {
            const events = transport.events;
            const state = new Float64Array(layout.game.length);
            for (const g of layout.game) state[g.index] = (p.state as Record<string, number>)[g.name]!;
            const packed = events === null ? new Float64Array(0) : events.packWindow();
            const report: PresentedReport = {
              tick: p.tick,
              time: p.time,
              index: p.index,
              state,
              events: packed,
              count: p.events.length,
              recordWords: events === null ? 0 : events.layout.recordWords,
            };
            void host.present(transfer(report, [packed.buffer, state.buffer]));
          },
          wantsPresent: () => presentWanted,
        },
      }));
      const reader: StateReader<S> = createStateReader(source);
      const frameLoop = loop!;
      canvas = config.canvas;
      sizeCanvas(canvas, config.width, config.height, config.dpr);
      const renderer = await setup({
        canvas,
        schema,
        capacity: config.capacity,
        layout,
        reader,
        now,
        info: config.info,
        width: config.width,
        height: config.height,
        dpr: config.dpr,
        thread: 'worker',
        get interpolation() {
          return frameLoop.sampler.options;
        },
      });
      parts = rendererParts(renderer);
    },
    clockProbe: () => offset + performance.now(),
    setClockOffset(ms: number): void {
      offset -= ms;
    },
    start(): void {
      running = true;
      schedule();
    },
    stop(): void {
      running = false;
      unschedule();
    },
    setHidden(next: boolean): void {
      hidden = next;
      if (loop !== null) loop.hidden = next;
      if (hidden) unschedule();
      else {
        // no frames while hidden: the heartbeat's silence is measured from when we can see again
        watchdog?.restartSilence();
        schedule();
      }
    },
    resize(width: number, height: number, dpr: number): void {
      if (canvas === null || parts === null) return;
      sizeCanvas(canvas, width, height, dpr);
      parts.resize(width, height, dpr);
    },
    setInterpolation(options: unknown): void {
      loop?.sampler.configure(options as InterpolationOptions<S>);
    },
    setPresent(on: boolean): void {
      presentWanted = on;
    },
    stats(): RenderStats {
      if (loop === null) throw new Error('steadyframe: stats() before init()');
      return {
        frames: loop.frame.index,
        drawn: readBeat(beatWords!).drawn, // the beat counts what was drawn: no second counter
        ...statsOf!(),
        sampling: { ...loop.sampler.stats },
        pacing: pacingStats(loop.pacer),
        frameClock: { ...loop.clockStats },
        events: eventStatsOf(),
        crossOriginIsolated: scope.crossOriginIsolated === true,
        canvas: { width: canvas!.width, height: canvas!.height },
      };
    },
  };
}
