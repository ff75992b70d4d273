import { afterEach, describe, expect, it } from 'vitest';
import { AmbientLight, DirectionalLight, Mesh, MeshBasicMaterial, MeshStandardMaterial, SphereGeometry, type Material } from 'three';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { countOf, currentTimeOf, previousCountOf, previousTickOf, previousTimeOf, tickOf } from 'steadyframe/adapter';
import { motionAt } from './fixtures/schema.ts';
import {
  ARM,
  createStage,
  expectDrawnLike,
  expectNear,
  frameCentre,
  markerCentre,
  markerGeometry,
  motionRuntime,
  steps,
  timeAt,
  type MotionFrame,
  type MotionRuntime,
} from './helpers.ts';

/** World units (1/16 of a unit is a pixel): a wrong alpha or angle misses by far more. */
const TOLERANCE = 0.05;

let runtime: MotionRuntime | undefined;
let stage: ReturnType<typeof createStage> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

function white(): MeshBasicMaterial {
  return new MeshBasicMaterial({ color: 0xffffff });
}

// every test of the uploads runs both ways: straight from the shared memory (the renderer given) and copied
describe.each(['direct', 'copy'] as const)('uploads %s', (upload) => {
  const direct = upload === 'direct';
  /** The mesh, given the stage's renderer for the direct uploads. */
  const gpuMesh: typeof createInterpolatedInstancedMesh = (rt, geometry, material, fields) =>
    createInterpolatedInstancedMesh(rt, geometry, material, fields, direct ? { renderer: stage!.renderer } : {});

  describe.each([
    { rotation: 'rotation', kind: 'quaternion' },
    { rotation: 'heading', kind: 'angle' },
  ] as const)('GPU path, rotation from a $kind field', ({ rotation }) => {
    it('draws each instance where runtime.sample puts it, at every alpha, copying the state once', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3);
      stage = createStage();
      const gpu = gpuMesh(runtime, markerGeometry(), white(), { position: 'position', rotation, scale: 'scale' });
      stage.add(gpu.mesh);
      for (const alpha of [0, 0.25, 0.5, 0.8, 1]) {
        const time = timeAt(runtime, alpha);
        expect(gpu.update(time)).toBe(true);
        const frame = runtime.sample(time);
        expect(gpu.alpha).toBe(frame.alpha);
        expect(gpu.alpha).toBeCloseTo(alpha, 9);
        expect(gpu.count).toBe(3);
        const drawn = stage.markers(3);
        expectDrawnLike(frame, drawn, `alpha ${alpha}`);
        for (let i = 0; i < 3; i++) {
          const m = motionAt(i, 2 + alpha); // the pair is ticks 2 and 3
          expectNear(drawn[i]!, markerCentre(m.x, m.y, m.angle, m.scale), TOLERANCE, `alpha ${alpha}, entity ${i} vs the motion`);
        }
      }
      // the pair never changed: one upload, then only the alpha uniform moved; no snaps in it: no generations
      expect(gpu.stats.generationUploads).toBe(0);
      expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 1 + 0 : 0, generationUploads: expect.any(Number) });
    });
  });

  describe.each([
    { rotation: 'rotation', kind: 'quaternion' },
    { rotation: 'heading', kind: 'angle' },
  ] as const)('GPU path, late and overtaken frames, rotation from a $kind field', ({ rotation, kind }) => {
    it('holds a late frame, carries it on under whenLate: extrapolate, draws an overtaken one at the previous state, as runtime.sample does', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3); // the pair is ticks 2 and 3
      stage = createStage();
      const gpu = gpuMesh(runtime, markerGeometry(), white(), { position: 'position', rotation, scale: 'scale' });
      stage.add(gpu.mesh);
      const motion = (k: number) =>
        [0, 1, 2].map((i) => {
          const m = motionAt(i, k);
          return markerCentre(m.x, m.y, m.angle, m.scale);
        });

      // half a tick past the newest state: held there (the default whenLate)
      const late = timeAt(runtime, 1.5);
      gpu.update(late);
      let frame = runtime.sample(late);
      expect(frame.late).toBe(true);
      expect(gpu.alpha).toBe(1);
      let drawn = stage.markers(3);
      expectDrawnLike(frame, drawn, 'late, held');
      motion(3).forEach((m, i) => expectNear(drawn[i]!, m, TOLERANCE, `late, held: entity ${i} at tick 3`));

      // the same frame carried on: the shader's blend past alpha 1 is the runtime's
      runtime.setInterpolation({ whenLate: 'extrapolate', maxPrediction: 1 });
      gpu.update(late);
      frame = runtime.sample(late);
      expect(frame.alpha).toBeCloseTo(1.5, 9);
      expect(gpu.alpha).toBe(frame.alpha);
      drawn = stage.markers(3);
      expectDrawnLike(frame, drawn, 'late, carried on');
      // the motion is linear in ticks (an angle carried on the short way is exact; nlerp carried on is close)
      if (kind === 'angle') motion(3.5).forEach((m, i) => expectNear(drawn[i]!, m, TOLERANCE, `late, carried on: entity ${i} at tick 3.5`));
      // and far past it, at most maxPrediction (1) tick on
      const farLate = timeAt(runtime, 5);
      gpu.update(farLate);
      expect(gpu.alpha).toBe(2);
      expectDrawnLike(runtime.sample(farLate), stage.markers(3), 'late, carried on at most maxPrediction');

      // half a tick before the previous state (the worker published past the frame): the previous state
      const overtaken = timeAt(runtime, -0.5);
      gpu.update(overtaken);
      frame = runtime.sample(overtaken);
      expect(frame.overtaken).toBe(true);
      expect(gpu.alpha).toBe(0);
      drawn = stage.markers(3);
      expectDrawnLike(frame, drawn, 'overtaken');
      motion(2).forEach((m, i) => expectNear(drawn[i]!, m, TOLERANCE, `overtaken: entity ${i} at tick 2`));

      // each counted, as the runtime counts its own; the pair was uploaded once
      expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, late: 3, extrapolated: 2, overtaken: 1, directUploads: direct ? 1 + 0 : 0, generationUploads: expect.any(Number) });
    });
  });

  it('after one publish reuses the uploaded state as the previous one, after two copies both', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = createStage();
    const gpu = gpuMesh(runtime, markerGeometry(), white(), { position: 'position', rotation: 'rotation', scale: 'scale' });
    stage.add(gpu.mesh);
    gpu.update(timeAt(runtime, 0.5));
    stage.render();

    await steps(runtime, 1);
    let time = timeAt(runtime, 0.3);
    gpu.update(time);
    expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 1, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 1 + 1 : 0, generationUploads: expect.any(Number) });
    expectDrawnLike(runtime.sample(time), stage.markers(3), 'after a swap');

    await steps(runtime, 2);
    time = timeAt(runtime, 0.7);
    gpu.update(time);
    expect(gpu.stats).toEqual({ fullUploads: 2, swaps: 1, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 2 + 1 : 0, generationUploads: expect.any(Number) });
    expectDrawnLike(runtime.sample(time), stage.markers(3), 'after two publishes');

    // a swap right after, without a render in between, still uploads the right bytes
    await steps(runtime, 1);
    gpu.update(timeAt(runtime, 0.1));
    await steps(runtime, 1);
    time = timeAt(runtime, 0.6);
    gpu.update(time);
    expect(gpu.stats).toEqual({ fullUploads: 2, swaps: 3, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 2 + 3 : 0, generationUploads: expect.any(Number) });
    const frame = runtime.sample(time);
    expect(frame.previousTick).toBe(6);
    expectDrawnLike(frame, stage.markers(3), 'after two swaps between renders');
  });

  it('draws a teleported and a spawned entity at their new state, not in between', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = createStage();
    const gpu = gpuMesh(runtime, markerGeometry(), white(), { position: 'position', rotation: 'rotation', scale: 'scale' });
    stage.add(gpu.mesh);
    gpu.update(timeAt(runtime, 0.5));

    await runtime.commands.teleport(1, 5); // 5 units right on the next tick, marked to snap
    await runtime.commands.setCount(4); // entity 3 is new on the next tick
    await steps(runtime, 1); // the pair is ticks 2 and 3
    const time = timeAt(runtime, 0.5);
    gpu.update(time);
    const frame = runtime.sample(time);
    expect(frame.snapped).toBe(2); // the runtime snaps the same two
    expect(gpu.count).toBe(4);
    const drawn = stage.markers(4);
    expectDrawnLike(frame, drawn, 'snap tick');
    const at = (i: number, k: number, dx = 0) => {
      const m = motionAt(i, k);
      return markerCentre(m.x + dx, m.y, m.angle, m.scale);
    };
    expectNear(drawn[0]!, at(0, 2.5), TOLERANCE, 'entity 0 blends');
    expectNear(drawn[1]!, at(1, 3, 5), TOLERANCE, 'the teleported entity 1 is at its new place');
    expectNear(drawn[2]!, at(2, 2.5), TOLERANCE, 'entity 2 blends');
    expectNear(drawn[3]!, at(3, 3), TOLERANCE, 'the spawned entity 3 is at its first state');
    // the teleport is 2.5 units from where a blend would have drawn it
    expect(Math.abs(drawn[1]!.x - at(1, 2.5, 2.5)[0])).toBeGreaterThan(1);

    // the next tick blends them all again (each step was one publish on: the swap path)
    await steps(runtime, 1);
    const next = timeAt(runtime, 0.5);
    gpu.update(next);
    expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 2, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 1 + 2 : 0, generationUploads: expect.any(Number) });
    // the teleport's tick marked snaps: its pair's generations went up (both states; none for the pairs without)
    expect(gpu.stats.generationUploads).toBe(2);
    const after = stage.markers(4);
    expectNear(after[1]!, at(1, 3.5, 5), TOLERANCE, 'entity 1 blends again');
    expectNear(after[3]!, at(3, 3.5), TOLERANCE, 'entity 3 blends again');
    expectDrawnLike(runtime.sample(next), after, 'the tick after');
  });

  it('draws entities that come back after the count fell at their new state: past the previous count nothing is compared', async () => {
    // the publish copies live entities only, and so does the upload: after 3 -> 1 -> 3 the previous attributes of
    // entities 1 and 2 hold an older tick, with the very generations they have now (a count change bumps none), so
    // only the previous count (sfPrevCount) can make them snap
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = createStage();
    const gpu = gpuMesh(runtime, markerGeometry(), white(), { position: 'position', rotation: 'rotation', scale: 'scale' });
    stage.add(gpu.mesh);
    gpu.update(timeAt(runtime, 0.5));
    await runtime.commands.setCount(1);
    await steps(runtime, 1); // tick 3: one entity
    gpu.update(timeAt(runtime, 0.5));
    expect(gpu.count).toBe(1);
    await runtime.commands.setCount(3);
    await steps(runtime, 1); // tick 4: entities 1 and 2 are back
    const time = timeAt(runtime, 0.5);
    gpu.update(time);
    expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 2, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: direct ? 1 + 2 : 0, generationUploads: expect.any(Number) });
    const frame = runtime.sample(time);
    expect(frame.snapped).toBe(2);
    const drawn = stage.markers(3);
    expectDrawnLike(frame, drawn, 'entities back after the count fell');
    const at = (i: number, k: number) => {
      const m = motionAt(i, k);
      return markerCentre(m.x, m.y, m.angle, m.scale);
    };
    expectNear(drawn[0]!, at(0, 3.5), TOLERANCE, 'entity 0 blends');
    expectNear(drawn[1]!, at(1, 4), TOLERANCE, 'entity 1, back, is at its new state');
    expectNear(drawn[2]!, at(2, 4), TOLERANCE, 'entity 2, back, is at its new state');
    // its previous attributes hold tick 1 (uploaded two swaps ago): a blend would have drawn it at tick 2.5's place
    expect(Math.hypot(drawn[1]!.x - at(1, 2.5)[0], drawn[1]!.y - at(1, 2.5)[1])).toBeGreaterThan(1);
  });
});

it('with the renderer given, makes new buffers when a lost context is restored and draws both states again', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  stage = createStage();
  const renderer = stage.renderer;
  const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), { position: 'position', rotation: 'rotation', scale: 'scale' }, { renderer });
  stage.add(gpu.mesh);
  gpu.update(timeAt(runtime, 0.5));
  expectDrawnLike(runtime.sample(timeAt(runtime, 0.5)), stage.markers(3), 'before the loss');
  const event = (type: string) =>
    Promise.race([
      new Promise<string>((resolve) => renderer.domElement.addEventListener(type, () => resolve(type), { once: true })),
      new Promise<string>((resolve) => setTimeout(() => resolve(`no ${type}`), 5000)),
    ]);
  const lost = event('webglcontextlost');
  renderer.forceContextLoss();
  expect(await lost).toBe('webglcontextlost');
  // Chromium allows the restore only once the lost event's dispatch is over (not in a microtask inside it)
  await new Promise((resolve) => setTimeout(resolve, 50));
  const restored = event('webglcontextrestored');
  renderer.forceContextRestore();
  expect(await restored).toBe('webglcontextrestored');
  await steps(runtime, 1);
  const time = timeAt(runtime, 0.4);
  expect(gpu.update(time)).toBe(true);
  expectDrawnLike(runtime.sample(time), stage.markers(3), 'after the restore');
  // the restore forgot what was on the GPU: both states went up again, straight from the shared memory
  expect(gpu.stats).toMatchObject({ fullUploads: 2, swaps: 0, directUploads: 2 });
});

it('lights a MeshStandardMaterial as three.js lights the same transform on a plain Mesh (normals turn with the instance)', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  stage = createStage();
  const light = new DirectionalLight(0xffffff, 2.5);
  light.position.set(1, 2, 1.5);
  stage.add(light);
  stage.add(new AmbientLight(0xffffff, 0.2));
  const ball = () => new SphereGeometry(0.5, 24, 16).translate(ARM, 0, 0);
  const standard = () => new MeshStandardMaterial({ color: 0xff0000, roughness: 0.6, metalness: 0 });
  const gpu = createInterpolatedInstancedMesh(runtime, ball(), standard(), { position: 'position', rotation: 'rotation', scale: 'scale' });
  const time = timeAt(runtime, 0.4);
  gpu.update(time);
  stage.add(gpu.mesh);
  const instanced = stage.markers(3);

  // the same frame drawn the ordinary way: one Mesh per entity, placed by three.js's own matrices
  stage.scene.remove(gpu.mesh);
  const frame = runtime.sample(time);
  const { position, rotation, scale } = frame.fields;
  for (let i = 0; i < 3; i++) {
    const mesh = new Mesh(ball(), standard());
    mesh.position.fromArray(position, 3 * i);
    mesh.quaternion.fromArray(rotation, 4 * i);
    mesh.scale.setScalar(scale[i]!);
    stage.add(mesh);
  }
  const plain = stage.markers(3);
  for (let i = 0; i < 3; i++) {
    const a = instanced[i]!;
    const b = plain[i]!;
    expect(a, `entity ${i} drawn`).not.toBeNull();
    expect(a.red).toBeGreaterThan(40); // lit, not black
    expect(Math.abs(a.red - b.red), `entity ${i} mean red ${a.red} vs ${b.red}`).toBeLessThan(2);
    expect(Math.abs(a.pixels - b.pixels) / b.pixels).toBeLessThan(0.02);
    // where the light falls on the ball: wrong normals would move the bright side
    expect(Math.hypot(a.redX - b.redX, a.redY - b.redY), `entity ${i} highlight`).toBeLessThan(0.02);
  }
});

it('reads the pair meta words the runtime reads (through the adapter entry\'s accessors)', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  await runtime.commands.setCount(5);
  await steps(runtime, 1);
  const frame = runtime.sample(Number.POSITIVE_INFINITY);
  const meta = runtime.reader.read((pair) => ({
    previousTick: previousTickOf(pair),
    tick: tickOf(pair),
    previousTime: previousTimeOf(pair),
    currentTime: currentTimeOf(pair),
    count: countOf(pair),
    previousCount: previousCountOf(pair),
  }));
  expect(meta).toEqual({
    previousTick: frame.previousTick,
    tick: frame.tick,
    previousTime: frame.previousTime,
    currentTime: frame.currentTime,
    count: 5,
    previousCount: 3,
  });
});

it('refuses, at set-up, a material that already draws another interpolated mesh, and a field that does not fit', async () => {
  runtime = await motionRuntime();
  const material: Material = white();
  createInterpolatedInstancedMesh(runtime, markerGeometry(), material, { position: 'position' });
  expect(() => createInterpolatedInstancedMesh(runtime!, markerGeometry(), material, { position: 'position' })).toThrow(
    /already draws another interpolated mesh/,
  );
  // @ts-expect-error: 'rotation' is a quaternion field, not a linear one
  expect(() => createInterpolatedInstancedMesh(runtime!, markerGeometry(), white(), { position: 'rotation' })).toThrow(
    /fields.position "rotation" must be a linear field of width 2 or 3/,
  );
});

it('gives the material its own hooks back on dispose, free for a new interpolated mesh (a React remount)', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const material = white();
  const ownHook = material.onBeforeCompile;
  const ownKey = material.customProgramCacheKey;
  const first = createInterpolatedInstancedMesh(runtime, markerGeometry(), material, { position: 'position', rotation: 'heading', scale: 'scale' });
  expect(material.onBeforeCompile).not.toBe(ownHook);
  first.dispose();
  expect([material.onBeforeCompile, material.customProgramCacheKey]).toEqual([ownHook, ownKey]);
  // made again on the same material: it draws, where it is
  stage = createStage();
  const again = createInterpolatedInstancedMesh(runtime, markerGeometry(), material, { position: 'position', rotation: 'heading', scale: 'scale' });
  stage.add(again.mesh);
  const time = timeAt(runtime, 0.5);
  expect(again.update(time)).toBe(true);
  expectDrawnLike(runtime.sample(time), stage.markers(again.count), 'remade on the same material');
});
