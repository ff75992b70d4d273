/**
 * The WebAssembly SIMD blend kernels against the JS ones in Chromium, which has multi-memory and relaxed SIMD:
 * in place, and reading a shared memory while writing the plain render memory, as the runtime's sampler does
 * here; with and without fused multiply-adds (see test/shared/kernel-cases.ts for the cases).
 */
import { describe, expect, it } from 'vitest';
import { multiMemorySupported, relaxedSimdSupported } from '../../src/core/simd-features.ts';
import { kernelModuleBytes } from '../../src/core/simd-kernel-module.ts';
import { describeKernelCases } from '../shared/kernel-cases.ts';

describe('WebAssembly SIMD blend kernels in the browser', () => {
  it('validate with a second, unshared memory (multi-memory) beside a shared or an unshared one', () => {
    expect(WebAssembly.validate(kernelModuleBytes(true, true))).toBe(true);
    expect(WebAssembly.validate(kernelModuleBytes(false, true))).toBe(true);
    expect(multiMemorySupported()).toBe(true);
  });

  it('validate with relaxed SIMD (fused multiply-add), alone and with multi-memory', () => {
    expect(WebAssembly.validate(kernelModuleBytes(true, false, true))).toBe(true);
    expect(WebAssembly.validate(kernelModuleBytes(true, true, true))).toBe(true);
    expect(relaxedSimdSupported()).toBe(true);
  });

  for (const relaxed of [true, false]) {
    describeKernelCases(true, 'in place', relaxed);
    describeKernelCases(true, 'render memory', relaxed);
    describeKernelCases(false, 'render memory', relaxed);
  }
});
