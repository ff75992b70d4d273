/**
 * Deliberately broken slot disciplines, for tests only: they prove the swap stress test can fail. Never in a
 * game, and never on the library's own path: they come in as a transport (`faultyTransport`), through the same
 * `transports` parameter an app's own transport uses, in place of the shared transport, whose halves they wrap.
 *
 * - `unlocked-flip`: neither side takes LOCK, so the worker flips (and overwrites the slot it flips away from
 *   on the next publish) while the page reads it.
 * - `front-write`: the textbook double buffer read literally: the worker writes the slot being read, then
 *   flips to the other (ARCHITECTURE.md, Source notes: "The double buffer, and the literal-reading trap").
 * - `late-events`: the slots as they are, but a tick's events committed after the flip rather than inside it
 *   (with a few microseconds between, so the window shows at any tick rate): a page can read a tick before its
 *   events. Proves the events stress test can fail.
 */
import type { SharedAttachConfig } from '../contracts/remote.ts';
import type { Transport } from '../contracts/transport.ts';
import { I32, LOCK, META, META_WORDS, type SharedViews, type StatePair } from '../core/layout.ts';
import { PublishCopier } from '../core/publish-copy.ts';
import type { Schema } from '../core/schema.ts';
import { copyMeta, type ReadLockStats, type StateSource } from '../core/slot-reader.ts';
import { SlotWriter, writeMeta, type FlipStats, type PublishMeta, type StateWriter } from '../core/slot-writer.ts';
import { DEFAULT_TRANSPORTS } from '../transports/library.ts';

export type TestFault = 'unlocked-flip' | 'front-write' | 'late-events';
/** The broken slot disciplines (the swap stress tests'). */
export const TEST_FAULTS: readonly TestFault[] = ['unlocked-flip', 'front-write'];
/** The broken event discipline (the events stress test's). */
export const EVENT_TEST_FAULTS: readonly TestFault[] = ['late-events'];

/** Loads between a `late-events` flip and its commit: a few microseconds, a window a page can fall into. */
const LATE_COMMIT_SPINS = 2_000;

/** The real writer, without the commit in its flip: each publish commits its events after, late. */
class LateEventsWriter<S extends Schema> implements StateWriter<S> {
  readonly #real: SlotWriter<S>;
  constructor(
    readonly views: SharedViews<S>,
    world: Float32Array,
    now: () => number,
    memory: WebAssembly.Memory | null,
    private readonly events: { commit(): void } | null,
  ) {
    this.#real = new SlotWriter(views, world, now, undefined, undefined, memory, null);
  }
  get stats(): FlipStats {
    return this.#real.stats;
  }
  get front(): 0 | 1 {
    return this.#real.front;
  }
  publish(meta: PublishMeta): boolean {
    const published = this.#real.publish(meta);
    for (let i = 0; i < LATE_COMMIT_SPINS; i++) Atomics.load(this.views.i32, I32.HEARTBEAT);
    this.events?.commit();
    return published;
  }
  publishInitial(meta: PublishMeta): void {
    this.#real.publishInitial(meta);
    this.events?.commit();
  }
  restamp(previousTime: number, currentTime: number): boolean {
    return this.#real.restamp(previousTime, currentTime);
  }
  frontMeta(word: (typeof META)[keyof typeof META]): number {
    return this.#real.frontMeta(word);
  }
}

/** A reader that never takes the lock (`unlocked-flip`): it reads the front slot while the worker may write it. */
export class UnlockedSlotReader<S extends Schema> implements StateSource<S> {
  readonly stats: ReadLockStats = { acquires: 0, spins: 0, maxSpins: 0, misses: 0 };
  readonly #meta = new Float64Array(META_WORDS);

  constructor(private readonly views: SharedViews<S>) {}

  acquire(): StatePair<S> | null {
    this.stats.acquires++;
    const slot = this.views.slots[Atomics.load(this.views.i32, I32.STATE_INDEX) === 1 ? 1 : 0];
    copyMeta(slot.metaWords, this.#meta, this.views.layout.capacity);
    return { ...slot, metaWords: this.#meta };
  }

  release(): void {}

  publishCount(): number {
    return Atomics.load(this.views.i32, I32.PUBLISH_SEQ) >>> 0;
  }
}

/**
 * A writer with one of the broken disciplines. The first publish and the restamps are the real writer's (they
 * are not what the stress test hammers); every later publish is broken.
 */
export class FaultySlotWriter<S extends Schema> implements StateWriter<S> {
  readonly stats: FlipStats = { publishes: 0, flipWaits: 0, flipWaitMs: 0, readerStalls: 0 };
  readonly #real: SlotWriter<S>;
  readonly #copier: PublishCopier;
  #front: 0 | 1;

  constructor(
    readonly views: SharedViews<S>,
    world: Float32Array,
    now: () => number,
    private readonly fault: Exclude<TestFault, 'late-events'>,
    memory: WebAssembly.Memory | null,
  ) {
    this.#real = new SlotWriter(views, world, now, undefined, undefined, memory);
    this.#copier = new PublishCopier(views as SharedViews<Schema>, world, memory);
    this.#front = this.#real.front;
  }

  get front(): 0 | 1 {
    return this.#front;
  }

  publishInitial(meta: PublishMeta): void {
    this.#real.publishInitial(meta);
    this.#front = this.#real.front;
  }

  restamp(previousTime: number, currentTime: number): boolean {
    const { f64 } = this.views;
    const m = this.views.slots[this.#front].meta;
    f64[m + META.PREV_TIME] = previousTime;
    f64[m + META.CUR_TIME] = currentTime;
    return true;
  }

  frontMeta(word: (typeof META)[keyof typeof META]): number {
    return this.views.f64[this.views.slots[this.#front].meta + word]!;
  }

  publish(meta: PublishMeta): boolean {
    const front = this.#front;
    const back = front === 0 ? 1 : 0;
    // front-write writes the slot the page reads now (its previous <- its own current, its current <- the world)
    const written = this.fault === 'front-write' ? front : back;
    writeMeta(this.views.f64, this.views.slots[written].meta, meta);
    this.#copier.publish(front, written, meta.previousCount, meta.count);
    const { i32 } = this.views;
    // front-write flips under the lock, to the slot it did not write; unlocked-flip flips without it
    const locked = this.fault === 'front-write';
    if (locked) while (Atomics.compareExchange(i32, I32.LOCK, LOCK.FREE, LOCK.WRITER) !== LOCK.FREE);
    Atomics.store(i32, I32.STATE_INDEX, back);
    Atomics.add(i32, I32.PUBLISH_SEQ, 1);
    if (locked) Atomics.store(i32, I32.LOCK, LOCK.FREE);
    this.#front = back;
    this.stats.publishes++;
    return true;
  }
}

/**
 * The shared transport with `fault` in it: on the page, `unlocked-flip` reads without the lock (and `onSource`
 * gets whatever source frames read from, so a test can hold the lock the way no game can); in the worker, the
 * writer publishes with the broken discipline. `'none'`: the shared transport as it is.
 */
export function faultyTransport(fault: TestFault | 'none', onSource: (source: StateSource<Schema>) => void = () => {}): Transport<SharedAttachConfig> {
  const shared = DEFAULT_TRANSPORTS.find((t) => t.kind === 'shared') as unknown as Transport<SharedAttachConfig>;
  return {
    kind: 'shared',
    available: (host) => shared.available(host),
    page(context) {
      const half = shared.page(context);
      const source = fault === 'unlocked-flip' ? new UnlockedSlotReader(half.views!) : half.source;
      onSource(source as unknown as StateSource<Schema>);
      return { ...half, source };
    },
    worker(schema, config) {
      const half = shared.worker(schema, config);
      if (fault === 'none') return half;
      if (fault === 'late-events') return { ...half, writer: (world, now) => new LateEventsWriter(half.views, world, now, config.memory ?? null, half.events) };
      return { ...half, writer: (world, now) => new FaultySlotWriter(half.views, world, now, fault, config.memory ?? null) };
    },
  };
}
