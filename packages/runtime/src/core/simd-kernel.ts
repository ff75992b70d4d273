/**
 * WebAssembly SIMD blend kernels: `lerp` (component-wise) and `nlerp` (quaternions, sign fixed, normalised),
 * the same blends as interpolate.ts's `lerpField` and `quaternionField`, four float32 lanes at a time.
 * The sampler uses them for linear and quaternion fields with the shared transport (see "Wiring" below).
 *
 * The module is hand-assembled here (no toolchain): about 300 bytes, compiled synchronously at start-up.
 * `createBlendKernels()` picks the backend once: wasm SIMD where `WebAssembly.validate` accepts the module,
 * otherwise the JS kernels. Both backends take Float32Array views; the wasm one blends in place only views
 * that lie in its own memory (`kernels.memory`), and hands any other view to the JS kernels, so a caller is
 * never wrong, only slower.
 *
 * Precision: the wasm kernels compute in float32 (the JS ones in float64, rounded at the store): results
 * agree to a few ulps (test/node/simd-kernel.test.ts). lerp is `a * (1 - alpha) + b * alpha`, so alpha 0
 * and 1 give the inputs back exactly, as the JS kernel does.
 *
 * The module, as WAT:
 *
 * ```wat
 * (module
 *   (import "env" "memory" (memory 1))                ;; or (memory 1 65536 shared), as the caller's memory is
 *   (func (export "lerp") (param $a i32) (param $b i32) (param $out i32) (param $n i32) (param $alpha f32)
 *     ;; bytes 0 .. (n & ~3) * 4, 16 at a time: out = a * splat(1 - alpha) + b * splat(alpha)
 *     ;; then the last n & 3 elements one at a time, the same formula in f32
 *   )
 *   (func (export "nlerp") (param $a i32) (param $b i32) (param $out i32) (param $count i32) (param $alpha f32)
 *     ;; per quaternion (one v128): d = hsum(a * b) in every lane (two shuffles)
 *     ;; b ^= (d < 0) & 0x80000000                       the shorter path
 *     ;; x = a * (1 - alpha) + b * alpha;  l = hsum(x * x)
 *     ;; out = (x / sqrt(l)) & (l > 0)                    a zero quaternion stays zero
 *   ))
 * ```
 *
 * Wiring (as createRuntime and the sampler do it): allocate the runtime's SharedArrayBuffer as a shared `WebAssembly.Memory`
 * (`new WebAssembly.Memory({ initial, maximum: initial, shared: true })`, its `buffer` is the SAB the layout
 * lays out; pages of 64 KiB, rounded up), plus room for the render block in the same memory (a shared memory
 * is all one could import; the render block there is then shared too, so either document that or copy it out
 * to a plain buffer, a memcpy of one block), call `createBlendKernels({ memory })` once in createRuntime, and
 * in `Sampler#blend` call `kernels.lerp` for `linear` fields and `kernels.nlerp` for `quaternion` fields
 * instead of `interpolateField` (angle and none fields stay on the JS kernels). Alpha outside [0, 1]
 * (extrapolating a late frame) works the same. The JS fallback then covers engines without SIMD.
 */
import { lerpField, quaternionField } from './interpolate.ts';

export type BlendBackend = 'wasm-simd' | 'js';

export interface BlendKernels {
  /** Which kernels run: chosen once, at creation. */
  readonly backend: BlendBackend;
  /** The memory the wasm kernels blend in place; null for the JS backend. */
  readonly memory: WebAssembly.Memory | null;
  /** Component-wise lerp of `elements` float32s, like `lerpField`. */
  lerp(previous: Float32Array, current: Float32Array, out: Float32Array, elements: number, alpha: number): void;
  /** `count` quaternions (x y z w) by nlerp, like `quaternionField`. */
  nlerp(previous: Float32Array, current: Float32Array, out: Float32Array, count: number, alpha: number): void;
}

// ---------------------------------------------------------------------------------------------------------
// A few bytes of WebAssembly, assembled by hand

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (small i32 constants). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;

const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  f32: (x: number) => [0x43, ...new Uint8Array(new Float32Array([x]).buffer)],
  i32Add: [0x6a],
  i32And: [0x71],
  i32Shl: [0x74],
  i32GeU: [0x4f],
  f32Sub: [0x93],
  f32Add: [0x92],
  f32Mul: [0x94],
  /** memarg: alignment 4 bytes (views may start anywhere a float32 may), offset 0 */
  f32Load: [0x2a, 0x02, 0x00],
  f32Store: [0x38, 0x02, 0x00],
  simd: (code: number, ...rest: number[]) => [0xfd, ...uleb(code), ...rest],
};
const v = {
  load: op.simd(0x00, 0x02, 0x00),
  store: op.simd(0x0b, 0x02, 0x00),
  const: (bytes: number[]) => op.simd(0x0c, ...bytes),
  shuffle: (lanes: number[]) => op.simd(0x0d, ...lanes),
  splat: op.simd(0x13),
  lt: op.simd(0x43),
  gt: op.simd(0x44),
  and: op.simd(0x4e),
  xor: op.simd(0x51),
  sqrt: op.simd(0xe3),
  add: op.simd(0xe4),
  mul: op.simd(0xe6),
  div: op.simd(0xe7),
};

/** Float lanes [2, 3, 0, 1] and [1, 0, 3, 2] of one vector, as byte shuffles. */
const SWAP_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const SWAP_PAIRS = [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11];

/** m <- m + swap(m, m), twice: then every lane holds the sum of the four. */
const horizontalSum = (m: number) => [
  ...op.get(m), ...op.get(m), ...op.get(m), ...v.shuffle(SWAP_HALVES), ...v.add, ...op.set(m),
  ...op.get(m), ...op.get(m), ...op.get(m), ...v.shuffle(SWAP_PAIRS), ...v.add, ...op.set(m),
];

// params: 0 a, 1 b, 2 out, 3 n, 4 alpha
function lerpBody(): number[] {
  const [A, B, OUT, N, ALPHA] = [0, 1, 2, 3, 4];
  // locals: 5 i, 6 end4, 7 endAll (i32); 8 beta (f32); 9 va, 10 vb (v128)
  const [I, END4, END, BETA, VA, VB] = [5, 6, 7, 8, 9, 10];
  const locals = [3, ...uleb(3), I32, ...uleb(1), F32, ...uleb(2), V128];
  const code = [
    ...op.f32(1), ...op.get(ALPHA), ...op.f32Sub, ...op.set(BETA),
    ...op.get(BETA), ...v.splat, ...op.set(VA),
    ...op.get(ALPHA), ...v.splat, ...op.set(VB),
    ...op.get(N), ...op.i32(-4), ...op.i32And, ...op.i32(2), ...op.i32Shl, ...op.set(END4),
    ...op.get(N), ...op.i32(2), ...op.i32Shl, ...op.set(END),
    // four at a time
    ...op.block, ...op.loop,
    ...op.get(I), ...op.get(END4), ...op.i32GeU, ...op.brIf(1),
    ...op.get(OUT), ...op.get(I), ...op.i32Add,
    ...op.get(A), ...op.get(I), ...op.i32Add, ...v.load, ...op.get(VA), ...v.mul,
    ...op.get(B), ...op.get(I), ...op.i32Add, ...v.load, ...op.get(VB), ...v.mul,
    ...v.add, ...v.store,
    ...op.get(I), ...op.i32(16), ...op.i32Add, ...op.set(I),
    ...op.br(0), ...op.end, ...op.end,
    // the rest, one at a time
    ...op.block, ...op.loop,
    ...op.get(I), ...op.get(END), ...op.i32GeU, ...op.brIf(1),
    ...op.get(OUT), ...op.get(I), ...op.i32Add,
    ...op.get(A), ...op.get(I), ...op.i32Add, ...op.f32Load, ...op.get(BETA), ...op.f32Mul,
    ...op.get(B), ...op.get(I), ...op.i32Add, ...op.f32Load, ...op.get(ALPHA), ...op.f32Mul,
    ...op.f32Add, ...op.f32Store,
    ...op.get(I), ...op.i32(4), ...op.i32Add, ...op.set(I),
    ...op.br(0), ...op.end, ...op.end,
    ...op.end,
  ];
  return [...locals, ...code];
}

/** A byte shuffle picking float lanes `lanes` (0-3 from the first operand, 4-7 from the second). */
const lanes = (...picks: number[]) => v.shuffle(picks.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]));

function nlerpBody(): number[] {
  const [A, B, OUT, COUNT, ALPHA] = [0, 1, 2, 3, 4];
  // locals: 5 i, 6 end, 7 end4 (i32); 8 va, 9 vb, 10 qb, 11 m, 12 x, 13-16 q0-q3, 17-20 r0-r3, 21 t0, 22 t1 (v128)
  const [I, END, END4, VA, VB, QB, M, X] = [5, 6, 7, 8, 9, 10, 11, 12];
  const Q = [13, 14, 15, 16];
  const R = [17, 18, 19, 20];
  const [T0, T1] = [21, 22];
  const locals = [2, ...uleb(3), I32, ...uleb(15), V128];
  const zero = v.const(Array.from({ length: 16 }, () => 0));
  const one = v.const([0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f]);
  const signs = v.const([0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0x80]);
  const at = (base: number, k: number) => [...op.get(base), ...op.get(I), ...op.i32Add, ...(k > 0 ? [...op.i32(16 * k), ...op.i32Add] : [])];
  /** Leaves [sum(v0), sum(v1), sum(v2), sum(v3)] on the stack, for the four vectors in locals vs. */
  const fourSums = (vs: number[]) => [
    ...op.get(vs[0]!), ...op.get(vs[1]!), ...lanes(0, 2, 4, 6), ...op.get(vs[0]!), ...op.get(vs[1]!), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(T0),
    ...op.get(vs[2]!), ...op.get(vs[3]!), ...lanes(0, 2, 4, 6), ...op.get(vs[2]!), ...op.get(vs[3]!), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(T1),
    ...op.get(T0), ...op.get(T1), ...lanes(0, 2, 4, 6), ...op.get(T0), ...op.get(T1), ...lanes(1, 3, 5, 7), ...v.add,
  ];
  /** Lane k of local m in all four lanes. */
  const broadcast = (m: number, k: number) => [...op.get(m), ...op.get(m), ...lanes(k, k, k, k)];
  const code = [
    ...op.f32(1), ...op.get(ALPHA), ...op.f32Sub, ...v.splat, ...op.set(VA),
    ...op.get(ALPHA), ...v.splat, ...op.set(VB),
    ...op.get(COUNT), ...op.i32(4), ...op.i32Shl, ...op.set(END),
    ...op.get(COUNT), ...op.i32(-4), ...op.i32And, ...op.i32(4), ...op.i32Shl, ...op.set(END4),
    // four quaternions at a time: one square root and one division for all four
    ...op.block, ...op.loop,
    ...op.get(I), ...op.get(END4), ...op.i32GeU, ...op.brIf(1),
    ...[0, 1, 2, 3].flatMap((k) => [...at(A, k), ...v.load, ...op.set(Q[k]!), ...at(B, k), ...v.load, ...op.set(R[k]!)]),
    // the four dot products, then the shorter path: flip r_k where dot_k < 0
    ...[0, 1, 2, 3].flatMap((k) => [...op.get(Q[k]!), ...op.get(R[k]!), ...v.mul, ...op.set([X, QB, M, T0][k]!)]),
    // (the products sit in X, QB, M, T0; fourSums uses T0 and T1 as scratch only after reading them)
    ...op.get(X), ...op.get(QB), ...lanes(0, 2, 4, 6), ...op.get(X), ...op.get(QB), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(T1),
    ...op.get(M), ...op.get(T0), ...lanes(0, 2, 4, 6), ...op.get(M), ...op.get(T0), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(T0),
    ...op.get(T1), ...op.get(T0), ...lanes(0, 2, 4, 6), ...op.get(T1), ...op.get(T0), ...lanes(1, 3, 5, 7), ...v.add,
    ...zero, ...v.lt, ...signs, ...v.and, ...op.set(M),
    ...[0, 1, 2, 3].flatMap((k) => [...op.get(R[k]!), ...broadcast(M, k), ...v.xor, ...op.set(R[k]!)]),
    // x_k = q_k * (1 - alpha) + r_k * alpha, kept in q_k
    ...[0, 1, 2, 3].flatMap((k) => [...op.get(Q[k]!), ...op.get(VA), ...v.mul, ...op.get(R[k]!), ...op.get(VB), ...v.mul, ...v.add, ...op.set(Q[k]!)]),
    // squared lengths into r_k, summed: l; inverse lengths (0 for a zero quaternion) into M
    ...[0, 1, 2, 3].flatMap((k) => [...op.get(Q[k]!), ...op.get(Q[k]!), ...v.mul, ...op.set(R[k]!)]),
    ...fourSums(R), ...op.set(X),
    ...one, ...op.get(X), ...v.sqrt, ...v.div, ...op.get(X), ...zero, ...v.gt, ...v.and, ...op.set(M),
    ...[0, 1, 2, 3].flatMap((k) => [...at(OUT, k), ...op.get(Q[k]!), ...broadcast(M, k), ...v.mul, ...v.store]),
    ...op.get(I), ...op.i32(64), ...op.i32Add, ...op.set(I),
    ...op.br(0), ...op.end, ...op.end,
    // the last count & 3, one at a time
    ...op.block, ...op.loop,
    ...op.get(I), ...op.get(END), ...op.i32GeU, ...op.brIf(1),
    // qb = b[i]; m = hsum(a[i] * qb)
    ...op.get(B), ...op.get(I), ...op.i32Add, ...v.load, ...op.set(QB),
    ...op.get(A), ...op.get(I), ...op.i32Add, ...v.load, ...op.get(QB), ...v.mul, ...op.set(M),
    ...horizontalSum(M),
    // the shorter path: flip qb's signs where the dot product is negative
    ...op.get(QB), ...op.get(M), ...zero, ...v.lt, ...signs, ...v.and, ...v.xor, ...op.set(QB),
    // x = a * (1 - alpha) + qb * alpha
    ...op.get(A), ...op.get(I), ...op.i32Add, ...v.load, ...op.get(VA), ...v.mul,
    ...op.get(QB), ...op.get(VB), ...v.mul, ...v.add, ...op.set(X),
    // m = hsum(x * x); out = (x / sqrt(m)) & (m > 0)
    ...op.get(X), ...op.get(X), ...v.mul, ...op.set(M),
    ...horizontalSum(M),
    ...op.get(OUT), ...op.get(I), ...op.i32Add,
    ...op.get(X), ...op.get(M), ...v.sqrt, ...v.div,
    ...op.get(M), ...zero, ...v.gt, ...v.and,
    ...v.store,
    ...op.get(I), ...op.i32(16), ...op.i32Add, ...op.set(I),
    ...op.br(0), ...op.end, ...op.end,
    ...op.end,
  ];
  return [...locals, ...code];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module's bytes; `shared` marks the imported memory shared (it must match the memory given). */
export function kernelModuleBytes(shared: boolean): Uint8Array<ArrayBuffer> {
  const type = section(1, [1, 0x60, 5, I32, I32, I32, I32, F32, 0]); // (i32 i32 i32 i32 f32) -> ()
  // memory import, limits: flag 0 = a minimum (1 page) only, which any unshared memory meets; flag 3 = shared,
  // with a maximum (65536 pages, 4 GiB), which a shared memory must declare
  const limits = shared ? [0x03, ...uleb(1), ...uleb(65536)] : [0x00, ...uleb(1)];
  const imports = section(2, [1, ...name('env'), ...name('memory'), 0x02, ...limits]);
  const functions = section(3, [2, 0, 0]);
  const exports = section(7, [2, ...name('lerp'), 0x00, 0, ...name('nlerp'), 0x00, 1]);
  const bodies = [lerpBody(), nlerpBody()].map((b) => [...uleb(b.length), ...b]);
  const code = section(10, [2, ...bodies.flat()]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imports, ...functions, ...exports, ...code]);
}

// ---------------------------------------------------------------------------------------------------------
// Start-up: pick a backend

/** Whether this engine runs WebAssembly SIMD (it validates the kernel module). */
export function simdSupported(): boolean {
  return typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function' && WebAssembly.validate(kernelModuleBytes(false));
}

const jsKernels: BlendKernels = {
  backend: 'js',
  memory: null,
  lerp: lerpField,
  nlerp: quaternionField,
};

type KernelExports = {
  lerp(a: number, b: number, out: number, n: number, alpha: number): void;
  nlerp(a: number, b: number, out: number, count: number, alpha: number): void;
};

export interface BlendKernelOptions {
  /** The memory to blend in: views over its buffer are blended in place. Default: a new one of `pages`. */
  readonly memory?: WebAssembly.Memory;
  /** 64 KiB pages for a new memory. Default 1. */
  readonly pages?: number;
  /** Use the JS kernels even where SIMD works (for comparisons). */
  readonly backend?: BlendBackend;
}

/**
 * Picks the kernels once: wasm SIMD where the engine has it, else JS. Compiles synchronously (the module is
 * a few hundred bytes, under every engine's synchronous-compile limit). Allocates; call at set-up.
 */
export function createBlendKernels(options: BlendKernelOptions = {}): BlendKernels {
  if (options.backend === 'js' || !simdSupported()) return jsKernels;
  const memory = options.memory ?? new WebAssembly.Memory({ initial: options.pages ?? 1 });
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  let wasm: KernelExports;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(kernelModuleBytes(shared)), { env: { memory } });
    wasm = instance.exports as unknown as KernelExports;
  } catch {
    return jsKernels; // e.g. a memory whose maximum the import does not accept
  }
  /** True when all three views lie in the wasm memory (looked up per call: a grown memory has a new buffer). */
  const inMemory = (a: Float32Array, b: Float32Array, out: Float32Array): boolean => {
    const buffer = memory.buffer;
    return a.buffer === buffer && b.buffer === buffer && out.buffer === buffer;
  };
  return {
    backend: 'wasm-simd',
    memory,
    lerp(previous, current, out, elements, alpha) {
      if (!inMemory(previous, current, out)) return lerpField(previous, current, out, elements, alpha);
      wasm.lerp(previous.byteOffset, current.byteOffset, out.byteOffset, elements, alpha);
    },
    nlerp(previous, current, out, count, alpha) {
      if (!inMemory(previous, current, out)) return quaternionField(previous, current, out, count, alpha);
      wasm.nlerp(previous.byteOffset, current.byteOffset, out.byteOffset, count, alpha);
    },
  };
}
