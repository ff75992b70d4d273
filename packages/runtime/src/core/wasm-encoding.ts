/** The one piece of the WebAssembly binary format the hand-assembled modules (simd-kernel.ts, memory-copy.ts) share. */

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
