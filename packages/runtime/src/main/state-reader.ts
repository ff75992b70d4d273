/**
 * `runtime.reader`: the raw published states, for renderers that blend on their own (the GPU path of
 * @steadyframe/three), behind a scoped `read(fn)`. The lock (shared transport) is taken for the call and
 * released after it, whatever `fn` does, so a page cannot hold it across frames by forgetting a release (a
 * held lock stops the worker's publishes: see READER_STALLS).
 */
import type { StateReader } from '../contracts/frames.ts';
import type { StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { StateSource } from '../core/slot-reader.ts';

export type { StateReader } from '../contracts/frames.ts';


export function createStateReader<S extends Schema>(source: StateSource<S>): StateReader<S> {
  let reading = false;
  return {
    read<T>(fn: (pair: StatePair<S>, publishCount: number) => T): T | undefined {
      // a read inside a read would spin on its own lock
      if (reading) return undefined;
      const pair = source.acquire();
      if (pair === null) return undefined;
      reading = true;
      try {
        return fn(pair, source.publishCount());
      } finally {
        reading = false;
        // never leave the worker locked out, whatever fn did
        source.release();
      }
    },
    publishCount: () => source.publishCount(),
    stats: source.stats,
  };
}
