/**
 * `createRuntime`: a runtime on a browser page (the composition root on the browser page host). The main thread
 * never changes simulation state and never blocks.
 */
import type { Runtime, RuntimeOptions } from '../contracts/app.ts';
import type { Schema } from '../core/schema.ts';
import { composeRuntime } from '../compose/runtime.ts';
import { browserPageHost } from '../hosts/browser-page.ts';

/**
 * Creates the shared buffer (or, on a page without cross-origin isolation, the message transport), attaches
 * the worker's simulation to it (which runs its `init` and publishes tick 0), aligns the two clocks and returns
 * the runtime. Throws at set-up for a bad schema, capacity or option, or `transport: 'shared'` on a page
 * without isolation; rejects for a worker that fails to load, has another schema, or does not attach within
 * `attachTimeout` (it never calls `exposeSimulation`).
 */
export function createRuntime<S extends Schema, C extends object = Record<never, never>, Setup = unknown>(
  options: RuntimeOptions<S, Setup>,
): Promise<Runtime<S, C>> {
  return composeRuntime<S, C>(browserPageHost(), options);
}
