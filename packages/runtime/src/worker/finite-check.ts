/**
 * Non-finite values written by a step (NaN, Infinity) are counted every tick and, if the game asks, replaced by
 * the entity's last published value, so one bad entity never turns into a silent hole in the picture.
 */
import type { Layout } from '../core/layout.ts';
import type { EntityField, FieldViews, Schema } from '../core/schema.ts';

/** What to do about a non-finite value: count it only, or count it and keep the last finite value. */
export type NonFinitePolicy = 'count' | 'hold' | 'off';

/**
 * Scans entities 0 .. count - 1 of every field; returns how many components were not finite. With `last`
 * (the last published state, whose first `lastCount` entities are live) each such component is replaced by its
 * value there, or by 0 for an entity past `lastCount` (new this tick: the last state has nothing of its own for
 * it, only an older tick's dead values, since a publish copies live entities only). Allocates nothing.
 */
export function checkFinite<S extends Schema>(
  layout: Layout,
  fields: FieldViews<S>,
  count: number,
  last: FieldViews<S> | null,
  lastCount = count,
): number {
  let found = 0;
  for (const field of layout.fields) {
    const view = fields[field.name as EntityField<S>];
    const previous = last === null ? null : last[field.name as EntityField<S>];
    const held = Math.min(lastCount, count) * field.width;
    for (let i = 0, n = count * field.width; i < n; i++) {
      const v = view[i]!;
      // v - v is 0 for every finite v, NaN for NaN and both infinities
      if (v - v !== 0) {
        found++;
        if (previous !== null) view[i] = i < held ? previous[i]! : 0;
      }
    }
  }
  return found;
}
