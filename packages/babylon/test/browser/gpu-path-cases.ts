/**
 * The GPU path's checks, run on Babylon's WebGL 2 engine (browser/gpu-path.test.ts, GLSL) and on its WebGPU
 * engine (browser-webgpu/gpu-path.test.ts, WGSL): pixels read back at several alphas against the runtime's own
 * `sample` and the fixture's analytic motion; late and overtaken frames; swaps; snaps (generations, spawns).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ShaderLanguage } from '@babylonjs/core/Materials/shaderLanguage.js';
import { createInterpolatedThinInstances } from '@steadyframe/babylon';
import { motionAt } from '../../../three/test/browser/fixtures/schema.ts';
import { expectDrawnLike, expectNear, markerCentre, motionRuntime, steps, timeAt, type MotionRuntime } from '../../../three/test/browser/motion-helpers.ts';
import { createStage, markerMesh, type EngineKind } from './stage.ts';

/** World units (1/16 of a unit is a pixel): a wrong alpha or angle misses by far more. */
const TOLERANCE = 0.05;

const at = (i: number, k: number, dx = 0): [number, number] => {
  const m = motionAt(i, k);
  return markerCentre(m.x + dx, m.y, m.angle, m.scale);
};

export function gpuPathCases(kind: EngineKind): void {
  let runtime: MotionRuntime | undefined;
  let stage: Awaited<ReturnType<typeof createStage>> | undefined;
  afterEach(() => {
    stage?.dispose();
    runtime?.dispose();
    stage = undefined;
    runtime = undefined;
  });

  describe.each([
    { rotation: 'rotation', kind: 'quaternion' },
    { rotation: 'heading', kind: 'angle' },
  ] as const)('thin instances, rotation from a $kind field', ({ rotation }) => {
    it('draws each instance where runtime.sample puts it, at every alpha, uploading the pair once', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3);
      stage = await createStage(kind);
      const mesh = markerMesh(stage.scene);
      const gpu = createInterpolatedThinInstances(runtime, mesh, { position: 'position', rotation, scale: 'scale' });
      // the engine asked for, and its own shader language for the material (WGSL on WebGPU: no GLSL conversion)
      expect(stage.engine.isWebGPU).toBe(kind === 'webgpu');
      expect(mesh.material!.shaderLanguage).toBe(kind === 'webgpu' ? ShaderLanguage.WGSL : ShaderLanguage.GLSL);
      for (const alpha of [0, 0.25, 0.5, 0.8, 1]) {
        const time = timeAt(runtime, alpha);
        expect(gpu.update(time)).toBe(true);
        const frame = runtime.sample(time);
        expect(gpu.alpha).toBe(frame.alpha);
        expect(gpu.alpha).toBeCloseTo(alpha, 9);
        expect(gpu.count).toBe(3);
        const drawn = await stage.markers(3);
        expectDrawnLike(frame, drawn, `alpha ${alpha}`);
        for (let i = 0; i < 3; i++) expectNear(drawn[i]!, at(i, 2 + alpha), TOLERANCE, `alpha ${alpha}, entity ${i} vs the motion`);
      }
      // the pair never changed: one upload, then only the alpha moved; no snaps in it: no generations
      expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, late: 0, extrapolated: 0, overtaken: 0, generationUploads: 0 });
    });

    it('holds a late frame, carries it on under whenLate: extrapolate, draws an overtaken one at the previous state', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3); // the pair is ticks 2 and 3
      stage = await createStage(kind);
      const gpu = createInterpolatedThinInstances(runtime, markerMesh(stage.scene), { position: 'position', rotation, scale: 'scale' });
      const late = timeAt(runtime, 1.5);
      gpu.update(late);
      let frame = runtime.sample(late);
      expect(frame.late).toBe(true);
      expect(gpu.alpha).toBe(1);
      let drawn = await stage.markers(3);
      expectDrawnLike(frame, drawn, 'late, held');
      for (let i = 0; i < 3; i++) expectNear(drawn[i]!, at(i, 3), TOLERANCE, `late, held: entity ${i} at tick 3`);

      runtime.setInterpolation({ whenLate: 'extrapolate', maxPrediction: 1 });
      gpu.update(late);
      frame = runtime.sample(late);
      expect(gpu.alpha).toBe(frame.alpha);
      expect(gpu.alpha).toBeCloseTo(1.5, 9);
      expectDrawnLike(frame, await stage.markers(3), 'late, carried on');

      const overtaken = timeAt(runtime, -0.5);
      gpu.update(overtaken);
      frame = runtime.sample(overtaken);
      expect(frame.overtaken).toBe(true);
      expect(gpu.alpha).toBe(0);
      drawn = await stage.markers(3);
      expectDrawnLike(frame, drawn, 'overtaken');
      for (let i = 0; i < 3; i++) expectNear(drawn[i]!, at(i, 2), TOLERANCE, `overtaken: entity ${i} at tick 2`);
      expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, late: 2, extrapolated: 1, overtaken: 1, generationUploads: 0 });
    });
  });

  it('after one publish reuses the uploaded state as the previous one (the flip), after two uploads both', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = await createStage(kind);
    const gpu = createInterpolatedThinInstances(runtime, markerMesh(stage.scene), { position: 'position', rotation: 'rotation', scale: 'scale' });
    gpu.update(timeAt(runtime, 0.5));
    await stage.render();

    await steps(runtime, 1);
    let time = timeAt(runtime, 0.3);
    gpu.update(time);
    expect(gpu.stats).toMatchObject({ fullUploads: 1, swaps: 1 });
    expectDrawnLike(runtime.sample(time), await stage.markers(3), 'after a swap');

    await steps(runtime, 2);
    time = timeAt(runtime, 0.7);
    gpu.update(time);
    expect(gpu.stats).toMatchObject({ fullUploads: 2, swaps: 1 });
    expectDrawnLike(runtime.sample(time), await stage.markers(3), 'after two publishes');

    // two swaps without a render between them: the flip is back where it was, the bytes are the newest
    await steps(runtime, 1);
    gpu.update(timeAt(runtime, 0.1));
    await steps(runtime, 1);
    time = timeAt(runtime, 0.6);
    gpu.update(time);
    expect(gpu.stats).toMatchObject({ fullUploads: 2, swaps: 3 });
    const frame = runtime.sample(time);
    expect(frame.previousTick).toBe(6);
    expectDrawnLike(frame, await stage.markers(3), 'after two swaps between renders');
  });

  it('draws a teleported and a spawned entity at their new state, not in between', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = await createStage(kind);
    const gpu = createInterpolatedThinInstances(runtime, markerMesh(stage.scene), { position: 'position', rotation: 'rotation', scale: 'scale' });
    gpu.update(timeAt(runtime, 0.5));

    await runtime.commands.teleport(1, 5); // 5 units right on the next tick, marked to snap (a new generation)
    await runtime.commands.setCount(4); // entity 3 is new on the next tick
    await steps(runtime, 1);
    const time = timeAt(runtime, 0.5);
    gpu.update(time);
    const frame = runtime.sample(time);
    expect(frame.snapped).toBe(2);
    expect(gpu.count).toBe(4);
    const drawn = await stage.markers(4);
    expectDrawnLike(frame, drawn, 'snap tick');
    expectNear(drawn[0]!, at(0, 2.5), TOLERANCE, 'entity 0 blends');
    expectNear(drawn[1]!, at(1, 3, 5), TOLERANCE, 'the teleported entity 1 is at its new place');
    expectNear(drawn[3]!, at(3, 3), TOLERANCE, 'the spawned entity 3 is at its first state');
    expect(Math.abs(drawn[1]!.x - at(1, 2.5, 2.5)[0])).toBeGreaterThan(1);

    // the next tick (no snaps marked) blends them all again
    await steps(runtime, 1);
    const next = timeAt(runtime, 0.5);
    gpu.update(next);
    expect(gpu.stats).toMatchObject({ fullUploads: 1, swaps: 2, generationUploads: 2 });
    const after = await stage.markers(4);
    expectNear(after[1]!, at(1, 3.5, 5), TOLERANCE, 'entity 1 blends again');
    expectNear(after[3]!, at(3, 3.5), TOLERANCE, 'entity 3 blends again');
  });

  it("keeps the mesh's material working: the same material on a plain mesh draws it where Babylon puts it", async () => {
    runtime = await motionRuntime();
    await steps(runtime, 3);
    stage = await createStage(kind);
    const blended = markerMesh(stage.scene, 'blended');
    const gpu = createInterpolatedThinInstances(runtime, blended, { position: 'position', rotation: 'rotation', scale: 'scale' });
    gpu.update(timeAt(runtime, 0.5));
    const plain = markerMesh(stage.scene, 'plain');
    plain.material = blended.material; // one material: a blended mesh and an ordinary one
    plain.position.set(4, 3 * 4, 0); // row 3, where no entity is
    const drawn = await stage.markers(4);
    for (let i = 0; i < 3; i++) expectNear(drawn[i]!, at(i, 2.5), TOLERANCE, `entity ${i}`);
    expectNear(drawn[3]!, [4 + 1, 12], TOLERANCE, 'the plain mesh, at its own place');
    // and once disposed, the blended mesh draws as itself again (at its origin, row 0)
    gpu.dispose();
    expect(blended.thinInstanceCount).toBe(0);
  });
}
