// @steadyframe/three/webgpu on three.js's WebGPURenderer, on a real WebGPU device (Dawn's SwiftShader adapter
// here) and on its WebGL 2 backend: the TSL blend draws each instance where the runtime's own interpolation puts
// it, read back in pixels.
// The same checks as the WebGL path's (../browser/gpu-path.test.ts), against the same motion fixture.
import { afterEach, describe, expect, it } from 'vitest';
import { AmbientLight, DirectionalLight, Mesh, MeshBasicMaterial, PlaneGeometry, SphereGeometry } from 'three';
import { MeshBasicNodeMaterial, MeshStandardNodeMaterial } from 'three/webgpu';
import { positionLocal, vec3 } from 'three/tsl';
import { createInterpolatedInstancedMesh } from '@steadyframe/three/webgpu';
import { motionAt } from '../browser/fixtures/schema.ts';
import { ARM, expectDrawnLike, expectNear, frameCentre, markerCentre, markerGeometry, motionRuntime, steps, timeAt, type Marker, type MotionFrame, type MotionRuntime } from '../browser/helpers.ts';
import { createWebGpuStage } from './stage.ts';

/** World units (1/16 of a unit is a pixel): a wrong alpha or angle misses by far more. */
const TOLERANCE = 0.05;

let runtime: MotionRuntime | undefined;
let stage: Awaited<ReturnType<typeof createWebGpuStage>> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

/** Where the motion puts entity i's marker at (fractional) tick k, moved `dx` along x. */
function motionCentre(i: number, k: number, dx = 0): [number, number] {
  const m = motionAt(i, k);
  return markerCentre(m.x + dx, m.y, m.angle, m.scale);
}

const white = () => new MeshBasicNodeMaterial({ color: 0xffffff });

/**
 * Both of WebGPURenderer's backends: WebGPU (storage buffers in the vertex stage) and its WebGL 2 fallback (the
 * node reads instanced attributes there: `forceWebGL`, as on a machine without a WebGPU adapter).
 */
const BACKENDS = [
  { backend: 'WebGPU', forceWebGL: false },
  { backend: 'WebGL 2', forceWebGL: true },
] as const;
const TRANSFORM = { position: 'position', rotation: 'rotation', scale: 'scale' } as const;

describe.each(BACKENDS)('WebGPURenderer on its $backend backend', ({ forceWebGL }) => {
  describe.each([
    { rotation: 'rotation', kind: 'quaternion' },
    { rotation: 'heading', kind: 'angle' },
  ] as const)('WebGPURenderer, rotation from a $kind field', ({ rotation, kind }) => {
    it('draws each instance where runtime.sample puts it, at every alpha, copying the state once', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3);
      stage = await createWebGpuStage(undefined, { forceWebGL });
      expect(stage.backend).toBe(forceWebGL ? 'webgl2' : 'webgpu');
      if (!forceWebGL) expect(stage.adapter().vendor).not.toBe(''); // a WebGPU adapter drew this, not the WebGL 2 fallback
      const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), { position: 'position', rotation, scale: 'scale' });
      stage.add(gpu.mesh);
      for (const alpha of [0, 0.25, 0.5, 0.8, 1]) {
        const time = timeAt(runtime, alpha);
        expect(gpu.update(time)).toBe(true);
        const frame = runtime.sample(time);
        expect(gpu.alpha).toBe(frame.alpha);
        expect(gpu.alpha).toBeCloseTo(alpha, 9);
        expect(gpu.count).toBe(3);
        const drawn = await stage.markers(3);
        expectDrawnLike(frame, drawn, `alpha ${alpha}`);
        // the pair is ticks 2 and 3
        for (let i = 0; i < 3; i++) expectNear(drawn[i]!, motionCentre(i, 2 + alpha), TOLERANCE, `alpha ${alpha}, entity ${i} vs the motion`);
      }
      // the pair never changed: one upload, then only the alpha uniform moved
      expect(gpu.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, late: 0, extrapolated: 0, overtaken: 0, directUploads: 0, generationUploads: 0 });
    });

    it('holds a late frame, carries it on under whenLate: extrapolate, draws an overtaken one at the previous state', async () => {
      runtime = await motionRuntime();
      await steps(runtime, 3);
      stage = await createWebGpuStage(undefined, { forceWebGL });
      const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), { position: 'position', rotation, scale: 'scale' });
      stage.add(gpu.mesh);

      const late = timeAt(runtime, 1.5);
      gpu.update(late);
      expect(gpu.alpha).toBe(1);
      let drawn = await stage.markers(3);
      expectDrawnLike(runtime.sample(late), drawn, 'late, held');
      for (let i = 0; i < 3; i++) expectNear(drawn[i]!, motionCentre(i, 3), TOLERANCE, `late, held: entity ${i} at tick 3`);

      runtime.setInterpolation({ whenLate: 'extrapolate', maxPrediction: 1 });
      gpu.update(late);
      expect(gpu.alpha).toBeCloseTo(1.5, 9);
      drawn = await stage.markers(3);
      expectDrawnLike(runtime.sample(late), drawn, 'late, carried on');
      if (kind === 'angle') for (let i = 0; i < 3; i++) expectNear(drawn[i]!, motionCentre(i, 3.5), TOLERANCE, `late, carried on: entity ${i} at tick 3.5`);

      const overtaken = timeAt(runtime, -0.5);
      gpu.update(overtaken);
      expect(gpu.alpha).toBe(0);
      drawn = await stage.markers(3);
      expectDrawnLike(runtime.sample(overtaken), drawn, 'overtaken');
      for (let i = 0; i < 3; i++) expectNear(drawn[i]!, motionCentre(i, 2), TOLERANCE, `overtaken: entity ${i} at tick 2`);
      expect(gpu.stats).toMatchObject({ fullUploads: 1, swaps: 0, late: 2, extrapolated: 1, overtaken: 1 });
    });
  });

  it('after one publish reuses the uploaded state as the previous one (the flip), after two copies both', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), TRANSFORM);
    stage.add(gpu.mesh);
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

    // two swaps without a render in between: both halves' ranges go up at the next render
    await steps(runtime, 1);
    gpu.update(timeAt(runtime, 0.1));
    await steps(runtime, 1);
    time = timeAt(runtime, 0.6);
    gpu.update(time);
    expect(gpu.stats).toMatchObject({ fullUploads: 2, swaps: 3 });
    const frame = runtime.sample(time);
    expect(frame.previousTick).toBe(6);
    expectDrawnLike(frame, await stage.markers(3), 'after two swaps between renders');
    // on WebGPU, every upload once three.js had sent what was marked before (the third on) went straight from the
    // shared memory into its buffers; on WebGL 2, all through the arrays
    expect(gpu.stats.directUploads).toBe(forceWebGL ? 0 : 3);
  });

  it('draws right in a second renderer after the first took states straight from the shared memory', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), TRANSFORM);
    stage.add(gpu.mesh);
    for (let tick = 0; tick < 3; tick++) {
      await steps(runtime, 1);
      gpu.update(timeAt(runtime, 0.5));
      await stage.render();
    }
    expect(gpu.stats.directUploads).toBe(forceWebGL ? 0 : 1);
    // a second renderer makes its buffers from the arrays, which the direct writes never filled: the mesh uploads
    // both states through them again
    const second = await createWebGpuStage(undefined, { forceWebGL });
    try {
      second.add(gpu.mesh);
      await steps(runtime, 1);
      const time = timeAt(runtime, 0.4);
      gpu.update(time);
      expectDrawnLike(runtime.sample(time), await second.markers(3), 'in the second renderer');
      await steps(runtime, 1);
      const next = timeAt(runtime, 0.6);
      gpu.update(next);
      expectDrawnLike(runtime.sample(next), await second.markers(3), 'in the second renderer, a tick on');
      // the update before the second renderer's first render still went straight into the first one's buffers;
      // none since
      expect(gpu.stats.directUploads).toBe(forceWebGL ? 0 : 2);
    } finally {
      second.dispose();
    }
  });

  it('draws a teleported and a spawned entity at their new state, not in between', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 2);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), white(), TRANSFORM);
    stage.add(gpu.mesh);
    gpu.update(timeAt(runtime, 0.5));

    await runtime.commands.teleport(1, 5); // 5 units right on the next tick, marked to snap
    await runtime.commands.setCount(4); // entity 3 is new on the next tick
    await steps(runtime, 1); // the pair is ticks 2 and 3
    const time = timeAt(runtime, 0.5);
    gpu.update(time);
    const frame = runtime.sample(time);
    expect(frame.snapped).toBe(2);
    expect(gpu.count).toBe(4);
    const drawn = await stage.markers(4);
    expectDrawnLike(frame, drawn, 'snap tick');
    expectNear(drawn[0]!, motionCentre(0, 2.5), TOLERANCE, 'entity 0 blends');
    expectNear(drawn[1]!, motionCentre(1, 3, 5), TOLERANCE, 'the teleported entity 1 is at its new place');
    expectNear(drawn[3]!, motionCentre(3, 3), TOLERANCE, 'the spawned entity 3 is at its first state');
    expect(Math.abs(drawn[1]!.x - motionCentre(1, 2.5, 2.5)[0])).toBeGreaterThan(1);

    await steps(runtime, 1);
    const next = timeAt(runtime, 0.5);
    gpu.update(next);
    expect(gpu.stats).toMatchObject({ fullUploads: 1, swaps: 2, generationUploads: 2 });
    const after = await stage.markers(4);
    expectNear(after[1]!, motionCentre(1, 3.5, 5), TOLERANCE, 'entity 1 blends again');
    expectDrawnLike(runtime.sample(next), after, 'the tick after');
  });

  it('lights a MeshStandardNodeMaterial as WebGPURenderer lights the same transform on a plain Mesh (normals turn)', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 3);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    const light = new DirectionalLight(0xffffff, 2.5);
    light.position.set(1, 2, 1.5);
    stage.add(light);
    stage.add(new AmbientLight(0xffffff, 0.2));
    const ball = () => new SphereGeometry(0.5, 24, 16).translate(ARM, 0, 0);
    const standard = () => new MeshStandardNodeMaterial({ color: 0xff0000, roughness: 0.6, metalness: 0 });
    const gpu = createInterpolatedInstancedMesh(runtime, ball(), standard(), TRANSFORM);
    const time = timeAt(runtime, 0.4);
    gpu.update(time);
    stage.add(gpu.mesh);
    const instanced = await stage.markers(3);

    stage.scene.remove(gpu.mesh);
    const { position, rotation, scale } = runtime.sample(time).fields;
    for (let i = 0; i < 3; i++) {
      const mesh = new Mesh(ball(), standard());
      mesh.position.fromArray(position, 3 * i);
      mesh.quaternion.fromArray(rotation, 4 * i);
      mesh.scale.setScalar(scale[i]!);
      stage.add(mesh);
    }
    const plain = await stage.markers(3);
    for (let i = 0; i < 3; i++) {
      const a = instanced[i]!;
      const b = plain[i]!;
      expect(a, `entity ${i} drawn`).not.toBeNull();
      expect(a.red).toBeGreaterThan(40);
      expect(Math.abs(a.red - b.red), `entity ${i} mean red ${a.red} vs ${b.red}`).toBeLessThan(2);
      expect(Math.abs(a.pixels - b.pixels) / b.pixels).toBeLessThan(0.02);
      expect(Math.hypot(a.redX - b.redX, a.redY - b.redY), `entity ${i} highlight`).toBeLessThan(0.02);
    }
  });

  it('casts the shadows plain meshes at the same transforms cast: the shadow pass places each instance too', async () => {
    runtime = await motionRuntime();
    await steps(runtime, 3);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    stage.renderer.shadowMap.enabled = true;
    const light = new DirectionalLight(0xffffff, 2);
    light.position.set(-4, 3, 10); // from the front, up and left: each ball's shadow falls right of it and lower
    light.target.position.set(0, 0, 0);
    light.castShadow = true;
    Object.assign(light.shadow.camera, { left: -12, right: 30, bottom: -12, top: 22, near: 0.5, far: 40 });
    light.shadow.mapSize.set(1024, 1024);
    stage.add(light);
    stage.add(light.target);
    stage.add(new AmbientLight(0xffffff, 0.3));
    const wall = new Mesh(new PlaneGeometry(60, 60), new MeshStandardNodeMaterial({ color: 0xffffff, roughness: 1, metalness: 0 }));
    wall.position.z = -1.5;
    wall.receiveShadow = true;
    stage.add(wall);
    const ball = () => new SphereGeometry(0.5, 24, 16).translate(ARM, 0, 0);
    const green = () => new MeshStandardNodeMaterial({ color: 0x00ff00, roughness: 1, metalness: 0 });
    const gpu = createInterpolatedInstancedMesh(runtime, ball(), green(), TRANSFORM);
    gpu.mesh.castShadow = true;
    const time = timeAt(runtime, 0.4);
    gpu.update(time);
    stage.add(gpu.mesh);
    const instanced = (await stage.render()).slice();

    stage.scene.remove(gpu.mesh);
    const { position, rotation, scale } = runtime.sample(time).fields;
    const plain: Mesh[] = [];
    for (let i = 0; i < 3; i++) {
      const mesh = new Mesh(ball(), green());
      mesh.position.fromArray(position, 3 * i);
      mesh.quaternion.fromArray(rotation, 4 * i);
      mesh.scale.setScalar(scale[i]!);
      mesh.castShadow = true;
      plain.push(mesh);
      stage.add(mesh);
    }
    const cast = (await stage.render()).slice();
    for (const mesh of plain) mesh.castShadow = false;
    const uncast = (await stage.render()).slice();
    /** Pixels whose red differs by more than 24 between two pictures (the wall is white, the balls green). */
    const differing = (a: Uint8Array, b: Uint8Array) => {
      let n = 0;
      for (let p = 0; p < a.length; p += 4) if (Math.abs(a[p]! - b[p]!) > 24) n++;
      return n;
    };
    const shadowed = differing(cast, uncast);
    expect(shadowed, 'the plain balls cast shadows on the wall').toBeGreaterThan(200);
    expect(differing(instanced, cast), `instanced vs plain shadows (${shadowed} shadowed pixels)`).toBeLessThan(shadowed * 0.05);
  });

  it("places the material's own positionNode, and gives it back on dispose", async () => {
    runtime = await motionRuntime();
    await steps(runtime, 3);
    stage = await createWebGpuStage(undefined, { forceWebGL });
    const material = white();
    // the marker moved half a unit up in the entity's own frame, by the material rather than the geometry
    const own = positionLocal.add(vec3(0, 0.5, 0));
    material.positionNode = own;
    const gpu = createInterpolatedInstancedMesh(runtime, markerGeometry(), material, { position: 'position', scale: 'scale' });
    stage.add(gpu.mesh);
    const time = timeAt(runtime, 0.5);
    gpu.update(time);
    const drawn = await stage.markers(3);
    const { position, scale } = runtime.sample(time).fields;
    for (let i = 0; i < 3; i++) {
      const s = scale[i]!;
      expectNear(drawn[i]!, [position[3 * i]! + s * ARM, position[3 * i + 1]! + s * 0.5], TOLERANCE, `entity ${i}, the material's offset scaled with it`);
    }
    gpu.dispose();
    expect(material.positionNode).toBe(own);
    // free for a new interpolated mesh (a React remount)
    stage.scene.remove(gpu.mesh);
    const again = createInterpolatedInstancedMesh(runtime, markerGeometry(), material, { position: 'position', scale: 'scale' });
    stage.add(again.mesh);
    again.update(time);
    expect((await stage.markers(3)).every((m) => m !== null)).toBe(true);
  });

  it('refuses, at set-up, a classic material, a material that draws another interpolated mesh, a field that does not fit', async () => {
    runtime = await motionRuntime();
    // @ts-expect-error: a classic material is not a node material
    expect(() => createInterpolatedInstancedMesh(runtime!, markerGeometry(), new MeshBasicMaterial(), TRANSFORM)).toThrow(/must be a node material/);
    const material = white();
    createInterpolatedInstancedMesh(runtime, markerGeometry(), material, TRANSFORM);
    expect(() => createInterpolatedInstancedMesh(runtime!, markerGeometry(), material, TRANSFORM)).toThrow(/already draws another interpolated mesh/);
    // @ts-expect-error: 'rotation' is a quaternion field, not a linear one
    expect(() => createInterpolatedInstancedMesh(runtime!, markerGeometry(), white(), { position: 'rotation' })).toThrow(/fields.position "rotation" must be a linear field/);
  });
});
