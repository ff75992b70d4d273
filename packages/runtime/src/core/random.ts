/**
 * The simulation's seeded generator (`tick.random()`, `init`'s `context.random()`): the same numbers from the
 * same seed on every machine and in every engine, since it is integer arithmetic on 32-bit words alone
 * (`Math.imul`, shifts, xor), nothing the platform may round differently.
 *
 * ```text
 *  seed (uint32) ── splitmix32 ×4 ──▶ state s0..s3 (never all zero)
 *  next():  result = rotl(s1 × 5, 7) × 9                       xoshiro128** 1.0 (Blackman and Vigna, 2018)
 *           t = s1 << 9; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)
 *           returns result / 2^32: a double in [0, 1) with 32 random bits
 * ```
 *
 * splitmix32 here is a Weyl sequence (s += 0x9e3779b9) through MurmurHash3's 32-bit finaliser. The state is four
 * words: `save` and `restore` copy it, so a restart from the last published state draws on as it would have.
 */

const GOLDEN = 0x9e3779b9;

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** Checks a seed: a whole number from 0 to 2^32 − 1. */
export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) {
    throw new RangeError(`steadyframe: a seed is a whole number from 0 to 4294967295 (2^32 − 1); got ${typeof seed === 'number' ? seed : typeof seed}`);
  }
  return seed;
}

/** A seed nobody chose: from the platform's cryptographic generator. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

export class SeededRandom {
  /** The four state words. */
  readonly state = new Uint32Array(4);
  /** The generator's `next`, bound once (what `tick.random` is). */
  readonly next = (): number => {
    const s = this.state;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    s[1] = s1 ^ s2;
    s[0] = s0 ^ s3;
    s[2] = s2 ^ t;
    s[3] = rotl(s3, 11);
    return result / 4294967296;
  };

  constructor(seed: number) {
    this.seed(seed);
  }

  /** Starts over from `seed`. */
  seed(seed: number): void {
    let x = checkSeed(seed);
    for (let i = 0; i < 4; i++) {
      x = (x + GOLDEN) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      this.state[i] = z ^ (z >>> 16);
    }
    // xoshiro's one forbidden state (splitmix32 makes it for no 32-bit seed known, but never trust that)
    if ((this.state[0]! | this.state[1]! | this.state[2]! | this.state[3]!) === 0) this.state[0] = 1;
  }

  /** Copies the state out (four words). */
  save(into: Uint32Array): void {
    into.set(this.state);
  }

  /** Takes a state `save` copied. */
  restore(from: Uint32Array): void {
    this.state.set(from.subarray(0, 4));
  }
}
