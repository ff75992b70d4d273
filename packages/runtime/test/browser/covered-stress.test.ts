/**
 * COVERED stress: the worker rewrites COVERED (how far its states reach while it sleeps) as fast as it can
 * while this thread reads it through `readCovered`, the read `writeNextFrame` uses to decide whether it may
 * skip waking the worker. Every read must be NaN (in doubt: the sequence was odd or moved) or exactly one value
 * the worker wrote, never going back: a torn read could skip a wake-up the worker needs. The same verifier must
 * catch the halves written without the sequence lock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { schema3d } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import { allocateSharedBuffer } from '../../src/core/layout.ts';
import { readCovered } from '../../src/core/doorbell.ts';
import type { CoveredWriterStart } from './fixtures/covered-writer.worker.ts';
import { coveredValue } from './fixtures/schemas.ts';
import { yieldToPage } from './helpers.ts';

const READS = 2_000_000;

let worker: Worker | undefined;
afterEach(() => worker?.terminate());

interface Verdict {
  reads: number;
  inDoubt: number;
  distinct: number;
  violations: number;
  firstViolation: string | null;
  written: number;
}

/**
 * Reads `reads` times, and on until `minDistinct` distinct values were validated and the newest is past
 * `minWritten` (a loaded machine may start the writer late or run it slowly), for at most 30 s.
 */
async function hammer(broken: boolean, reads: number, stopAtFirst: boolean, minDistinct = 0, minWritten = 0): Promise<Verdict> {
  // a real runtime buffer: its header holds PLAN_SEQ and COVERED
  const buffer = allocateSharedBuffer(computeLayout(schema3d, 1), 0) as SharedArrayBuffer;
  const views = { i32: new Int32Array(buffer) };
  const stop = new SharedArrayBuffer(4);
  worker = new Worker(new URL('./fixtures/covered-writer.worker.ts', import.meta.url), { type: 'module', name: 'covered-writer' });
  const started = new Promise<void>((resolve) => worker!.addEventListener('message', () => resolve(), { once: true }));
  worker.postMessage({ buffer, stop, broken } satisfies CoveredWriterStart);
  await started;
  const verdict: Verdict = { reads: 0, inDoubt: 0, distinct: 0, violations: 0, firstViolation: null, written: 0 };
  let last = 0;
  const deadline = performance.now() + 30_000;
  // on until the writer's own count (the newest value validated) passes `minWritten` too: the OS may give it
  // little of a loaded machine while this thread reads
  while (verdict.reads < reads || ((verdict.distinct < minDistinct || last < minWritten) && performance.now() < deadline)) {
    verdict.reads++;
    if (verdict.reads % 200_000 === 0) await yieldToPage();
    const value = readCovered(views);
    if (Number.isNaN(value)) {
      verdict.inDoubt++;
      continue;
    }
    if (value === Number.NEGATIVE_INFINITY) continue; // the buffer's initial "no plan"
    const k = Math.round(value / (1 + 2 ** -30));
    let bad: string | null = null;
    if (coveredValue(k) !== value) bad = `read ${value}, which the worker never wrote (a torn read)`;
    else if (k < last) bad = `went back from value ${last} to ${k}`;
    if (bad !== null) {
      verdict.violations++;
      verdict.firstViolation ??= `read ${verdict.reads}: ${bad}`;
      if (stopAtFirst) break;
      continue;
    }
    if (k !== last) verdict.distinct++;
    last = k;
  }
  const done = new Promise<number>((resolve) => worker!.addEventListener('message', (e: MessageEvent<number>) => resolve(e.data), { once: true }));
  Atomics.store(new Int32Array(stop), 0, 1);
  verdict.written = await done;
  return verdict;
}

describe('COVERED under contention (worker writes, page reads)', () => {
  it(`never reads a torn or stale-then-newer value in ${READS.toLocaleString('en')} reads`, async () => {
    const verdict = await hammer(false, READS, false, 1_000, 10_001);
    expect(verdict.violations, verdict.firstViolation ?? '').toBe(0);
    // real contention: the worker rewrote it many times during the reads (about 700k times in 2M reads on a
    // quiet machine, most reads in doubt), and the page validated many distinct values (about 100k then)
    expect(verdict.written).toBeGreaterThan(10_000);
    expect(verdict.distinct).toBeGreaterThanOrEqual(1_000);
  }, 60_000);

  it('catches the halves written without the sequence lock (the verifier can fail)', async () => {
    // on until the first tear (or the 30 s deadline): a loaded machine may not run the writer for a while
    const verdict = await hammer(true, READS * 5, true, Number.POSITIVE_INFINITY);
    expect(verdict.violations).toBeGreaterThan(0);
  }, 60_000);
});
