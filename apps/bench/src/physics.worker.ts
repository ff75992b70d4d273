/**
 * The physics comparison's design (b): Rapier in the steadyframe worker through @steadyframe/rapier. The body
 * count comes as set-up data (`createRuntime({ setup: { bodies } })`).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { exposePhysics } from '@steadyframe/rapier';
import { schema3d } from 'steadyframe/worker';
import { buildPhysicsScene, GRAVITY, PHYSICS_TICK_RATE } from './shared/physics-scene.ts';

export interface PhysicsSetup {
  readonly bodies: number;
}

exposePhysics(RAPIER, {
  schema: schema3d,
  tickRate: PHYSICS_TICK_RATE,
  gravity: { x: 0, y: -GRAVITY, z: 0 },
  init(physics, _world, setup: PhysicsSetup) {
    buildPhysicsScene(RAPIER, setup.bodies, (body, collider) => physics.add(body, collider));
  },
});
