/**
 * The world: the simulation's private copy of the entity fields, which `init` and `step` write. Each publish
 * copies its live entities (0 .. count - 1) into the back slot, generations included (core/publish-copy.ts).
 */
import type { Layout } from '../core/layout.ts';
import { blockRuns, copyAcross } from '../core/publish-copy.ts';
import type { FieldViews, Schema } from '../core/schema.ts';

export interface World<S extends Schema> {
  /** One view per schema field; stable for the life of the simulation, so they may be cached. */
  readonly fields: FieldViews<S>;
  readonly capacity: number;
  /**
   * Live entities: indices 0 .. count - 1 are published. Setting it outside 0..capacity throws. Entities that
   * a larger count brings in snap on their first tick (they have no previous state to blend from).
   */
  count: number;
  /** Adds an entity at index `count` and returns its index, or -1 when the world is full. It snaps this tick. */
  spawn(): number;
  /**
   * Removes entity `index` by moving the last live entity into its place (all fields), and shrinks `count`.
   * The moved entity snaps this tick, so it does not streak across the screen. Returns the index that moved
   * (the old `count - 1`), or -1 if `index` was the last one or out of range.
   */
  despawn(index: number): number;
  /**
   * Marks entity `index` not to be blended this tick (a teleport): the renderer shows its new state at once.
   * Returns false, and does nothing, for an index outside 0..capacity - 1.
   */
  snap(index: number): boolean;
}

/** The world plus what the loop needs and the game does not see. */
export interface WorldInternals<S extends Schema> {
  readonly world: World<S>;
  /** Entities marked to snap since the last `takeSnaps`. */
  takeSnaps(): number;
  /** Puts back a published state (a block laid out like the world's): its first `count` entities, now live. */
  restore(block: Float32Array, count: number): void;
  /** Empties the world for a restart from scratch: no entities, fields zeroed, every entity marked to snap. */
  clear(): void;
}

export function createWorld<S extends Schema>(
  layout: Layout,
  block: Float32Array,
  fields: FieldViews<S>,
  generation: Uint32Array,
): WorldInternals<S> {
  const capacity = layout.capacity;
  const views = layout.fields.map((f) => ({ view: fields[f.name as keyof S], width: f.width }));
  let count = 0;
  let snaps = 0;
  const snap = (index: number): void => {
    // a new generation: where previous and current differ, the renderer takes the current state as it is
    generation[index] = (generation[index]! + 1) >>> 0;
    snaps++;
  };
  const world: World<S> = {
    fields,
    capacity,
    get count() {
      return count;
    },
    set count(n: number) {
      if (!Number.isInteger(n) || n < 0 || n > capacity) {
        throw new RangeError(`steadyframe: world.count must be a whole number from 0 to the capacity ${capacity}; got ${String(n)}`);
      }
      count = n;
    },
    spawn() {
      if (count >= capacity) return -1;
      snap(count);
      return count++;
    },
    despawn(index) {
      if (!Number.isInteger(index) || index < 0 || index >= count) return -1;
      const last = count - 1;
      count = last;
      if (index === last) return -1;
      for (const { view, width } of views) view.copyWithin(index * width, last * width, last * width + width);
      snap(index);
      return last;
    },
    snap(index) {
      if (!Number.isInteger(index) || index < 0 || index >= capacity) return false;
      snap(index);
      return true;
    },
  };
  return {
    world,
    takeSnaps() {
      const taken = snaps;
      snaps = 0;
      return taken;
    },
    restore(from, n) {
      // the published live entities only: past its count a published block holds older, dead values, and the
      // world's own generations there must not go back (a later spawn's bump must differ from any published one)
      copyAcross(from, block, blockRuns(layout), n);
      count = n;
    },
    clear() {
      for (const { view } of views) view.fill(0);
      for (let i = 0; i < capacity; i++) snap(i);
      count = 0;
    },
  };
}
