/**
 * The WebAssembly SIMD blend kernels against the JS ones, in each engine, tier by tier: plain SIMD in place (a
 * shared memory and an unshared one) everywhere; writing out to a plain render memory where the engine has
 * multi-memory; with fused multiply-adds where it has relaxed SIMD (see test/shared/kernel-cases.ts for the
 * cases). Where the engine lacks a tier, the kernels fall back to the next one down, and that is tested instead.
 * What each engine has is pinned, so a tier an engine loses (or gains) fails here rather than going untested.
 */
import { describe, expect, it } from 'vitest';
import { multiMemorySupported, relaxedSimdSupported, simdSupported } from '../../src/core/simd-features.ts';
import { kernelModuleBytes } from '../../src/core/simd-kernel-module.ts';
import { createBlendKernels } from '../../src/core/simd-kernel.ts';
import { engine } from '../shared/engine.ts';
import { describeKernelCases } from '../shared/kernel-cases.ts';

/** The tiers each engine has, as tested (site/reference/compatibility.md). */
const TIERS = {
  chromium: { simd: true, multiMemory: true, relaxedSimd: true },
  firefox: { simd: true, multiMemory: true, relaxedSimd: true },
  // WebKitGTK 2.50: SIMD, neither multi-memory nor relaxed SIMD
  webkit: { simd: true, multiMemory: false, relaxedSimd: false },
} as const;

const tiers = TIERS[engine];

describe(`WebAssembly SIMD blend kernels in ${engine}`, () => {
  it('the engine has the tiers we know it has', () => {
    expect({ simd: simdSupported(), multiMemory: multiMemorySupported(), relaxedSimd: relaxedSimdSupported() }).toEqual(tiers);
    expect(WebAssembly.validate(kernelModuleBytes(true, true))).toBe(tiers.multiMemory);
    expect(WebAssembly.validate(kernelModuleBytes(true, false, true))).toBe(tiers.relaxedSimd);
  });

  it('asked for every tier, the kernels take the best the engine has', () => {
    const memory = new WebAssembly.Memory({ initial: 4, maximum: 4, shared: true });
    const kernels = createBlendKernels({ memory, renderBytes: 65_536, relaxedSimd: true });
    expect(kernels.backend).toBe('wasm-simd');
    expect(kernels.relaxedSimd).toBe(tiers.relaxedSimd);
    // without multi-memory there is no render memory: the page blends in place, then copies
    expect(kernels.renderMemory !== null).toBe(tiers.multiMemory);
  });

  for (const relaxed of tiers.relaxedSimd ? [true, false] : [false]) {
    describeKernelCases(true, 'in place', relaxed);
    describeKernelCases(false, 'in place', relaxed);
    if (tiers.multiMemory) {
      describeKernelCases(true, 'render memory', relaxed);
      describeKernelCases(false, 'render memory', relaxed);
    }
  }
});
