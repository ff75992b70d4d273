/** The WebAssembly SIMD blend kernels against the JS ones, in Node (see test/shared/kernel-cases.ts). */
import { describe, expect, it } from 'vitest';
import { createBlendKernels, kernelModuleBytes, simdSupported } from '../../src/core/simd-kernel.ts';
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

  describeKernelCases(false, 'in place', false);
  describeKernelCases(true, 'in place', false);
});
