/** The platform under the simulation loop: its clock, sleeps, yields and timers. */
import type { Clock } from '../core/clock.ts';
import type { SleepReport } from './sleep-report.ts';

/** How the loop sleeps and yields; injected so tests can drive it. */
export interface SimulationHost {
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
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Cuts a `sleep` short (hosts whose sleep is not an Atomics wait on the doorbell). */
  wake?(): void;
}
