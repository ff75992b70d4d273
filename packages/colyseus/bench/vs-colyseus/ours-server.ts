/**
 * Our server for the benchmark (ours-host.ts) in a process of its own (processes/ours.process.ts): its game's
 * worker bundled here as an app ships it, the server started there; what it kept is asked for at the end.
 */
import { fileURLToPath } from 'node:url';
import type { PublisherClientStats } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import type { OursSetup } from './ours-game.ts';
import type { OursVerdict } from './ours-host.ts';
import { spawnChild } from './processes/child.ts';

let module: Promise<string> | null = null;
const serverModule = () => (module ??= buildWorkerModule(fileURLToPath(new URL('./fixtures/ours-server.worker.ts', import.meta.url))));

export interface OursReport {
  /** Each client's disc at every step: time (the tick's shared-clock ms), x, y, flattened, by player. */
  readonly poses: Map<number, number[]>;
  readonly verdicts: OursVerdict[];
  /** The publisher's clients' counters, as they connected. */
  readonly clients: PublisherClientStats[];
}

export interface OursServer {
  /** http://127.0.0.1:port (ws:// on it: the publisher's host). */
  readonly url: string;
  report(): Promise<OursReport>;
  close(): Promise<void>;
}

export async function startOurs(setup: OursSetup): Promise<OursServer> {
  const child = await spawnChild('ours');
  const url = await child.ask<string>('start', { setup, worker: await serverModule() });
  let closed = false;
  return {
    url,
    async report() {
      const r = await child.ask<{ poses: Array<[number, number[]]>; verdicts: OursVerdict[]; clients: PublisherClientStats[] }>('report');
      return { poses: new Map(r.poses), verdicts: r.verdicts, clients: r.clients };
    },
    async close() {
      if (closed) return;
      closed = true;
      await child.ask('close');
      await child.stop();
    },
  };
}
