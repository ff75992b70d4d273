/**
 * steadyframe/worker: the simulation side. Import it from the module Worker that runs your game's step (a
 * browser worker, or a Node `worker_threads` one through steadyframe/node: the same module serves both).
 *
 * ```ts
 * import { exposeSimulation } from 'steadyframe/worker';
 * import { schema } from './schema';
 * exposeSimulation({ schema, tickRate: 20, step(world, tick) { ... } });
 * ```
 *
 * @module steadyframe/worker
 */
import type { Endpoint } from 'comlink';
import type { Schema } from '../core/schema.ts';
import type { SimulationDefinition } from './definition.ts';
import { serveSimulation } from './serve.ts';
import { Simulation, type SimulationOptions } from './simulation.ts';
import { refuseWindow, workerEndpoint } from './endpoint.ts';
import type { PrivateFieldSpec } from './world.ts';

/** What `exposeSimulation` may be given besides the definition. */
export interface ExposeOptions extends SimulationOptions {
  /** Where the page talks to the simulation. Default: this worker's (its global scope; Node's bootstrap installs one). */
  readonly endpoint?: Endpoint;
}

/**
 * Creates the simulation and serves it to the page over comlink. Call it once, at the top level of the worker
 * module (the page's `attach` may come at the module's first turn). Returns the simulation.
 */
export function exposeSimulation<S extends Schema, Setup = undefined, P extends PrivateFieldSpec = Record<never, never>>(
  definition: SimulationDefinition<S, Setup, P>,
  options: ExposeOptions = {},
): Simulation<S> {
  if (typeof options !== 'object' || options === null || typeof (options as { postMessage?: unknown }).postMessage === 'function') {
    throw new TypeError('steadyframe: exposeSimulation(definition, options) takes an options object { endpoint?, host?, transports? } (an endpoint goes in options.endpoint)');
  }
  // before the simulation exists: a window (a page that imported the worker module) gets the error, not a world
  const endpoint = options.endpoint ?? workerEndpoint();
  refuseWindow(endpoint);
  const simulation = new Simulation(definition as SimulationDefinition<S, unknown, PrivateFieldSpec>, options);
  serveSimulation(simulation, definition as SimulationDefinition<S, unknown, PrivateFieldSpec>, endpoint);
  return simulation;
}

export { Simulation, type SimulationOptions } from './simulation.ts';
export { workerEndpoint } from './endpoint.ts';
export { HEARTBEAT_MS } from './attach.ts';
export { browserWorkerHost } from '../hosts/browser-worker.ts';
export { MAX_TICK_RATE, MAX_TIME_SCALE } from './definition.ts';
export { EVENTS_LOST } from '../core/event-ring.ts';
export type { SimulationContext, SimulationDefinition, TickInfo } from './definition.ts';
export type { SleepReport, WorkerHost } from '../contracts/host.ts';
export type { Transport, WorkerTransport } from '../contracts/transport.ts';
export type { World, PrivateFieldSpec, PrivateViews } from './world.ts';
export type { WorldTable, WorldTables } from './world-tables.ts';
export type { TickInput } from './tick-input.ts';
export { DEFAULT_REWIND_MS, MAX_REWIND_BYTES, MAX_REWIND_MS } from './rewind.ts';
export type { RewindOptions, RewoundWorld } from './rewind.ts';
export { INPUT_MADE_TIME, INPUT_PLAYER } from '../net/input-columns.ts';
export type { NonFinitePolicy } from './finite-check.ts';
export type { BacklogPolicy } from '../core/fixed-step.ts';
export { defineSchema, schema2d, schema3d, INTERPOLATION_KINDS } from '../core/schema.ts';
export { quantizeFields } from '../core/quantize-world.ts';
export { defineTables, tablesCapacity } from '../core/tables.ts';
export type { TableName, TableSpec, TableSpecs, TablesSchema, TableViews } from '../core/tables.ts';
export type { EntityField, EntityFieldSpec, FieldSpec, FieldViews, GameField, GameFieldSpec, GameState, InterpolationKind, Schema } from '../core/schema.ts';
export type { AttachConfig, SimulationInfo, SimulationRemote, SimulationStatus, WorkerStats } from '../contracts/remote.ts';
