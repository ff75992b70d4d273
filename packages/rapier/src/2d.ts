/**
 * @steadyframe/rapier/2d: Rapier's 2D build (`@dimforge/rapier2d-compat`, or its deterministic build) in the
 * steadyframe simulation worker. The same calls as the 3D entry, with 2D poses: a translation into `position`
 * (width 2) and an angle into `angle` (width 1, radians), the fields of `schema2d`. Import it from the worker.
 *
 * ```ts
 * import RAPIER from '@dimforge/rapier2d-compat';
 * import { schema2d } from 'steadyframe/worker';
 * import { exposePhysics } from '@steadyframe/rapier/2d';
 * exposePhysics(RAPIER, { schema: schema2d, tickRate: 60, init(physics) { physics.add(...) } });
 * ```
 *
 * @module @steadyframe/rapier/2d
 */
export { createPhysics } from './physics-2d.ts';
export type { Physics, PhysicsOptions, Pose2D, PoseFields, Rapier, TableBodies, TablesPhysics, TablesPhysicsOptions } from './physics-2d.ts';
export { exposePhysics, physicsSimulation } from './physics-simulation-2d.ts';
export type { PhysicsSimulationDefinition, TablesSimulationDefinition } from './physics-simulation-2d.ts';
export type { BodiesOf, PhysicsCoreOf, PhysicsOf, TableBodiesOf, TablesPhysicsOf } from './bodies.ts';
export type { PhysicsDefinitionOf } from './simulation.ts';
export type { EntityTarget, TablesTarget } from './entity-target.ts';
export { CONTACT_END, CONTACT_START } from './contact-events.ts';
export type { ContactEmitter, ContactOptions, ContactPair } from './contact-events.ts';
export { deferEndpoint } from './deferred-endpoint.ts';
export type { Endpoint } from './deferred-endpoint.ts';
