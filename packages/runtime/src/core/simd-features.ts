/**
 * What this engine's WebAssembly can run, asked by validating the kernel module (simd-kernel-module.ts) in each
 * variant: SIMD at all, multi-memory (the kernels that write a plain render memory), relaxed SIMD (fused
 * multiply-adds). Each answer is worked out once per realm and kept.
 */
import { kernelModuleBytes } from './simd-kernel-module.ts';

/**
 * Feature checks, each done once: assembling and validating a module is start-up work, and the engine's
 * features do not change while the page lives.
 */
const features: { simd?: boolean; multiMemory?: boolean; relaxed?: boolean } = {};

/** Whether this engine runs WebAssembly SIMD (it validates the kernel module). */
export function simdSupported(): boolean {
  return (features.simd ??=
    typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function' && WebAssembly.validate(kernelModuleBytes(false)));
}

/** Whether this engine also runs WebAssembly multi-memory (the kernels that write to a plain render memory). */
export function multiMemorySupported(): boolean {
  return (features.multiMemory ??= simdSupported() && WebAssembly.validate(kernelModuleBytes(false, true)));
}

/** Whether this engine also runs WebAssembly relaxed SIMD (the kernels with fused multiply-adds). */
export function relaxedSimdSupported(): boolean {
  return (features.relaxed ??= simdSupported() && WebAssembly.validate(kernelModuleBytes(false, false, true)));
}
