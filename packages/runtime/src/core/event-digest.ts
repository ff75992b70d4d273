/**
 * A step's events, digested for recordings (core/recording.ts: a TICK record's EMITTED flag) and their replays.
 */
import { fmix } from './recording.ts';

/**
 * The 64-bit digest of the events one step emitted (`tick.emit`): their codes and payloads as emitted (at least
 * four values, missing ones 0, so `emit(c, a)` and `emitPayload(c, [a])` digest alike), in order, each float64 as
 * its two words. Not the page's ring width: a headless replay has no ring, and must digest what the recording's
 * live run did whatever width its ring had. A recording keeps it per tick, so a replay whose step emits otherwise
 * says so at that tick, as it says of a field. Allocates nothing.
 */
export class EventDigest {
  count = 0;
  #h1 = 0;
  #h2 = 0;
  readonly #f64 = new Float64Array(1);
  readonly #u32 = new Uint32Array(this.#f64.buffer);
  constructor() {
    this.reset();
  }
  reset(): void {
    this.count = 0;
    this.#h1 = 0x2545f491;
    this.#h2 = 0x9e3779b9;
  }
  #word(w: number): void {
    let k = Math.imul(w, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    this.#h1 ^= Math.imul(k, 0x1b873593);
    this.#h1 = (this.#h1 << 13) | (this.#h1 >>> 19);
    this.#h1 = (Math.imul(this.#h1, 5) + 0xe6546b64) | 0;
    this.#h2 = Math.imul(this.#h2 ^ w, 0x01000193) ^ (this.#h2 >>> 15);
  }
  #value(x: number): void {
    this.#f64[0] = x;
    this.#word(this.#u32[0]!);
    this.#word(this.#u32[1]!);
  }
  /** One event: its code and four payload values (missing ones are 0). */
  mix(code: number, p0 = 0, p1 = 0, p2 = 0, p3 = 0): void {
    this.count++;
    this.#value(code);
    this.#value(p0);
    this.#value(p1);
    this.#value(p2);
    this.#value(p3);
  }
  /** One event: its code and its payload, padded with 0 to four values. */
  mixPayload(code: number, payload: ArrayLike<number>): void {
    this.count++;
    this.#value(code);
    for (let i = 0, n = Math.max(4, payload.length); i < n; i++) this.#value(i < payload.length ? payload[i]! : 0);
  }
  /** The digest so far: `out[0]` lo, `out[1]` hi. */
  finish(out: Uint32Array): void {
    out[0] = fmix(this.#h1 ^ this.#h2 ^ this.count) >>> 0;
    out[1] = fmix(this.#h2 + Math.imul(this.#h1, 0x85ebca6b)) >>> 0;
  }
}
