/**
 * The runtime object `createRuntime` returns: the control calls (over comlink, each failing instead of hanging
 * when the runtime is disposed meanwhile), events, visibility, stats; the frames themselves are the frame
 * loop's (frame-loop.ts) and the watch over the worker the watchdog's (watchdog.ts).
 */
import { releaseProxy, type Remote } from 'comlink';
import type { Frame, Runtime, RuntimeEvents, RuntimeStats } from '../contracts/app.ts';
import type { PageHost, VisibilityHook, WorkerLink } from '../contracts/host.ts';
import type { RecordOptions, ReplayReport, SimulationInfo, SimulationRemote, TransportKind } from '../contracts/remote.ts';
import type { PageTransport } from '../contracts/transport.ts';
import type { Clock } from '../core/clock.ts';
import type { EventVisitor, FrameEvents } from '../core/event-reader.ts';
import type { InputWriter } from '../core/input-writer.ts';
import type { Layout, SharedViews } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { BlendBackend } from '../core/simd-kernel.ts';
import type { ClockSkew } from './clock-align.ts';
import type { Emitter } from './events.ts';
import { pacingStats, type FrameLoop } from './frame-loop.ts';
import type { InterpolationOptions } from './sampler.ts';
import { createStateReader, type StateReader } from './state-reader.ts';
import type { Watchdog } from './watchdog.ts';

/** What the composition root hands the runtime: the attached worker and everything made for it. */
export interface RuntimeParts<S extends Schema> {
  readonly schema: S;
  readonly capacity: number;
  readonly layout: Layout;
  /** The shared clock. */
  readonly now: Clock;
  readonly transport: PageTransport<S>;
  readonly remote: Remote<SimulationRemote>;
  readonly info: SimulationInfo;
  readonly clock: ClockSkew;
  readonly link: WorkerLink;
  /** The host; the runtime owns its frame hooks (closed on dispose). */
  readonly host: PageHost;
  readonly events: Emitter<RuntimeEvents<S>>;
  readonly watchdog: Watchdog;
  readonly loop: FrameLoop<S>;
  readonly onError: ((error: Error) => void) | undefined;
  readonly visibility: VisibilityHook | null;
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
  /**
   * The event ring's shared buffer (null without one, or with the message transport): createRenderWorkerRuntime
   * hands it to the render worker, which presents the events of the frames it draws.
   */
  readonly eventRing: SharedArrayBuffer | null;
  readonly transport: TransportKind;
  readonly views: SharedViews<S> | null;
  readonly reader: StateReader<S>;
  readonly input: InputWriter | null;
  readonly remote: Remote<SimulationRemote>;
  readonly info: SimulationInfo;
  readonly clock: ClockSkew;
  readonly #transport: PageTransport<S>;
  readonly #loop: FrameLoop<S>;
  readonly #watchdog: Watchdog;
  readonly #events: Emitter<RuntimeEvents<S>>;
  readonly #link: WorkerLink;
  readonly #host: PageHost;
  readonly #unsubscribeVisibility: () => void;
  readonly #unsubscribeErrors: () => void;
  /** Whether the frame loop should run: set at once by start() and stop(), so a stop during start's await wins. */
  #framesWanted = false;
  #disposed = false;
  /** Calls still waiting on the worker: each rejects its caller when the runtime is disposed meanwhile. */
  readonly #pending = new Set<() => void>();

  constructor(parts: RuntimeParts<S>) {
    const { transport } = parts;
    this.schema = parts.schema;
    this.capacity = parts.capacity;
    this.layout = parts.layout;
    this.remote = parts.remote;
    this.info = parts.info;
    this.clock = parts.clock;
    this.#transport = transport;
    this.transport = transport.kind;
    this.views = transport.views;
    this.reader = createStateReader(transport.source);
    this.input = transport.input;
    this.#link = parts.link;
    this.#host = parts.host;
    this.#events = parts.events;
    this.#watchdog = parts.watchdog;
    this.#loop = parts.loop;
    this.#events.on('fault', parts.onError ?? ((error) => console.error(error)));
    this.#unsubscribeErrors = this.#link.onError((message) => this.#emitSafely('fault', new Error(`steadyframe: the worker threw outside a step: ${message}`)));
    this.commands = (parts.remote as unknown as { commands: Remote<C> }).commands;
    this.now = parts.now;
    this.kernels = transport.simd === null ? 'js' : 'wasm-simd';
    this.wasmMemory = transport.simd?.kernels.memory ?? null;
    this.eventRing = (transport.attach as { events?: SharedArrayBuffer }).events ?? null;
    const visibility = parts.visibility;
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

  on<K extends keyof RuntimeEvents<S>>(type: K, listener: (event: RuntimeEvents<S>[K]) => void): () => void {
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
    return this.#loop.gameFrame(timestamp);
  }

  pace(timestamp = Number.NaN): boolean {
    return this.#loop.gamePace(timestamp);
  }

  frameAt(time: number, next = Number.NaN): Frame<S> {
    this.#alive('frameAt');
    if (typeof time !== 'number' || Number.isNaN(time)) throw new TypeError(`steadyframe: frameAt(time) takes a time in shared-clock ms; got ${String(time)}`);
    return this.#loop.frameAt(time, next);
  }

  sendInput(code: number, p0?: number, p1?: number, p2?: number, p3?: number): boolean {
    if (this.input === null || !this.input.push(this.now(), code, p0, p1, p2, p3)) return false;
    this.#transport.inputPushed();
    return true;
  }

  get events(): FrameEvents {
    return this.#loop.frame.events;
  }

  get state(): Frame<S>['state'] {
    return this.#loop.frame.state;
  }

  takeEvents(visitor: EventVisitor): number {
    const events = this.#transport.events;
    if (events === null) return 0;
    return events.takeAll(visitor);
  }

  async start(): Promise<void> {
    this.#alive('start');
    this.#framesWanted = true;
    this.#host.frames?.expect?.(true);
    await this.#call('start', this.remote.start());
    if (this.#framesWanted && !this.#disposed) this.#loop.startFrames();
  }

  async stop(): Promise<void> {
    this.#alive('stop');
    this.#stopFrames();
    this.#host.frames?.expect?.(false);
    await this.#call('stop', this.remote.stop());
  }

  async pause(): Promise<void> {
    this.#alive('pause');
    this.#host.frames?.expect?.(false);
    await this.#call('pause', this.remote.pause());
  }

  async resume(): Promise<void> {
    this.#alive('resume');
    this.#host.frames?.expect?.(true);
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
      events: eventStats(this.#transport),
      worker: await this.#call('stats', this.remote.stats()),
    };
  }

  async restart(from: 'last' | 'scratch' = 'last'): Promise<void> {
    this.#alive('restart');
    await this.#call('restart', this.remote.restart(from));
    this.#watchdog.clearFault();
    if (this.#framesWanted) await this.#call('restart', this.remote.start());
  }

  async record(options: RecordOptions = {}): Promise<void> {
    this.#alive('record');
    await this.#call('record', this.remote.recordStart(options));
  }

  async stopRecording(): Promise<Uint8Array> {
    this.#alive('stopRecording');
    return await this.#call('stopRecording', this.remote.recordStop());
  }

  async replay(recording: Uint8Array): Promise<ReplayReport> {
    this.#alive('replay');
    return await this.#call('replay', this.remote.replay(recording));
  }

  async play(recording: Uint8Array): Promise<ReplayReport> {
    this.#alive('play');
    // a recording that is damaged, or another simulation's, is refused here with nothing changed
    await this.#call('play', this.remote.playStart(recording));
    this.#framesWanted = true;
    this.#host.frames?.expect?.(true);
    if (!this.#disposed) this.#loop.startFrames();
    return await this.#call('play', this.remote.playEnd());
  }

  async snapshot(): Promise<Uint8Array> {
    this.#alive('snapshot');
    return await this.#call('snapshot', this.remote.snapshot());
  }

  async restore(snapshot: Uint8Array): Promise<void> {
    this.#alive('restore');
    await this.#call('restore', this.remote.restore(snapshot));
    this.#watchdog.clearFault();
    if (this.#framesWanted) await this.#call('restore', this.remote.start());
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#framesWanted = false;
    this.#loop.close();
    this.#host.frames?.close();
    this.#unsubscribeErrors();
    this.#transport.close();
    this.#unsubscribeVisibility();
    this.remote[releaseProxy]();
    this.#link.terminate();
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
  #emitSafely<K extends keyof RuntimeEvents<S>>(type: K, event: RuntimeEvents<S>[K]): void {
    try {
      this.#events.emit(type, event);
    } catch (error) {
      console.error(error);
    }
  }
}

/** `stats().events`: the page's side of the event ring (zeros without one). */
function eventStats(transport: PageTransport<Schema>): RuntimeStats['events'] {
  const events = transport.events;
  if (events === null) return { delivered: 0, pending: 0, lost: 0 };
  return { delivered: events.delivered, pending: events.pending, lost: events.lost };
}
