/**
 * The runtime object `createRuntime` returns: the control calls (over comlink, each failing instead of hanging
 * when the runtime is disposed meanwhile), events, visibility, stats; the frames themselves are the frame
 * loop's (frame-loop.ts) and the watch over the worker the watchdog's (watchdog.ts).
 */
import { releaseProxy, type Remote } from 'comlink';
import { createSharedClock, type Clock } from '../core/clock.ts';
import type { Layout, SharedViews } from '../core/layout.ts';
import type { InputWriter } from '../core/input-ring.ts';
import type { SimulationInfo, SimulationRemote, TransportKind } from '../core/protocol.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { BlendBackend, BlendKernels } from '../core/simd-kernel.ts';
import type { ClockSkew } from './clock-align.ts';
import { Emitter } from './events.ts';
import { FrameLoop, pacingStats } from './frame-loop.ts';
import type { Frame, Runtime, RuntimeEvents, RuntimeOptions, RuntimeStats } from './runtime.ts';
import type { InterpolationOptions } from './sampler.ts';
import { createStateReader, type StateReader } from './state-reader.ts';
import type { MainTransport } from './transport.ts';
import { documentVisibility } from './visibility.ts';
import { Watchdog } from './watchdog.ts';

/** What set-up hands the runtime: the attached worker and everything made for it. */
export interface RuntimeParts<S extends Schema> {
  readonly layout: Layout;
  readonly anchor: number;
  readonly transport: MainTransport<S>;
  readonly remote: Remote<SimulationRemote>;
  readonly info: SimulationInfo;
  readonly clock: ClockSkew;
  readonly simd: { readonly kernels: BlendKernels; readonly scratch: FieldViews<S> } | null;
  /** Ms of heartbeat silence before `unresponsive`; Infinity: never (checked at set-up). */
  readonly heartbeatTimeout: number;
}

export class MainRuntime<S extends Schema, C extends object> implements Runtime<S, C> {
  readonly schema: S;
  readonly capacity: number;
  readonly layout: Layout;
  readonly now: Clock;
  readonly commands: Remote<C>;
  readonly kernels: BlendBackend;
  /**
   * The shared WebAssembly.Memory the state buffer lies in, where the wasm SIMD kernels run (null with the JS
   * kernels): createRenderWorkerRuntime hands it to the render worker so it blends with the same kernels.
   */
  readonly wasmMemory: WebAssembly.Memory | null;
  readonly transport: TransportKind;
  readonly views: SharedViews<S> | null;
  readonly reader: StateReader<S>;
  readonly input: InputWriter | null;
  readonly remote: Remote<SimulationRemote>;
  readonly info: SimulationInfo;
  readonly clock: ClockSkew;
  readonly #transport: MainTransport<S>;
  readonly #loop: FrameLoop<S>;
  readonly #watchdog: Watchdog;
  readonly #events = new Emitter<RuntimeEvents>();
  readonly #worker: Worker;
  readonly #unsubscribeVisibility: () => void;
  /** Whether the frame loop should run: set at once by start() and stop(), so a stop during start's await wins. */
  #framesWanted = false;
  #disposed = false;
  readonly #onWorkerError = (event: ErrorEvent): void => {
    this.#emitSafely('fault', new Error(`steadyframe: the worker threw outside a step: ${event.message}`));
  };
  /** Calls still waiting on the worker: each rejects its caller when the runtime is disposed meanwhile. */
  readonly #pending = new Set<() => void>();

  constructor(options: RuntimeOptions<S>, parts: RuntimeParts<S>) {
    const { transport } = parts;
    this.schema = options.schema;
    this.capacity = options.capacity;
    this.layout = parts.layout;
    this.remote = parts.remote;
    this.info = parts.info;
    this.clock = parts.clock;
    this.#transport = transport;
    this.transport = transport.kind;
    this.views = transport.views;
    this.reader = createStateReader(transport.source);
    this.input = transport.input;
    this.#worker = options.worker;
    this.#events.on('fault', options.onError ?? ((error) => console.error(error)));
    this.#worker.addEventListener('error', this.#onWorkerError);
    this.commands = (parts.remote as unknown as { commands: Remote<C> }).commands;
    this.now = createSharedClock(parts.anchor);
    this.kernels = parts.simd === null ? 'js' : 'wasm-simd';
    this.wasmMemory = parts.simd?.kernels.memory ?? null;
    this.#watchdog = new Watchdog(
      transport.header,
      parts.heartbeatTimeout,
      parts.remote,
      (type, event) => this.#emitSafely(type, event as RuntimeEvents[typeof type]),
      () => this.#events.has('overload'),
    );
    this.#loop = new FrameLoop(options.schema, parts.layout, transport, parts.simd, this.#watchdog, this.now, {
      draw: options.draw,
      interpolation: options.interpolation,
      pacing: options.pacing,
      onInterval: (change) => this.#events.emit('interval', change),
    });
    const visibility = options.visibility === undefined ? documentVisibility() : options.visibility;
    this.#unsubscribeVisibility = visibility === null ? () => {} : visibility.subscribe((hidden) => this.#onVisibility(hidden));
    if (visibility?.hidden === true) this.#onVisibility(true);
  }

  get interpolation(): Required<InterpolationOptions<S>> {
    return this.#loop.sampler.options;
  }

  setInterpolation(options: InterpolationOptions<S>): void {
    this.#alive('setInterpolation');
    this.#loop.sampler.configure(options);
  }

  on<K extends keyof RuntimeEvents>(type: K, listener: (event: RuntimeEvents[K]) => void): () => void {
    return this.#events.on(type, listener);
  }

  sample(time: number = this.now()): Frame<S> {
    return this.#loop.sample(time);
  }

  expectFrame(time: number): void {
    this.#loop.expectFrame(time);
  }

  get frameTime(): number {
    return this.#loop.time;
  }

  frame(timestamp = Number.NaN): Frame<S> | null {
    return this.#loop.frameAt(this.#loop.frameTime(timestamp));
  }

  pace(timestamp = Number.NaN): boolean {
    return this.#loop.paced(this.#loop.frameTime(timestamp), false);
  }

  sendInput(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean {
    if (this.input === null || !this.input.push(this.now(), code, p0, p1, p2, p3)) return false;
    this.#transport.inputPushed();
    return true;
  }

  async start(): Promise<void> {
    this.#alive('start');
    this.#framesWanted = true;
    await this.#call('start', this.remote.start());
    if (this.#framesWanted && !this.#disposed) this.#loop.startFrames();
  }

  async stop(): Promise<void> {
    this.#alive('stop');
    this.#stopFrames();
    await this.#call('stop', this.remote.stop());
  }

  async pause(): Promise<void> {
    this.#alive('pause');
    await this.#call('pause', this.remote.pause());
  }

  async resume(): Promise<void> {
    this.#alive('resume');
    await this.#call('resume', this.remote.resume());
  }

  async stepOnce(): Promise<void> {
    this.#alive('stepOnce');
    await this.#call('stepOnce', this.remote.stepOnce());
  }

  async setTimeScale(scale: number): Promise<void> {
    this.#alive('setTimeScale');
    await this.#call('setTimeScale', this.remote.setTimeScale(scale));
  }

  async setTickRate(hz: number): Promise<void> {
    this.#alive('setTickRate');
    await this.#call('setTickRate', this.remote.setTickRate(hz));
  }

  async stats(): Promise<RuntimeStats> {
    this.#alive('stats');
    return {
      frames: this.#loop.frame.index,
      lock: { ...this.reader.stats },
      sampling: { ...this.#loop.sampler.stats },
      pacing: pacingStats(this.#loop.pacer),
      frameClock: { ...this.#loop.clockStats },
      inputRejected: this.input?.rejected ?? 0,
      worker: await this.#call('stats', this.remote.stats()),
    };
  }

  async restart(from: 'last' | 'scratch' = 'last'): Promise<void> {
    this.#alive('restart');
    await this.#call('restart', this.remote.restart(from));
    this.#watchdog.clearFault();
    if (this.#framesWanted) await this.#call('restart', this.remote.start());
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#stopFrames();
    this.#worker.removeEventListener('error', this.#onWorkerError);
    this.#transport.close();
    this.#unsubscribeVisibility();
    this.remote[releaseProxy]();
    this.#worker.terminate();
    // a terminated worker answers nothing: calls still waiting on it fail now instead of never settling
    for (const fail of this.#pending) fail();
    this.#pending.clear();
  }

  #alive(call: string): void {
    if (this.#disposed) throw new Error(`steadyframe: ${call}() on a disposed runtime; create a new one`);
  }

  /** A call to the worker that rejects, naming `call`, if the runtime is disposed before the worker answers. */
  #call<T>(call: string, answer: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (): void => reject(new Error(`steadyframe: ${call}() did not finish: the runtime was disposed meanwhile`));
      this.#pending.add(fail);
      answer.then(
        (value) => {
          this.#pending.delete(fail);
          resolve(value);
        },
        (error: unknown) => {
          this.#pending.delete(fail);
          reject(error);
        },
      );
    });
  }

  #stopFrames(): void {
    this.#framesWanted = false;
    this.#loop.stopFrames();
  }

  #onVisibility(hidden: boolean): void {
    if (this.#disposed) return;
    // no frames while hidden: the heartbeat's silence is measured from when we can see again
    this.#watchdog.restartSilence();
    this.#loop.hidden = hidden; // frames made while hidden do not wait for a paused worker
    void this.remote.setHidden(hidden);
    this.#events.emit('visibility', { hidden });
  }

  /** Emits from a promise callback: a listener that throws is reported, not left as an unhandled rejection. */
  #emitSafely<K extends keyof RuntimeEvents>(type: K, event: RuntimeEvents[K]): void {
    try {
      this.#events.emit(type, event);
    } catch (error) {
      console.error(error);
    }
  }
}
