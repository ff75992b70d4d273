/**
 * A small WebAssembly assembler, enough for the blend kernels (simd-kernel-module.ts): the value types, the
 * instructions they use (core and SIMD, each as the bytes it encodes to), memory arguments for multi-memory,
 * and the section and name framing of a module. No toolchain: a module is an array of these bytes.
 */
import { sleb, uleb } from './wasm-encoding.ts';

/**
 * A memarg: alignment 4 bytes (views may start anywhere a float32 may), a static byte `offset`, in memory
 * `mem`. Memory 0 is the default; any other is named after bit 6 of the alignment flags (multi-memory).
 */
export const memarg = (mem: number, offset = 0): number[] => (mem === 0 ? [0x02, ...uleb(offset)] : [0x42, ...uleb(mem), ...uleb(offset)]);

/** Value types, as locals and signatures name them. */
export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

/** Core instructions: control flow, locals, i32 and f32 arithmetic, f32 loads and stores; `simd` prefixes a SIMD one. */
export const op = {
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
  f32Floor: [0x8e],
  f32Load: (mem: number) => [0x2a, ...memarg(mem)],
  f32Store: (mem: number) => [0x38, ...memarg(mem)],
  simd: (code: number, ...rest: number[]) => [0xfd, ...uleb(code), ...rest],
};

/** SIMD (f32x4 and v128) instructions. */
export const v = {
  load: (mem: number, offset = 0) => op.simd(0x00, ...memarg(mem, offset)),
  store: (mem: number, offset = 0) => op.simd(0x0b, ...memarg(mem, offset)),
  const: (bytes: number[]) => op.simd(0x0c, ...bytes),
  shuffle: (lanes: number[]) => op.simd(0x0d, ...lanes),
  splat: op.simd(0x13),
  lt: op.simd(0x43),
  gt: op.simd(0x44),
  and: op.simd(0x4e),
  xor: op.simd(0x51),
  sqrt: op.simd(0xe3),
  floor: op.simd(0x68),
  sub: op.simd(0xe5),
  /** Relaxed SIMD f32x4.relaxed_madd: a * b + c, fused where the CPU has FMA. */
  madd: op.simd(0x105),
  add: op.simd(0xe4),
  mul: op.simd(0xe6),
  div: op.simd(0xe7),
};

/** A section: its id, then its content, length-prefixed. */
export function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

/** A name (an import's module and field, an export): length-prefixed ASCII. */
export const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
