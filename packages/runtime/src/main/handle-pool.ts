/**
 * Objects kept per entity of a table, by handle: a name label, a health bar, a sound emitter, a mesh. `sync`
 * each frame: an entity new to the pool gets an object (`create`), every entity's object is told where it is
 * now (`update`), and the objects of entities gone are released (`release`), so each object follows its own
 * entity through the despawns that move entities within the table. Allocates only what `create` does.
 */
import { HandleIndex } from '../core/handle-index.ts';

/** The least a table must give a pool: `frame.tables.x` on the page, `world.tables.x` in the worker. */
export interface HandleSource {
  readonly capacity: number;
  readonly count: number;
  handle(index: number): number;
}

export interface HandlePoolOptions<T> {
  /** An object for a new entity (handle `handle`, at `index` now). */
  create(handle: number, index: number): T;
  /** Called for every live entity's object each `sync`, with the entity's index in this frame. */
  update?(object: T, index: number, handle: number): void;
  /** The entity is gone: dispose of its object (remove it from the scene, return it to a pool of your own). */
  release?(object: T, handle: number): void;
}

export interface HandlePool<T> {
  /** Follows `table`'s entities as they are now: releases the gone, creates the new, updates all. Returns how many objects it holds. */
  sync(table: HandleSource): number;
  /** The object of the entity with `handle`, as of the last `sync`. */
  get(handle: number): T | undefined;
  /** Objects held. */
  readonly size: number;
  /** Releases every object. */
  clear(): void;
}

/** A pool for one table of capacity `capacity` (the table's: `frame.tables.x.capacity`). */
export function createHandlePool<T>(capacity: number, options: HandlePoolOptions<T>): HandlePool<T> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`steadyframe: createHandlePool needs the table's capacity, a whole number of at least 1; got ${String(capacity)}`);
  const { create, update, release } = options;
  const where = new HandleIndex(capacity);
  const handles = new Float64Array(capacity);
  const seen = new Uint32Array(capacity);
  const objects: (T | undefined)[] = new Array<T | undefined>(capacity).fill(undefined);
  let size = 0;
  let epoch = 0;
  const drop = (slot: number): void => {
    const object = objects[slot] as T;
    const handle = handles[slot]!;
    where.delete(handle);
    const last = --size;
    if (slot !== last) {
      handles[slot] = handles[last]!;
      seen[slot] = seen[last]!;
      objects[slot] = objects[last];
      where.set(handles[slot]!, slot);
    }
    objects[last] = undefined;
    release?.(object, handle);
  };
  return {
    sync(table) {
      if (table.capacity > capacity) throw new RangeError(`steadyframe: a handle pool of capacity ${capacity} cannot follow a table of capacity ${table.capacity}`);
      epoch = (epoch + 1) >>> 0 || 1;
      const n = table.count;
      // the gone first (so that a frame that replaced every entity never holds more than the capacity, and
      // `release` can hand its object to the `create` that follows), then the new, then everyone's place
      for (let i = 0; i < n; i++) {
        const slot = where.get(table.handle(i));
        if (slot >= 0) seen[slot] = epoch;
      }
      for (let slot = size - 1; slot >= 0; slot--) if (seen[slot] !== epoch) drop(slot);
      for (let i = 0; i < n; i++) {
        const handle = table.handle(i);
        let slot = where.get(handle);
        if (slot < 0) {
          slot = size++;
          handles[slot] = handle;
          objects[slot] = create(handle, i);
          where.set(handle, slot);
        }
        update?.(objects[slot] as T, i, handle);
      }
      return size;
    },
    get(handle) {
      const slot = where.get(handle);
      return slot < 0 ? undefined : objects[slot];
    },
    get size() {
      return size;
    },
    clear() {
      while (size > 0) drop(size - 1);
    },
  };
}
