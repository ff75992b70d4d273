/**
 * Deliberately broken slot disciplines, for tests only: they prove the swap stress test can fail. Never in a
 * game, and never on the library's own path: they live behind the test-only entry, as subclasses that override
 * the lock and the choice of slot.
 *
 * - `unlocked-flip`: neither side takes LOCK, so the worker flips (and overwrites the slot it flips away from
 *   on the next publish) while the page reads it.
 * - `front-write`: note 002 read literally: the worker writes the slot being read, then flips to the other.
 */
import type { SharedViews } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';
import { SlotReader, SlotWriter, type PublishMeta } from '../core/slots.ts';

export type TestFault = 'unlocked-flip' | 'front-write';
export const TEST_FAULTS: readonly TestFault[] = ['unlocked-flip', 'front-write'];

/** A reader that never takes the lock (`unlocked-flip`). */
export class UnlockedSlotReader<S extends Schema> extends SlotReader<S> {
  protected override takeLock(): boolean {
    this.stats.acquires++;
    return true;
  }

  protected override dropLock(): void {}
}

/** A writer with one of the broken disciplines. */
export class FaultySlotWriter<S extends Schema> extends SlotWriter<S> {
  constructor(
    views: SharedViews<S>,
    world: Float32Array,
    now: () => number,
    private readonly fault: TestFault,
  ) {
    super(views, world, now);
  }

  override publish(meta: PublishMeta): boolean {
    if (this.fault !== 'front-write') return super.publish(meta);
    // writes the front slot, which the page may be reading, then flips to the other one
    const front = this.front;
    this.writeSlot(front, meta);
    return this.flip(front === 0 ? 1 : 0);
  }

  protected override lock(): boolean {
    return this.fault === 'unlocked-flip' ? true : super.lock();
  }

  protected override unlock(): void {
    if (this.fault !== 'unlocked-flip') super.unlock();
  }
}
