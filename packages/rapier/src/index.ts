/**
 * @steadyframe/rapier: Rapier physics in the steadyframe simulation worker, Rapier's 3D build. Import it from the
 * worker module. Rapier's 2D build: `@steadyframe/rapier/2d` (the same calls, 2D poses).
 *
 * ```ts
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { schema3d } from 'steadyframe/worker';
 * import { exposePhysics } from '@steadyframe/rapier';
 * exposePhysics(RAPIER, { schema: schema3d, tickRate: 60, init(physics) { physics.add(...) } });
 * ```
 *
 * @module @steadyframe/rapier
 */
export { createPhysics } from './physics.ts';
export type { Physics, PhysicsOptions, Pose3D, PoseFields, Rapier, TableBodies, TablesPhysics, TablesPhysicsOptions } from './physics.ts';
export { exposePhysics, physicsSimulation } from './physics-simulation.ts';
export type { PhysicsSimulationDefinition, TablesSimulationDefinition } from './physics-simulation.ts';
export type { BodiesOf, PhysicsCoreOf, PhysicsOf, TableBodiesOf, TablesPhysicsOf } from './bodies.ts';
export type { PhysicsDefinitionOf } from './simulation.ts';
export type { EntityTarget, TablesTarget } from './entity-target.ts';
export { CONTACT_END, CONTACT_START } from './contact-events.ts';
export type { ContactEmitter, ContactOptions, ContactPair } from './contact-events.ts';
export { deferEndpoint } from './deferred-endpoint.ts';
export type { Endpoint } from './deferred-endpoint.ts';
