/**
 * The published pair's meta record, by name: what `reader.read((pair) => ...)` hands an adapter, read without
 * indexing META words by hand. Each reads one float64 of `pair.metaWords`: valid, like the pair, only inside
 * the `read` call (copy out what you keep). Allocate nothing.
 *
 * | META word  | accessor          | META word  | accessor          |
 * |------------|-------------------|------------|-------------------|
 * | PREV_TICK  | `previousTickOf`  | COUNT      | `countOf`         |
 * | CUR_TICK   | `tickOf`          | PREV_COUNT | `previousCountOf` |
 * | PREV_TIME  | `previousTimeOf`  | SNAPS      | `snapsOf`         |
 * | CUR_TIME   | `currentTimeOf`   | SIM_TIME   | `simSecondsOf`    |
 * | SCALE      | `timeScaleOf`     |            |                   |
 */
import { META, type StatePair } from '../core/layout.ts';
import type { Schema } from '../core/schema.ts';

/** Anything that carries a pair's meta record: a `StatePair` of any schema. */
export type PairMeta = Pick<StatePair<Schema>, 'metaWords'>;

/** Tick number of the previous state. */
export function previousTickOf(pair: PairMeta): number {
  return pair.metaWords[META.PREV_TICK]!;
}

/** Tick number of the current (newest) state. */
export function tickOf(pair: PairMeta): number {
  return pair.metaWords[META.CUR_TICK]!;
}

/** Shared-clock ms the previous state stands for. */
export function previousTimeOf(pair: PairMeta): number {
  return pair.metaWords[META.PREV_TIME]!;
}

/** Shared-clock ms the current state stands for (a restamp, on resume or a new time scale, moves both times). */
export function currentTimeOf(pair: PairMeta): number {
  return pair.metaWords[META.CUR_TIME]!;
}

/** Live entities in the current state: entities 0 .. count - 1 (checked by the reader: whole, within the capacity). */
export function countOf(pair: PairMeta): number {
  return pair.metaWords[META.COUNT]!;
}

/**
 * Live entities in the previous state (checked as `countOf` is). Entities at or past it are new this tick and
 * snap; the previous state's values past it are stale.
 */
export function previousCountOf(pair: PairMeta): number {
  return pair.metaWords[META.PREV_COUNT]!;
}

/**
 * Entities the simulation marked to snap this tick (spawn, despawn, `world.snap`): 0 lets a renderer skip
 * comparing generations (entities past `previousCountOf` still snap).
 */
export function snapsOf(pair: PairMeta): number {
  return pair.metaWords[META.SNAPS]!;
}

/** Simulated seconds since tick 0 at the current state (the meta word holds ms). */
export function simSecondsOf(pair: PairMeta): number {
  return pair.metaWords[META.SIM_TIME]! / 1000;
}

/** Simulated time per shared-clock time when the current state was made (the time scale). */
export function timeScaleOf(pair: PairMeta): number {
  return pair.metaWords[META.SCALE]!;
}
