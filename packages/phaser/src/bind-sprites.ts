/**
 * For entities drawn as game objects you made yourself (Sprites, Images, Containers, Text): entity i moves
 * object i; or, given a table, each of its entities gets a game object of its own, kept by handle
 * (table-sprites.ts).
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ objects[i].x, y, rotation, scale, alpha
 * ```
 */
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { resolveBinding, type PoseFieldNames, type PoseFields, type TableSchema } from './fields.ts';
import { applyPoses, PoseViews, type PoseTarget } from './pose.ts';
import { bindTableSprites, type ObjectParent, type TableSpritesBinding, type TableSpritesOptions } from './table-sprites.ts';

export type { ObjectParent, TableSpritesBinding, TableSpritesOptions } from './table-sprites.ts';

/** What `bindSprites` returns. */
export interface SpritesBinding<S extends Schema, T extends PoseTarget = PoseTarget> {
  readonly sprites: readonly T[];
  /**
   * Sets `sprites[i]`'s x, y (and rotation, scale, alpha, where bound) from the frame's entity i, and
   * `visible = i < frame.count`, so objects without a live entity hide (their other values are left as they
   * were). Call it with each frame `runtime.frame(ts)` returns, or from `attachToGame`'s draw. Allocates nothing.
   */
  update(frame: Frame<S>): void;
  /** Entities the last frame had beyond the objects given (not drawn). */
  readonly overflow: number;
}

/**
 * Binds `sprites[i]` to entity i of the runtime's interpolated state. The adapter only copies values: the
 * runtime's Frame has already blended them and applied snaps (spawns, teleports, `snapDistance`), the render
 * delay and extrapolation, so every interpolation option holds.
 *
 * ```ts
 * const ships = bindSprites(runtime, [this.add.sprite(0, 0, 'ship')], { position: 'position', angle: 'angle' });
 * attachToGame(this.game, runtime, (frame) => ships.update(frame));
 * ```
 *
 * Given a table (a schema of `defineTables`), each of the table's entities gets a game object of its own
 * instead, kept by handle: `options.create(handle)` makes it when the entity first shows (the binding adds it to
 * `parent`), it follows its entity through despawns that move entities within the table, and it goes (removed,
 * then `options.release`, or destroyed) with its entity. The fields are the table's.
 *
 * ```ts
 * const ships = bindSprites(runtime, this.children, { position: 'position' }, { table: 'ships', create: () => this.add.image(0, 0, 'ship') });
 * ```
 *
 * Throws at set-up if a field does not fit (see `PoseFields`), or the table is not one of the schema's.
 */
export function bindSprites<S extends Schema, const N extends TableName<S>, T extends PoseTarget = PoseTarget>(
  runtime: Pick<Runtime<S>, 'schema'>,
  parent: ObjectParent<T>,
  fields: PoseFields<TableSchema<S, N>>,
  options: TableSpritesOptions<N, T>,
): TableSpritesBinding<S, T>;
export function bindSprites<S extends Schema, T extends PoseTarget = PoseTarget>(runtime: Pick<Runtime<S>, 'schema'>, sprites: readonly T[], fields: PoseFields<S>): SpritesBinding<S, T>;
export function bindSprites<S extends Schema, T extends PoseTarget = PoseTarget>(
  runtime: Pick<Runtime<S>, 'schema'>,
  sprites: readonly T[] | ObjectParent<T>,
  fields: PoseFieldNames,
  options?: TableSpritesOptions<string, T>,
): SpritesBinding<S, T> | TableSpritesBinding<S, T> {
  if (options?.table !== undefined) {
    if (Array.isArray(sprites)) {
      throw new TypeError('@steadyframe/phaser: bindSprites with a table keeps an object per entity: pass the parent they go in (a Container, a Layer, this.children), not an array, and options.create');
    }
    return bindTableSprites(runtime, sprites as ObjectParent<T>, fields, options);
  }
  if (!Array.isArray(sprites)) throw new TypeError('@steadyframe/phaser: bindSprites takes an array of game objects');
  const objects = sprites as readonly T[];
  const pose = new PoseViews(resolveBinding(runtime.schema, fields, undefined, 'bindSprites').fields);
  let overflow = 0;
  return {
    sprites: objects,
    get overflow() {
      return overflow;
    },
    update(frame) {
      const count = Math.min(frame.count, objects.length);
      overflow = frame.count - count;
      pose.read(frame.fields as { readonly [name: string]: Float32Array });
      applyPoses(objects, pose, count);
      for (let i = count; i < objects.length; i++) objects[i]!.visible = false;
    },
  };
}
