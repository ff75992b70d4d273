/**
 * Swap stress: the worker writes its tick number into every component of every entity at 20 kHz while this
 * thread acquires the front slot as fast as it can. Every acquire must see one tick t in all current fields,
 * t - 1 in all previous fields, meta to match, and t never going back. Two deliberately broken disciplines
 * (test-only faults, from the test-only entry 'steadyframe/testing': a broken writer in the worker, and for
 * 'unlocked-flip' a page that skips the lock too) must fail the same verifier, which shows it can catch a torn read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import { createTestRuntime, type TestFault } from 'steadyframe/testing';
import { stressSchema } from './fixtures/schemas.ts';
import { createStressVerifier, type Verdict } from './fixtures/stress-verifier.ts';
import { distinctTicksNeeded, fixtureWorker, waitFor, YIELD_EVERY_ACQUIRES, yieldToPage } from './helpers.ts';

declare const __STRESS_ACQUIRES__: number;
declare const __STRESS_CAPACITY__: number;
declare const __STRESS_TICK_RATE__: number;
const ACQUIRES = __STRESS_ACQUIRES__;
const CAPACITY = __STRESS_CAPACITY__;
/** A long soak needs longer than the default minute: about 50 us per acquire is generous. */
const SOAK_TIMEOUT = 60_000 + ACQUIRES * 0.05;

/** Ticks the clean run must see: enough distinct pairs for the check to mean something. */
const DISTINCT_TICKS = Math.min(1000, ACQUIRES / 10);
/** Acquires the clean run may go on for, past `acquires`, until it has seen DISTINCT_TICKS ticks. */
const MAX_ACQUIRES_FACTOR = 5;

let runtime: Runtime<typeof stressSchema> | undefined;
afterEach(() => runtime?.dispose());

/**
 * Acquires `acquires` times, and on until more than `distinct` ticks were seen (at most MAX_ACQUIRES_FACTOR
 * times as many acquires): how many acquires one tick stays in the slot for depends on how the two cores are
 * shared at the time (a loaded machine runs the worker less often).
 */
async function hammer(rt: Runtime<typeof stressSchema>, acquires: number, stopAtFirst: boolean, distinct = 0): Promise<Verdict & { publishedAtEnd: number }> {
  const { reader } = rt;
  const { verdict, check } = createStressVerifier(CAPACITY);
  // the publish count the last check of the floor read (the worker publishes on after the loop ends)
  // the ticks published while this reader watched: the ones before (start-up, the first ticks' wait, seconds on
  // a loaded machine) no reader here could have seen
  const before = reader.publishCount();
  let published = 0;
  const needed = (): number => distinctTicksNeeded(distinct, (published = reader.publishCount() - before));
  while (verdict.acquires < acquires || (verdict.distinctTicks <= needed() && verdict.acquires < MAX_ACQUIRES_FACTOR * acquires)) {
    const bad = reader.read(check);
    if (bad === undefined) continue; // a miss: counted in reader.stats
    verdict.acquires++;
    if (bad !== null) {
      verdict.violations++;
      verdict.firstViolation ??= bad;
      if (stopAtFirst) break;
    }
    if (verdict.acquires % YIELD_EVERY_ACQUIRES === 0) await yieldToPage();
  }
  return Object.assign(verdict, { publishedAtEnd: published });
}

async function startStress(testFault?: TestFault) {
  const made = await createTestRuntime({ worker: fixtureWorker('stress', testFault), schema: stressSchema, capacity: CAPACITY }, testFault ?? 'none');
  runtime = made.runtime;
  await runtime.setTickRate(__STRESS_TICK_RATE__);
  await runtime.start();
  const rt = runtime;
  await waitFor('the first ticks', () => rt.reader.publishCount() > 10);
  return rt;
}

describe('swap stress across real threads', () => {
  it(`${ACQUIRES} contended acquires or more never see a torn or out-of-order slot`, async () => {
    const rt = await startStress();
    const verdict = await hammer(rt, ACQUIRES, false, DISTINCT_TICKS);
    const stats = await rt.stats();
    console.log(
      `swap stress: ${verdict.acquires} acquires, ${verdict.distinctTicks} distinct ticks seen, last tick ${verdict.lastTick}; ` +
        `reader spins ${stats.lock.spins} (max ${stats.lock.maxSpins} in one acquire), misses ${stats.lock.misses}; ` +
        `worker publishes ${stats.worker.publishes}, flip waits ${stats.worker.flipWaits} (${stats.worker.flipWaitMs.toFixed(1)} ms), ` +
        `overloads ${stats.worker.overloads} (capacity ${CAPACITY}, ${__STRESS_TICK_RATE__} Hz)`,
    );
    expect(verdict.firstViolation).toBeNull();
    expect(verdict.violations).toBe(0);
    // the two threads really ran against each other: the worker published throughout the run
    expect(verdict.distinctTicks).toBeGreaterThan(distinctTicksNeeded(DISTINCT_TICKS, verdict.publishedAtEnd));
  }, SOAK_TIMEOUT);

  for (const fault of ['unlocked-flip', 'front-write'] as const) {
    it(`catches the broken discipline "${fault}"`, async () => {
      const rt = await startStress(fault);
      const verdict = await hammer(rt, Math.max(ACQUIRES, 100_000), true);
      console.log(`fault ${fault}: first violation after ${verdict.acquires} acquires: ${verdict.firstViolation}`);
      expect(verdict.violations).toBeGreaterThan(0);
    });
  }
});
