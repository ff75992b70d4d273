/** The benchmark workers, created the way Vite bundles them (a literal `new URL(..., import.meta.url)` each). */
import type { MessageConfig } from './shared/messages.ts';
import type { PacerConfig } from './shared/pacer.ts';
import type { SimConfig } from './shared/sims.ts';

/** A steadyframe simulation worker, configured; hand it to createRuntime. */
export function simWorker(config: Omit<SimConfig, 'anchor'>): Worker {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: `sim-${config.kind}` });
  worker.postMessage({ ...config, anchor: performance.timeOrigin } satisfies SimConfig);
  return worker;
}

/** A postMessage design's worker (clone or transfer); it waits for { type: 'start' }. */
export function messageWorker(config: Omit<MessageConfig, 'anchor'>): Worker {
  const worker = new Worker(new URL('./message.worker.ts', import.meta.url), { type: 'module', name: `message-${config.mode}` });
  worker.postMessage({ ...config, anchor: performance.timeOrigin } satisfies MessageConfig);
  return worker;
}

/** A baseline pacer's worker; it starts at once and runs until PACER_STOP is set. */
export function pacerWorker(config: Omit<SimConfig & PacerConfig, 'anchor'>): Worker {
  const worker = new Worker(new URL('./pacer.worker.ts', import.meta.url), { type: 'module', name: `pacer-${config.mode}` });
  worker.postMessage({ ...config, anchor: performance.timeOrigin } satisfies SimConfig & PacerConfig);
  return worker;
}
