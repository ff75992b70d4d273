/**
 * The manual clock's memory map: a SharedArrayBuffer of its own, passed to the worker at attach
 * (ARCHITECTURE.md, "The manual clock"). Only the page writes SEQ and TIME; only the worker writes ACK and
 * ATTACHED.
 *
 * ```text
 *  Int32 words  0 SEQ       bumped (Atomics.add + notify) each time the page moves the time or asks to settle
 *               1 TIME_SEQ  the sequence lock around TIME (core/float64-words.ts)
 *               2 TIME_LO   3 TIME_HI   the time, shared-clock ms
 *               4 ACK       the last SEQ the worker has settled at: every loop asleep or ended, every timer due fired
 *               5 ATTACHED  1 once a worker runs on this clock
 *               6 MAGIC     says the buffer is a manual clock's
 * ```
 */
import { readSeqFloat64Whole, writeSeqFloat64 } from '../../core/float64-words.ts';

export const CLOCK = { SEQ: 0, TIME_SEQ: 1, TIME_LO: 2, ACK: 4, ATTACHED: 5, MAGIC: 6 } as const;
export const CLOCK_BYTES = 64;
/** 'SFMC' */
export const CLOCK_MAGIC = 0x534d4643;

/** A new clock's buffer at `time`. */
export function allocateClock(time: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(CLOCK_BYTES);
  const i32 = new Int32Array(buffer);
  writeClockTime(i32, time);
  Atomics.store(i32, CLOCK.MAGIC, CLOCK_MAGIC);
  return buffer;
}

/** The clock's words, checked. */
export function clockWords(buffer: SharedArrayBuffer): Int32Array {
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < CLOCK_BYTES) {
    throw new TypeError('steadyframe: a manual clock lives in a SharedArrayBuffer of 64 bytes (createManualClock() makes one)');
  }
  const i32 = new Int32Array(buffer, 0, CLOCK_BYTES / 4);
  if (Atomics.load(i32, CLOCK.MAGIC) !== CLOCK_MAGIC) throw new TypeError('steadyframe: this buffer is not a manual clock (createManualClock() makes one)');
  return i32;
}

export function readClockTime(i32: Int32Array): number {
  return readSeqFloat64Whole(i32, CLOCK.TIME_SEQ, CLOCK.TIME_LO);
}

export function writeClockTime(i32: Int32Array, time: number): void {
  writeSeqFloat64(i32, CLOCK.TIME_SEQ, CLOCK.TIME_LO, time);
}
