/**
 * The slot discipline, the reader's half (the writer's is slot-writer.ts): how the main thread reads the tick
 * the worker published, over the double buffer laid out in layout.ts.
 *
 * ```text
 *   worker (writer)                                      main thread (reader)
 *   ───────────────                                      ───────────────────
 *   step() on its private world                           CAS LOCK 0 -> 1, bounded spin (never waits)
 *   f = STATE_INDEX, b = 1 - f                              s = STATE_INDEX
 *   previous[b] <- current[f]   } outside the lock:         read previous[s], current[s], meta[s]
 *   current[b]  <- world        } nobody reads slot b       (interpolate into the render buffer)
 *   meta[b]     <- ticks, times }                         store LOCK 0 (or hand it over, below)
 *   CAS LOCK 0 -> 2, or mark LOCK 1 -> 3,               on release: LOCK 3 -> 2 (handed to
 *     spin, then Atomics.wait until handed over              the worker) and Atomics.notify
 *   STATE_INDEX = b  (the publish)
 *   store LOCK 0
 * ```
 *
 * Why a reader never sees a half-written slot: the reader reads only slot STATE_INDEX and only while it holds
 * the lock; the writer writes only slot 1 - STATE_INDEX and changes STATE_INDEX only while it holds the lock.
 * So while the reader holds the lock, STATE_INDEX cannot change and the writer never touches the slot being
 * read. Visibility: the writer's plain stores to slot b come before its Atomics stores of STATE_INDEX and LOCK;
 * the reader's successful compareExchange on LOCK comes after them. Atomics are sequentially consistent, so
 * those plain stores happen-before the reader's plain loads of slot b (ECMAScript memory model,
 * synchronizes-with on the LOCK word).
 */
import { I32, LOCK, META, META_WORDS, type SharedViews, type SlotViews, type StatePair } from './layout.ts';
import type { Schema } from './schema.ts';

const READER_WAKE_WRITER = LOCK.READER_WAKE_WRITER;

/** Reader-side contention counters. Plain numbers, updated on the main thread only. */
export interface ReadLockStats {
  /** Successful acquires. */
  acquires: number;
  /** Failed compareExchange attempts summed over all acquires (0 when uncontended). */
  spins: number;
  /** Most failed attempts in one acquire. */
  maxSpins: number;
  /** Acquires that gave up after the spin bound; that frame reused the last good render. */
  misses: number;
}


/**
 * Where the main thread gets published states from: the shared buffer's front slot under the lock
 * (`SlotReader`), or the last two states the worker sent when the page is not cross-origin isolated (the
 * message transport). The runtime wraps it in a scoped `read(fn)`: a pair is never held across frames.
 */
export interface StateSource<S extends Schema> {
  /** The newest pair of states, stable until `release`; null if none can be had now (counted as a miss). */
  acquire(): StatePair<S> | null;
  release(): void;
  /** States published so far (1 after attach), mod 2^32. Exact between `acquire` and `release`. */
  publishCount(): number;
  readonly stats: ReadLockStats;
}

/**
 * Copies a pair's meta words to `to`, with COUNT and PREV_COUNT clamped to whole numbers in [0, capacity]:
 * the page never trusts the worker's counts further than its own buffers reach (a bad count would otherwise
 * make the kernels read or write past a block, or hold the lock for as long as the count is large).
 */
export function copyMeta(from: Float64Array, to: Float64Array, capacity: number): void {
  to.set(from);
  to[META.COUNT] = clampCount(from[META.COUNT]!, capacity);
  to[META.PREV_COUNT] = clampCount(from[META.PREV_COUNT]!, capacity);
}

/** A count as the page uses it: a whole number in [0, capacity] (NaN: 0). */
export function clampCount(count: number, capacity: number): number {
  return count >= 0 ? (count <= capacity ? Math.floor(count) : capacity) : 0;
}

/** A pair as `SlotReader.acquire` hands it out: the slot's blocks, and a checked copy of its meta words. */
export interface ReadSlot<S extends Schema> extends StatePair<S> {
  readonly index: 0 | 1;
}

/**
 * The main thread's side. `acquire` never blocks: `Atomics.wait` throws on a browser main thread. The writer
 * holds the lock for a handful of instructions, except right after a hand-over, when the lock stays the
 * writer's until its thread wakes from `Atomics.wait` (a thread's wake-up: ARCHITECTURE.md, "Measurements
 * behind the code"): a second acquire in the same frame can then spin out and miss. Acquire once per frame, and
 * release within it: a page that holds the lock past `READER_STALL_MS` makes the worker skip its publishes and
 * count a stall (READER_STALLS).
 */
export class SlotReader<S extends Schema> implements StateSource<S> {
  readonly stats: ReadLockStats = { acquires: 0, spins: 0, maxSpins: 0, misses: 0 };
  #held = false;
  /** The held slot's meta words, copied under the lock with the counts clamped (`copyMeta`). */
  readonly #meta = new Float64Array(META_WORDS);
  readonly #pairs: readonly [ReadSlot<S>, ReadSlot<S>];

  constructor(
    readonly views: SharedViews<S>,
    /** compareExchange attempts before an acquire gives up and counts a miss. */
    readonly maxSpins = 10_000,
  ) {
    const pair = (slot: SlotViews<S>): ReadSlot<S> => ({
      index: slot.index,
      previous: slot.previous,
      current: slot.current,
      previousGeneration: slot.previousGeneration,
      currentGeneration: slot.currentGeneration,
      previousBlock: slot.previousBlock,
      currentBlock: slot.currentBlock,
      previousGame: slot.previousGame,
      currentGame: slot.currentGame,
      metaWords: this.#meta,
    });
    this.#pairs = [pair(views.slots[0]), pair(views.slots[1])];
  }

  /**
   * Takes the lock and returns the front slot, or null after `maxSpins` failed attempts (counted as a miss).
   * Until `release`, the slot's blocks and meta are stable. Allocates nothing.
   */
  acquire(): ReadSlot<S> | null {
    if (!this.#takeLock()) return null;
    // stable while we hold the lock: the worker changes STATE_INDEX only under it
    const index = Atomics.load(this.views.i32, I32.STATE_INDEX) === 1 ? 1 : 0;
    copyMeta(this.views.slots[index].metaWords, this.#meta, this.views.layout.capacity);
    this.#held = true;
    return this.#pairs[index];
  }

  /**
   * Lets go of the lock. If the worker is waiting to publish, the lock is handed straight to it, so a reader
   * that acquires again at once cannot starve the writer (the reader then spins until the flip is done).
   */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#dropLock();
  }

  /** Publishes so far, mod 2^32 (PUBLISH_SEQ read unsigned): compare two with `(a - b) >>> 0`. */
  publishCount(): number {
    return Atomics.load(this.views.i32, I32.PUBLISH_SEQ) >>> 0;
  }

  /** CAS LOCK 0 -> 1 within `maxSpins` attempts; counts the spins, or a miss. */
  #takeLock(): boolean {
    const { i32 } = this.views;
    const stats = this.stats;
    let spins = 0;
    // acquire: on success, everything the worker wrote before its last unlock is visible here
    while (Atomics.compareExchange(i32, I32.LOCK, LOCK.FREE, LOCK.READER) !== LOCK.FREE) {
      if (++spins >= this.maxSpins) {
        stats.spins += spins;
        stats.misses++;
        return false;
      }
    }
    stats.acquires++;
    stats.spins += spins;
    if (spins > stats.maxSpins) stats.maxSpins = spins;
    return true;
  }

  /**
   * LOCK 1 -> 0, or, if the worker asked for it meanwhile (3), hands it over (3 -> 2) and wakes the worker. The
   * hand-over is a compareExchange too: a worker past its stall deadline takes its request back (3 -> 1) at any
   * moment, and a plain store of 2 after that would leave the lock with the writer's mark and no writer. Then
   * the lock is ours again (1) and the loop releases it; the worker can take back at most one request per
   * `READER_STALL_MS`, so this loops at most a few times.
   */
  #dropLock(): void {
    const { i32 } = this.views;
    for (;;) {
      // release: the worker may now flip STATE_INDEX and reuse the slot we read
      const seen = Atomics.compareExchange(i32, I32.LOCK, LOCK.READER, LOCK.FREE);
      if (seen !== READER_WAKE_WRITER) return;
      // the worker asked for the lock while we held it: hand it over, then wake it
      if (Atomics.compareExchange(i32, I32.LOCK, READER_WAKE_WRITER, LOCK.WRITER) === READER_WAKE_WRITER) {
        Atomics.notify(i32, I32.LOCK, 1);
        return;
      }
    }
  }
}
