/**
 * The ticks the main thread has read (number and time only, no state), as many as the history keeps: what the
 * history *would* hold had it been copying. An overtaken frame asks it whether its exact pair was ever read
 * whole; only then can keeping copies recover frames like it, so only then does the sampler pay for them.
 *
 * ```text
 *  ticks 16.7 ms, frames 33 ms apart:  reads (4,5) ········· (6,7) ········· (8,9)    a frame at 6.5: pair 6,7 read
 *  ticks 16.7 ms, frames 100 ms apart: reads (4,5) ·················· (10,11)         a frame at 9.5: 9 never read
 * ```
 *
 * With frames farther apart than ticks (a slow page, ~10 fps) the worker publishes several ticks between two
 * acquires, so the pair around a late frame's time is one the main thread never saw: copies cannot help.
 */
import { HISTORY_DEPTH } from './history.ts';

export class ReadTicks {
  /** Ring of tick numbers and times, oldest at `#start`; `#size` in use. */
  readonly #ticks = new Float64Array(HISTORY_DEPTH);
  readonly #times = new Float64Array(HISTORY_DEPTH);
  #start = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The newest tick read; -Infinity before any. */
  get newestTick(): number {
    return this.#size === 0 ? Number.NEGATIVE_INFINITY : this.#ticks[(this.#start + this.#size - 1) % HISTORY_DEPTH]!;
  }

  /**
   * Whether the ticks read up to `tick` follow one another without a gap (frames came at least once a tick, so
   * states kept could serve an overtaken frame); true with fewer than two of them (nothing is known yet).
   */
  everyTickUpTo(tick: number): boolean {
    let seen = 0;
    let last = Number.NaN;
    for (let i = 0; i < this.#size; i++) {
      const t = this.#ticks[(this.#start + i) % HISTORY_DEPTH]!;
      if (t > tick) break;
      if (seen > 0 && t - last > 1) return false;
      last = t;
      seen++;
    }
    return true;
  }

  /**
   * Records a tick read (as `StateHistory.record` would keep its state): a newer tick is appended; the newest
   * tick again at a later time (held across a pause) is appended too; anything older is ignored. Allocates nothing.
   */
  record(tick: number, time: number): void {
    if (this.#size > 0) {
      const newest = (this.#start + this.#size - 1) % HISTORY_DEPTH;
      const newestTick = this.#ticks[newest]!;
      if (tick < newestTick || (tick === newestTick && time <= this.#times[newest]!)) {
        if (tick === newestTick && time < this.#times[newest]!) this.#times[newest] = time; // brought forward
        return;
      }
    }
    let at: number;
    if (this.#size === HISTORY_DEPTH) {
      at = this.#start;
      this.#start = (this.#start + 1) % HISTORY_DEPTH;
    } else {
      at = (this.#start + this.#size) % HISTORY_DEPTH;
      this.#size++;
    }
    this.#ticks[at] = tick;
    this.#times[at] = time;
  }

  /**
   * Whether a history holding the ticks read could blend a frame at `time` from its exact pair: some tick read
   * at or before `time` is followed by the next tick (or the same one held), also read. False before them all,
   * or past the newest (that frame is late, not overtaken).
   */
  couldServe(time: number): boolean {
    if (this.#size < 2 || time > this.#times[(this.#start + this.#size - 1) % HISTORY_DEPTH]!) return false;
    for (let i = this.#size - 2; i >= 0; i--) {
      const a = (this.#start + i) % HISTORY_DEPTH;
      if (this.#times[a]! <= time) {
        const b = (a + 1) % HISTORY_DEPTH;
        return this.#ticks[b]! - this.#ticks[a]! <= 1;
      }
    }
    return false;
  }

  clear(): void {
    this.#start = 0;
    this.#size = 0;
  }
}
