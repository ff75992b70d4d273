/**
 * When the sampler keeps copies of states for overtaken frames. An *overtaken* frame is the opposite of a late
 * one: its time is before the front slot's previous state (its animation-frame callback ran late and the worker,
 * which may run `maxLeadTicks` ahead, already published past it), so the pair around its time is no longer in the
 * slot. The main thread keeps no copies of states while nothing is overtaken (a copy per tick would cost every
 * frame a block's memcpy). The first overtaken frame is drawn at the oldest state at hand (alpha 0) and flagged
 * `overtaken`; if its pair had been read whole (the watch keeps the numbers and times of the ticks read,
 * read-ticks.ts, so it knows without copying), then for a while after the last such one (`overtakenWatch`: 1 s
 * after a lone one, longer when they recur; or the first ones, below) every acquire also records the live part of
 * the slot's states in the render-delay history, and an overtaken frame is blended from its exact pair there
 * (counted as `recovered`). Overtaken frames whose pair was never read (frames farther apart than ticks: a slow
 * page) are given the benefit of the doubt only where the last few reads before the first of them skipped no tick,
 * and only until `OVERTAKEN_MISSES_TO_STOP` of them in a row: that stops the copies, and from then on only an
 * overtaken frame that could have been served starts them (`keptCopies` counts them).
 *
 * ```text
 *   frame F-1 reads (k, k+1) ── F's rAF callback runs late ── worker publishes k+2, k+3 ── F reads (k+2, k+3)
 *   F's time lies in [k, k+1]:  slot alone → alpha clamps to 0: draws k+2, up to 2 ticks off  (before)
 *                               history holds k, k+1 (recorded by F-1) → blends k..k+1 exactly  (watching)
 * ```
 *
 * ARCHITECTURE.md, "Overtaken frames", has the whole rule; "Measurements behind the code" has the runs that set
 * its bounds.
 */
import { ReadTicks } from './read-ticks.ts';

/**
 * After an overtaken frame, how long (shared-clock ms) the main thread keeps copies of the recent states, so
 * the next overtaken frames blend their exact pair: at most this. Overtakes come in spells (a busy main
 * thread, a GC every few seconds); the copies cost a block's memcpy per tick meanwhile, nothing after.
 */
export const OVERTAKEN_WATCH_MS = 10_000;
/**
 * ...and at least this: after a lone overtaken frame (the first, or one more than OVERTAKEN_WATCH_MS after
 * the last), such as a page's slow first frames. One that follows another within OVERTAKEN_WATCH_MS keeps them
 * 1.5 times that gap (so the next of a recurring kind finds them), between the two bounds; something that
 * recurs less often than that (an autosave every 15 s) pays this much copying each time and is not recovered.
 * A lone one no longer buys OVERTAKEN_WATCH_MS of copies: a page's startup frames alone then paid for copies
 * on every frame that followed (ARCHITECTURE.md, "Measurements behind the code").
 */
export const OVERTAKEN_WATCH_MIN_MS = 1_000;

/** How long to keep copies after an overtaken frame `gap` ms after the one before (NaN: none before). */
export function overtakenWatch(gap: number): number {
  return gap <= OVERTAKEN_WATCH_MS ? Math.min(OVERTAKEN_WATCH_MS, Math.max(OVERTAKEN_WATCH_MIN_MS, 1.5 * gap)) : OVERTAKEN_WATCH_MIN_MS;
}
/**
 * Overtaken frames in a row that the states read could not have served (their pair never read whole) after
 * which the copies stop at once, and no further such frame starts them (only one that could have been served
 * does): with frames farther apart than ticks every overtake is one of these, and copying every new state then
 * recovered none (ARCHITECTURE.md, "Measurements behind the code"). Fewer in a row start or keep copying: one
 * odd frame in a recovering spell stops nothing.
 */
export const OVERTAKEN_MISSES_TO_STOP = 3;

/** The sampler's watch: which frame times the history is kept for, from the ticks read and the frames overtaken. */
export class OvertakenWatch {
  /** Frame time until which the history is kept for overtaken frames; -Infinity when none was seen. */
  #watchUntil = Number.NEGATIVE_INFINITY;
  /** The frame time of the last overtaken frame; NaN before the first. */
  #lastOvertaken = Number.NaN;
  /** At the first overtaken frame of a spell that copies could not serve: the ticks read before it had no gap. */
  #readEveryTick = true;
  /** The ticks read (numbers and times only): whether copies could have served an overtaken frame. */
  readonly #read = new ReadTicks();
  /** The newest tick read before the frame being sampled: did frames come once a tick? */
  #readBefore = Number.NEGATIVE_INFINITY;
  /** Overtaken frames in a row that no copies could have served (see `OVERTAKEN_MISSES_TO_STOP`). */
  #misses = 0;

  /** Notes the pair a frame read (every frame, before `overtaken`). Allocates nothing. */
  noteRead(previousTick: number, previousTime: number, tick: number, time: number): void {
    const read = this.#read;
    // the ticks read before this frame's: did frames come once a tick? (asked only if this one is overtaken)
    this.#readBefore = read.newestTick;
    read.record(previousTick, previousTime);
    read.record(tick, time);
  }

  /** Whether the history is kept at frame time `time` (false for NaN). */
  covers(time: number): boolean {
    return time <= this.#watchUntil;
  }

  /**
   * A frame at `time` was overtaken, the front slot's previous state standing at `previousTime`: starts, extends
   * or stops the watch.
   */
  overtaken(time: number, previousTime: number): void {
    const read = this.#read;
    // the watch runs from the newer of the frame's time and the slot's previous state: a callback a second
    // late would otherwise be past its own watch already
    const watchUntil = Math.max(time, previousTime) + overtakenWatch(time - this.#lastOvertaken);
    this.#lastOvertaken = time;
    // copies pay only if they could serve frames like this one: its pair read whole (by earlier frames, or
    // with this one). With frames farther apart than ticks it never is: when the ticks read before this
    // frame already skip some (a slow page), or after a few such frames in a row, stop the copies and start
    // none until one that could have been served (the first ones of a page that read every tick get the
    // benefit of the doubt: a one-off stall's frame is unservable, the spell it begins may not be)
    // (a later frame of the same spell never shortens the watch its first one set)
    if (read.couldServe(time)) {
      this.#misses = 0;
      this.#watchUntil = Math.max(this.#watchUntil, watchUntil);
    } else {
      // whether frames came once a tick is asked at a spell's first miss: its own read skips ticks, so
      // asking again at the next would stop the copies at the second miss rather than the third
      if (this.#misses === 0) this.#readEveryTick = read.everyTickUpTo(this.#readBefore);
      if (++this.#misses >= OVERTAKEN_MISSES_TO_STOP || !this.#readEveryTick) {
        this.#watchUntil = Number.NEGATIVE_INFINITY;
      } else if (!(time <= this.#watchUntil)) {
        this.#watchUntil = watchUntil;
      }
    }
  }

  /** Forgets the watch and the ticks read (another mode takes over). */
  reset(): void {
    this.#watchUntil = Number.NEGATIVE_INFINITY;
    this.#lastOvertaken = Number.NaN;
    this.#misses = 0;
    this.#read.clear();
  }
}
