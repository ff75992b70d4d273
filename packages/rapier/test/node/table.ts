/**
 * An entity table made by hand: what `world.tables.<name>` will be (zero-based views of its own fields, a count
 * and a capacity, spawn, despawn by swap-remove, snap), and nothing of a `World`. The glue takes it as its
 * `EntityTarget`: the tests show the glue needs no more than these members.
 */
import type { EntityTarget } from '@steadyframe/rapier';

export interface Table extends EntityTarget {
  count: number;
  /** Entities marked to snap since the last `snapped.clear()`. */
  readonly snapped: Set<number>;
}

export function createTable(widths: Readonly<Record<string, number>>, capacity: number): Table {
  const fields: Record<string, Float32Array> = {};
  for (const [name, width] of Object.entries(widths)) fields[name] = new Float32Array(width * capacity);
  const snapped = new Set<number>();
  const table: Table = {
    fields,
    count: 0,
    capacity,
    snapped,
    spawn() {
      if (table.count >= capacity) return -1;
      const i = table.count++;
      snapped.add(i);
      return i;
    },
    despawn(index) {
      if (!Number.isInteger(index) || index < 0 || index >= table.count) return -1;
      const last = --table.count;
      if (index === last) return -1;
      for (const [name, width] of Object.entries(widths)) fields[name]!.copyWithin(width * index, width * last, width * last + width);
      snapped.add(index);
      return last;
    },
    snap(index) {
      if (!(index >= 0 && index < capacity)) return false;
      snapped.add(index);
      return true;
    },
  };
  return table;
}
