/**
 * The page's watch over the worker, once per frame from the header words (the shared buffer's, or the message
 * transport's mirror): the heartbeat (silence past `heartbeatTimeout` is `unresponsive`, its return
 * `responsive`), a fault (STATUS), dropped backlog (OVERLOADS) and reader stalls (READER_STALLS: the page held
 * the lock too long, its own fault, while the worker goes on beating). Four Atomics loads a frame; an event
 * (and for two of them one comlink round trip) only when something happened.
 */
import { I32, STATUS } from '../core/layout.ts';
import type { WorkerStats } from '../contracts/remote.ts';

export interface WatchdogEvents {
  fault: Error;
  overload: { readonly overloads: number; readonly droppedMs: number };
  unresponsive: { readonly silentMs: number };
  responsive: { readonly silentMs: number };
  readerStall: { readonly stalls: number };
}

export class Watchdog {
  #lastBeat = 0;
  #lastBeatAt = Number.NaN;
  #unresponsive = false;
  #faultReported = false;
  #overloadsSeen = 0;
  #overloadPending = false;
  #stallsSeen = 0;

  constructor(
    private readonly header: Int32Array,
    /** Ms of heartbeat silence before `unresponsive`; Infinity: never. */
    private readonly timeout: number,
    /** Where the simulation's stats are asked (the worker's remote; the page, from a render worker). */
    private readonly remote: { stats(): Promise<WorkerStats> },
    private readonly emit: <K extends keyof WatchdogEvents>(type: K, event: WatchdogEvents[K]) => void,
    /** Whether anyone listens to `overload` (its details cost a comlink round trip). */
    private readonly wantsOverloads: () => boolean,
  ) {}

  /** The heartbeat stopped: frames stop taking the lock (a worker that died inside a flip holds it forever). */
  get unresponsive(): boolean {
    return this.#unresponsive;
  }

  /** No frames ran for a while (a hidden page): the silence is measured from the next frame. */
  restartSilence(): void {
    this.#lastBeatAt = Number.NaN;
  }

  /** After `restart()`: a new fault is reported again. */
  clearFault(): void {
    this.#faultReported = false;
  }

  check(now: number): void {
    const i32 = this.header;
    const beat = Atomics.load(i32, I32.HEARTBEAT);
    if (beat !== this.#lastBeat) {
      const silentMs = now - this.#lastBeatAt;
      this.#lastBeat = beat;
      this.#lastBeatAt = now;
      if (this.#unresponsive) {
        this.#unresponsive = false;
        this.emit('responsive', { silentMs });
      }
    } else if (Number.isNaN(this.#lastBeatAt)) {
      this.#lastBeatAt = now; // first frame, or first since the page showed again
    } else if (!this.#unresponsive && now - this.#lastBeatAt > this.timeout) {
      this.#unresponsive = true;
      this.emit('unresponsive', { silentMs: now - this.#lastBeatAt });
    }
    const stalls = Atomics.load(i32, I32.READER_STALLS) >>> 0;
    if (stalls !== this.#stallsSeen) {
      this.#stallsSeen = stalls;
      this.emit('readerStall', { stalls });
    }
    if (!this.#faultReported && Atomics.load(i32, I32.STATUS) === STATUS.FAULTED) {
      this.#faultReported = true;
      void this.remote.stats().then((stats) => {
        const error = new Error(`steadyframe: the simulation's step threw: ${stats.error?.message ?? 'unknown error'}`);
        if (stats.error?.stack !== undefined) error.stack = stats.error.stack;
        this.emit('fault', error);
      });
    }
    const overloads = Atomics.load(i32, I32.OVERLOADS);
    if (overloads !== this.#overloadsSeen && !this.#overloadPending) {
      this.#overloadsSeen = overloads;
      if (!this.wantsOverloads()) return;
      this.#overloadPending = true;
      void this.remote.stats().then((stats) => {
        this.#overloadPending = false;
        this.emit('overload', { overloads: stats.overloads, droppedMs: stats.droppedMs });
      });
    }
  }
}
