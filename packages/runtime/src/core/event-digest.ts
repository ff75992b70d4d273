/**
 * A step's events, digested for recordings (core/recording.ts: a TICK record's EMITTED flag) and their replays.
 */
import { fmix } from './recording.ts';

/**
 * The 64-bit digest of the events one step emitted (`tick.emit`): their codes and payloads (the first `width`
 * values, as the page's ring keeps them), in order, each float64 as its two words. A recording keeps it per tick,
 * so a replay whose step emits otherwise says so at that tick, as it says of a field. Allocates nothing.
 */
export class EventDigest {
  count = 0;
  #h1 = 0;
  #h2 = 0;
  readonly #f64 = new Float64Array(1);
  readonly #u32 = new Uint32Array(this.#f64.buffer);
  constructor(readonly width: number) {
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
  /** One event: its code and its first `width` payload values (missing ones are 0, as the ring keeps them). */
  mix(code: number, p0 = 0, p1 = 0, p2 = 0, p3 = 0): void {
    this.count++;
    this.#value(code);
    const w = this.width;
    if (w > 0) this.#value(p0);
    if (w > 1) this.#value(p1);
    if (w > 2) this.#value(p2);
    if (w > 3) this.#value(p3);
    for (let i = 4; i < w; i++) this.#value(0);
  }
  mixPayload(code: number, payload: ArrayLike<number>): void {
    this.count++;
    this.#value(code);
    for (let i = 0; i < this.width; i++) this.#value(i < payload.length ? payload[i]! : 0);
  }
  /** The digest so far: `out[0]` lo, `out[1]` hi. */
  finish(out: Uint32Array): void {
    out[0] = fmix(this.#h1 ^ this.#h2 ^ this.count) >>> 0;
    out[1] = fmix(this.#h2 + Math.imul(this.#h1, 0x85ebca6b)) >>> 0;
  }
}
