/**
 * The slot discipline: how the worker publishes a tick and how the main thread reads one, over the double
 * buffer laid out in layout.ts.
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
import { I32, LOCK, META, type SharedViews, type SlotViews, type StatePair } from './layout.ts';
import type { Schema } from './schema.ts';
import { PublishCopier } from './publish-copy.ts';

const READER_WAKE_WRITER = LOCK.READER_WAKE_WRITER;
/** Loads of LOCK the writer makes before it sleeps: about a microsecond or two. */
const WRITER_SPINS = 2_000;

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

/** Writer-side contention counters, updated on the worker only. */
export interface FlipStats {
  /** Publishes (flips of STATE_INDEX). */
  publishes: number;
  /** Times the worker found the lock held by the reader and slept on it. */
  flipWaits: number;
  /** Total ms spent sleeping on the lock. */
  flipWaitMs: number;
}

/**
 * Where the main thread gets published states from: the shared buffer's front slot under the lock
 * (`SlotReader`), or the last two states the worker sent when the page is not cross-origin isolated
 * (`MessageSource`).
 */
export interface StateSource<S extends Schema> {
  /** The newest pair of states, stable until `release`; null if none can be had now (counted as a miss). */
  acquire(): StatePair<S> | null;
  release(): void;
  /** States published so far (1 after attach). Can be late by one publish. */
  publishCount(): number;
  readonly stats: ReadLockStats;
}

/** Faults for tests only, to prove the swap stress test can fail. Never set them in a game. */
export type TestFault = 'none' | 'unlocked-flip' | 'front-write';

/**
 * The main thread's side. `acquire` never blocks: `Atomics.wait` throws on a browser main thread. The writer
 * holds the lock for a handful of instructions, except right after a hand-over, when the lock stays the
 * writer's until its thread wakes from `Atomics.wait` (tens of microseconds): a second acquire in the same
 * frame can then spin out and miss. Acquire once per frame.
 */
export class SlotReader<S extends Schema> implements StateSource<S> {
  readonly stats: ReadLockStats = { acquires: 0, spins: 0, maxSpins: 0, misses: 0 };
  #held: SlotViews<S> | null = null;

  constructor(
    readonly views: SharedViews<S>,
    /** compareExchange attempts before an acquire gives up and counts a miss. */
    readonly maxSpins = 10_000,
    /** Test-only: skip the lock entirely. */
    private readonly fault: TestFault = 'none',
  ) {}

  /**
   * Takes the lock and returns the front slot, or null after `maxSpins` failed attempts (counted as a miss).
   * Until `release`, the slot's blocks and meta are stable. Allocates nothing.
   */
  acquire(): SlotViews<S> | null {
    const { i32 } = this.views;
    let spins = 0;
    if (this.fault !== 'unlocked-flip') {
      // acquire: on success, everything the worker wrote before its last unlock is visible here
      while (Atomics.compareExchange(i32, I32.LOCK, LOCK.FREE, LOCK.READER) !== LOCK.FREE) {
        if (++spins >= this.maxSpins) {
          this.stats.spins += spins;
          this.stats.misses++;
          return null;
        }
      }
    }
    const stats = this.stats;
    stats.acquires++;
    stats.spins += spins;
    if (spins > stats.maxSpins) stats.maxSpins = spins;
    // stable while we hold the lock: the worker changes STATE_INDEX only under it
    this.#held = this.views.slots[Atomics.load(i32, I32.STATE_INDEX) === 1 ? 1 : 0];
    return this.#held;
  }

  /**
   * Lets go of the lock. If the worker is waiting to publish, the lock is handed straight to it, so a reader
   * that acquires again at once cannot starve the writer (the reader then spins until the flip is done).
   */
  release(): void {
    if (this.#held === null) return;
    this.#held = null;
    if (this.fault === 'unlocked-flip') return;
    const { i32 } = this.views;
    // release: the worker may now flip STATE_INDEX and reuse the slot we read
    if (Atomics.compareExchange(i32, I32.LOCK, LOCK.READER, LOCK.FREE) === READER_WAKE_WRITER) {
      // the worker asked for the lock while we held it: hand it over, then wake it
      Atomics.store(i32, I32.LOCK, LOCK.WRITER);
      Atomics.notify(i32, I32.LOCK, 1);
    }
  }

  /** Publishes so far; 0 until the worker has published its first state. Can be late by one publish. */
  publishCount(): number {
    return Atomics.load(this.views.i32, I32.PUBLISH_SEQ);
  }

  /** A meta word of the held slot. Only valid between `acquire` and `release`. */
  meta(slot: SlotViews<S>, word: (typeof META)[keyof typeof META]): number {
    return this.views.f64[slot.meta + word]!;
  }
}

/** What one publish stamps on its slot (see META in layout.ts). */
export interface PublishMeta {
  previousTick: number;
  currentTick: number;
  previousTime: number;
  currentTime: number;
  count: number;
  previousCount: number;
  simTime: number;
  scale: number;
  snaps: number;
}

function writeMeta(f64: Float64Array, m: number, meta: PublishMeta): void {
  f64[m + META.PREV_TICK] = meta.previousTick;
  f64[m + META.CUR_TICK] = meta.currentTick;
  f64[m + META.PREV_TIME] = meta.previousTime;
  f64[m + META.CUR_TIME] = meta.currentTime;
  f64[m + META.COUNT] = meta.count;
  f64[m + META.PREV_COUNT] = meta.previousCount;
  f64[m + META.SIM_TIME] = meta.simTime;
  f64[m + META.SCALE] = meta.scale;
  f64[m + META.SNAPS] = meta.snaps;
}

/** The worker's side: copies a tick into the back slot, then flips. The only writer of slots and STATE_INDEX. */
export class SlotWriter<S extends Schema> {
  readonly stats: FlipStats = { publishes: 0, flipWaits: 0, flipWaitMs: 0 };
  /** Called after every publish and restamp: the message transport forwards the front slot from here. */
  onChange: ((what: 'publish' | 'restamp') => void) | null = null;
  #front: 0 | 1;
  /** The live-range copies of a publish (publish-copy.ts); made on first use. */
  #copier: PublishCopier | null = null;

  constructor(
    readonly views: SharedViews<S>,
    /** The simulation's private state, laid out like one block. */
    private readonly world: Float32Array,
    private readonly now: () => number,
    /** Longest single Atomics.wait on the lock, in ms; the worker re-checks after it. */
    private readonly lockWaitMs = 50,
    private readonly fault: TestFault = 'none',
    /** The WebAssembly.Memory whose buffer `views` lays out, if it is one: publishes then copy by memory.copy. */
    private readonly memory: WebAssembly.Memory | null = null,
  ) {
    this.#front = Atomics.load(views.i32, I32.STATE_INDEX) === 1 ? 1 : 0;
  }

  /** The slot readers read now. */
  get front(): 0 | 1 {
    return this.#front;
  }

  /** Writes `world` as the new current state, the old current state as its previous state, then flips. */
  publish(meta: PublishMeta): void {
    const { f64 } = this.views;
    const front = this.#front;
    // note 002 read literally writes the slot being read: only ever under the 'front-write' test fault
    const back = this.fault === 'front-write' ? front : front === 0 ? 1 : 0;
    // outside the lock: no reader looks at slot `back` until the flip below. Only the live entities: a reader
    // reads the previous state's first PREV_COUNT entities and the current state's first COUNT (entities at or
    // past PREV_COUNT snap to their current state), so the rest of each block is never read (publish-copy.ts)
    (this.#copier ??= new PublishCopier(this.views, this.world, this.memory)).publish(front, back, meta.previousCount, meta.count);
    writeMeta(f64, this.views.slots[back].meta, meta);
    this.#flip(this.fault === 'front-write' ? (front === 0 ? 1 : 0) : back);
  }

  /**
   * Writes the same state into both blocks of both slots, without the lock: only for the first publish, at
   * attach, before any reader can exist.
   */
  publishInitial(meta: PublishMeta): void {
    const { f64 } = this.views;
    // the whole capacity, once: every block starts as a full copy of the world
    (this.#copier ??= new PublishCopier(this.views, this.world, this.memory)).initial();
    for (const slot of [0, 1] as const) writeMeta(f64, this.views.slots[slot].meta, meta);
    this.#flip(this.#front);
  }

  /**
   * Re-times the front slot's two states (the clock moved under them: a new time scale or tick rate, a
   * resume). Under the lock, since readers are reading that slot.
   */
  restamp(previousTime: number, currentTime: number): void {
    const { f64, i32 } = this.views;
    const m = this.views.slots[this.#front].meta;
    if (this.fault !== 'unlocked-flip') this.#lock();
    f64[m + META.PREV_TIME] = previousTime;
    f64[m + META.CUR_TIME] = currentTime;
    // release: the reader's next acquire sees the new times
    if (this.fault !== 'unlocked-flip') Atomics.store(i32, I32.LOCK, LOCK.FREE);
    this.onChange?.('restamp');
  }

  /** The front slot's meta word, as this writer last wrote it. */
  frontMeta(word: (typeof META)[keyof typeof META]): number {
    return this.views.f64[this.views.slots[this.#front].meta + word]!;
  }

  #flip(next: 0 | 1): void {
    const { i32 } = this.views;
    if (this.fault !== 'unlocked-flip') this.#lock();
    // publish: slot `next`, written above, becomes the one readers read
    Atomics.store(i32, I32.STATE_INDEX, next);
    Atomics.add(i32, I32.PUBLISH_SEQ, 1);
    // release: the reader's next acquire sees the new STATE_INDEX and everything written before it
    if (this.fault !== 'unlocked-flip') Atomics.store(i32, I32.LOCK, LOCK.FREE);
    this.#front = next;
    this.stats.publishes++;
    this.onChange?.('publish');
  }

  #lock(): void {
    const { i32 } = this.views;
    for (;;) {
      const seen = Atomics.compareExchange(i32, I32.LOCK, LOCK.FREE, LOCK.WRITER);
      if (seen === LOCK.FREE) return;
      // the reader holds it: ask for it to be handed over on release (READER -> READER_WAKE_WRITER)
      if (seen === LOCK.READER && Atomics.compareExchange(i32, I32.LOCK, LOCK.READER, READER_WAKE_WRITER) !== LOCK.READER) {
        continue; // the reader let go meanwhile: try again
      }
      // a frame holds the lock for well under a millisecond: spin a little before sleeping
      for (let spin = 0; spin < WRITER_SPINS; spin++) {
        if (Atomics.load(i32, I32.LOCK) === LOCK.WRITER) return; // handed over
      }
      const started = this.now();
      this.stats.flipWaits++;
      // a worker may block; the page may not. Woken by the reader's release, or re-checks after the timeout.
      Atomics.wait(i32, I32.LOCK, READER_WAKE_WRITER, this.lockWaitMs);
      this.stats.flipWaitMs += this.now() - started;
      if (Atomics.load(i32, I32.LOCK) === LOCK.WRITER) return; // handed over
    }
  }
}

/** Splits a float64 into two int32 halves and back, without allocating. One per realm; not re-entrant. */
const bits = new Float64Array(1);
const halves = new Int32Array(bits.buffer);

/**
 * Reads NEXT_FRAME, which the main thread writes under the FRAME_SEQ sequence lock. Every access is an
 * Atomics operation, so a matching even sequence before and after means both halves belong to one write.
 * Never blocks: the writer is between its two increments for a few instructions at most.
 */
export function readNextFrame(views: Pick<SharedViews<Schema>, 'i32'>): number {
  const { i32 } = views;
  for (;;) {
    const before = Atomics.load(i32, I32.FRAME_SEQ);
    if ((before & 1) !== 0) continue;
    halves[0] = Atomics.load(i32, I32.NEXT_FRAME_LO);
    halves[1] = Atomics.load(i32, I32.NEXT_FRAME_HI);
    if (Atomics.load(i32, I32.FRAME_SEQ) === before) return bits[0]!;
  }
}

/**
 * Main thread: publishes when it expects to present its next frame, and rings the worker's doorbell unless the
 * worker sleeps on a plan that already serves this frame (see `frameNeedsWake`). Returns whether it rang.
 */
export function writeNextFrame(views: Pick<SharedViews<Schema>, 'i32'>, time: number): boolean {
  const { i32 } = views;
  // the frame this one replaces (this thread is the only writer, so its own last write reads back whole)
  halves[0] = Atomics.load(i32, I32.NEXT_FRAME_LO);
  halves[1] = Atomics.load(i32, I32.NEXT_FRAME_HI);
  const replaced = bits[0]!;
  bits[0] = time;
  Atomics.add(i32, I32.FRAME_SEQ, 1); // odd: a write is under way
  Atomics.store(i32, I32.NEXT_FRAME_LO, halves[0]!);
  Atomics.store(i32, I32.NEXT_FRAME_HI, halves[1]!);
  Atomics.add(i32, I32.FRAME_SEQ, 1); // even: published
  // a worker not yet asleep sees the new sequence when it goes to wait, and does not wait; one asleep needs
  // this, unless its plan serves the frame. A frame earlier than the one it replaces always rings: a worker
  // holding for an overdue frame plans its return to the wall clock from that frame's time
  if (!(time < replaced) && !frameNeedsWake(views, time)) return false;
  Atomics.notify(i32, I32.FRAME_SEQ);
  return true;
}

const coveredBits = new Float64Array(1);
const coveredHalves = new Int32Array(coveredBits.buffer);

/**
 * Whether a frame at `time` (no earlier than the frame it replaces) must wake the worker: not when it sleeps
 * and its newest state already reaches `time`. Such a frame moves the worker's target only within what it has
 * made, and no tick becomes due, by that frame, before the wake the worker planned (fixed-step.ts,
 * `planSteps`, `nextWakeTime`): frames past what it has made wake it. In doubt (COVERED being rewritten),
 * wake. A worker waking from this sleep re-reads the frame before it plans again, so a frame that slips in
 * between is never lost.
 */
export function frameNeedsWake(views: Pick<SharedViews<Schema>, 'i32'>, time: number): boolean {
  return !(time <= readCovered(views));
}

/**
 * COVERED as the worker last published it, through the PLAN_SEQ sequence lock: NaN when the sequence is odd or
 * moves during the read (the worker is rewriting it), so a caller in doubt wakes the worker.
 */
export function readCovered(views: Pick<SharedViews<Schema>, 'i32'>): number {
  const { i32 } = views;
  const before = Atomics.load(i32, I32.PLAN_SEQ);
  if ((before & 1) !== 0) return Number.NaN;
  coveredHalves[0] = Atomics.load(i32, I32.COVERED_LO);
  coveredHalves[1] = Atomics.load(i32, I32.COVERED_HI);
  return Atomics.load(i32, I32.PLAN_SEQ) === before ? coveredBits[0]! : Number.NaN;
}

const planBits = new Float64Array(1);
const planHalves = new Int32Array(planBits.buffer);

/**
 * Worker: publishes COVERED under the PLAN_SEQ sequence lock: the newest state's time just before it sleeps
 * (frames up to it need not wake it), -Infinity once it is awake again (every frame rings).
 */
export function writeCovered(views: Pick<SharedViews<Schema>, 'i32'>, covered: number): void {
  const { i32 } = views;
  planBits[0] = covered;
  Atomics.add(i32, I32.PLAN_SEQ, 1); // odd: being rewritten
  Atomics.store(i32, I32.COVERED_LO, planHalves[0]!);
  Atomics.store(i32, I32.COVERED_HI, planHalves[1]!);
  Atomics.add(i32, I32.PLAN_SEQ, 1); // even: consistent
}
