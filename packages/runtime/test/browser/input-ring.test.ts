/**
 * The input ring across real threads: the page pushes as fast as it can into a small ring while a module Worker
 * takes, so the ring fills again and again. On a full ring the page knocks, waits a moment for the worker to
 * drain (yielding to its other tasks if none came), then retries the same event. The worker checks every event
 * (consecutive sequence numbers, times that never go back, payload a known function of the sequence) and
 * reports back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allocateInputRing, INPUT_RING } from '../../src/core/input-ring.ts';
import { InputWriter } from '../../src/core/input-writer.ts';
import type { RingConsumerStart, RingConsumerVerdict } from './fixtures/ring-consumer.worker.ts';
import { yieldToPage } from './helpers.ts';

const TOTAL = 200_000;
const CAPACITY = 64;


/** Payload value `i` of the event with sequence number `s`; the fixture checks the same. */
const expectedPayload = (s: number, i: number): number => (i === 0 ? s : i === 1 ? s * 0.5 : i === 2 ? -s : (s * 7919) % 65_536);

let worker: Worker | undefined;
afterEach(() => worker?.terminate());

describe('input ring across real threads', () => {
  it(`${TOTAL} events through a ring of ${CAPACITY}: none lost, none twice, in order, and the ring fills`, async () => {
    worker = new Worker(new URL('./fixtures/ring-consumer.worker.ts', import.meta.url), { type: 'module', name: 'ring-consumer' });
    const buffer = allocateInputRing(CAPACITY, 4) as SharedArrayBuffer; // shared by default
    const writer = new InputWriter(buffer);
    const header = new Int32Array(buffer, 0, INPUT_RING.REJECTED + 1);
    const w = worker;
    // the worker reports once it has every event, or at its own deadline: then the page stops pushing (a worker
    // that gave up reads no more, and the page would push into a full ring until the test's timeout, unreported)
    let reported = false;
    const verdict = new Promise<RingConsumerVerdict>((resolve, reject) => {
      w.onmessage = (message: MessageEvent<RingConsumerVerdict>) => {
        reported = true;
        resolve(message.data);
      };
      w.onerror = (event) => reject(new Error(`ring consumer worker failed: ${event.message}`));
    });
    const start: RingConsumerStart = { buffer, total: TOTAL, anchor: performance.timeOrigin, timeoutMs: 45_000 };
    worker.postMessage(start);

    const started = performance.now();
    let s = 0;
    let refused = 0;
    let backwards = 0;
    while (s < TOTAL && !reported) {
      // on the page the shared clock is performance.now(); every 97th event claims to be 5 ms older (clamped)
      const back = s % 97 === 0;
      const time = back ? performance.now() - 5 : performance.now();
      if (writer.push(time, s % 1000, expectedPayload(s, 0), expectedPayload(s, 1), expectedPayload(s, 2), expectedPayload(s, 3))) {
        s++;
        if (back) backwards++;
      } else {
        // full: nothing was written. Wake the worker if it sleeps and give it up to 1 ms to drain (it runs on a
        // thread of its own); yield to the page's other tasks only if no room came. A yield each time was the
        // run's pace in WebKit, about 10 ms each (2,700 refusals in 30 s), and 26 ms on a loaded CI run, where
        // the worker's 45 s ran out. Then retry the same event.
        refused++;
        Atomics.notify(header, INPUT_RING.WRITE);
        const until = performance.now() + 1;
        while (writer.space() === 0 && performance.now() < until) {
          // the worker drains
        }
        if (writer.space() === 0) await yieldToPage();
      }
    }
    const pushMs = performance.now() - started;
    const result = await verdict;
    console.log(
      (result.timedOut ? `the worker's ${start.timeoutMs} ms ran out at ${s} events pushed: ` : '') +
        `input ring: ${result.received} events in ${pushMs.toFixed(0)} ms through ${CAPACITY} slots; ` +
        `${refused} refused pushes (ring full), ${backwards} backward times clamped; worker: ${result.takes} takes, ` +
        `${result.emptyTakes} empty polls, ${result.sleeps} sleeps, ${result.heldBack} takes that left a later event, at most ${result.maxAvailable} unread`,
    );
    expect(result.timedOut).toBe(false);
    expect(result.firstViolation).toBeNull();
    expect(result.violations).toBe(0);
    expect(result.received).toBe(TOTAL);
    expect(writer.nextSequence).toBe(TOTAL);
    // the ring was full at least once, and every refusal was counted, on both sides
    expect(refused).toBeGreaterThan(0);
    expect(writer.rejected).toBe(refused);
    expect(result.rejected).toBe(refused);
    expect(result.maxAvailable).toBeLessThanOrEqual(CAPACITY);
  });
});
