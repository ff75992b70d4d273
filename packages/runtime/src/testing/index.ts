/**
 * steadyframe/testing: test-only hooks, kept out of the public API (page side; 'steadyframe/testing/worker' is
 * the worker's). A broken slot discipline, to prove a verifier can catch it (test/browser/swap-stress.test.ts),
 * and the raw source frames read from, to show what a page that never releases the lock gets; and the seeded
 * PRNG and the render-worker question (`askUntilAnswered`) the packages' tests share. Never import this in a game.
 * The faults come in through the `transports` option, as any transport of an app's own would.
 */
import type { Runtime, RuntimeOptions } from '../contracts/app.ts';
import type { Schema } from '../core/schema.ts';
import type { StateSource } from '../core/slot-reader.ts';
import { createRuntime } from '../main/runtime.ts';
import { faultyTransport, type TestFault } from './faulty-slots.ts';

export { EVENT_TEST_FAULTS, TEST_FAULTS, faultyTransport, type TestFault } from './faulty-slots.ts';
export { askUntilAnswered } from './ask.ts';
export { mulberry32 } from './prng.ts';

/**
 * Page side: `createRuntime` on the shared transport with `fault` in it (only `unlocked-flip` touches the
 * page), and the raw source frames read from, so a test can hold the lock the way no game can through
 * `runtime.reader`.
 */
export async function createTestRuntime<S extends Schema, C extends object = Record<never, never>>(
  options: RuntimeOptions<S>,
  fault: TestFault | 'none' = 'none',
): Promise<{ runtime: Runtime<S, C>; source: StateSource<S> | null }> {
  let source: StateSource<S> | null = null;
  const transport = faultyTransport(fault, (made) => (source = made as unknown as StateSource<S>));
  const runtime = await createRuntime<S, C>({ ...options, transport: 'shared', transports: [transport] });
  return { runtime, source };
}
