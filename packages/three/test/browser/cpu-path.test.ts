import { afterEach, expect, it } from 'vitest';
import { InstancedMesh, Matrix4, MeshBasicMaterial, Object3D, Quaternion, Vector3 } from 'three';
import { wrapAngle } from 'steadyframe/adapter';
import { bindInstancedMesh, bindObjects } from '@steadyframe/three';
import { motionAt } from './fixtures/schema.ts';
import {
  createStage,
  expectNear,
  frameCentre,
  markerGeometry,
  motionRuntime,
  steps,
  timeAt,
  waitFor,
  type MotionFrame,
  type MotionRuntime,
} from './helpers.ts';

let runtime: MotionRuntime | undefined;
let stage: ReturnType<typeof createStage> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});


const m4 = new Matrix4();
const p = new Vector3();
const q = new Quaternion();
const s = new Vector3();

/** Instance i's matrix, decomposed. */
function instance(mesh: InstancedMesh, i: number) {
  mesh.getMatrixAt(i, m4);
  m4.decompose(p, q, s);
  return { position: p.toArray(), quaternion: q.toArray(), scale: s.toArray() };
}

/** The angle about +z of a quaternion that turns about +z only. */
const zAngle = (x: number[]) => 2 * Math.atan2(x[2]!, x[3]!);

/** Instance i decomposes to the frame's interpolated entity i, and to the analytic motion at the frame's tick. */
function expectInstanceLike(mesh: InstancedMesh, frame: MotionFrame, i: number, rotationFrom: 'rotation' | 'heading' = 'rotation', withScale = true): void {
  const got = instance(mesh, i);
  const { position, rotation, heading, scale } = frame.fields;
  for (let c = 0; c < 3; c++) expect(got.position[c]).toBeCloseTo(position[3 * i + c]!, 5);
  // q and -q are one rotation: compare by the angle they turn about +z
  const turned = rotationFrom === 'rotation' ? zAngle(Array.from(rotation.subarray(4 * i, 4 * i + 4))) : heading[i]!;
  expect(Math.abs(wrapAngle(zAngle(got.quaternion) - turned))).toBeLessThan(1e-5);
  const size = withScale ? scale[i]! : 1;
  for (let c = 0; c < 3; c++) expect(got.scale[c]).toBeCloseTo(size, 5);
  const m = motionAt(i, frame.previousTick + frame.alpha);
  expect(got.position[0]).toBeCloseTo(m.x, 4);
  expect(got.position[1]).toBeCloseTo(m.y, 4);
  // nlerp over 0.3 rad stays within 1e-3 rad of the true turn
  expect(Math.abs(wrapAngle(zAngle(got.quaternion) - m.angle))).toBeLessThan(1e-3);
}

it('writes instance matrices that decompose to the values runtime.sample interpolates, and draws them there', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  stage = createStage();
  const mesh = new InstancedMesh(markerGeometry(), new MeshBasicMaterial(), 8);
  const binding = bindInstancedMesh(runtime, mesh, { position: 'position', rotation: 'rotation', scale: 'scale' });
  stage.add(mesh);
  for (const alpha of [0, 0.35, 0.5, 1]) {
    const version = mesh.instanceMatrix.version;
    const frame = runtime.sample(timeAt(runtime, alpha));
    binding.update(frame);
    expect(mesh.count).toBe(3);
    expect(mesh.instanceMatrix.version).toBe(version + 1);
    expect(mesh.instanceMatrix.updateRanges).toEqual([{ start: 0, count: 48 }]);
    for (let i = 0; i < 3; i++) expectInstanceLike(mesh, frame, i);
    const drawn = stage.markers(3);
    for (let i = 0; i < 3; i++) expectNear(drawn[i]!, frameCentre(frame, i), 0.05, `alpha ${alpha}, entity ${i}`);
  }
  expect(binding.overflow).toBe(0);
});

it('turns by an angle field about +z, and leaves the scale at 1 without a scale field', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const mesh = new InstancedMesh(markerGeometry(), new MeshBasicMaterial(), 8);
  const binding = bindInstancedMesh(runtime, mesh, { position: 'position', rotation: 'heading' });
  const frame = runtime.sample(timeAt(runtime, 0.6));
  binding.update(frame);
  for (let i = 0; i < 3; i++) expectInstanceLike(mesh, frame, i, 'heading', false);
});

it('shows a teleported and a spawned entity at their new state (the frame comes snapped)', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  await runtime.commands.teleport(1, 5);
  await runtime.commands.setCount(4);
  await steps(runtime, 1);
  const mesh = new InstancedMesh(markerGeometry(), new MeshBasicMaterial(), 8);
  const binding = bindInstancedMesh(runtime, mesh, { position: 'position', rotation: 'rotation', scale: 'scale' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(mesh.count).toBe(4);
  expect(instance(mesh, 0).position[0]).toBeCloseTo(motionAt(0, 2.5).x, 4);
  expect(instance(mesh, 1).position[0]).toBeCloseTo(motionAt(1, 3).x + 5, 4);
  expect(instance(mesh, 3).position[0]).toBeCloseTo(motionAt(3, 3).x, 4);
});

it('keeps up with a live runtime.frame loop: every frame decomposes to the motion at its own tick and alpha', async () => {
  runtime = await motionRuntime();
  stage = createStage();
  const mesh = new InstancedMesh(markerGeometry(), new MeshBasicMaterial(), 8);
  const binding = bindInstancedMesh(runtime, mesh, { position: 'position', rotation: 'rotation', scale: 'scale' });
  stage.add(mesh);
  const seen: Array<{ k: number; x: number[]; angle: number[] }> = [];
  let between = 0;
  const rt = runtime;
  const loop = (ts: number) => {
    if (seen.length >= 40) return;
    requestAnimationFrame(loop);
    const frame = rt.frame(ts);
    // an overtaken frame (its callback ran after the worker published past it, on a loaded machine) shows the
    // nearest state at hand, which previousTick + alpha does not describe
    if (frame === null || frame.tick === 0 || frame.overtaken) return;
    binding.update(frame);
    stage!.render();
    if (frame.alpha > 0 && frame.alpha < 1) between++;
    const k = frame.previousTick + frame.alpha;
    seen.push({
      k,
      x: [0, 1, 2].map((i) => instance(mesh, i).position[0]!),
      angle: [0, 1, 2].map((i) => zAngle(instance(mesh, i).quaternion)),
    });
  };
  await rt.start();
  requestAnimationFrame(loop);
  await waitFor('40 drawn frames', () => seen.length >= 40);
  await rt.stop();
  for (const f of seen) {
    for (let i = 0; i < 3; i++) {
      const m = motionAt(i, f.k);
      expect(f.x[i]).toBeCloseTo(m.x, 3);
      expect(Math.abs(wrapAngle(f.angle[i]! - m.angle))).toBeLessThan(1e-3);
    }
  }
  expect(between).toBeGreaterThan(0); // frames fell between ticks, not only on them
  expect(seen.at(-1)!.k).toBeGreaterThan(seen[0]!.k);
});

it('draws no more instances than the mesh holds, and counts the rest', async () => {
  runtime = await motionRuntime();
  const mesh = new InstancedMesh(markerGeometry(), new MeshBasicMaterial(), 2);
  const binding = bindInstancedMesh(runtime, mesh, { position: 'position' });
  binding.update(runtime.sample());
  expect(mesh.count).toBe(2);
  expect(binding.overflow).toBe(1);
});

it('moves a handful of Object3Ds, and hides those without a live entity', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const objects = [new Object3D(), new Object3D(), new Object3D(), new Object3D()];
  const binding = bindObjects(runtime, objects, { position: 'position', rotation: 'rotation', scale: 'scale' });
  const frame = runtime.sample(timeAt(runtime, 0.25));
  binding.update(frame);
  const { position, rotation, scale } = frame.fields;
  for (let i = 0; i < 3; i++) {
    const o = objects[i]!;
    expect(o.visible).toBe(true);
    expect(o.position.toArray()).toEqual(Array.from(position.subarray(3 * i, 3 * i + 3)));
    expect(o.quaternion.toArray()).toEqual(Array.from(rotation.subarray(4 * i, 4 * i + 4)));
    expect(o.scale.toArray()).toEqual([scale[i], scale[i], scale[i]]);
    expect(o.position.x).toBeCloseTo(motionAt(i, 2.25).x, 4);
  }
  expect(objects[3]!.visible).toBe(false);
});

it('moves each Object3D by the entity it is bound to, and refuses a mapping that does not fit', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const objects = [new Object3D(), new Object3D(), new Object3D()];
  // entity 2 on the first object, entity 0 on the second, entity 5 (not live: 3 entities) on the third
  const binding = bindObjects(runtime, objects, { position: 'position', rotation: 'heading' }, [2, 0, 5]);
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  const { position } = frame.fields;
  expect(objects[0]!.position.toArray()).toEqual(Array.from(position.subarray(6, 9)));
  expect(objects[1]!.position.toArray()).toEqual(Array.from(position.subarray(0, 3)));
  expect(objects[0]!.position.x).toBeCloseTo(motionAt(2, 2.5).x, 4);
  expect([objects[0]!.visible, objects[1]!.visible, objects[2]!.visible]).toEqual([true, true, false]);
  expect(() => bindObjects(runtime!, objects, { position: 'position' }, [0, 1])).toThrow(/3 objects and 2 entities/);
  expect(() => bindObjects(runtime!, objects, { position: 'position' }, [0, 1.5, 2])).toThrow(/whole number from 0.*1\.5/);
});
