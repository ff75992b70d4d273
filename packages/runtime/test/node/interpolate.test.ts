import { describe, expect, it } from 'vitest';
import { interpolateField, wrapAngle } from 'steadyframe/adapter';

const f32 = (...values: number[]) => Float32Array.from(values);
const deg = (d: number) => (d * Math.PI) / 180;

describe('interpolation kernels', () => {
  it('lerps linear fields component-wise, exactly at both ends', () => {
    const out = new Float32Array(4);
    interpolateField('linear', 2, f32(0, 10, -4, 1.1), f32(10, 20, 4, 7.3), out, 2, 0.25);
    expect(Array.from(out)).toEqual([2.5, 12.5, -2, expect.closeTo(1.1 + 6.2 * 0.25, 5)]);
    interpolateField('linear', 2, f32(0, 10, -4, 1.1), f32(10, 20, 4, 7.3), out, 2, 1);
    expect(Array.from(out)).toEqual(Array.from(f32(10, 20, 4, 7.3)));
    interpolateField('linear', 2, f32(0, 10, -4, 1.1), f32(10, 20, 4, 7.3), out, 2, 0);
    expect(Array.from(out)).toEqual(Array.from(f32(0, 10, -4, 1.1)));
  });

  it('touches only the live entities', () => {
    const out = f32(-1, -1, -1);
    interpolateField('linear', 1, f32(0, 0, 0), f32(2, 2, 2), out, 2, 0.5);
    expect(Array.from(out)).toEqual([1, 1, -1]);
  });

  it('turns angles the short way: 350 deg to 10 deg passes through 0', () => {
    const out = new Float32Array(1);
    const samples: number[] = [];
    for (const alpha of [0, 0.25, 0.5, 0.75, 1]) {
      interpolateField('angle', 1, f32(deg(350)), f32(deg(10)), out, 1, alpha);
      samples.push((out[0]! * 180) / Math.PI);
    }
    // -10, -5, 0, 5, 10 degrees: through 0, never through 180
    expect(samples.map((d) => Math.round(d * 1000) / 1000)).toEqual([-10, -5, 0, 5, 10]);
  });

  it('turns angles the short way the other way round, and wraps into [-PI, PI)', () => {
    const out = new Float32Array(1);
    interpolateField('angle', 1, f32(deg(10)), f32(deg(350)), out, 1, 0.5);
    expect(out[0]).toBeCloseTo(0, 6);
    interpolateField('angle', 1, f32(deg(170)), f32(deg(-170)), out, 1, 0.5);
    expect(Math.abs(out[0]!)).toBeCloseTo(Math.PI, 5);
    expect(wrapAngle(Math.PI)).toBeCloseTo(-Math.PI, 12);
    expect(wrapAngle(3 * Math.PI + 0.5)).toBeCloseTo(-Math.PI + 0.5, 12);
  });

  it('blends quaternions along the short path and normalises them', () => {
    // rotations about z by 10 and 30 degrees; the second given as its negation (same rotation, far side)
    const q = (degrees: number, sign = 1) => [0, 0, sign * Math.sin(deg(degrees) / 2), sign * Math.cos(deg(degrees) / 2)];
    const out = new Float32Array(4);
    interpolateField('quaternion', 4, f32(...q(10)), f32(...q(30, -1)), out, 1, 0.5);
    const expected = q(20);
    for (let c = 0; c < 4; c++) expect(out[c]).toBeCloseTo(expected[c]!, 6);
    expect(Math.hypot(...out)).toBeCloseTo(1, 6);
  });

  it('differs from the sign-naive blend, which goes the long way', () => {
    // without the sign fix, 10 deg -> -(30 deg) at alpha 0.5 lands near 190 degrees, not 20
    const a = [0, 0, Math.sin(deg(5)), Math.cos(deg(5))];
    const b = [0, 0, -Math.sin(deg(15)), -Math.cos(deg(15))];
    const out = new Float32Array(4);
    interpolateField('quaternion', 4, f32(...a), f32(...b), out, 1, 0.5);
    expect(out[3]).toBeGreaterThan(0.98); // cos(10 deg) = 0.985; the long way has w near 0
  });

  it('keeps a zero quaternion finite', () => {
    const out = new Float32Array(4);
    interpolateField('quaternion', 4, f32(0, 0, 0, 0), f32(0, 0, 0, 0), out, 1, 0.5);
    expect(Array.from(out)).toEqual([0, 0, 0, 0]);
  });

  it('snaps "none" fields by the discrete rule: previous at alpha 0, current as soon as the frame leaves it', () => {
    const out = new Float32Array(2);
    interpolateField('none', 2, f32(1, 2), f32(3, 4), out, 1, 0);
    expect(Array.from(out)).toEqual([1, 2]);
    interpolateField('none', 2, f32(1, 2), f32(3, 4), out, 1, 0.01);
    expect(Array.from(out)).toEqual([3, 4]);
    interpolateField('none', 2, f32(1, 2), f32(3, 4), out, 1, 1);
    expect(Array.from(out)).toEqual([3, 4]);
  });
});
