/**
 * The 3D physics simulation: `physicsSimulation` builds the definition (`simulation.ts`, shared with 2D, with
 * the 3D `createPhysics`), `exposePhysics` serves it from a worker once Rapier's WebAssembly is ready. With a
 * `tables` option, the hooks get a `TablesPhysics` of those tables of the world.
 */
import type { Schema, SimulationDefinition, TableName } from 'steadyframe/worker';
import type { Endpoint } from './deferred-endpoint.ts';
import type { EntityTarget, TablesTarget } from './entity-target.ts';
import { createPhysics, type Physics, type PhysicsOptions, type Rapier, type TablesPhysics, type TablesPhysicsOptions } from './physics.ts';
import { physicsEntry, type PhysicsDefinitionOf, type PhysicsEntry } from './simulation.ts';

/** `exposePhysics`' definition: steadyframe's, with Rapier's step in place of `step` (see `PhysicsDefinitionOf`). */
export interface PhysicsSimulationDefinition<S extends Schema, Setup = undefined> extends PhysicsDefinitionOf<S, Setup, Physics>, PhysicsOptions {}

/** The definition of a simulation of several tables in one Rapier world, `K` their names (the schema's tables). */
export interface TablesSimulationDefinition<S extends Schema, K extends string, Setup = undefined> extends PhysicsDefinitionOf<S, Setup, TablesPhysics<K>, TablesTarget<K>>, TablesPhysicsOptions<K> {}

type AnyPhysics = Physics | TablesPhysics;
type AnyOptions = PhysicsOptions & { readonly tables?: TablesPhysicsOptions<string>['tables'] };

// the options decide which Physics createPhysics makes; each overload below types one of them
const entry: PhysicsEntry<Rapier, AnyPhysics, AnyOptions> = physicsEntry<Rapier, AnyPhysics, AnyOptions>((rapier, target, options) => createPhysics(rapier, target as EntityTarget, options), ['gravity', 'position', 'rotation']);

/**
 * The steadyframe simulation definition that steps a 3D Rapier world once per tick, by `tick.dt`, and copies the
 * bodies' poses into the schema's position and rotation fields (with `tables`, each table's). Rapier must be
 * initialised (`await RAPIER.init()`) before the main thread attaches: `exposePhysics` sees to that. Snapshots,
 * recordings and restarts: see `createPhysicsSimulation`.
 */
export function physicsSimulation<S extends Schema, const K extends TableName<S>, Setup = undefined>(rapier: Rapier, definition: TablesSimulationDefinition<S, K, Setup>): SimulationDefinition<S, Setup>;
export function physicsSimulation<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsSimulationDefinition<S, Setup>): SimulationDefinition<S, Setup>;
export function physicsSimulation<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsDefinitionOf<S, Setup, AnyPhysics, EntityTarget | TablesTarget> & AnyOptions): SimulationDefinition<S, Setup> {
  return entry.physicsSimulation(rapier, definition);
}

/**
 * Initialises Rapier and serves the physics simulation to the main thread (call it once, at the top level of
 * the worker module, instead of `exposeSimulation`). Messages that arrive before Rapier is ready are held.
 */
export function exposePhysics<S extends Schema, const K extends TableName<S>, Setup = undefined>(rapier: Rapier, definition: TablesSimulationDefinition<S, K, Setup>, endpoint?: Endpoint): void;
export function exposePhysics<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsSimulationDefinition<S, Setup>, endpoint?: Endpoint): void;
export function exposePhysics<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsDefinitionOf<S, Setup, AnyPhysics, EntityTarget | TablesTarget> & AnyOptions, endpoint?: Endpoint): void {
  entry.exposePhysics(rapier, definition, endpoint);
}
