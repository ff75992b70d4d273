/**
 * A scene plugin that ties a runtime to a scene's life: it paces the runtime from the game's loop while the
 * scene runs, pauses the simulation while the scene is paused or asleep, and disposes the runtime when the
 * scene shuts down (stop, restart, a switch) or is destroyed.
 *
 * ```text
 *  scene            create ──▶ steadyframe.create(make) ──▶ attach(runtime, draw) ──▶ runtime.start()
 *  each drawn frame draw(frame), then scene.events.emit('steadyframe-event', event) for each event it presents
 *  pause / sleep    runtime.pause()           resume / wake   runtime.resume()
 *  shutdown         detach the loop, runtime.dispose() (a runtime still being made is disposed when it comes)
 * ```
 */
import { Plugins, type Scene } from 'phaser';
import type { Runtime, Schema } from 'steadyframe';
import type { FrameDraw } from 'steadyframe/adapter';
import { attachToGame, type GameLoop, type LoopGame } from './attach-to-game.ts';

/** Options of `SteadyframePlugin.attach`. */
export interface AttachOptions {
  /** Dispose of the runtime when the scene shuts down or is destroyed (default true). */
  readonly dispose?: boolean;
  /** Pause the simulation while the scene is paused or asleep, and resume it with the scene (default true). */
  readonly pauseWithScene?: boolean;
  /**
   * Emit each event a drawn frame presents on the scene's emitter (`this.events`) as FRAME_EVENT,
   * `'steadyframe-event'`, in the refresh that draws it (default true; it needs the runtime's `events`).
   */
  readonly events?: boolean;
}

type AnyRuntime = Pick<Runtime<Schema>, 'frame' | 'pace' | 'pause' | 'resume' | 'dispose'>;

/**
 * Install it as a scene plugin and reach it as `this.steadyframe`:
 *
 * ```ts
 * new Phaser.Game({ plugins: { scene: [{ key: 'SteadyframePlugin', plugin: SteadyframePlugin, mapping: 'steadyframe' }] }, ... });
 * // in the scene:
 * async create() {
 *   const runtime = await this.steadyframe.create(() => createRuntime({ worker, schema, capacity }));
 *   if (runtime === null) return; // the scene shut down meanwhile, and the runtime was disposed
 *   const balls = bindGroup(runtime, this.add.group({ defaultKey: 'ball' }), { position: 'position' });
 *   this.steadyframe.attach(runtime, (frame) => balls.update(frame));
 *   this.events.on('steadyframe-event', (event) => { if (event.code === HIT) this.sound.play('hit'); });
 *   await runtime.start();
 * }
 * ```
 */
export class SteadyframePlugin extends Plugins.ScenePlugin {
  #loop: GameLoop | null = null;
  #runtime: AnyRuntime | null = null;
  #dispose = true;
  #pauseWithScene = true;
  /** Counts the scene's shutdowns: a runtime made across one belongs to a scene that is gone. */
  #runs = 0;

  constructor(scene: Scene, pluginManager: Plugins.PluginManager, pluginKey: string) {
    super(scene, pluginManager, pluginKey);
  }

  override boot(): void {
    const events = this.systems!.events;
    events.on('shutdown', this.#shutdown, this);
    events.once('destroy', this.#destroyed, this);
    events.on('pause', this.#pause, this);
    events.on('sleep', this.#pause, this);
    events.on('resume', this.#resume, this);
    events.on('wake', this.#resume, this);
  }

  /** The loop attached by `attach`, while the scene runs (its `rendered` and `skipped` counts). */
  get loop(): GameLoop | null {
    return this.#loop;
  }

  /**
   * Waits for `make()` (such as `() => createRuntime(...)`) and returns the runtime, or null if the scene shut
   * down meanwhile: that runtime is disposed at once (a scene restarted while its worker attached leaks none).
   */
  async create<R extends { dispose(): void }>(make: () => Promise<R> | R): Promise<R | null> {
    if (typeof make !== 'function') throw new TypeError('@steadyframe/phaser: steadyframe.create takes a function that makes the runtime');
    const run = this.#runs;
    const runtime = await make();
    if (run !== this.#runs || this.systems === null) {
      runtime.dispose();
      return null;
    }
    return runtime;
  }

  /**
   * Paces `runtime` from the game's loop while this scene runs (`attachToGame`), and hands it to the scene:
   * paused with it, disposed at its shutdown (see `AttachOptions`). One runtime per scene: attaching another
   * first ends the one before (disposed, unless it was attached with `dispose: false`).
   */
  attach<S extends Schema>(
    runtime: Pick<Runtime<S>, 'frame' | 'pace' | 'pause' | 'resume' | 'dispose'> & Partial<Pick<Runtime<S>, 'events'>>,
    draw: FrameDraw<S>,
    options: AttachOptions = {},
  ): GameLoop {
    if (this.systems === null) throw new Error('@steadyframe/phaser: steadyframe.attach after the scene was destroyed');
    this.#release();
    // a runtime-like object without events (a test double) draws without them, unless they were asked for
    const events = options.events ?? runtime.events !== undefined;
    this.#loop = attachToGame(this.game as unknown as LoopGame, runtime, draw, events ? { events: this.systems.events } : {});
    this.#runtime = runtime as unknown as AnyRuntime;
    this.#dispose = options.dispose ?? true;
    this.#pauseWithScene = options.pauseWithScene ?? true;
    return this.#loop;
  }

  /** Detaches the loop and disposes of the runtime (if it was attached to be): what the scene's shutdown does. */
  detach(): void {
    this.#release();
  }

  #shutdown(): void {
    this.#runs++;
    this.#release();
  }

  #release(): void {
    this.#loop?.detach();
    this.#loop = null;
    const runtime = this.#runtime;
    this.#runtime = null;
    if (runtime !== null && this.#dispose) runtime.dispose();
  }

  #destroyed(): void {
    this.#shutdown();
    const events = this.systems?.events;
    events?.off('shutdown', this.#shutdown, this);
    events?.off('pause', this.#pause, this);
    events?.off('sleep', this.#pause, this);
    events?.off('resume', this.#resume, this);
    events?.off('wake', this.#resume, this);
  }

  #pause(): void {
    if (this.#runtime !== null && this.#pauseWithScene) void this.#runtime.pause().catch(() => {});
  }

  #resume(): void {
    if (this.#runtime !== null && this.#pauseWithScene) void this.#runtime.resume().catch(() => {});
  }
}
