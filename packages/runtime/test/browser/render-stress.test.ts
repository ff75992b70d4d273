/**
 * Swap stress with the render worker as the reader: the stress fixture publishes at 2 kHz (every component the
 * tick number) while the render worker, on its own animation frames, reads the front pair as often as it can
 * through the swap stress verifier. No torn or out-of-order pair may appear; a broken writer ('front-write',
 * test-only) must be caught by the same verifier in the same thread, which shows the check can fail.
 */
import { afterEach, expect, it } from 'vitest';
import { createRenderWorkerRuntime, type RenderWorkerRuntime } from 'steadyframe';
import { stressSchema } from './fixtures/schemas.ts';
import type { Verdict } from './fixtures/stress-verifier.ts';
import { askUntilAnswered } from 'steadyframe/testing';
import { fixtureWorker, sleep } from './helpers.ts';

const CAPACITY = 1024;
/**
 * 2 kHz: a publish every 0.5 ms, eight within each of the render worker's 4 ms reading windows, while leaving the
 * machine's other core to the test files that run beside this one (the swap stress test runs at 20 kHz).
 */
const TICK_RATE = 2000;
let runtime: RenderWorkerRuntime<typeof stressSchema> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

let serial = 0;
async function stressInRenderWorker(fault: 'none' | 'front-write', until: (verdict: Verdict) => boolean): Promise<Verdict & { frames: number; crossOriginIsolated: boolean }> {
  const name = `stress-render-${serial++}:${CAPACITY}`;
  const canvas = document.createElement('canvas');
  runtime = await createRenderWorkerRuntime({
    worker: fixtureWorker('stress', fault === 'none' ? undefined : fault),
    renderWorker: new Worker(new URL('./fixtures/stress.render.ts', import.meta.url), { type: 'module', name }),
    canvas,
    schema: stressSchema,
    capacity: CAPACITY,
    renderIn: 'worker',
  });
  await runtime.setTickRate(TICK_RATE);
  await runtime.start();
  const channel = new BroadcastChannel(name);
  // an answer that never comes (a render worker whose event loop is stuck) fails with what was seen last
  let last: unknown = 'no answer yet';
  const answer = () =>
    askUntilAnswered<Verdict & { frames: number; crossOriginIsolated: boolean }>(channel, 'verdict', `the render worker (last verdict: ${JSON.stringify(last)})`, 15_000);
  try {
    // a deadline in wall time, inside the test's own timeout, so a slow run fails with its verdict
    for (const deadline = performance.now() + 40_000; performance.now() < deadline; ) {
      const verdict = await answer();
      last = verdict;
      if (until(verdict) || verdict.violations > 0) return verdict;
      await sleep(25);
    }
    const stats = await runtime.stats();
    throw new Error(`timed out: ${JSON.stringify(last)}; render ${JSON.stringify(stats.render)}, pacing ${JSON.stringify(stats.pacing)}, frameClock ${JSON.stringify(stats.frameClock)}`);
  } finally {
    channel.close();
  }
}

it('the render worker, as the one reader, never sees a torn or out-of-order pair', async () => {
  const verdict = await stressInRenderWorker('none', (v) => v.acquires >= 20_000 && v.distinctTicks >= 500);
  const stats = await runtime!.stats();
  console.log(
    `render-worker stress: ${verdict.acquires} acquires over ${verdict.frames} frames, ${verdict.distinctTicks} distinct ticks; ` +
      `misses ${stats.lock.misses}, worker publishes ${stats.worker.publishes}, flip waits ${stats.worker.flipWaits}`,
  );
  expect(verdict.crossOriginIsolated).toBe(true);
  expect(verdict.firstViolation).toBeNull();
  expect(verdict.violations).toBe(0);
  expect(verdict.distinctTicks).toBeGreaterThanOrEqual(500);
});

it('catches the broken discipline "front-write" from the render worker', async () => {
  const verdict = await stressInRenderWorker('front-write', () => false);
  console.log(`render-worker stress, fault front-write: first violation after ${verdict.acquires} acquires: ${verdict.firstViolation}`);
  expect(verdict.violations).toBeGreaterThan(0);
});
