/** The publish suite's wire format (publish.worker.ts and suites/publish.ts). */
import type { Spread } from './stats.ts';

/** One case: a buffer of `capacity` entities (schema3d), `live` of them live. */
export interface PublishCase {
  readonly capacity: number;
  readonly live: number;
}

export interface PublishConfig {
  readonly cases: readonly PublishCase[];
  readonly samples: number;
}

/** The ways of publishing a tick (or of delivering one) the suite times, in the worker. */
export type PublishMethod = 'ours' | 'whole-blocks' | 'subarray-set' | 'wasm-memory-copy' | 'copy-within' | 'floor' | 'floor-shared' | 'transfer';

export interface PublishRow extends PublishCase {
  /** Bytes of the live state: position, rotation and generation of the live entities (32 per entity). */
  readonly liveBytes: number;
  /** Calls timed per sample (about 4 ms of ours). */
  readonly callsPerSample: number;
  /** How ours copied ('memory.copy', 'copyWithin' or 'set'): PublishCopier.method. */
  readonly oursCopy: string;
  /** ms per call, median (min-max) over samples, per method. */
  readonly ms: Partial<Record<PublishMethod, Spread>>;
  /** Per method, ms / floor's ms of the same round (plain memory), median (min-max) over rounds. */
  readonly ratioToFloor: Partial<Record<PublishMethod, Spread>>;
  /** The same against floor-shared: one set of the live bytes within shared memory, where a publish writes. */
  readonly ratioToSharedFloor: Partial<Record<PublishMethod, Spread>>;
  /** ours / transfer, same round. */
  readonly ratioToTransfer: Spread;
}

export type PublishToPage =
  | { readonly type: 'tick'; readonly buffer: ArrayBuffer }
  | { readonly type: 'log'; readonly message: string }
  | { readonly type: 'done'; readonly rows: PublishRow[] }
  | { readonly type: 'error'; readonly message: string };

export type PublishToWorker = PublishConfig | { readonly type: 'return'; readonly buffer: ArrayBuffer };
