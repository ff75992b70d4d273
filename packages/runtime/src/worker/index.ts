/**
 * steadyframe/worker: the simulation side. Import it from the module Worker that runs your game's step.
 *
 * ```ts
 * import { exposeSimulation } from 'steadyframe/worker';
 * import { schema } from './schema';
 * exposeSimulation({ schema, tickRate: 20, step(world, tick) { ... } });
 * ```
 */
import type { Endpoint } from 'comlink';
import type { Schema } from '../core/schema.ts';
import { serveSimulation } from './serve.ts';
import type { PrivateFieldSpec } from './world.ts';
import { Simulation, type SimulationDefinition, type SimulationHost } from './simulation.ts';

/**
 * Creates the simulation and serves it to the main thread over comlink (on `endpoint`, by default the
 * worker's global scope). Call it once, at the top level of the worker module. Returns the simulation.
 */
export function exposeSimulation<S extends Schema, Setup = undefined, P extends PrivateFieldSpec = Record<never, never>>(
  definition: SimulationDefinition<S, Setup, P>,
  endpoint?: Endpoint,
  host?: SimulationHost,
): Simulation<S> {
  const simulation = new Simulation(definition, host);
  serveSimulation(simulation, definition, endpoint);
  return simulation;
}

export { Simulation, browserHost, MAX_TICK_RATE, MAX_TIME_SCALE } from './simulation.ts';
export type { SimulationDefinition, SimulationHost, SleepReport, TickInfo, World } from './simulation.ts';
export type { TickInput } from './tick-input.ts';
export type { PrivateFieldSpec, PrivateViews } from './world.ts';
export type { NonFinitePolicy } from './finite-check.ts';
export type { BacklogPolicy } from '../core/fixed-step.ts';
export { defineSchema, schema2d, schema3d, INTERPOLATION_KINDS } from '../core/schema.ts';
export type { FieldSpec, FieldViews, InterpolationKind, Schema } from '../core/schema.ts';
export type { SimulationInfo, SimulationRemote, SimulationStatus, WorkerStats } from '../core/protocol.ts';
