/** The GPU path on a page without cross-origin isolation: the runtime falls back to the message transport. */
import { afterEach, expect, it } from 'vitest';
import { MeshBasicMaterial } from 'three';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { motionAt } from '../browser/fixtures/schema.ts';
import { createStage, expectNear, frameCentre, markerCentre, markerGeometry, motionRuntime, timeAt, waitFor, type MotionRuntime } from '../browser/helpers.ts';

let runtime: MotionRuntime | undefined;
let stage: ReturnType<typeof createStage> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
});

/** stepOnce resolves when the worker has published; the state reaches this page in a message after that. */
async function step(rt: MotionRuntime): Promise<void> {
  const before = rt.reader.publishCount();
  await rt.stepOnce();
  await waitFor('the published state', () => rt.reader.publishCount() > before);
}

it('copies the transferred states and draws blends, swaps and snaps like the shared path', async () => {
  runtime = await motionRuntime();
  expect(runtime.transport).toBe('message');
  for (let k = 0; k < 2; k++) await step(runtime);
  stage = createStage();
  // the renderer given: the uploads go straight from the runtime's views (here plain memory, what came in messages)
  const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), new MeshBasicMaterial(), { position: 'position', rotation: 'rotation', scale: 'scale' }, { renderer: stage.renderer });
  stage.add(gpu.mesh);
  gpu.update(timeAt(runtime, 0.5));

  await runtime.commands.teleport(1, 5);
  await runtime.commands.setCount(4);
  await step(runtime);
  const time = timeAt(runtime, 0.5);
  gpu.update(time);
  // the teleport's tick marked snaps: its pair's generations went up too
  expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 1, misses: 0, directUploads: 2, generationUploads: 2, late: 0, extrapolated: 0, overtaken: 0 });
  const frame = runtime.sample(time);
  const drawn = stage.markers(4);
  for (let i = 0; i < 4; i++) expectNear(drawn[i]!, frameCentre(frame, i), 0.05, `entity ${i} vs runtime.sample`);
  const m = motionAt(1, 3);
  expectNear(drawn[1]!, markerCentre(m.x + 5, m.y, m.angle, m.scale), 0.05, 'the teleported entity at its new place');
});
