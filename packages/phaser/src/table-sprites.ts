/**
 * Game objects per entity of one table, kept by handle: each entity gets its own object when it first shows
 * (`create`), which follows it through the despawns that move entities within the table, and goes when the
 * entity does (`release`). `steadyframe/adapter`'s `createTableObjects` does the bookkeeping.
 *
 * ```text
 *   update(frame) ──▶ frame.tables[table]: handles, count, zero-based views
 *                       gone handles ──▶ removed from the parent, release(object, handle) (or destroyed)
 *                       new handles  ──▶ create(handle, index), added to the parent
 *                       every handle ──▶ its object's x, y (rotation, scale, alpha) from its entity's index now
 * ```
 */
import type { Runtime, Schema } from 'steadyframe';
import { createTableObjects, type TableObjects } from 'steadyframe/adapter';
import { resolveBinding, type PoseFieldNames } from './fields.ts';
import { applyPose, PoseViews, type PoseTarget } from './pose.ts';

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

/** What `bindSprites` returns for a table: a game object per entity (`get(handle)`), following the frame's table each `update`. */
export interface TableSpritesBinding<S extends Schema, T extends PoseTarget = PoseTarget> extends TableObjects<S, T> {
  /** Where the binding puts the objects it is given. */
  readonly parent: ObjectParent<T>;
}

const PREFIX = '@steadyframe/phaser:';

/** `bindSprites` given a table (bind-sprites.ts): a game object per entity by handle. */
export function bindTableSprites<S extends Schema, T extends PoseTarget>(
  runtime: Pick<Runtime<S>, 'schema'>,
  parent: ObjectParent<T>,
  fields: PoseFieldNames,
  options: TableSpritesOptions<string, T>,
): TableSpritesBinding<S, T> {
  if (parent === null || typeof parent !== 'object' || typeof parent.add !== 'function' || typeof parent.remove !== 'function') {
    throw new TypeError(`${PREFIX} bindSprites with a table takes the parent its objects go in (a Container, a Layer, or the scene's this.children), then options.create makes each`);
  }
  const { create, release } = options;
  if (typeof create !== 'function') throw new TypeError(`${PREFIX} bindSprites with a table needs options.create: (handle) => the game object of a new entity`);
  if (release !== undefined && typeof release !== 'function') throw new TypeError(`${PREFIX} options.release must be a function (object, handle) => void`);
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'bindSprites');
  const pose = new PoseViews(resolved);
  const objects = createTableObjects<S, T>(table!, {
    read: (shown) => pose.read(shown.fields),
    create(handle, index) {
      const object = create(handle, index);
      if (object === null || typeof object !== 'object') throw new TypeError(`${PREFIX} options.create(${handle}) must return a game object, not ${String(object)}`);
      parent.add(object);
      return object;
    },
    update: (object, index) => applyPose(object, pose, index),
    release(object, handle) {
      parent.remove(object);
      if (release !== undefined) release(object, handle);
      else (object as { destroy?: () => void }).destroy?.();
    },
  });
  return Object.assign(objects, { parent });
}
