/**
 * Bit streams for the snapshot body (net/delta-body.ts): a writer that grows, a reader that trusts nothing. Bits
 * go least significant first into 32-bit words, little-endian on the wire, so a body is read back exactly as
 * written whatever its length; the reader refuses (`WireError` 'truncated') a read past the body's end, so a
 * hostile body costs the check, never an out-of-bounds read.
 *
 * The codes (n ≤ 32 bits a value):
 * - `bits(v, n)`: v's low n bits as they are.
 * - `rice(v, k, n)`: an n-bit value v as q = v >>> k ones and a zero (unary), then v's low k bits; q at or past
 *   RICE_ESCAPE is written as RICE_ESCAPE ones and v's n bits raw. A good k (net/delta-body.ts picks the cheapest
 *   per component and snapshot) makes small values a few bits and bounds a large one at RICE_ESCAPE + n.
 * - `gamma(v)`: Elias gamma of v ≥ 1 (2⌊log2 v⌋ + 1 bits), for counts whose size is unknown.
 */
import { WireError } from './wire-head.ts';

/** Unary runs at or past this many ones are an escape: the value follows raw. */
export const RICE_ESCAPE = 24;
const ESCAPE_ONES = (1 << RICE_ESCAPE) - 1;
const POW2 = Float64Array.from({ length: 33 }, (_, k) => 2 ** k);

export class BitWriter {
  #words: Uint32Array;
  /** Bits written. */
  #bit = 0;

  constructor(initialBytes = 1024) {
    this.#words = new Uint32Array(Math.max(1, Math.ceil(initialBytes / 4)));
  }

  get bitLength(): number {
    return this.#bit;
  }

  /** Bytes the bits written take, whole. */
  get byteLength(): number {
    return Math.ceil(this.#bit / 8);
  }

  /** Starts over (the words stay, for the next body). */
  reset(): void {
    this.#words.fill(0, 0, (this.#bit >>> 5) + 2);
    this.#bit = 0;
  }

  /** The low `n` bits of `v` (0 ≤ n ≤ 32). */
  bits(v: number, n: number): void {
    if (n === 0) return;
    if (n < 32) v &= (1 << n) - 1;
    const word = this.#bit >>> 5;
    const shift = this.#bit & 31;
    if (word + 1 >= this.#words.length) this.#grow();
    const words = this.#words;
    words[word] = words[word]! | (v << shift);
    // the part of v that did not fit in this word (a shift by 32 is a shift by 0 in JavaScript: test first)
    if (shift + n > 32) words[word + 1] = v >>> (32 - shift);
    this.#bit += n;
  }

  bit(flag: boolean): void {
    this.bits(flag ? 1 : 0, 1);
  }

  /** `count` ones then a zero. */
  unary(count: number): void {
    while (count >= 31) {
      this.bits(0x7fffffff, 31);
      count -= 31;
    }
    this.bits((1 << count) - 1, count + 1);
  }

  rice(v: number, k: number, n: number): void {
    const q = Math.floor(v / POW2[k]!);
    if (q >= RICE_ESCAPE) {
      this.bits(ESCAPE_ONES, RICE_ESCAPE); // RICE_ESCAPE ones and no zero: the value follows raw
      this.bits(v, n);
      return;
    }
    // q ones and a zero, then the low k bits: one write when they fit a word
    if (q + 1 + k <= 32) {
      this.bits(((1 << q) - 1) | ((k === 0 ? 0 : v & ((1 << k) - 1)) << (q + 1)), q + 1 + k);
      return;
    }
    this.unary(q);
    this.bits(v, k);
  }

  gamma(v: number): void {
    const length = 31 - Math.clz32(v);
    this.bits(0, length);
    // v's bits from the top one down: the reader counts the zeros, then reads length + 1 bits
    for (let i = length; i >= 0; i--) this.bits((v >>> i) & 1, 1);
  }

  /** The bits written, as bytes (a copy into `out` at `at`). */
  copyTo(out: Uint8Array, at: number): void {
    const bytes = new Uint8Array(this.#words.buffer, 0, this.byteLength);
    out.set(bytes, at);
  }

  #grow(): void {
    const words = new Uint32Array(this.#words.length * 2);
    words.set(this.#words);
    this.#words = words;
  }
}

export class BitReader {
  /** The body, copied into whole words (the message's bytes may sit at any offset), with a zero word past its end. */
  #words = new Uint32Array(64);
  #bit = 0;
  #end = 0;

  /** Reads `length` bytes of `bytes` from `at`. */
  open(bytes: Uint8Array, at: number, length: number): this {
    const need = Math.ceil(length / 4) + 2;
    if (this.#words.length < need) this.#words = new Uint32Array(Math.max(need, this.#words.length * 2));
    const words = this.#words;
    words.fill(0, 0, need);
    new Uint8Array(words.buffer, 0, length).set(bytes.subarray(at, at + length));
    this.#bit = 0;
    this.#end = length * 8;
    return this;
  }

  /** Bits left. */
  get remaining(): number {
    return this.#end - this.#bit;
  }

  /** The next 32 bits, not consumed (zeros past the end). */
  #peek(): number {
    const word = this.#bit >>> 5;
    const shift = this.#bit & 31;
    const lo = this.#words[word]! >>> shift;
    return shift === 0 ? lo : (lo | (this.#words[word + 1]! << (32 - shift))) >>> 0;
  }

  #check(n: number): void {
    if (this.#bit + n > this.#end) throw new WireError('truncated', `the snapshot's body ends ${this.#bit + n - this.#end} bits before what it says`);
  }

  bits(n: number): number {
    if (n === 0) return 0;
    this.#check(n);
    const v = this.#peek();
    this.#bit += n;
    return n === 32 ? v : (v & ((1 << n) - 1)) >>> 0;
  }

  bit(): boolean {
    return this.bits(1) === 1;
  }

  rice(k: number, n: number): number {
    // the ones before the first zero: the trailing ones of the next bits
    const ahead = ~this.#peek();
    const q = ahead === 0 ? 32 : 31 - Math.clz32(ahead & -ahead);
    if (q >= RICE_ESCAPE) {
      this.#check(RICE_ESCAPE);
      this.#bit += RICE_ESCAPE;
      return this.bits(n);
    }
    this.#check(q + 1);
    this.#bit += q + 1;
    const low = this.bits(k);
    return q * POW2[k]! + low;
  }

  gamma(): number {
    let length = 0;
    while (this.bits(1) === 0) {
      if (++length > 31) throw new WireError('count', 'a count longer than 32 bits in the snapshot body');
    }
    let v = 1;
    for (let i = 0; i < length; i++) v = v * 2 + this.bits(1);
    return v;
  }
}
