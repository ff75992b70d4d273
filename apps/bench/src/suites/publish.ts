/**
 * Suite 6, publish: the worker's cost of publishing one tick (issue #16), timed in a worker (publish.worker.ts)
 * with no reader contending, for schema3d at 1k, 100k and 1M live entities (capacity = live), and at capacity
 * 100k with 1k live. Next to it, in the same worker and the same rounds: the floor (one memcpy of the live
 * state: position, rotation and generation of the live entities, 32 bytes each), the publish as it was (whole
 * blocks), the other ways of copying only the live entities, and the transferable ping-pong design's delivery
 * of a tick (copy into a pooled buffer, post it transferred; this page sends each buffer straight back).
 */
import type { PublishCase, PublishRow, PublishToPage, PublishToWorker } from '../shared/publish.ts';
import { log } from '../page.ts';

export interface PublishResult {
  readonly rows: PublishRow[];
}

export async function publish(quick: boolean): Promise<PublishResult> {
  const cases: PublishCase[] = [
    { capacity: 1_000, live: 1_000 },
    { capacity: 100_000, live: 100_000 },
    ...(quick ? [] : [{ capacity: 1_000_000, live: 1_000_000 }]),
    { capacity: 100_000, live: 1_000 },
  ];
  const worker = new Worker(new URL('../publish.worker.ts', import.meta.url), { type: 'module', name: 'publish' });
  try {
    return await new Promise<PublishResult>((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(`publish worker: ${event.message}`));
      worker.onmessage = (event: MessageEvent<PublishToPage>) => {
        const data = event.data;
        if (data.type === 'tick') {
          // the ping-pong design's page: done with the state, the buffer goes home
          worker.postMessage({ type: 'return', buffer: data.buffer } satisfies PublishToWorker, [data.buffer]);
        } else if (data.type === 'log') log(data.message);
        else if (data.type === 'done') resolve({ rows: data.rows });
        else reject(new Error(data.message));
      };
      worker.postMessage({ cases, samples: quick ? 5 : 15 } satisfies PublishToWorker);
    });
  } finally {
    worker.terminate();
  }
}
