/**
 * steadyframe/testing: test-only hooks, kept out of the public API (page side; 'steadyframe/testing/worker' is
 * the worker's). A broken slot discipline, to prove a verifier can catch it (test/browser/swap-stress.test.ts),
 * and the raw source frames read from, to show what a page that never releases the lock gets; and the seeded
 * PRNG and the render-worker question (`askUntilAnswered`) the packages' tests share. Never import this in a game.
 */
import type { SharedViews } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { SlotReader, type StateSource } from '../core/slots.ts';
import type { Runtime, RuntimeOptions } from '../main/runtime.ts';
import { setUpRuntime } from '../main/runtime-setup.ts';
import { UnlockedSlotReader, type TestFault } from './faulty-slots.ts';

export { TEST_FAULTS, type TestFault } from './faulty-slots.ts';
export { askUntilAnswered } from './ask.ts';
export { mulberry32 } from './prng.ts';

/**
 * Page side: `createRuntime` whose reader has `fault` (only `unlocked-flip` touches the reader), and the raw
 * source frames read from, so a test can hold the lock the way no game can through `runtime.reader`.
 */
export async function createTestRuntime<S extends Schema, C extends object = Record<never, never>>(
  options: RuntimeOptions<S>,
  fault: TestFault | 'none' = 'none',
): Promise<{ runtime: Runtime<S, C>; source: StateSource<S> | null }> {
  let source: StateSource<S> | null = null;
  const runtime = await setUpRuntime<S, C>(options, {
    reader: <T extends Schema>(views: SharedViews<T>, maxSpins: number): SlotReader<T> => {
      const reader = fault === 'unlocked-flip' ? new UnlockedSlotReader(views, maxSpins) : new SlotReader(views, maxSpins);
      source = reader as unknown as StateSource<S>;
      return reader;
    },
  });
  return { runtime, source };
}
