/**
 * The 2D physics simulation: `physicsSimulation` builds the definition (`simulation.ts`, shared with 3D, with
 * the 2D `createPhysics`), `exposePhysics` serves it from a worker once Rapier's WebAssembly is ready.
 */
import type { Schema, SimulationDefinition } from 'steadyframe/worker';
import type { Endpoint } from './deferred-endpoint.ts';
import { createPhysics, type Physics, type PhysicsOptions, type Rapier } from './physics-2d.ts';
import { physicsEntry, type PhysicsDefinitionOf, type PhysicsEntry } from './simulation.ts';

/** `exposePhysics`' definition: steadyframe's, with Rapier's step in place of `step` (see `PhysicsDefinitionOf`). */
export interface PhysicsSimulationDefinition<S extends Schema, Setup = undefined> extends PhysicsDefinitionOf<S, Setup, Physics>, PhysicsOptions {}

const entry: PhysicsEntry<Rapier, Physics, PhysicsOptions> = physicsEntry<Rapier, Physics, PhysicsOptions>(createPhysics, ['gravity', 'position', 'angle']);

/**
 * The steadyframe simulation definition that steps a 2D Rapier world once per tick, by `tick.dt`, and copies the
 * bodies' poses into the schema's position and angle fields. Rapier must be initialised (`await RAPIER.init()`)
 * before the main thread attaches: `exposePhysics` sees to that. Snapshots, recordings and restarts: see
 * `createPhysicsSimulation`.
 */
export function physicsSimulation<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsSimulationDefinition<S, Setup>): SimulationDefinition<S, Setup> {
  return entry.physicsSimulation(rapier, definition);
}

/**
 * Initialises the 2D Rapier build and serves the simulation to the main thread (call it once, at the top level
 * of the worker module, instead of `exposeSimulation`). Messages that arrive before Rapier is ready are held.
 */
export function exposePhysics<S extends Schema, Setup = undefined>(rapier: Rapier, definition: PhysicsSimulationDefinition<S, Setup>, endpoint?: Endpoint): void {
  entry.exposePhysics(rapier, definition, endpoint);
}
