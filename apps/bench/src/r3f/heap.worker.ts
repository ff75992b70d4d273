/**
 * The r3f-port suite's design `ours`: the heap (shared/heap.ts) in Rapier, stepped at 60 Hz in this worker by
 * @steadyframe/rapier, every box an entity. The floor is a collider without a body (not an entity, not drawn by
 * the instances), as apps/r3f-bodies has it; the page draws a floor mesh of the same size.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { exposePhysics } from '@steadyframe/rapier';
import { schema3d } from 'steadyframe/worker';
import { BOX_HALF, FLOOR_HALF, heap, quaternionOfEuler, TICK_RATE } from '../shared/heap.ts';

/** What the page sends: how many boxes. */
export interface HeapSetup {
  readonly bodies: number;
}

exposePhysics(RAPIER, {
  schema: schema3d,
  tickRate: TICK_RATE,
  init(physics, _world, setup: HeapSetup) {
    physics.world.createCollider(RAPIER.ColliderDesc.cuboid(FLOOR_HALF, 0.5, FLOOR_HALF).setTranslation(0, -0.5, 0));
    const { positions, rotations } = heap(setup.bodies);
    for (let i = 0; i < setup.bodies; i++) {
      const [x, y, z, w] = quaternionOfEuler(rotations[3 * i]!, rotations[3 * i + 1]!, rotations[3 * i + 2]!);
      const body = RAPIER.RigidBodyDesc.dynamic()
        .setTranslation(positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!)
        .setRotation({ x, y, z, w });
      physics.add(body, RAPIER.ColliderDesc.cuboid(BOX_HALF, BOX_HALF, BOX_HALF));
    }
  },
});
