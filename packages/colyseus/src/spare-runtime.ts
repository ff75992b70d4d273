/**
 * A runtime made ahead (ARCHITECTURE.md, "Rooms on Colyseus": a room outlives its process): a room class's next
 * room, in this process, takes a runtime whose worker thread is already up (its module loaded, `init` run, not
 * started), so its `onCreate` is a `start()` (or a `restore()` and a `start()`) rather than a worker's start, the
 * most of a restore's time (0.2 s to over a second on a loaded two-core machine). `createFailover` keeps one ready
 * for each steadyframe room class a process defines, when the class's runtime options are fixed (not a function of
 * the creating request's).
 *
 * ```text
 *  warm() ── make ───────── ready ─── take() ── the room's runtime ── SPARE_REMAKE_MS later: make the next
 *  take() while none is ready: the one under way (null if none: the room makes its own)
 * ```
 *
 * An idle spare is a worker thread that waits for messages: memory (the module and the world's buffer), no ticks.
 */
import type { Schema } from 'steadyframe';
import { createNodeRuntime, type NodeRuntimeOptions, type Runtime } from 'steadyframe/node';

/** Ms after a spare is taken before the next is made: the room that took it starts first. */
export const SPARE_REMAKE_MS = 1000;

export class SpareRuntime<S extends Schema, C extends object> {
  readonly #options: NodeRuntimeOptions<S> | null;
  #spare: Promise<Runtime<S, C>> | null = null;
  #warm = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `options`: the runtime every room of the class makes, or null if each makes its own (no spare then). */
  constructor(options: NodeRuntimeOptions<S> | null) {
    this.#options = options;
  }

  /** Keeps one ready from now on (nothing if the class's rooms make runtimes of their own). */
  warm(): void {
    if (this.#options === null || this.#warm) return;
    this.#warm = true;
    this.#make();
  }

  /** The spare, ready or on its way (the next is made SPARE_REMAKE_MS later); null if there is none. */
  take(): Promise<Runtime<S, C>> | null {
    const spare = this.#spare;
    this.#spare = null;
    if (spare !== null && this.#warm) {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#make(), SPARE_REMAKE_MS);
      this.#timer.unref();
    }
    return spare;
  }

  /** No more spares; the one ready is disposed (its worker ends). */
  async stop(): Promise<void> {
    this.#warm = false;
    clearTimeout(this.#timer);
    const spare = this.#spare;
    this.#spare = null;
    await (await spare?.catch(() => null))?.dispose();
  }

  #make(): void {
    if (!this.#warm || this.#spare !== null) return;
    const made = createNodeRuntime<S, C>(this.#options!);
    // one that failed is no spare: the room that would take it makes its own
    made.catch(() => {
      if (this.#spare === made) this.#spare = null;
    });
    this.#spare = made;
  }
}
