/**
 * Game objects per entity of one table, kept by handle: each entity gets its own object when it first shows
 * (`create`), which follows it through the despawns that move entities within the table, and goes when the
 * entity does (`release`). `createHandlePool` (steadyframe) does the bookkeeping.
 *
 * ```text
 *   update(frame) ──▶ frame.tables[table]: handles, count, zero-based views
 *                       gone handles ──▶ removed from the parent, release(object, handle) (or destroyed)
 *                       new handles  ──▶ create(handle, index), added to the parent
 *                       every handle ──▶ its object's x, y (rotation, scale, alpha) from its entity's index now
 * ```
 */
import { createHandlePool, type Frame, type Runtime, type Schema } from 'steadyframe';
import { resolveBinding, type FieldNames } from './fields.ts';
import { frameTable } from './frame-table.ts';
import { PoseWriter, type PoseTarget } from './pose.ts';

/**
 * Where `bindSprites` given a table puts the objects `create` makes: a Container, a Layer, or the scene's display
 * list (`this.children`, where `this.add.image` has put them already).
 */
export interface ObjectParent<T> {
  add(child: T): unknown;
  remove(child: T): unknown;
}

/** `bindSprites`' options for one table's entities. */
export interface TableSpritesOptions<N extends string = string, T extends PoseTarget = PoseTarget> {
  /** The table whose entities the objects draw (a name `defineTables` gave). */
  readonly table: N;
  /**
   * Makes the game object of a new entity: handle `handle`, at `index` of the table now. The binding adds it to
   * the parent. Return one you keep in a pool of your own, or a new one (`this.add.image(0, 0, 'rock')`).
   */
  readonly create: (handle: number, index: number) => T;
  /**
   * The entity is gone: its object, already removed from the parent. Default: `object.destroy()`. Give it to
   * keep the object (in a pool that `create` takes from).
   */
  readonly release?: (object: T, handle: number) => void;
}

/** What `bindSprites` returns for a table. */
export interface TableSpritesBinding<S extends Schema, T extends PoseTarget = PoseTarget> {
  readonly parent: ObjectParent<T>;
  /**
   * Follows the frame's table: releases the objects of entities gone, creates those of new ones, and sets every
   * live entity's object from its entity, wherever despawns moved it. Allocates only what `create` does.
   */
  update(frame: Frame<S>): void;
  /** The object of the entity with handle `handle`, as of the last `update`. */
  get(handle: number): T | undefined;
  /** Objects held: the table's live entities at the last `update`. */
  readonly size: number;
  /** Releases every object (as their entities going would). */
  clear(): void;
}

const PREFIX = '@steadyframe/phaser:';

/** `bindSprites` given a table (bind-sprites.ts): a game object per entity by handle. */
export function bindTableSprites<S extends Schema, T extends PoseTarget>(
  runtime: Pick<Runtime<S>, 'schema'>,
  parent: ObjectParent<T>,
  fields: FieldNames,
  options: TableSpritesOptions<string, T>,
): TableSpritesBinding<S, T> {
  if (parent === null || typeof parent !== 'object' || typeof parent.add !== 'function' || typeof parent.remove !== 'function') {
    throw new TypeError(`${PREFIX} bindSprites with a table takes the parent its objects go in (a Container, a Layer, or the scene's this.children), then options.create makes each`);
  }
  const { create, release } = options;
  if (typeof create !== 'function') throw new TypeError(`${PREFIX} bindSprites with a table needs options.create: (handle) => the game object of a new entity`);
  if (release !== undefined && typeof release !== 'function') throw new TypeError(`${PREFIX} options.release must be a function (object, handle) => void`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindSprites');
  const name = table!.layout.name;
  const pose = new PoseWriter(resolved);
  const pool = createHandlePool<T>(table!.layout.capacity, {
    create(handle, index) {
      const object = create(handle, index);
      if (object === null || typeof object !== 'object') throw new TypeError(`${PREFIX} options.create(${handle}) must return a game object, not ${String(object)}`);
      parent.add(object);
      return object;
    },
    update: (object, index) => pose.apply(object, index),
    release(object, handle) {
      parent.remove(object);
      if (release !== undefined) release(object, handle);
      else (object as { destroy?: () => void }).destroy?.();
    },
  });
  return {
    parent,
    update(frame) {
      const shown = frameTable(frame, name);
      pose.read(shown.fields);
      pool.sync(shown);
    },
    get: (handle) => pool.get(handle),
    get size() {
      return pool.size;
    },
    clear: () => pool.clear(),
  };
}
