/**
 * The slot discipline, the writer's half (the reader's, with the diagram of both, is slot-reader.ts): how the
 * worker publishes a tick into the back slot and flips STATE_INDEX under LOCK, and re-times the front slot.
 */
import { I32, LOCK, META, type SharedViews } from './layout.ts';
import { PublishCopier } from './publish-copy.ts';
import type { Schema } from './schema.ts';

const READER_WAKE_WRITER = LOCK.READER_WAKE_WRITER;
/**
 * Loads of LOCK the writer makes before it sleeps: a brief spin, since a frame holds the lock only briefly and a
 * sleep costs the writer a wake-up (ARCHITECTURE.md, "Measurements behind the code", gives its length).
 */
const WRITER_SPINS = 2_000;

/** Writer-side contention counters, updated on the worker only. */
export interface FlipStats {
  /** Publishes (flips of STATE_INDEX). */
  publishes: number;
  /** Times the worker found the lock held by the reader and slept on it. */
  flipWaits: number;
  /** Total ms spent sleeping on the lock. */
  flipWaitMs: number;
  /** Publishes and restamps given up because the page held the lock past `READER_STALL_MS` (see READER_STALLS). */
  readerStalls: number;
}

/** What one publish stamps on its slot (see META in layout.ts). */
export interface PublishMeta {
  previousTick: number;
  currentTick: number;
  previousTime: number;
  currentTime: number;
  count: number;
  previousCount: number;
  /** Simulated ms since tick 0 (the meta word SIM_TIME; the public fields are seconds: `frame.simSeconds`). */
  simTime: number;
  scale: number;
  snaps: number;
  /**
   * The meta word INPUTS_THROUGH: one past the ring sequence of the last input event a tick consumed. Absent: 0
   * (a writer with no input ring: the render worker's states, tests' hand-made ones).
   */
  inputsThrough?: number;
}

/** Stamps `meta` on the slot whose meta words start at `m` (outside the lock: the slot is the back one). */
export function writeMeta(f64: Float64Array, m: number, meta: PublishMeta): void {
  f64[m + META.PREV_TICK] = meta.previousTick;
  f64[m + META.CUR_TICK] = meta.currentTick;
  f64[m + META.PREV_TIME] = meta.previousTime;
  f64[m + META.CUR_TIME] = meta.currentTime;
  f64[m + META.COUNT] = meta.count;
  f64[m + META.PREV_COUNT] = meta.previousCount;
  f64[m + META.SIM_TIME] = meta.simTime;
  f64[m + META.SCALE] = meta.scale;
  f64[m + META.SNAPS] = meta.snaps;
  f64[m + META.INPUTS_THROUGH] = meta.inputsThrough ?? 0;
}

/**
 * How long the writer waits for a lock the page holds before it gives up on that publish or restamp and
 * counts a reader stall (READER_STALLS), ms. A frame holds the lock well under a millisecond; this is a page
 * that acquired and never released (or a main thread frozen mid-frame). The worker stays responsive: it
 * goes on ticking, serves comlink calls and beats, and the page's watchdog blames the page, not the worker.
 */
export const READER_STALL_MS = 500;
/** After a stall, how long each later publish waits for the page to let go before it is skipped too, ms. */
const STALLED_WAIT_MS = 1;

/**
 * The worker's side of the slots, as the simulation uses it (`WorkerTransport.writer` makes it). `SlotWriter` is
 * the one implementation the library has; the test-only entry's broken disciplines are others.
 */
export interface StateWriter<S extends Schema> {
  readonly views: SharedViews<S>;
  readonly stats: FlipStats;
  /** The slot readers read now. */
  readonly front: 0 | 1;
  /** Publishes the world as the new current state; false when the page held the lock too long (nothing published). */
  publish(meta: PublishMeta): boolean;
  /** The first publish, at attach, before the page reads: the world in every block of both slots. */
  publishInitial(meta: PublishMeta): void;
  /** Re-times the front slot's two states under the lock; false on a reader stall (nothing changed). */
  restamp(previousTime: number, currentTime: number): boolean;
  /** The front slot's meta word, as this writer last wrote it. */
  frontMeta(word: (typeof META)[keyof typeof META]): number;
}

/** What a flip commits with the slot: the event ring's staged events (core/event-writer.ts). */
export interface EventCommit {
  commit(): void;
}

/** The worker's side: copies a tick into the back slot, then flips. The only writer of slots and STATE_INDEX. */
export class SlotWriter<S extends Schema> implements StateWriter<S> {
  readonly stats: FlipStats = { publishes: 0, flipWaits: 0, flipWaitMs: 0, readerStalls: 0 };
  #front: 0 | 1;
  /** A publish was skipped (reader stall): the next one's previous state is the front slot's current. */
  #skipped = false;
  /**
   * While publishes are skipped: the snaps they carried (summed) and the fewest entities any of them had, so
   * the next publish, whose previous state is the front's current, still snaps every entity that was
   * teleported, moved by a despawn, or absent at some point since the front's tick.
   */
  #skippedSnaps = 0;
  #skippedMinCount = Number.POSITIVE_INFINITY;
  /**
   * The page held the lock past `stallMs` and the worker has not had it since: further publishes ask for it as
   * usual but wait STALLED_WAIT_MS, not `stallMs`, before they are skipped too, so the worker is not blocked
   * `stallMs` per tick (ticks, comlink calls and the heartbeat go on), and a page that lets go still hands over.
   */
  #stalled = false;
  /** The live-range copies of a publish (publish-copy.ts); made on first use. */
  #copier: PublishCopier | null = null;

  constructor(
    readonly views: SharedViews<S>,
    /** The simulation's private state, laid out like one block. */
    private readonly world: Float32Array,
    private readonly now: () => number,
    /** Longest single Atomics.wait on the lock, in ms; the worker re-checks (and beats) after it. */
    private readonly lockWaitMs = 50,
    /** Longest wait for a lock the page holds before the publish is skipped and a stall counted, ms. */
    private readonly stallMs = READER_STALL_MS,
    /** The WebAssembly.Memory whose buffer `views` lays out, if it is one: publishes then copy by memory.copy. */
    private readonly memory: WebAssembly.Memory | null = null,
    /** The event ring's writer, if any: each flip commits the staged events under the lock (event-ring.ts). */
    private readonly events: EventCommit | null = null,
  ) {
    this.#front = Atomics.load(views.i32, I32.STATE_INDEX) === 1 ? 1 : 0;
  }

  /** The slot readers read now. */
  get front(): 0 | 1 {
    return this.#front;
  }

  /**
   * Writes `world` as the new current state, the old current state as its previous state, then flips. Returns
   * false when the page held the lock past `stallMs`: nothing was published (counted as a reader stall).
   */
  publish(meta: PublishMeta): boolean {
    const back = this.#front === 0 ? 1 : 0;
    this.#writeSlot(back, meta);
    return this.#flip(back);
  }

  /**
   * Writes the same state into both blocks of both slots: only for the first publish, at attach, before the
   * page has the buffer's views (`createRuntime` is still awaiting attach), so no reader can hold the lock; the
   * flip still takes it, as every flip does.
   */
  publishInitial(meta: PublishMeta): void {
    const { f64 } = this.views;
    // the whole capacity, once: every block starts as a full copy of the world
    this.#copy().initial();
    for (const slot of [0, 1] as const) writeMeta(f64, this.views.slots[slot].meta, meta);
    this.#flip(this.#front);
  }

  /**
   * Re-times the front slot's two states (the clock moved under them: a new time scale or tick rate, a
   * resume). Under the lock, since readers are reading that slot. Returns false on a reader stall (not done).
   */
  restamp(previousTime: number, currentTime: number): boolean {
    const { f64 } = this.views;
    const m = this.views.slots[this.#front].meta;
    if (!this.#lock()) return false;
    f64[m + META.PREV_TIME] = previousTime;
    f64[m + META.CUR_TIME] = currentTime;
    // release: the reader's next acquire sees the new times
    this.#unlock();
    return true;
  }

  /** The front slot's meta word, as this writer last wrote it. */
  frontMeta(word: (typeof META)[keyof typeof META]): number {
    return this.views.f64[this.views.slots[this.#front].meta + word]!;
  }

  /** Writes slot `slot`: its previous state is the front slot's current one. Outside the lock. */
  #writeSlot(slot: 0 | 1, meta: PublishMeta): void {
    const { f64 } = this.views;
    const front = this.#front;
    const m = this.views.slots[slot].meta;
    writeMeta(f64, m, meta);
    if (this.#skipped) {
      // the states before this one were never published: the previous state is the front's current, say so;
      // entities absent at any skipped tick, and the snaps the skipped ticks marked, snap now
      const fm = this.views.slots[front].meta;
      f64[m + META.PREV_TICK] = f64[fm + META.CUR_TICK]!;
      f64[m + META.PREV_TIME] = f64[fm + META.CUR_TIME]!;
      f64[m + META.PREV_COUNT] = Math.min(f64[fm + META.COUNT]!, this.#skippedMinCount, meta.previousCount);
      f64[m + META.SNAPS] = meta.snaps + this.#skippedSnaps;
    }
    // outside the lock: no reader looks at the back slot until the flip. Only the live entities: a reader reads
    // the previous state's first PREV_COUNT entities and the current state's first COUNT (entities at or past
    // PREV_COUNT snap to their current state), so the rest of each block is never read (publish-copy.ts)
    this.#copy().publish(front, slot, f64[m + META.PREV_COUNT]!, meta.count);
  }

  #copy(): PublishCopier {
    return (this.#copier ??= new PublishCopier(this.views, this.world, this.memory));
  }

  /** Makes slot `next` the front slot, under the lock. False (nothing changed) on a reader stall. */
  #flip(next: 0 | 1): boolean {
    const { i32 } = this.views;
    if (!this.#lock()) {
      // what the skipped slot carried carries over to the next publish (see writeSlot)
      const m = this.views.slots[next].meta;
      const { f64 } = this.views;
      this.#skipped = true;
      this.#skippedSnaps = f64[m + META.SNAPS]!;
      this.#skippedMinCount = Math.min(f64[m + META.PREV_COUNT]!, f64[m + META.COUNT]!);
      return false;
    }
    // the events of the ticks this slot brings, before the slot: a reader that sees the new STATE_INDEX (under
    // the lock) and then loads the ring's WRITE sees them all
    this.events?.commit();
    // publish: slot `next`, written above, becomes the one readers read
    Atomics.store(i32, I32.STATE_INDEX, next);
    Atomics.add(i32, I32.PUBLISH_SEQ, 1);
    // release: the reader's next acquire sees the new STATE_INDEX and everything written before it
    this.#unlock();
    this.#front = next;
    this.#skipped = false;
    this.#skippedSnaps = 0;
    this.#skippedMinCount = Number.POSITIVE_INFINITY;
    this.stats.publishes++;
    return true;
  }

  /** Stores LOCK 0: the release of everything written under the lock. */
  #unlock(): void {
    Atomics.store(this.views.i32, I32.LOCK, LOCK.FREE);
  }

  /**
   * Takes the lock: CAS 0 -> 2, or, while the page holds it, marks it 3 (hand it over on release), spins a
   * little, then sleeps in `lockWaitMs` slices, beating HEARTBEAT each slice (the worker is alive, the page is
   * what holds it up). Past `stallMs` it takes the mark back (3 -> 1), counts a reader stall (READER_STALLS)
   * and returns false; if the page handed the lock over meanwhile, the worker has it after all. Until it next
   * gets the lock, later calls wait STALLED_WAIT_MS instead (`#stalled`): one stall blocks the worker for
   * `stallMs` once, not per tick.
   */
  #lock(): boolean {
    const { i32 } = this.views;
    // after a stall, until the lock is ours again, the same request and hand-over but a deadline of
    // STALLED_WAIT_MS: a page that let go hands the lock over at once; one that still holds it costs each tick
    // a moment, not stallMs (no second stall is counted for the same hold)
    const stalled = this.#stalled;
    const deadline = stalled ? Math.min(STALLED_WAIT_MS, this.stallMs) : this.stallMs;
    let started = Number.NaN;
    for (;;) {
      const seen = Atomics.compareExchange(i32, I32.LOCK, LOCK.FREE, LOCK.WRITER);
      if (seen === LOCK.FREE) return this.#locked();
      // the reader holds it: ask for it to be handed over on release (READER -> READER_WAKE_WRITER)
      if (seen === LOCK.READER && Atomics.compareExchange(i32, I32.LOCK, LOCK.READER, READER_WAKE_WRITER) !== LOCK.READER) {
        continue; // the reader let go meanwhile: try again
      }
      // a frame holds the lock for well under a millisecond: spin a little before sleeping
      for (let spin = 0; spin < WRITER_SPINS; spin++) {
        if (Atomics.load(i32, I32.LOCK) === LOCK.WRITER) return this.#locked(); // handed over
      }
      const from = this.now();
      if (Number.isNaN(started)) started = from;
      this.stats.flipWaits++;
      // a worker may block; the page may not. Woken by the reader's release, or re-checks after the timeout.
      Atomics.wait(i32, I32.LOCK, READER_WAKE_WRITER, Math.min(this.lockWaitMs, deadline));
      const to = this.now();
      this.stats.flipWaitMs += to - from;
      if (Atomics.load(i32, I32.LOCK) === LOCK.WRITER) return this.#locked(); // handed over
      // alive, only held up: the page's watchdog must not take this for a hung worker
      Atomics.add(i32, I32.HEARTBEAT, 1);
      if (to - started >= deadline && Atomics.compareExchange(i32, I32.LOCK, READER_WAKE_WRITER, LOCK.READER) === READER_WAKE_WRITER) {
        // the page still holds it: withdraw the request (its release then just frees the lock) and report it
        if (!stalled) {
          this.stats.readerStalls++;
          Atomics.add(i32, I32.READER_STALLS, 1);
          this.#stalled = true;
        }
        return false;
      }
    }
  }

  /** The lock is ours: a stall, if there was one, is over. */
  #locked(): true {
    this.#stalled = false;
    return true;
  }
}
