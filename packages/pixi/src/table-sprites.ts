/**
 * Sprites per entity of one table, kept by handle: each entity gets its own display object when it first shows
 * (`create`), which follows it through the despawns that move entities within the table, and goes when the
 * entity does (`release`). `steadyframe/adapter`'s `createTableObjects` does the bookkeeping.
 *
 * ```text
 *   update(frame) ──▶ frame.tables[table]: handles, count, zero-based views
 *                       gone handles ──▶ removed from the container, release(sprite, handle) (or destroyed)
 *                       new handles  ──▶ create(handle, index), added to the container
 *                       every handle ──▶ its sprite's x, y (rotation, scale, alpha) from its entity's index now
 * ```
 */
import type { Container } from 'pixi.js';
import type { Runtime, Schema } from 'steadyframe';
import { createTableObjects, type TableObjects } from 'steadyframe/adapter';
import { resolveBinding, type PoseFieldNames } from './fields.ts';
import { applyPose, PoseViews } from './pose.ts';

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

/** What `bindSprites` returns for a table: a sprite per entity (`get(handle)`), following the frame's table each `update`. */
export interface TableSpritesBinding<S extends Schema, C extends Container = Container> extends TableObjects<S, C> {
  /** Where the binding puts the sprites it is given. */
  readonly container: Container;
}

const PREFIX = '@steadyframe/pixi:';

/** `bindSprites` given a table (bind-sprites.ts): a sprite per entity by handle. */
export function bindTableSprites<S extends Schema, C extends Container>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: Container,
  fields: PoseFieldNames,
  options: TableSpritesOptions<string, C>,
): TableSpritesBinding<S, C> {
  if (container === null || typeof container !== 'object' || typeof (container as Partial<Container>).addChild !== 'function') {
    throw new TypeError(`${PREFIX} bindSprites with a table takes the Container its sprites go in (then options.create makes each)`);
  }
  const { create, release } = options;
  if (typeof create !== 'function') throw new TypeError(`${PREFIX} bindSprites with a table needs options.create: (handle) => the sprite of a new entity`);
  if (release !== undefined && typeof release !== 'function') throw new TypeError(`${PREFIX} options.release must be a function (sprite, handle) => void`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindSprites');
  const pose = new PoseViews(resolved);
  const objects = createTableObjects<S, C>(table!, {
    read: (shown) => pose.read(shown.fields),
    create(handle, index) {
      const sprite = create(handle, index);
      if (sprite === null || typeof sprite !== 'object' || typeof (sprite as Partial<Container>).position?.set !== 'function') {
        throw new TypeError(`${PREFIX} options.create(${handle}) must return a display object (a Sprite, Graphics, Container), not ${String(sprite)}`);
      }
      container.addChild(sprite);
      return sprite;
    },
    update: (sprite, index) => applyPose(sprite, pose, index),
    release(sprite, handle) {
      container.removeChild(sprite);
      if (release !== undefined) release(sprite, handle);
      else sprite.destroy();
    },
  });
  return Object.assign(objects, { container });
}
