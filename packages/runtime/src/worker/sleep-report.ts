/** What a sleep of the simulation loop reports back (see `SimulationHost.sleep`). */

/** What one `SimulationHost.sleep` did. */
export interface SleepReport {
  /** Whether other tasks (comlink calls, timers) could run during it: an asynchronous wait. */
  readonly yielded: boolean;
  /** Ms of it spent spinning. */
  readonly spunMs: number;
}

/** An asynchronous wait that did not spin. */
export const SLEPT_ASYNC: SleepReport = Object.freeze({ yielded: true, spunMs: 0 });
/** A wait that neither yielded nor spun (blocked, or ended at once). */
export const BLOCKED: SleepReport = Object.freeze({ yielded: false, spunMs: 0 });
