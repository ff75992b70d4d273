import { expect, it } from 'vitest';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { defineSchema } from 'steadyframe';
import { mulberry32 as prng } from 'steadyframe/testing';
import { resolveFields } from '@steadyframe/three';
import { readTransform, transformViews, writeMatrix } from 'steadyframe/adapter';

const schema = defineSchema({
  position: { width: 3, kind: 'linear' },
  flat: { width: 2, kind: 'linear' },
  rotation: { width: 4, kind: 'quaternion' },
  heading: { width: 1, kind: 'angle' },
  size: { width: 1, kind: 'linear' },
  size3: { width: 3, kind: 'linear' },
  frame: { width: 1, kind: 'none' },
});

it('writes the matrix Matrix4.compose makes, for any position, rotation and scale', () => {
  const random = prng(7);
  const n = 64;
  const views = {
    position: new Float32Array(3 * n).map(() => 20 * random() - 10),
    flat: new Float32Array(2 * n),
    rotation: new Float32Array(4 * n),
    heading: new Float32Array(n),
    size: new Float32Array(n),
    size3: new Float32Array(3 * n).map(() => 0.1 + 3 * random()),
    frame: new Float32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const q = new Quaternion(random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5).normalize();
    views.rotation.set(q.toArray(), 4 * i);
  }
  const fields = resolveFields(schema, { position: 'position', rotation: 'rotation', scale: 'size3' });
  const out = new Float32Array(16 * n);
  const tv = transformViews(fields, views, { position: new Float32Array(0), rotation: null, scale: null });
  for (let i = 0; i < n; i++) writeMatrix(readTransform(fields, tv, i), out, 16 * i);
  for (let i = 0; i < n; i++) {
    const expected = new Matrix4().compose(
      new Vector3().fromArray(views.position, 3 * i),
      new Quaternion().fromArray(views.rotation, 4 * i),
      new Vector3().fromArray(views.size3, 3 * i),
    );
    const got = Array.from(out.subarray(16 * i, 16 * i + 16));
    expected.elements.forEach((e, j) => expect(got[j]).toBeCloseTo(e, 5));
  }
});

it('reads a 2D position with z 0, an angle as a turn about +z, a width-1 scale as uniform', () => {
  const views = { flat: new Float32Array([3, 4]), heading: new Float32Array([Math.PI / 2]), size: new Float32Array([2]) };
  const fields = resolveFields(schema, { position: 'flat', rotation: 'heading', scale: 'size' });
  const tv = transformViews(fields, views, { position: new Float32Array(0), rotation: null, scale: null });
  const out = new Float32Array(16);
  writeMatrix(readTransform(fields, tv, 0), out, 0);
  const m = new Matrix4().fromArray(out);
  // the point (1, 0, 0) is turned to +y, doubled, and moved to (3, 4, 0)
  const p = new Vector3(1, 0, 0).applyMatrix4(m);
  expect(p.x).toBeCloseTo(3, 6);
  expect(p.y).toBeCloseTo(6, 6);
  expect(p.z).toBeCloseTo(0, 6);
});

it('refuses fields that do not fit, naming the field and what would', () => {
  const bad = (fields: object) => () => resolveFields(schema, fields as never);
  expect(bad({ position: 'nope' })).toThrow(/fields.position names "nope", which is not a field of the schema/);
  expect(bad({ position: 'rotation' })).toThrow(/fields.position "rotation" must be a linear field of width 2 or 3/);
  expect(bad({ position: 'size' })).toThrow(/width 2 or 3; it is linear of width 1/);
  expect(bad({ position: 'position', rotation: 'frame' })).toThrow(/fields.rotation "frame" must be a quaternion or angle field/);
  expect(bad({ position: 'position', scale: 'flat' })).toThrow(/fields.scale "flat" must be a linear field of width 1 or 3/);
  expect(bad({ position: 'position', rotation: 'heading', scale: 'size' })).not.toThrow();
});
