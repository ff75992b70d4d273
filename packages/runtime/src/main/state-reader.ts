/**
 * `runtime.reader`: the raw published states, for renderers that blend on their own (the GPU path of
 * @steadyframe/three), behind a scoped `read(fn)`. The lock (shared transport) is taken for the call and
 * released after it, whatever `fn` does, so a page cannot hold it across frames by forgetting a release (a
 * held lock stops the worker's publishes: see READER_STALLS).
 */
import type { StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import type { ReadLockStats, StateSource } from '../core/slot-reader.ts';

export interface StateReader<S extends Schema> {
  /**
   * Calls `fn` with the newest pair of states and returns what it returns, or `undefined` when no pair could be
   * had (the lock stayed busy for `maxSpins` attempts, counted in `stats.misses`; or a `read` inside `fn`).
   * The pair, its views and its meta words are valid only during the call: copy out what you keep. The meta
   * words' COUNT and PREV_COUNT are checked (whole numbers within the capacity). `publishCount` is the number of
   * states published so far (mod 2^32), exact for this pair. Allocates nothing (pass a function made once).
   */
  read<T>(fn: (pair: StatePair<S>, publishCount: number) => T): T | undefined;
  /**
   * States published so far, mod 2^32 (an unsigned count: compare two with `(a - b) >>> 0`). Can be late by a
   * publish outside `read`.
   */
  publishCount(): number;
  /** Lock contention seen from this thread (acquires, spins, misses). */
  readonly stats: Readonly<ReadLockStats>;
}

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
