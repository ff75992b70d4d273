/**
 * steadyframe/node: the same simulation, headless in Node. The worker module a browser game runs (the one that
 * calls `exposeSimulation`) runs unchanged in a `worker_threads` Worker over the shared transport, and the app
 * makes its frames (a server loop calls `runtime.frame()`), on the real clock or a manual one that a test or a
 * replay moves by hand, the simulation running its ticks as fast as the CPU allows.
 *
 * ```ts
 * import { createNodeRuntime, createManualClock } from 'steadyframe/node';
 * const clock = createManualClock();
 * const runtime = await createNodeRuntime({ worker: new URL('./sim.worker.js', import.meta.url), schema, capacity: 100, clock });
 * await runtime.start();
 * for (let i = 0; i < 36_000; i++) { await clock.advance(1000 / 60); runtime.frame(); } // ten simulated minutes
 * ```
 *
 * @module steadyframe/node
 */
import type { WorkerOptions } from 'node:worker_threads';
import type { Runtime, RuntimeOptionsBase, SetupOption } from '../contracts/app.ts';
import type { Schema } from '../core/schema.ts';
import { composeRuntime } from '../compose/runtime.ts';
import type { ManualClock } from '../hosts/manual-clock/page.ts';
import { nodePageHost } from './page-host.ts';

/** `createNodeRuntime`'s options: the ones every host shares, the module to run, and Node's own. */
export type NodeRuntimeOptions<S extends Schema, Setup = unknown> = Omit<RuntimeOptionsBase<S>, 'visibility'> &
  SetupOption<Setup> & {
    /** The simulation's module, as a URL or a path: one Node can import (built JavaScript, or TypeScript under a loader named in `workerOptions.execArgv`). */
    readonly worker: URL | string;
    /** Options for the `worker_threads` Worker (`execArgv`, `env`, `resourceLimits`, `name`...). */
    readonly workerOptions?: Omit<WorkerOptions, 'eval' | 'workerData'>;
    /** A manual clock (`createManualClock()`): time moves only when it is advanced. Default: the real clock. */
    readonly clock?: ManualClock;
  };

/**
 * Starts the simulation module in a `worker_threads` Worker, attaches it over the shared transport, and returns
 * the runtime: the same `Runtime` a page gets, without animation frames (call `frame()` or `frameAt()` from your
 * loop; `draw` needs frames, which only a manual clock's `animationFrame()` makes here).
 */
export function createNodeRuntime<S extends Schema, C extends object = Record<never, never>, Setup = unknown>(
  options: NodeRuntimeOptions<S, Setup>,
): Promise<Runtime<S, C>> {
  const clock = options.clock ?? null;
  return composeRuntime<S, C>(nodePageHost(clock, options.workerOptions), options, clock === null ? {} : { clock: clock.config });
}

export { createManualClock, ManualClock } from '../hosts/manual-clock/page.ts';
// record and replay (ARCHITECTURE.md, "Record and replay")
export { replayRecording, type ReplayOptions } from './replay.ts';
export type { RecordOptions, ReplayDifference, ReplayReport, ReplayTrap } from '../contracts/remote.ts';
export type { Runtime, RuntimeEvents, RuntimeStats, Frame } from '../contracts/app.ts';

// the multiplayer server (ARCHITECTURE.md, "Multiplayer"): this runtime's states to clients, their inputs in
export { createSnapshotPublisher } from '../net/publisher.ts';
export type { PublisherEventOptions, PublisherOptions, PublisherClient, PublisherClientStats, PublisherRefusal, SnapshotPublisher } from '../net/publisher.ts';
export { DEFAULT_EVENT_WINDOW } from '../net/event-window.ts';
export { DEFAULT_INTEREST_LIMIT } from '../net/interest.ts';
export type { InterestClient, InterestOptions, InterestState } from '../net/interest.ts';
export { radiusInterest } from '../net/radius-interest.ts';
export type { RadiusInterest, RadiusInterestOptions } from '../net/radius-interest.ts';
export { CLOSE_GRACE_MS, hostSnapshots } from '../net/socket-host.ts';
export type { SocketHost, SocketHostOptions, SocketHostStats, SnapshotSocket, SnapshotSocketServer } from '../net/socket-host.ts';
// the same host for any transport (a Colyseus room: @steadyframe/colyseus): a link per connection
export { createSnapshotHost, DEFAULT_MAX_REFUSING_MS } from '../net/snapshot-host.ts';
export type { HostClose, HostedConnection, SnapshotHost, SnapshotHostOptions, SnapshotHostStats, SnapshotLink } from '../net/snapshot-host.ts';
export type { ProtocolError } from '../net/socket-errors.ts';
// what a WebSocket server's maxPayload should be for another framework's host (the publisher has its own: maxMessageBytes)
export { maxClientMessageBytes } from '../net/wire.ts';
export { MAX_PINGS_PER_SECOND } from '../net/ping-schedule.ts';
export type { ClientInputOptions, InputRefusal } from '../net/client-inputs.ts';
export { INPUT_MADE_TIME, INPUT_PLAYER } from '../net/input-columns.ts';
