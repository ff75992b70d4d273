// The CPU path: one Babylon mesh per entity, moved by the runtime's own interpolated Frame (bindMeshes).
import { afterEach, expect, it } from 'vitest';
import { bindMeshes } from '@steadyframe/babylon';
import { expectDrawnLike, steps, timeAt, motionRuntime, type MotionRuntime } from '../../../three/test/browser/motion-helpers.ts';
import { createStage, markerMesh } from './stage.ts';

let runtime: MotionRuntime | undefined;
let stage: Awaited<ReturnType<typeof createStage>> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

it('moves one mesh per entity to the frame, at every alpha, and disables those without a live entity', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  stage = await createStage('webgl');
  const meshes = [0, 1, 2, 3].map((i) => markerMesh(stage!.scene, `entity ${i}`));
  const binding = bindMeshes(runtime, meshes, { position: 'position', rotation: 'rotation', scale: 'scale' });
  for (const alpha of [0, 0.3, 0.7, 1]) {
    const frame = runtime.sample(timeAt(runtime, alpha));
    binding.update(frame);
    expectDrawnLike(frame, await stage.markers(3), `alpha ${alpha}`);
  }
  // three live entities: the fourth mesh has none and is off
  expect(meshes.map((m) => m.isEnabled())).toEqual([true, true, true, false]);
  expect(meshes[0]!.rotationQuaternion).not.toBeNull();
});

it('moves the meshes named by entities, from an angle field', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  stage = await createStage('webgl');
  const meshes = [markerMesh(stage.scene, 'a'), markerMesh(stage.scene, 'b')];
  // mesh 0 shows entity 2, mesh 1 entity 0: the drawn rows say which
  const binding = bindMeshes(runtime, meshes, { position: 'position', rotation: 'heading', scale: 'scale' }, [2, 0]);
  const frame = runtime.sample(timeAt(runtime, 0.4));
  binding.update(frame);
  const drawn = await stage.markers(3);
  expect(drawn[1]).toBeNull();
  expectDrawnLike({ ...frame, count: 1 } as typeof frame, drawn, 'entity 0');
  expect(drawn[2]).not.toBeNull();
  expect(() => bindMeshes(runtime!, meshes, { position: 'position' }, [0])).toThrow(/2 nodes and 1 entities/);
});
