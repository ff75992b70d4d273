/**
 * The physics comparison's design (b): Rapier in the steadyframe worker through @steadyframe/rapier. The body
 * count comes in the worker's name (`physics-<n>`): `init` takes no parameters, and the name is there before
 * anything else is.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { exposePhysics } from '@steadyframe/rapier';
import { schema3d } from 'steadyframe/worker';
import { buildPhysicsScene, GRAVITY, PHYSICS_TICK_RATE } from './shared/physics-scene.ts';

const n = Number(/^physics-(\d+)$/.exec(self.name)?.[1] ?? 1000);

exposePhysics(RAPIER, {
  schema: schema3d,
  tickRate: PHYSICS_TICK_RATE,
  gravity: { x: 0, y: -GRAVITY, z: 0 },
  init(physics) {
    buildPhysicsScene(RAPIER, n, (body, collider) => physics.add(body, collider));
  },
});
