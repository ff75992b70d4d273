/**
 * The hosts: what each side of the runtime needs from the platform it runs on (ARCHITECTURE.md, "Ports").
 * A `PageHost` serves the page side (a browser page, a render worker, Node, a hand-driven clock); a `WorkerHost`
 * serves the simulation loop. Types only.
 */
import type { Endpoint } from 'comlink';
import type { Clock } from '../core/clock.ts';

/** Whether the page is visible; a hidden page's worker sleeps (`whenHidden`). */
export interface VisibilityHook {
  readonly hidden: boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (hidden: boolean) => void): () => void;
}

/** Animation frames: where the runtime's own draw loop gets its frames, and how it knows one is running. */
export interface FrameSource {
  /** Calls `callback` with the next animation frame's time (shared-clock ms); returns a handle for `cancel`. */
  request(callback: (time: number) => void): number;
  cancel(handle: number): void;
  /**
   * The time of the animation frame whose callbacks are running now, or null outside one. Never a guess: null
   * wherever the host cannot be sure (a timer, a message handler, a callback it cannot place).
   */
  current(): number | null;
  /**
   * Optional: a frame was made while `current()` was null. If a loop the source's hooks do not enclose is running
   * (one started after them), the source may move its hooks to enclose it from the next frame on.
   */
  missed?(): void;
  /**
   * Optional: whether frames are expected (the simulation runs: `start`, `resume`) or may well stop (idle,
   * paused, stopped). A source whose hooks cost the page frames of its own may stop them while frames are not
   * expected and none are made, and starts them again (from the task that calls this) when they are.
   */
  expect?(running: boolean): void;
  /** Stops whatever the source runs to know `current` (its own frame hooks). */
  close(): void;
}

/** A simulation worker the page started, as the runtime talks to it. */
export interface WorkerLink {
  /** Where comlink talks to the worker. */
  readonly endpoint: Endpoint;
  /**
   * Calls `listener` when the worker fails outside a step: its module did not load, threw at its top level, or
   * threw later outside comlink's calls. `message` says what happened. Returns the unsubscribe function.
   */
  onError(listener: (message: string) => void): () => void;
  terminate(): void;
}

/** What the page side needs from its platform. */
export interface PageHost {
  /** Which host: 'browser', 'render-worker', 'node', 'manual' (for messages and stats). */
  readonly kind: string;
  /** The anchor a new state buffer gets (this realm's `performance.timeOrigin`; the manual clock's own). */
  timeOrigin(): number;
  /** The shared clock for a buffer anchored at `anchor` (ms; see core/clock.ts). */
  clock(anchor: number): Clock;
  /** Animation frames, or null where the app makes its own frames (Node: a server loop). */
  readonly frames: FrameSource | null;
  /** Where the runtime learns the page is hidden, or null where there is no such thing. */
  visibility(): VisibilityHook | null;
  /**
   * Null where a SharedArrayBuffer can be shared with the worker (a cross-origin isolated page, Node), else why
   * not, for the error that `transport: 'shared'` gets.
   */
  sharedMemory(): string | null;
  /**
   * Starts (or takes) the simulation worker the app named in `options.worker`: a DOM `Worker` in a browser, a
   * module URL or path in Node. Throws a TypeError naming what it takes for anything else.
   */
  startWorker(worker: unknown): WorkerLink;
  /** Calls `fn` every `ms` of this host's clock until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /**
   * The catch-up wait (core/frame-catch-up.ts): returns once `reached()` holds, or false once the clock passes
   * `until`. It never yields: a browser page spins (it may not block), a Node page may block, and a manual clock
   * lets the worker settle instead (time does not pass while a frame waits on it).
   */
  waitFor(reached: () => boolean, until: number, now: Clock): boolean;
}

/** What one `WorkerHost.sleep` did. */
export interface SleepReport {
  /** Whether other tasks (comlink calls, timers) could run during it: an asynchronous wait. */
  readonly yielded: boolean;
  /** Ms of it spent spinning. */
  readonly spunMs: number;
}

/** The platform under the simulation loop: its clock, sleeps, yields and timers. */
export interface WorkerHost {
  /** The shared clock for a buffer with this anchor. */
  clock(anchor: number): Clock;
  /**
   * Resolves after `ms` (never, for Infinity), or earlier once `i32[index]` is not `value` or is notified.
   * The last `spinMs` of a wait may be spent spinning, for a precise wake. Reports what the wait did.
   */
  sleep(i32: Int32Array, index: number, value: number, ms: number, spinMs: number): Promise<SleepReport>;
  /**
   * Optional: the same wait done synchronously when it is short enough to block for (a worker may), returning
   * its report, or null when `ms` is too long for that (the loop then awaits `sleep`). On the precise path
   * this saves a promise and an await, so no allocation, nor a GC it could trigger, comes between the wake
   * and the tick. The report may be reused by the next call.
   */
  blockSync?(i32: Int32Array, index: number, value: number, ms: number, spinMs: number): SleepReport | null;
  /** Resolves after pending messages (comlink calls) have had a turn. */
  yieldToEvents(): Promise<void>;
  /** Calls `fn` every `ms` of this host's clock until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Cuts a `sleep` short (hosts whose sleep is not an Atomics wait on the doorbell). */
  wake?(): void;
  /**
   * Optional: told when a simulation loop begins and ends, so a host that must know when the simulation is idle
   * (the manual clock settles once every loop sleeps or has ended) can count them.
   */
  loopStarted?(): void;
  loopEnded?(): void;
}
