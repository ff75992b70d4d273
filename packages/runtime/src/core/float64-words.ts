/**
 * A float64 kept in two adjacent Int32 header words (`lo`, `lo + 1`), every access an Atomics operation, under a
 * sequence word that is odd while a write is under way. A plain Float64 read between two atomic loads would not
 * be ordered by the ECMAScript memory model; two Int32 halves read with Atomics are. NEXT_FRAME (FRAME_SEQ) and
 * COVERED (PLAN_SEQ) use it: one writer each, readers that retry or give up on a changed or odd sequence.
 */

/** Splits a float64 into two int32 halves and back, without allocating. One per realm; not re-entrant. */
const bits = new Float64Array(1);
const halves = new Int32Array(bits.buffer);

/** The float64 in words `lo`, `lo + 1`, loaded with Atomics (whole only if the caller's sequence check says so). */
export function loadFloat64(i32: Int32Array, lo: number): number {
  halves[0] = Atomics.load(i32, lo);
  halves[1] = Atomics.load(i32, lo + 1);
  return bits[0]!;
}

/** Stores `value` into words `lo`, `lo + 1` with Atomics, no sequence: for a buffer no other thread has yet. */
export function storeFloat64(i32: Int32Array, lo: number, value: number): void {
  bits[0] = value;
  Atomics.store(i32, lo, halves[0]!);
  Atomics.store(i32, lo + 1, halves[1]!);
}

/** Writes `value` into words `lo`, `lo + 1` under sequence word `seq`: odd while the halves are stored, even after. */
export function writeSeqFloat64(i32: Int32Array, seq: number, lo: number, value: number): void {
  Atomics.add(i32, seq, 1); // odd: a write is under way
  storeFloat64(i32, lo, value);
  Atomics.add(i32, seq, 1); // even: published
}

/** One try at reading words `lo`, `lo + 1` under sequence word `seq`: NaN when a write was under way or happened meanwhile. */
export function readSeqFloat64(i32: Int32Array, seq: number, lo: number): number {
  const before = Atomics.load(i32, seq);
  if ((before & 1) !== 0) return Number.NaN;
  const value = loadFloat64(i32, lo);
  return Atomics.load(i32, seq) === before ? value : Number.NaN;
}

/** Reads words `lo`, `lo + 1` under sequence word `seq`, retrying until a read is whole (the writer holds it odd for a few instructions). */
export function readSeqFloat64Whole(i32: Int32Array, seq: number, lo: number): number {
  for (;;) {
    const before = Atomics.load(i32, seq);
    if ((before & 1) !== 0) continue;
    const value = loadFloat64(i32, lo);
    if (Atomics.load(i32, seq) === before) return value;
  }
}
