/** The two reports a sleep of the simulation loop gives when it did not spin (see `WorkerHost.sleep`). */
import type { SleepReport } from '../contracts/host.ts';

/** An asynchronous wait that did not spin. */
export const SLEPT_ASYNC: SleepReport = Object.freeze({ yielded: true, spunMs: 0 });
/** A wait that neither yielded nor spun (blocked, or ended at once). */
export const BLOCKED: SleepReport = Object.freeze({ yielded: false, spunMs: 0 });
