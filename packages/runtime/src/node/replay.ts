/**
 * `replayRecording` (steadyframe/node): a recording (core/recording.ts) replayed headless in Node through the
 * worker module it was recorded with, as fast as the CPU goes. The runtime is made from the recording itself:
 * its schema (from the recorded signature), capacity, setup and seed, on a manual clock that never moves (the
 * simulation is never started: the replay makes every tick).
 */
import type { ReplayReport } from '../contracts/remote.ts';
import { ByteReader, readHead, schemaFromSignature } from '../core/recording.ts';
import type { WorkerOptions } from 'node:worker_threads';
import { composeRuntime } from '../compose/runtime.ts';
import { createManualClock } from '../hosts/manual-clock/page.ts';
import { nodePageHost } from './page-host.ts';

export interface ReplayOptions {
  /** The simulation's module (built JavaScript), as `createNodeRuntime` takes it. */
  readonly worker: URL | string;
  readonly workerOptions?: Omit<WorkerOptions, 'eval' | 'workerData'>;
}

export async function replayRecording(recording: Uint8Array, options: ReplayOptions): Promise<ReplayReport> {
  const head = readHead(new ByteReader(recording));
  // createNodeRuntime's assembly (node/index.ts re-exports this module, so it is not imported from there)
  const clock = createManualClock(0);
  const runtime = await composeRuntime(
    nodePageHost(clock, options.workerOptions),
    {
      worker: options.worker,
      schema: schemaFromSignature(head.signature),
      capacity: head.capacity,
      seed: head.seed,
      heartbeatTimeout: false,
      ...(head.setup === undefined ? {} : { setup: JSON.parse(head.setup) as unknown }),
    },
    { clock: clock.config },
  );
  try {
    return await runtime.replay(recording);
  } finally {
    runtime.dispose();
  }
}
