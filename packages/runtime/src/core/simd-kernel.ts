/**
 * The blend kernels' front: `createBlendKernels()` picks the backend once, at set-up: the WebAssembly SIMD kernels
 * (simd-kernel-module.ts) where the engine validates them (simd-features.ts), otherwise the JS kernels of
 * interpolate.ts. `lerp` (component-wise), `nlerp` (quaternions, sign fixed, normalised) and `angle` (the shorter
 * arc, wrapped into [-PI, PI)) take Float32Array views either way; the wasm ones blend only views whose inputs
 * lie in their memory (`kernels.memory`) and whose output lies there too or in their render memory
 * (`kernels.renderMemory`), and hand any other views to the JS kernels, so a caller is never wrong, only slower.
 *
 * Wiring (as createRuntime and the sampler do it): the runtime's SharedArrayBuffer is a shared
 * `WebAssembly.Memory` (`initial = maximum`, its `buffer` is the SAB the layout lays out), and
 * `createBlendKernels({ memory, renderBytes })` makes the render buffer's memory beside it. Where the engine
 * has multi-memory, the kernels read both states from the shared memory and write the blend straight into
 * the plain render memory, and nothing is copied. Without multi-memory, they blend
 * into a scratch block in the shared memory (after the layout) and the sampler copies that out to a plain
 * render buffer. The render-delay history (main/history.ts) gets a second kernel set over its own memory,
 * writing the same render memory (option `renderMemory`). None fields use the JS kernels; so do engines
 * without SIMD.
 */
import { angleField, lerpField, quaternionField } from './interpolate.ts';
import { multiMemorySupported, relaxedSimdSupported, simdSupported } from './simd-features.ts';
import { kernelModuleBytes } from './simd-kernel-module.ts';

/** Kept for the importers of this path (transports/shared/page.ts); the checks live in simd-features.ts. */
export { simdSupported } from './simd-features.ts';

export type BlendBackend = 'wasm-simd' | 'js';

export interface BlendKernels {
  /** Which kernels run: chosen once, at creation. */
  readonly backend: BlendBackend;
  /** The memory the wasm kernels read (and blend in place); null for the JS backend. */
  readonly memory: WebAssembly.Memory | null;
  /**
   * A plain memory the wasm kernels write into from `memory` (multi-memory), if one was asked for and the
   * engine has multi-memory; else null.
   */
  readonly renderMemory: WebAssembly.Memory | null;
  /** Whether the wasm kernels use relaxed SIMD's fused multiply-add. */
  readonly relaxedSimd: boolean;
  /**
   * Calls the wasm kernels ran (`wasm`), and calls they handed to the JS kernels because the views were not in
   * their memory or did not fit (`fallback`): a probe that the memory really is the one the views lie in. Both
   * stay 0 for the JS backend.
   */
  readonly calls: { readonly wasm: number; readonly fallback: number };
  /** Component-wise lerp of `elements` float32s from element `from` (default 0), like `lerpField`. */
  lerp(previous: Float32Array, current: Float32Array, out: Float32Array, elements: number, alpha: number, from?: number): void;
  /** `count` quaternions (x y z w) by nlerp from quaternion `from` (default 0), like `quaternionField`. */
  nlerp(previous: Float32Array, current: Float32Array, out: Float32Array, count: number, alpha: number, from?: number): void;
  /** `count` angles along the shorter arc from angle `from` (default 0), wrapped into [-PI, PI), like `angleField` (in float32 here). */
  angle(previous: Float32Array, current: Float32Array, out: Float32Array, count: number, alpha: number, from?: number): void;
}

const jsKernels: BlendKernels = {
  backend: 'js',
  memory: null,
  renderMemory: null,
  relaxedSimd: false,
  calls: { wasm: 0, fallback: 0 },
  lerp: lerpField,
  nlerp: quaternionField,
  angle: angleField,
};

type Kernel = (a: number, b: number, out: number, n: number, alpha: number) => void;
type KernelExports = { lerp: Kernel; nlerp: Kernel; angle: Kernel; lerpOut?: Kernel; nlerpOut?: Kernel; angleOut?: Kernel };

export interface BlendKernelOptions {
  /** The memory to blend in: views over its buffer are blended in place. Default: a new one of `pages`. */
  readonly memory?: WebAssembly.Memory;
  /** 64 KiB pages for a new memory. Default 1. */
  readonly pages?: number;
  /**
   * Bytes of a plain (unshared) render memory to create beside `memory`, which the kernels write into
   * straight from `memory` (`kernels.renderMemory`), where the engine has multi-memory. Default 0: none.
   */
  readonly renderBytes?: number;
  /**
   * An existing plain render memory to write into instead (another kernel set's `renderMemory`: a second set
   * reading another memory, say the render-delay history, writes the same render buffer). Wins over
   * `renderBytes`.
   */
  readonly renderMemory?: WebAssembly.Memory;
  /** Use the JS kernels even where SIMD works (for comparisons). */
  readonly backend?: BlendBackend;
  /** Use relaxed SIMD's fused multiply-add where the engine has it. Default true; false for comparisons. */
  readonly relaxedSimd?: boolean;
}

/**
 * Picks the kernels once: wasm SIMD where the engine has it, else JS. Compiles synchronously (the module is a
 * few KB, under the synchronous-compile limit of engines with these features; ARCHITECTURE.md, "WebAssembly
 * SIMD", gives its size). Allocates; call at set-up.
 */
export function createBlendKernels(options: BlendKernelOptions = {}): BlendKernels {
  if (options.backend === 'js' || !simdSupported()) return jsKernels;
  const memory = options.memory ?? new WebAssembly.Memory({ initial: options.pages ?? 1 });
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  const renderPages = options.renderMemory !== undefined ? 1 : Math.ceil((options.renderBytes ?? 0) / 65_536);
  const relaxed = options.relaxedSimd !== false && relaxedSimdSupported();
  // the best module that instantiates: with the render memory (multi-memory), else in place; else the JS kernels
  let wasm: KernelExports | null = null;
  let renderMemory: WebAssembly.Memory | null = null;
  for (const render of renderPages > 0 && multiMemorySupported() ? [true, false] : [false]) {
    try {
      // its maximum is its size: growing would detach the views the caller keeps over it
      const rendered = !render ? null : (options.renderMemory ?? new WebAssembly.Memory({ initial: renderPages, maximum: renderPages }));
      const module = new WebAssembly.Module(kernelModuleBytes(shared, render, relaxed));
      const env: Record<string, WebAssembly.Memory> = rendered === null ? { memory } : { memory, render: rendered };
      wasm = new WebAssembly.Instance(module, { env }).exports as unknown as KernelExports;
      renderMemory = rendered;
      break;
    } catch {
      // e.g. a memory whose maximum the import does not accept: try the next
    }
  }
  if (wasm === null) return jsKernels;
  const exports = wasm;
  const calls = { wasm: 0, fallback: 0 };
  /**
   * The kernel for these views, or null (then the JS kernels run): in place when all three lie in `memory`,
   * the writing-out one when the output lies in `renderMemory`; and only for `n` floats, 0 or more, that fit
   * all three views (a bigger `n` must not write past a view into whatever follows it; a negative one, taken
   * as a huge unsigned count by the kernel's loops, must not either: the JS kernels do nothing for it).
   * Buffers are looked up per call: a grown memory has a new buffer.
   */
  const pick = (inPlace: Kernel, out: Kernel | undefined, a: Float32Array, b: Float32Array, o: Float32Array, n: number, from: number): Kernel | null => {
    const buffer = memory.buffer;
    const end = from + n;
    const kernel =
      a.buffer !== buffer || b.buffer !== buffer || !(n >= 0 && from >= 0 && end <= a.length && end <= b.length && end <= o.length)
        ? null
        : o.buffer === buffer
          ? inPlace
          : out !== undefined && o.buffer === renderMemory?.buffer
            ? out
            : null;
    if (kernel === null) calls.fallback++;
    else calls.wasm++;
    return kernel;
  };
  return {
    backend: 'wasm-simd',
    memory,
    renderMemory,
    relaxedSimd: relaxed,
    calls,
    lerp(previous, current, out, elements, alpha, from = 0) {
      const kernel = pick(exports.lerp, exports.lerpOut, previous, current, out, elements, from);
      if (kernel === null) lerpField(previous, current, out, elements, alpha, from);
      else kernel(previous.byteOffset + 4 * from, current.byteOffset + 4 * from, out.byteOffset + 4 * from, elements, alpha);
    },
    nlerp(previous, current, out, count, alpha, from = 0) {
      const kernel = pick(exports.nlerp, exports.nlerpOut, previous, current, out, 4 * count, 4 * from);
      if (kernel === null) quaternionField(previous, current, out, count, alpha, from);
      else kernel(previous.byteOffset + 16 * from, current.byteOffset + 16 * from, out.byteOffset + 16 * from, count, alpha);
    },
    angle(previous, current, out, count, alpha, from = 0) {
      const kernel = pick(exports.angle, exports.angleOut, previous, current, out, count, from);
      if (kernel === null) angleField(previous, current, out, count, alpha, from);
      else kernel(previous.byteOffset + 4 * from, current.byteOffset + 4 * from, out.byteOffset + 4 * from, count, alpha);
    },
  };
}
