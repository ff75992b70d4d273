/**
 * The page's half of the manual clock (ARCHITECTURE.md, "The manual clock"): a time that moves only when the
 * caller moves it, shared with the worker, which settles after each move. What a test, a replay or a headless
 * server that wants to run faster than real time holds: `advance(ms)` returns once every tick due by the new
 * time has run and been published, every timer due has fired, and the worker sleeps again, so what it checks
 * next does not depend on how loaded the machine is.
 *
 * The clock also stands in for the page's own timers (the runtime's idle watch) and, for tests of the frame
 * clock, for animation frames: `animationFrame()` runs the frame callbacks the runtime asked for, at the
 * current time, with `current()` saying so while they run.
 */
import type { FrameSource } from '../../contracts/host.ts';
import type { ManualClockConfig } from '../../contracts/remote.ts';
import { describeValue } from '../../core/describe-value.ts';
import { allocateClock, CLOCK, clockWords, writeClockTime } from './words.ts';

/** Real ms `advance` and `settle` wait for the worker to settle before they throw: a guard against a hang, not a timing. */
export const SETTLE_GUARD_MS = 30_000;

interface Timer {
  readonly ms: number;
  next: number;
  readonly fn: () => void;
}

export class ManualClock {
  /** What the worker is handed at attach. */
  readonly config: ManualClockConfig;
  readonly #i32: Int32Array;
  #time: number;
  readonly #timers = new Set<Timer>();
  readonly #callbacks = new Map<number, (time: number) => void>();
  #handles = 0;
  /** The time of the animation frame whose callbacks `animationFrame` is running, or null. */
  #current: number | null = null;

  constructor(start = 0) {
    if (typeof start !== 'number' || !Number.isFinite(start)) throw new RangeError(`steadyframe: a manual clock starts at a finite time in ms; got ${describeValue(start)}`);
    this.#time = start;
    const buffer = allocateClock(start);
    this.#i32 = clockWords(buffer);
    this.config = { kind: 'manual', buffer };
  }

  /** The time now, shared-clock ms. */
  now(): number {
    return this.#time;
  }

  /** Whether a worker runs on this clock (it attached). */
  get attached(): boolean {
    return Atomics.load(this.#i32, CLOCK.ATTACHED) === 1;
  }

  /**
   * Moves the time forward by `ms` and resolves once the worker has caught up: its ticks due by the new time run
   * and published, its timers fired, its loop asleep again. Then fires the page's timers that came due.
   */
  async advance(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !(ms >= 0) || !Number.isFinite(ms)) {
      throw new RangeError(`steadyframe: advance(ms) moves a manual clock forward by a finite number of ms of at least 0; got ${describeValue(ms)}`);
    }
    // what frames and calls set off at the current time is done at the current time, whatever the threads'
    // timing: then the move
    await this.settle();
    this.#time += ms;
    writeClockTime(this.#i32, this.#time);
    await this.settle();
    this.#fireTimers();
  }

  /** Moves the time to `time` (not back), as `advance` does. */
  advanceTo(time: number): Promise<void> {
    return this.advance(Math.max(0, time - this.#time));
  }

  /**
   * Resolves once the worker has dealt with everything up to now (a frame announced since, a control call's
   * effects): it settles again at the same time.
   */
  async settle(): Promise<void> {
    const target = this.#poke();
    if (target === null) return;
    const deadline = performance.now() + SETTLE_GUARD_MS;
    for (;;) {
      const ack = Atomics.load(this.#i32, CLOCK.ACK);
      if (((ack - target) | 0) >= 0) return;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`steadyframe: the worker did not settle on the manual clock within ${SETTLE_GUARD_MS} ms of real time (a step that never returns?)`);
      const wait = Atomics.waitAsync(this.#i32, CLOCK.ACK, ack, left);
      if (wait.async) await wait.value;
    }
  }

  /**
   * `settle` without yielding, for a frame's catch-up wait on this thread: blocks (where this thread may: Node's
   * main thread, a worker) until the worker settles. Returns false where it may not block, or at the guard.
   */
  settleSync(): boolean {
    const target = this.#poke();
    if (target === null) return true;
    const deadline = performance.now() + SETTLE_GUARD_MS;
    try {
      for (;;) {
        const ack = Atomics.load(this.#i32, CLOCK.ACK);
        if (((ack - target) | 0) >= 0) return true;
        const left = deadline - performance.now();
        if (left <= 0) return false;
        Atomics.wait(this.#i32, CLOCK.ACK, ack, left);
      }
    } catch {
      return false; // a browser page's main thread may not block
    }
  }

  /** Calls `fn` every `ms` of this clock (fired by `advance`), until the returned function is called. */
  every(ms: number, fn: () => void): () => void {
    const timer: Timer = { ms, next: this.#time + ms, fn };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /**
   * Runs one animation frame: the callbacks the runtime asked for (its `draw` loop), then `fn` (a game's own
   * callback), with the frame source's `current()` at the frame's time throughout. The frame's time is now, or
   * `at` (not after now): a callback that began late, after a stall, as rAF hands it the vsync that passed.
   */
  animationFrame(fn?: (time: number) => void, at = this.#time): void {
    if (!(at <= this.#time)) throw new RangeError(`steadyframe: an animation frame's time is not after now (${this.#time}); got ${describeValue(at)}`);
    const time = at;
    const callbacks = [...this.#callbacks.values()];
    this.#callbacks.clear();
    this.#current = time;
    try {
      for (const callback of callbacks) callback(time);
      fn?.(time);
    } finally {
      this.#current = null;
    }
  }

  /** The animation frames of a runtime on this clock: run by `animationFrame`, `current()` exact. */
  readonly frames: FrameSource = {
    request: (callback) => {
      const handle = ++this.#handles;
      this.#callbacks.set(handle, callback);
      return handle;
    },
    cancel: (handle) => void this.#callbacks.delete(handle),
    current: () => this.#current,
    close: () => this.#callbacks.clear(),
  };

  /** Bumps SEQ so the worker settles again; the SEQ to wait for, or null with no worker attached. */
  #poke(): number | null {
    if (!this.attached) return null;
    const target = Atomics.add(this.#i32, CLOCK.SEQ, 1) + 1;
    Atomics.notify(this.#i32, CLOCK.SEQ);
    return target;
  }

  #fireTimers(): void {
    for (const timer of this.#timers) {
      if (this.#time < timer.next) continue;
      timer.next = this.#time + timer.ms;
      timer.fn();
    }
  }
}

/** A clock for tests, replays and headless runs faster than real time, starting at `start` ms. */
export function createManualClock(start = 0): ManualClock {
  return new ManualClock(start);
}
