/** The WebAssembly SIMD blend kernels against the JS ones, in Node (see test/shared/kernel-cases.ts). */
import { describe, expect, it } from 'vitest';
import { createBlendKernels } from '../../src/core/simd-kernel.ts';
import { simdSupported } from '../../src/core/simd-features.ts';
import { kernelModuleBytes } from '../../src/core/simd-kernel-module.ts';
import { describeKernelCases } from '../shared/kernel-cases.ts';

describe('WebAssembly SIMD blend kernels', () => {
  it('are chosen where the engine runs wasm SIMD (Node does), and JS when asked', () => {
    expect(WebAssembly.validate(kernelModuleBytes(false))).toBe(true);
    expect(WebAssembly.validate(kernelModuleBytes(true))).toBe(true);
    expect(simdSupported()).toBe(true);
    expect(createBlendKernels().backend).toBe('wasm-simd');
    const js = createBlendKernels({ backend: 'js' });
    expect(js.backend).toBe('js');
    expect(js.memory).toBeNull();
    expect(js.renderMemory).toBeNull();
  });

  it('make a render memory only with multi-memory, and use relaxed SIMD only where it validates (Node 20 has neither)', () => {
    const multiMemory = WebAssembly.validate(kernelModuleBytes(false, true));
    const relaxed = WebAssembly.validate(kernelModuleBytes(false, false, true));
    const kernels = createBlendKernels({ renderBytes: 65_536 });
    expect(kernels.renderMemory === null).toBe(!multiMemory);
    expect(kernels.relaxedSimd).toBe(relaxed);
    expect(createBlendKernels({ relaxedSimd: false }).relaxedSimd).toBe(false);
  });

  it('count the calls they ran in wasm and the ones handed to JS (views outside their memory)', () => {
    const kernels = createBlendKernels();
    const inMemory = (offset: number) => new Float32Array(kernels.memory!.buffer, offset, 8);
    const [a, b, out] = [inMemory(0), inMemory(64), inMemory(128)];
    a.fill(0);
    b.fill(2);
    kernels.lerp(a, b, out, 8, 0.5);
    kernels.angle(a, b, out, 8, 0.5);
    expect(kernels.calls).toEqual({ wasm: 2, fallback: 0 });
    expect([...out]).toEqual(new Array(8).fill(1));
    // the same values in a plain buffer: the JS kernels blend them, and the probe says so
    const plain = new Float32Array(8);
    kernels.lerp(new Float32Array(8), new Float32Array(8).fill(4), plain, 8, 0.5);
    expect([...plain]).toEqual(new Array(8).fill(2));
    expect(kernels.calls).toEqual({ wasm: 2, fallback: 1 });
    expect(createBlendKernels({ backend: 'js' }).calls).toEqual({ wasm: 0, fallback: 0 });
  });

  // issue #14 bug 4: the bounds check was n <= length only; a negative count reached the wasm loops, which take
  // it as a huge unsigned count and write past the output (or trap every frame)
  it('never blend a negative count: memory around the output stays as it was', () => {
    const kernels = createBlendKernels();
    const memory = kernels.memory!;
    const all = new Float32Array(memory.buffer, 0, 1024);
    all.fill(7);
    const a = new Float32Array(memory.buffer, 0, 64);
    const b = new Float32Array(memory.buffer, 256, 64);
    const out = new Float32Array(memory.buffer, 1024, 64);
    for (const n of [-1, -4, -5, -(2 ** 31)]) {
      expect(() => {
        kernels.lerp(a, b, out, n, 0.5);
        kernels.nlerp(a, b, out, n, 0.5);
        kernels.angle(a, b, out, n, 0.5);
      }).not.toThrow();
    }
    expect(all.every((v) => v === 7)).toBe(true);
    expect(new Float32Array(memory.buffer, 4096, 1024).every((v) => v === 0)).toBe(true);
  });

  describeKernelCases(false, 'in place', false);
  describeKernelCases(true, 'in place', false);
});
