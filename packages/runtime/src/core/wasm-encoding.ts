/**
 * The LEB128 numbers of the WebAssembly binary format, as the hand-assembled modules write them (unsigned in
 * simd-kernel-module.ts and memory-copy.ts, signed for the kernels' i32 constants).
 */

/** Unsigned LEB128: how the binary format writes a count, an index or an offset. */
export function uleb(n: number): number[] {
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
export function sleb(n: number): number[] {
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
