/**
 * The blend kernels' WebAssembly module: the bodies of `lerp`, `nlerp` and `angle` (the same blends as
 * interpolate.ts's `lerpField`, `quaternionField` and `angleField`, four float32 lanes at a time) and the module
 * around them, hand-assembled with wasm-assembler.ts (no toolchain) and compiled synchronously at start-up.
 * simd-features.ts validates it; simd-kernel.ts instantiates it.
 *
 * Precision: the kernels compute in float32 (the JS ones in float64, rounded at the store): results agree to a
 * few ulps (test/node/simd-kernel.test.ts). lerp is `a * (1 - alpha) + b * alpha`, so alpha 0 and 1 give the
 * inputs back exactly, as the JS kernel does.
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
 *     ;; eight quaternions a turn, as two groups of four whose steps interleave; per group (q_k = a, r_k = b):
 *     ;; d = [q_0.r_0, q_1.r_1, q_2.r_2, q_3.r_3]          four products, summed by a 4x4 transpose-add
 *     ;; s = splat(alpha) ^ ((d < 0) & 0x80000000)          per quaternion, alpha signed for the shorter path
 *     ;; x_k = q_k * (1 - alpha) + r_k * s[k]             (one relaxed_madd where relaxed SIMD validates)
 *     ;; l = [|x_0|^2 .. |x_3|^2];  m = (1 / sqrt(l)) & (l > 0)   one sqrt, one div; a zero quaternion stays 0
 *     ;; out_k = x_k * m[k]
 *     ;; then at most one more group of four, then the last count & 3 one at a time
 *   )
 *   (func (export "angle") (param $a i32) (param $b i32) (param $out i32) (param $n i32) (param $alpha f32)
 *     ;; four at a time, wrap(x) = x - tau * floor((x + pi) / tau):  out = wrap(a + wrap(b - a) * alpha)
 *     ;; then the last n & 3 one at a time, the same in f32
 *   ))
 * ```
 *
 * With `render`, the module imports a second, unshared memory and adds `lerpOut` / `nlerpOut` / `angleOut`:
 * the same bodies with their stores in memory 1 (multi-memory). Memory 0 is the runtime's shared buffer (a
 * shared `WebAssembly.Memory`) for the main kernel set, or the render-delay history's own unshared memory for
 * the second set; memory 1 is the one render memory both sets write.
 */
import { F32, I32, V128, name, op, section, v } from './wasm-assembler.ts';
import { uleb } from './wasm-encoding.ts';

/** Float lanes [2, 3, 0, 1] and [1, 0, 3, 2] of one vector, as byte shuffles. */
const SWAP_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const SWAP_PAIRS = [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11];

/** m <- m + swap(m, m), twice: then every lane holds the sum of the four. */
const horizontalSum = (m: number) => [
  ...op.get(m), ...op.get(m), ...op.get(m), ...v.shuffle(SWAP_HALVES), ...v.add, ...op.set(m),
  ...op.get(m), ...op.get(m), ...op.get(m), ...v.shuffle(SWAP_PAIRS), ...v.add, ...op.set(m),
];

/** What a module variant may use beyond SIMD: the memory its blends go to, and relaxed SIMD's fused multiply-add. */
interface Variant {
  /** The memory the blends are stored to: 0 (in place) or 1 (the render memory). */
  readonly dst: number;
  readonly relaxed: boolean;
}

/** a * va + b * vb for the v128s the two code pieces leave on the stack: one relaxed_madd, or mul, mul, add. */
const blendTwo = (variant: Variant, a: number[], va: number[], b: number[], vb: number[]): number[] =>
  variant.relaxed ? [...b, ...vb, ...a, ...va, ...v.mul, ...v.madd] : [...a, ...va, ...v.mul, ...b, ...vb, ...v.mul, ...v.add];

/**
 * An element-wise pass over n float32s (params 0 a, 1 b, 2 out, 3 n): sets the byte ends (locals `end4`, `end`
 * from n), then runs `four` for bytes i .. end4 sixteen at a time and `one` for the rest one float at a time.
 * Both find the output address on the stack and leave nothing; `at(base)` pushes base + i.
 */
function elementwise(locals: { i: number; end4: number; end: number }, four: number[], one: number[]): number[] {
  const N = 3;
  const { i, end4, end } = locals;
  const out = [...op.get(2), ...op.get(i), ...op.i32Add];
  return [
    ...op.get(N), ...op.i32(-4), ...op.i32And, ...op.i32(2), ...op.i32Shl, ...op.set(end4),
    ...op.get(N), ...op.i32(2), ...op.i32Shl, ...op.set(end),
    ...op.block, ...op.loop,
    ...op.get(i), ...op.get(end4), ...op.i32GeU, ...op.brIf(1),
    ...out, ...four,
    ...op.get(i), ...op.i32(16), ...op.i32Add, ...op.set(i),
    ...op.br(0), ...op.end, ...op.end,
    ...op.block, ...op.loop,
    ...op.get(i), ...op.get(end), ...op.i32GeU, ...op.brIf(1),
    ...out, ...one,
    ...op.get(i), ...op.i32(4), ...op.i32Add, ...op.set(i),
    ...op.br(0), ...op.end, ...op.end,
  ];
}

// params: 0 a, 1 b, 2 out, 3 n, 4 alpha; a and b are read from memory 0, out is written to memory `dst`
function lerpBody(variant: Variant): number[] {
  const { dst } = variant;
  const [A, B, ALPHA] = [0, 1, 4]; // (2 out and 3 n: see elementwise)
  // locals: 5 i, 6 end4, 7 endAll (i32); 8 beta (f32); 9 va, 10 vb (v128)
  const [I, END4, END, BETA, VA, VB] = [5, 6, 7, 8, 9, 10];
  const locals = [3, ...uleb(3), I32, ...uleb(1), F32, ...uleb(2), V128];
  const at = (base: number) => [...op.get(base), ...op.get(I), ...op.i32Add];
  const code = [
    ...op.f32(1), ...op.get(ALPHA), ...op.f32Sub, ...op.set(BETA),
    ...op.get(BETA), ...v.splat, ...op.set(VA),
    ...op.get(ALPHA), ...v.splat, ...op.set(VB),
    // out = a * (1 - alpha) + b * alpha (alpha 0 and 1 give a and b exactly, fused or not); the rest the same in f32
    ...elementwise(
      { i: I, end4: END4, end: END },
      [...blendTwo(variant, [...at(A), ...v.load(0)], op.get(VA), [...at(B), ...v.load(0)], op.get(VB)), ...v.store(dst)],
      [...at(A), ...op.f32Load(0), ...op.get(BETA), ...op.f32Mul, ...at(B), ...op.f32Load(0), ...op.get(ALPHA), ...op.f32Mul, ...op.f32Add, ...op.f32Store(dst)],
    ),
    ...op.end,
  ];
  return [...locals, ...code];
}

const TAU = 2 * Math.PI;

// params: 0 a, 1 b, 2 out, 3 n, 4 alpha: n angles (radians) along the shorter arc, wrapped into [-PI, PI)
function angleBody(variant: Variant): number[] {
  const { dst } = variant;
  const [A, B, ALPHA] = [0, 1, 4]; // (2 out and 3 n: see elementwise)
  // locals: 5 i, 6 end4, 7 end (i32); 8 x (f32); 9 va, 10 pi, 11 tau, 12 inverse tau, 13 d (v128)
  const [I, END4, END, X, VA, PI4, TAU4, INV4, D] = [5, 6, 7, 8, 9, 10, 11, 12, 13];
  const locals = [3, ...uleb(3), I32, ...uleb(1), F32, ...uleb(5), V128];
  /** x - tau * floor((x + pi) / tau) for the v128 on the stack, kept in D: x wrapped into [-PI, PI). */
  const wrap4 = [
    ...op.set(D),
    ...op.get(D), ...op.get(TAU4), ...op.get(D), ...op.get(PI4), ...v.add, ...op.get(INV4), ...v.mul, ...v.floor, ...v.mul, ...v.sub,
  ];
  /** The same for the f32 on the stack, in X. */
  const wrap1 = [
    ...op.set(X),
    ...op.get(X), ...op.f32(TAU), ...op.get(X), ...op.f32(Math.PI), ...op.f32Add, ...op.f32(1 / TAU), ...op.f32Mul, ...op.f32Floor, ...op.f32Mul, ...op.f32Sub,
  ];
  const at = (base: number) => [...op.get(base), ...op.get(I), ...op.i32Add];
  const code = [
    ...op.get(ALPHA), ...v.splat, ...op.set(VA),
    ...op.f32(Math.PI), ...v.splat, ...op.set(PI4),
    ...op.f32(TAU), ...v.splat, ...op.set(TAU4),
    ...op.f32(1 / TAU), ...v.splat, ...op.set(INV4),
    // four at a time: out = wrap(a + wrap(b - a) * alpha); the rest the same in f32
    ...elementwise(
      { i: I, end4: END4, end: END },
      [
        ...at(B), ...v.load(0), ...at(A), ...v.load(0), ...v.sub, ...wrap4,
        ...(variant.relaxed ? [...op.get(VA), ...at(A), ...v.load(0), ...v.madd] : [...op.get(VA), ...v.mul, ...at(A), ...v.load(0), ...v.add]),
        ...wrap4, ...v.store(dst),
      ],
      [
        ...at(B), ...op.f32Load(0), ...at(A), ...op.f32Load(0), ...op.f32Sub, ...wrap1,
        ...op.get(ALPHA), ...op.f32Mul, ...at(A), ...op.f32Load(0), ...op.f32Add,
        ...wrap1, ...op.f32Store(dst),
      ],
    ),
    ...op.end,
  ];
  return [...locals, ...code];
}

/** A byte shuffle picking float lanes `lanes` (0-3 from the first operand, 4-7 from the second). */
const lanes = (...picks: number[]) => v.shuffle(picks.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]));

function nlerpBody(variant: Variant): number[] {
  const { dst } = variant;
  const [A, B, OUT, COUNT, ALPHA] = [0, 1, 2, 3, 4];
  // locals: 5 i, 6 end, 7 end4, 8 pa, 9 pb, 10 po, 11 stop, 12 stop8 (i32); then v128: va, vb, zero, signs, and
  // per group of four (two groups in flight): q0-q3, r0-r3, m, x, qb, t0, t1
  const [I, END, END4, PA, PB, PO, STOP, STOP8] = [5, 6, 7, 8, 9, 10, 11, 12];
  const [VA, VB, ZERO, SIGNS] = [13, 14, 15, 16];
  interface Group { q: number[]; r: number[]; m: number; x: number; qb: number; t0: number; t1: number; at: number }
  const group = (base: number, at: number): Group => ({
    q: [base, base + 1, base + 2, base + 3], r: [base + 4, base + 5, base + 6, base + 7],
    m: base + 8, x: base + 9, qb: base + 10, t0: base + 11, t1: base + 12, at,
  });
  const G = [group(17, 0), group(30, 64)];
  // used by the one-at-a-time tail below
  const [QB, M, X] = [G[0]!.qb, G[0]!.m, G[0]!.x];
  const locals = [2, ...uleb(8), I32, ...uleb(4 + 13 * G.length), V128];
  const zero = op.get(ZERO);
  const signs = op.get(SIGNS);
  /** Leaves [sum(v0), sum(v1), sum(v2), sum(v3)] on the stack, for the four vectors in locals vs. */
  const fourSums = (g: Group, vs: number[]) => [
    ...op.get(vs[0]!), ...op.get(vs[1]!), ...lanes(0, 2, 4, 6), ...op.get(vs[0]!), ...op.get(vs[1]!), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(g.t0),
    ...op.get(vs[2]!), ...op.get(vs[3]!), ...lanes(0, 2, 4, 6), ...op.get(vs[2]!), ...op.get(vs[3]!), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(g.t1),
    ...op.get(g.t0), ...op.get(g.t1), ...lanes(0, 2, 4, 6), ...op.get(g.t0), ...op.get(g.t1), ...lanes(1, 3, 5, 7), ...v.add,
  ];
  /** Lane k of local m in all four lanes. */
  const broadcast = (m: number, k: number) => [...op.get(m), ...op.get(m), ...lanes(k, k, k, k)];
  /** The phases for one group of four at pa/pb/po + g.at; the groups' phases are interleaved. */
  const phases = (g: Group): number[][] => [
    [0, 1, 2, 3].flatMap((k) => [...op.get(PA), ...v.load(0, g.at + 16 * k), ...op.set(g.q[k]!), ...op.get(PB), ...v.load(0, g.at + 16 * k), ...op.set(g.r[k]!)]),
    // the four dot products q_k . r_k, lane k of one vector
    [0, 1, 2, 3].flatMap((k) => [...op.get(g.q[k]!), ...op.get(g.r[k]!), ...v.mul, ...op.set([g.x, g.qb, g.m, g.t0][k]!)]),
    [
      ...op.get(g.x), ...op.get(g.qb), ...lanes(0, 2, 4, 6), ...op.get(g.x), ...op.get(g.qb), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(g.t1),
      ...op.get(g.m), ...op.get(g.t0), ...lanes(0, 2, 4, 6), ...op.get(g.m), ...op.get(g.t0), ...lanes(1, 3, 5, 7), ...v.add, ...op.set(g.t0),
      ...op.get(g.t1), ...op.get(g.t0), ...lanes(0, 2, 4, 6), ...op.get(g.t1), ...op.get(g.t0), ...lanes(1, 3, 5, 7), ...v.add,
      // the shorter path: per quaternion, alpha with the sign of its dot product (-alpha flips r_k)
      ...zero, ...v.lt, ...signs, ...v.and, ...op.get(VB), ...v.xor, ...op.set(g.m),
    ],
    // x_k = q_k * (1 - alpha) + r_k * (+-alpha), kept in q_k; its square into r_k
    [0, 1, 2, 3].flatMap((k) => [
      ...blendTwo(variant, op.get(g.q[k]!), op.get(VA), op.get(g.r[k]!), broadcast(g.m, k)), ...op.set(g.q[k]!),
      ...op.get(g.q[k]!), ...op.get(g.q[k]!), ...v.mul, ...op.set(g.r[k]!),
    ]),
    // squared lengths summed; inverse lengths (0 for a zero quaternion) into m
    [
      ...fourSums(g, g.r), ...op.set(g.x),
      ...v.const([0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f]), ...op.get(g.x), ...v.sqrt, ...v.div,
      ...op.get(g.x), ...zero, ...v.gt, ...v.and, ...op.set(g.m),
    ],
    [0, 1, 2, 3].flatMap((k) => [...op.get(PO), ...op.get(g.q[k]!), ...broadcast(g.m, k), ...v.mul, ...v.store(dst, g.at + 16 * k)]),
  ];
  const interleaved = (groups: Group[]) => {
    const all = groups.map(phases);
    return all[0]!.flatMap((_, i) => all.flatMap((p) => p[i]!));
  };
  const advance = (bytes: number) => [
    ...op.get(PA), ...op.i32(bytes), ...op.i32Add, ...op.set(PA),
    ...op.get(PB), ...op.i32(bytes), ...op.i32Add, ...op.set(PB),
    ...op.get(PO), ...op.i32(bytes), ...op.i32Add, ...op.set(PO),
  ];
  const code = [
    ...op.f32(1), ...op.get(ALPHA), ...op.f32Sub, ...v.splat, ...op.set(VA),
    ...op.get(ALPHA), ...v.splat, ...op.set(VB),
    ...v.const(Array.from({ length: 16 }, () => 0)), ...op.set(ZERO),
    ...v.const([0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0x80]), ...op.set(SIGNS),
    ...op.get(COUNT), ...op.i32(4), ...op.i32Shl, ...op.set(END),
    ...op.get(COUNT), ...op.i32(-4), ...op.i32And, ...op.i32(4), ...op.i32Shl, ...op.set(END4),
    ...op.get(A), ...op.set(PA), ...op.get(B), ...op.set(PB), ...op.get(OUT), ...op.set(PO),
    ...op.get(A), ...op.get(END4), ...op.i32Add, ...op.set(STOP),
    ...op.get(A), ...op.get(COUNT), ...op.i32(-8), ...op.i32And, ...op.i32(4), ...op.i32Shl, ...op.i32Add, ...op.set(STOP8),
    // eight quaternions a turn, as two groups of four whose steps interleave (one square root and one division
    // per group): two independent chains in flight
    ...op.block, ...op.loop,
    ...op.get(PA), ...op.get(STOP8), ...op.i32GeU, ...op.brIf(1),
    ...interleaved(G),
    ...advance(128),
    ...op.br(0), ...op.end, ...op.end,
    // then at most one more group of four
    ...op.block,
    ...op.get(PA), ...op.get(STOP), ...op.i32GeU, ...op.brIf(0),
    ...interleaved([G[0]!]),
    ...op.end,
    ...op.get(END4), ...op.set(I),
    // the last count & 3, one at a time
    ...op.block, ...op.loop,
    ...op.get(I), ...op.get(END), ...op.i32GeU, ...op.brIf(1),
    // qb = b[i]; m = hsum(a[i] * qb)
    ...op.get(B), ...op.get(I), ...op.i32Add, ...v.load(0), ...op.set(QB),
    ...op.get(A), ...op.get(I), ...op.i32Add, ...v.load(0), ...op.get(QB), ...v.mul, ...op.set(M),
    ...horizontalSum(M),
    // the shorter path: flip qb's signs where the dot product is negative
    ...op.get(QB), ...op.get(M), ...zero, ...v.lt, ...signs, ...v.and, ...v.xor, ...op.set(QB),
    // x = a * (1 - alpha) + qb * alpha
    ...op.get(A), ...op.get(I), ...op.i32Add, ...v.load(0), ...op.get(VA), ...v.mul,
    ...op.get(QB), ...op.get(VB), ...v.mul, ...v.add, ...op.set(X),
    // m = hsum(x * x); out = (x / sqrt(m)) & (m > 0)
    ...op.get(X), ...op.get(X), ...v.mul, ...op.set(M),
    ...horizontalSum(M),
    ...op.get(OUT), ...op.get(I), ...op.i32Add,
    ...op.get(X), ...op.get(M), ...v.sqrt, ...v.div,
    ...op.get(M), ...zero, ...v.gt, ...v.and,
    ...v.store(dst),
    ...op.get(I), ...op.i32(16), ...op.i32Add, ...op.set(I),
    ...op.br(0), ...op.end, ...op.end,
    ...op.end,
  ];
  return [...locals, ...code];
}

/**
 * The module's bytes; `shared` marks the imported memory shared (it must match the memory given). With
 * `render`, the module also imports a second, unshared memory ("env" "render": multi-memory) and exports
 * `lerpOut`, `nlerpOut` and `angleOut`, which read memory 0 and write that one: the blend lands in a plain buffer the
 * caller may hand to any API (some, like ImageData, refuse shared views), with no copy out of shared memory.
 * With `relaxed`, the blends use relaxed SIMD's fused multiply-add (fewer instructions; as exact or more).
 */
export function kernelModuleBytes(shared: boolean, render = false, relaxed = false): Uint8Array<ArrayBuffer> {
  const type = section(1, [1, 0x60, 5, I32, I32, I32, I32, F32, 0]); // (i32 i32 i32 i32 f32) -> ()
  // memory import, limits: flag 0 = a minimum (1 page) only, which any unshared memory meets; flag 3 = shared,
  // with a maximum (65536 pages, 4 GiB), which a shared memory must declare
  const limits = shared ? [0x03, ...uleb(1), ...uleb(65536)] : [0x00, ...uleb(1)];
  const memoryImports = [[...name('env'), ...name('memory'), 0x02, ...limits]];
  if (render) memoryImports.push([...name('env'), ...name('render'), 0x02, 0x00, ...uleb(1)]);
  const imports = section(2, [memoryImports.length, ...memoryImports.flat()]);
  const variants: Variant[] = render ? [{ dst: 0, relaxed }, { dst: 1, relaxed }] : [{ dst: 0, relaxed }];
  const bodies = variants.flatMap((variant) => [lerpBody(variant), nlerpBody(variant), angleBody(variant)]);
  const functions = section(3, [bodies.length, ...bodies.map(() => 0)]);
  const names = ['lerp', 'nlerp', 'angle', 'lerpOut', 'nlerpOut', 'angleOut'].slice(0, bodies.length);
  const exports = section(7, [names.length, ...names.flatMap((n, i) => [...name(n), 0x00, i])]);
  const code = section(10, [bodies.length, ...bodies.flatMap((b) => [...uleb(b.length), ...b])]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imports, ...functions, ...exports, ...code]);
}
