/**
 * Objects per entity of the table a binding draws, kept by handle: a sprite, a game object, a group member each,
 * made when its entity first shows, told every frame where its entity is now, released when the entity goes.
 * `createHandlePool` over the frame's table (`frame.tables[name]`), for the bindings that keep objects per
 * entity (`@steadyframe/pixi`'s and `@steadyframe/phaser`'s `bindSprites`, Phaser's `bindGroup`, given a table).
 *
 * ```text
 *   update(frame) ──▶ frame.tables[name] ──▶ read(table): the binding takes the table's views
 *                                        ──▶ pool.sync(table): gone handles released, new ones created,
 *                                                              every object updated at its entity's index now
 * ```
 */
import type { Frame } from '../contracts/app.ts';
import type { FrameTable } from '../contracts/frames.ts';
import type { Schema } from '../core/schema.ts';
import type { TableFieldName } from '../core/tables.ts';
import { createHandlePool, type HandlePoolOptions } from '../main/handle-pool.ts';
import type { BindingTable } from './table-source.ts';

/** Table `N`'s fields of schema `S`, as a schema of their own: what a binding given `table: N` names. */
export type TableSchema<S extends Schema, N extends string> = Pick<S, TableFieldName<S, N> & keyof S>;

/** What `createTableObjects` returns: a binding's objects per entity of its table. */
export interface TableObjects<S extends Schema, T> {
  /**
   * Follows the frame's table: releases the objects of entities gone, creates those of new ones, and updates
   * every live entity's object at its index in this frame. Allocates only what `create` does.
   */
  update(frame: Frame<S>): void;
  /** The object of the entity with handle `handle`, as of the last `update`. */
  get(handle: number): T | undefined;
  /** Objects held: the table's live entities at the last `update`. */
  readonly size: number;
  /** Releases every object (as their entities going would). */
  clear(): void;
}

export interface TableObjectsOptions<T> extends HandlePoolOptions<T> {
  /** Each `update`, before the objects are: the frame's table (its views, to read the entities from). */
  read?(table: FrameTable): void;
}

/** Objects per entity of `table` (a binding's, `bindingTable`), kept by handle. */
export function createTableObjects<S extends Schema, T>(table: BindingTable, options: TableObjectsOptions<T>): TableObjects<S, T> {
  const name = table.layout.name;
  const read = options.read;
  const pool = createHandlePool<T>(table.layout.capacity, options);
  return {
    update(frame) {
      const shown = (frame.tables as unknown as Readonly<Record<string, FrameTable>>)[name]!;
      read?.(shown);
      pool.sync(shown);
    },
    get: (handle) => pool.get(handle),
    get size() {
      return pool.size;
    },
    clear: () => pool.clear(),
  };
}
