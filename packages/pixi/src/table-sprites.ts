/**
 * Sprites per entity of one table, kept by handle: each entity gets its own display object when it first shows
 * (`create`), which follows it through the despawns that move entities within the table, and goes when the
 * entity does (`release`). `createHandlePool` (steadyframe) does the bookkeeping.
 *
 * ```text
 *   update(frame) ──▶ frame.tables[table]: handles, count, zero-based views
 *                       gone handles ──▶ removed from the container, release(sprite, handle) (or destroyed)
 *                       new handles  ──▶ create(handle, index), added to the container
 *                       every handle ──▶ its sprite's x, y (rotation, scale, alpha) from its entity's index now
 * ```
 */
import type { Container } from 'pixi.js';
import { createHandlePool, type FrameTable, type Frame, type Runtime, type Schema } from 'steadyframe';
import { resolveBinding, type FieldNames } from './fields.ts';
import { PoseWriter } from './pose.ts';

/** `bindSprites`' options for one table's entities. */
export interface TableSpritesOptions<N extends string = string, C extends Container = Container> {
  /** The table whose entities the sprites draw (a name `defineTables` gave). */
  readonly table: N;
  /**
   * Makes the sprite (any display object) of a new entity: handle `handle`, at `index` of the table now. The
   * binding adds it to the container. Return one you keep in a pool of your own, or a new one.
   */
  readonly create: (handle: number, index: number) => C;
  /**
   * The entity is gone: its sprite, already removed from the container. Default: `sprite.destroy()`. Give it to
   * keep the sprite (in a pool that `create` takes from).
   */
  readonly release?: (sprite: C, handle: number) => void;
}

/** What `bindSprites` returns for a table. */
export interface TableSpritesBinding<S extends Schema, C extends Container = Container> {
  /** Where the binding puts the sprites it is given. */
  readonly container: Container;
  /**
   * Follows the frame's table: releases the sprites of entities gone, creates those of new ones, and sets every
   * live entity's sprite from its entity, wherever despawns moved it. Allocates only what `create` does.
   */
  update(frame: Frame<S>): void;
  /** The sprite of the entity with handle `handle`, as of the last `update`. */
  get(handle: number): C | undefined;
  /** Sprites held: the table's live entities at the last `update`. */
  readonly size: number;
  /** Releases every sprite (as their entities going would). */
  clear(): void;
}

const PREFIX = '@steadyframe/pixi:';

/** The frame's view of `table` (`frame.tables[name]`). */
function frameTable(frame: Frame<Schema>, name: string): FrameTable {
  return (frame.tables as unknown as Readonly<Record<string, FrameTable>>)[name]!;
}

/** `bindSprites` given a table (bind-sprites.ts): a sprite per entity by handle. */
export function bindTableSprites<S extends Schema, C extends Container>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: Container,
  fields: FieldNames,
  options: TableSpritesOptions<string, C>,
): TableSpritesBinding<S, C> {
  if (container === null || typeof container !== 'object' || typeof (container as Partial<Container>).addChild !== 'function') {
    throw new TypeError(`${PREFIX} bindSprites with a table takes the Container its sprites go in (then options.create makes each)`);
  }
  const { create, release } = options;
  if (typeof create !== 'function') throw new TypeError(`${PREFIX} bindSprites with a table needs options.create: (handle) => the sprite of a new entity`);
  if (release !== undefined && typeof release !== 'function') throw new TypeError(`${PREFIX} options.release must be a function (sprite, handle) => void`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindSprites');
  const name = table!.layout.name;
  const pose = new PoseWriter(resolved);
  const pool = createHandlePool<C>(table!.layout.capacity, {
    create(handle, index) {
      const sprite = create(handle, index);
      if (sprite === null || typeof sprite !== 'object' || typeof (sprite as Partial<Container>).position?.set !== 'function') {
        throw new TypeError(`${PREFIX} options.create(${handle}) must return a display object (a Sprite, Graphics, Container), not ${String(sprite)}`);
      }
      container.addChild(sprite);
      return sprite;
    },
    update: (sprite, index) => pose.apply(sprite, index),
    release(sprite, handle) {
      container.removeChild(sprite);
      if (release !== undefined) release(sprite, handle);
      else sprite.destroy();
    },
  });
  return {
    container,
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
