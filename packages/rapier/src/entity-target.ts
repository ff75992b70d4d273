/**
 * The entities the glue maps bodies onto: the part of a steadyframe `World` (or, with entity tables, of one
 * table, `world.tables.<name>`) that the glue touches, and nothing more. A structural type: anything with these
 * members serves, so the glue never depends on `World` itself. Types only.
 *
 *   body <-> entity              what the glue calls, and when
 *   add(desc)      spawn()       a new entity at index count; it snaps
 *   remove(i)      despawn(i)    the last entity moves into i; it snaps
 *   teleport(i)    snap(i)       drawn at its new pose at once
 *   publish()      fields        each awake body's pose written into its entity's views
 *   (contacts)     handle(i)     the entity's steadyframe handle, named in contact events (tables have one)
 */
export interface EntityTarget {
  /**
   * One zero-based view per field, `width` floats per entity, `width * capacity` long (a `World`'s `fields`,
   * a table's own). The glue looks up its pose fields by name once, at set-up.
   */
  readonly fields: { readonly [name: string]: Float32Array };
  /** Live entities: indices 0 .. count - 1. */
  readonly count: number;
  readonly capacity: number;
  /** Adds an entity at index `count` and returns it, or -1 when full. It snaps this tick. */
  spawn(): number;
  /** Removes entity `index`, moving the last one into it; returns the index that moved, or -1. */
  despawn(index: number): number;
  /** Marks entity `index` not to be blended this tick. */
  snap(index: number): boolean;
  /**
   * Entity `index`'s stable handle (a table's `handle(i)`), which contact events between tables carry. Optional:
   * a `World` of a plain schema has none (the events then carry -1).
   */
  handle?(index: number): number;
}

/**
 * Several targets by name, for one Rapier world: a steadyframe `World` of entity tables (`world.tables`), or any
 * object with a `tables` record of `EntityTarget`s. `K` names the tables the bodies are in (the world may have
 * more).
 */
export interface TablesTarget<K extends string = string> {
  readonly tables: { readonly [N in K]: EntityTarget };
}
