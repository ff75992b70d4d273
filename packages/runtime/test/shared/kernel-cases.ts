/**
 * The WebAssembly SIMD blend kernels (core/simd-kernel.ts) against the JS kernels they stand in for, on the same
 * inputs: random states, every alpha from 0 to 1 and a little past (extrapolation), quaternions more than 90
 * degrees apart (the sign fix), zero quaternions, angles across the +-PI seam, lengths that are not multiples
 * of four, views at odd offsets,
 * and views outside the wasm memory (which must fall back to JS). Shared by the Node test (in place, plain
 * SIMD: Node 20 has neither multi-memory nor relaxed SIMD) and the browser one (also writing into the render
 * memory, with and without relaxed SIMD, as the runtime may there).
 */
import { describe, expect, it } from 'vitest';
import { angleField, lerpField, quaternionField, wrapAngle } from '../../src/core/interpolate.ts';
import { createBlendKernels, type BlendKernels } from '../../src/core/simd-kernel.ts';
import { mulberry32 } from '../../src/testing/prng.ts';


/**
 * Three views of `n` floats, starting `skew` floats past a 64-byte boundary: the two inputs in `memory`, the
 * output in `out` (the same memory, or the kernels' render memory).
 */
function viewsIn(memory: WebAssembly.Memory, out: WebAssembly.Memory, n: number, skew = 0): [Float32Array, Float32Array, Float32Array] {
  const stride = Math.ceil((n + skew) / 16) * 16 + 16;
  const at = (m: WebAssembly.Memory, k: number) => new Float32Array(m.buffer, 4 * (k * stride + skew), n);
  return [at(memory, 0), at(memory, 1), at(out, 2)];
}

function randomQuaternions(out: Float32Array, random: () => number, zeroEvery = 0): void {
  for (let o = 0; o < out.length; o += 4) {
    const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
    const n = Math.hypot(...q);
    for (let c = 0; c < 4; c++) out[o + c] = zeroEvery > 0 && (o / 4) % zeroEvery === 0 ? 0 : q[c]! / n;
  }
}

/** Largest absolute difference, and whether any value is NaN in one and not the other. */
function maxDifference(a: Float32Array, b: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]!) !== Number.isNaN(b[i]!)) return Number.POSITIVE_INFINITY;
    worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  }
  return worst;
}

const ALPHAS = [0, 1e-7, 0.25, 0.5, 0.731, 0.999999, 1, 1.5];

/**
 * The kernels' cases over a memory that is `shared` or not, writing `into` the same memory ('in place') or
 * into a render memory of the kernels' own ('render memory': the engine must have multi-memory).
 */
export function describeKernelCases(shared: boolean, into: 'in place' | 'render memory', relaxedSimd: boolean): void {
  describe(`${shared ? 'in a shared memory' : 'in an unshared memory'}, ${into}, ${relaxedSimd ? 'relaxed SIMD (fused multiply-add)' : 'plain SIMD'}`, () => {
    const memory = new WebAssembly.Memory(shared ? { initial: 64, maximum: 64, shared: true } : { initial: 64 });
    const kernels: BlendKernels = createBlendKernels(into === 'render memory' ? { memory, renderBytes: 64 * 65_536, relaxedSimd } : { memory, relaxedSimd });
    const outMemory = into === 'render memory' ? kernels.renderMemory! : memory;

    it('uses the memory it was given, a plain render memory when asked, and relaxed SIMD when asked', () => {
      expect(kernels.backend).toBe('wasm-simd');
      expect(kernels.memory).toBe(memory);
      expect(kernels.relaxedSimd).toBe(relaxedSimd);
      if (into === 'in place') expect(kernels.renderMemory).toBeNull();
      else {
        expect(kernels.renderMemory).toBeInstanceOf(WebAssembly.Memory);
        expect(kernels.renderMemory!.buffer).toBeInstanceOf(ArrayBuffer); // not shared: any API takes its views
        expect(kernels.renderMemory!.buffer.byteLength).toBe(64 * 65_536);
      }
    });
    for (const n of [0, 1, 3, 4, 7, 64, 1001]) {
      it(`angle matches angleField on the short arc: ${n} angles, across the seam`, () => {
        const random = mulberry32(n + 7);
        const [a, b, out] = viewsIn(memory, outMemory, n, 1);
        for (let i = 0; i < n; i++) {
          a[i] = (random() * 2 - 1) * Math.PI;
          // up to 1.5 radians a tick either way, so many pairs cross the seam at +-PI
          b[i] = wrapAngle(a[i]! + (random() * 2 - 1) * 1.5);
        }
        const expected = new Float32Array(n);
        for (const alpha of ALPHAS) {
          angleField(a, b, expected, n, alpha);
          kernels.angle(a, b, out, n, alpha);
          for (let i = 0; i < n; i++) {
            // the same angle (float32 here, float64 in JS): compare modulo a turn, so PI and -PI agree
            expect(Math.abs(wrapAngle(out[i]! - expected[i]!))).toBeLessThanOrEqual(2e-6);
            expect(out[i]).toBeGreaterThanOrEqual(-Math.PI - 1e-6);
            expect(out[i]).toBeLessThanOrEqual(Math.PI + 1e-6);
          }
        }
      });
      for (const skew of [0, 1, 3]) {
        it(`lerp matches lerpField: ${n} elements at float offset ${skew}`, () => {
          const random = mulberry32(n * 10 + skew);
          const [a, b, out] = viewsIn(memory, outMemory, n, skew);
          for (let i = 0; i < n; i++) {
            a[i] = (random() - 0.5) * 2000;
            b[i] = a[i]! + (random() - 0.5) * 10;
          }
          const expected = new Float32Array(n);
          for (const alpha of ALPHAS) {
            lerpField(a, b, expected, n, alpha);
            kernels.lerp(a, b, out, n, alpha);
            // a few float32 ulps of values up to 1000
            expect(maxDifference(out, expected)).toBeLessThanOrEqual(2e-4);
            if (alpha === 0) expect(Array.from(out)).toEqual(Array.from(a)); // exact at the ends
            if (alpha === 1) expect(Array.from(out)).toEqual(Array.from(b));
          }
        });
      }
    }

    // 12 and 13: the eight-a-turn loop, then one group of four (then one more, alone)
    for (const count of [0, 1, 5, 12, 13, 250, 4096]) {
      it(`nlerp matches quaternionField: ${count} quaternions, sign fix and zeros included`, () => {
        const random = mulberry32(count + 1);
        const [a, b, out] = viewsIn(memory, outMemory, 4 * count, 1);
        randomQuaternions(a, random, 97);
        randomQuaternions(b, random, 89);
        // half of them close to a (a tick's turn), some of those negated (q and -q: the same rotation)
        for (let i = 0; i < count; i += 2) {
          for (let c = 0; c < 4; c++) b[4 * i + c] = a[4 * i + c]! + (random() - 0.5) * 0.05;
          if (i % 4 === 0) for (let c = 0; c < 4; c++) b[4 * i + c] = -b[4 * i + c]!;
        }
        const expected = new Float32Array(4 * count);
        for (const alpha of ALPHAS) {
          quaternionField(a, b, expected, count, alpha);
          kernels.nlerp(a, b, out, count, alpha);
          expect(maxDifference(out, expected)).toBeLessThanOrEqual(2e-6);
        }
      });
    }

    it('falls back to the JS kernels for views outside its memory', () => {
      const a = Float32Array.from([0, 0, 0, 1, 1, 2, 3, 4]);
      const b = Float32Array.from([0, 0, 1, 0, 5, 6, 7, 8]);
      const out = new Float32Array(8);
      const expected = new Float32Array(8);
      kernels.lerp(a, b, out, 8, 0.3);
      lerpField(a, b, expected, 8, 0.3);
      expect(out).toEqual(expected);
      kernels.nlerp(a, b, out, 2, 0.3);
      quaternionField(a, b, expected, 2, 0.3);
      expect(out).toEqual(expected);
      kernels.angle(a, b, out, 8, 0.3);
      angleField(a, b, expected, 8, 0.3);
      expect(out).toEqual(expected);
    });

    it('hands a count larger than the views to the JS kernels, which write nothing past them', () => {
      const [a, b, out] = viewsIn(memory, outMemory, 8, 0);
      a.set([0, 0, 0, 1, 1, 2, 3, 4]);
      b.set([0, 0, 1, 0, 5, 6, 7, 8]);
      // the float right after `out`: a bigger count must not reach it
      const after = new Float32Array(out.buffer, out.byteOffset + out.byteLength, 1);
      after[0] = 42;
      kernels.lerp(a, b, out, 12, 0.5);
      kernels.nlerp(a, b, out, 3, 0.5);
      kernels.angle(a, b, out, 9, 0.5);
      expect(after[0]).toBe(42);
      // the last call ran in JS, exactly
      const expected = new Float32Array(8);
      angleField(a, b, expected, 9, 0.5);
      expect(out).toEqual(expected);
    });

    it('blend a range from an offset (a table of a schema of tables) as the JS kernels do, and nothing outside it', () => {
      const random = mulberry32(21);
      for (let round = 0; round < 60; round++) {
        const n = 64;
        const [a, b, out] = viewsIn(memory, outMemory, 4 * n, round % 3);
        for (let i = 0; i < a.length; i++) {
          a[i] = random() * 8 - 4;
          b[i] = random() * 8 - 4;
        }
        randomQuaternions(a, random);
        randomQuaternions(b, random);
        const from = Math.floor(random() * n);
        const count = Math.floor(random() * (n - from + 1));
        const alpha = ALPHAS[round % ALPHAS.length]!;
        const expected = new Float32Array(out.length).fill(-7);
        for (const [kernel, js, scale] of [
          [kernels.lerp, lerpField, 3],
          [kernels.nlerp, quaternionField, 1],
          [kernels.angle, angleField, 1],
        ] as const) {
          out.fill(-7);
          expected.fill(-7);
          // lerp's offset and length are in floats (three per entity here), the others' in quaternions / angles
          kernel(a, b, out, scale * count, alpha, scale * from);
          js(a, b, expected, scale * count, alpha, scale * from);
          expect(maxDifference(out, expected), `round ${round}: from ${from}, ${count}, alpha ${alpha}`).toBeLessThan(2e-6);
          // untouched outside the range
          const width = kernel === kernels.nlerp ? 4 : 1;
          for (let i = 0; i < width * scale * from; i++) if (out[i] !== -7) expect.fail(`wrote before the range at ${i}`);
          for (let i = width * scale * (from + count); i < out.length; i++) if (out[i] !== -7) expect.fail(`wrote past the range at ${i}`);
        }
      }
    });
  });
}
