/**
 * For a handful of entities drawn as their own display objects (Sprites, AnimatedSprites, Graphics, whole
 * Containers): entity i moves display object i; or, given a table, each of its entities gets a display object
 * of its own, kept by handle (table-sprites.ts).
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ sprites[i].x, y, rotation, scale, alpha
 * ```
 */
import type { Container } from 'pixi.js';
import type { Frame, Runtime, Schema, TableName } from 'steadyframe';
import { resolveBinding, type PoseFieldNames, type PoseFields, type TableSchema } from './fields.ts';
import { applyPose, PoseViews } from './pose.ts';
import { bindTableSprites, type TableSpritesBinding, type TableSpritesOptions } from './table-sprites.ts';

export type { TableSpritesBinding, TableSpritesOptions } from './table-sprites.ts';

/** What `bindSprites` returns. */
export interface SpritesBinding<S extends Schema, C extends Container = Container> {
  readonly sprites: readonly C[];
  /**
   * Sets `sprites[i]`'s x, y (and rotation, scale, alpha, where bound) from the frame's entity i, and
   * `visible = i < frame.count`, so sprites without a live entity hide (their other values are left as they
   * were). Call it with each frame `runtime.frame(ts)` returns, or from `draw`. Allocates nothing.
   */
  update(frame: Frame<S>): void;
  /** Entities the last frame had beyond the sprites given (not drawn). */
  readonly overflow: number;
}

/**
 * Binds `sprites[i]` to entity i of the runtime's interpolated state. The adapter only copies values: the
 * runtime's Frame has already blended them and applied snaps (spawns, teleports, `snapDistance`), the render
 * delay and extrapolation, so every interpolation option holds. Each sprite is its own object to Pixi; for
 * thousands of entities use `bindParticles`.
 *
 * ```ts
 * const ships = bindSprites(runtime, sprites, { position: 'position', angle: 'angle' });
 * attachToTicker(app, runtime, (frame) => ships.update(frame)); // the ticker's frame time; no render on skipped refreshes
 * ```
 *
 * Given a table (a schema of `defineTables`), each of the table's entities gets a sprite of its own instead,
 * kept by handle: `options.create(handle)` makes it when the entity first shows (the binding adds it to
 * `container`), it follows its entity through despawns that move entities within the table, and it goes
 * (removed, then `options.release`, or destroyed) with its entity. The fields are the table's.
 *
 * ```ts
 * const rocks = bindSprites(runtime, app.stage, { position: 'position' }, { table: 'rocks', create: () => new Sprite(rockTexture) });
 * ```
 *
 * Throws at set-up if a field does not fit (see `PoseFields`), or the table is not one of the schema's.
 */
export function bindSprites<S extends Schema, C extends Container = Container>(runtime: Pick<Runtime<S>, 'schema'>, sprites: readonly C[], fields: PoseFields<S>): SpritesBinding<S, C>;
export function bindSprites<S extends Schema, const N extends TableName<S>, C extends Container = Container>(
  runtime: Pick<Runtime<S>, 'schema'>,
  container: Container,
  fields: PoseFields<TableSchema<S, N>>,
  options: TableSpritesOptions<N, C>,
): TableSpritesBinding<S, C>;
export function bindSprites<S extends Schema, C extends Container = Container>(
  runtime: Pick<Runtime<S>, 'schema'>,
  sprites: readonly C[] | Container,
  fields: PoseFieldNames,
  options?: TableSpritesOptions<string, C>,
): SpritesBinding<S, C> | TableSpritesBinding<S, C> {
  if (options?.table !== undefined) {
    if (Array.isArray(sprites)) {
      throw new TypeError('@steadyframe/pixi: bindSprites with a table keeps a sprite per entity: pass the Container they go in, not an array, and options.create');
    }
    return bindTableSprites(runtime, sprites as Container, fields, options);
  }
  if (!Array.isArray(sprites)) throw new TypeError('@steadyframe/pixi: bindSprites takes an array of display objects (or, with options.table, a Container)');
  return bindIndexed(runtime, sprites as readonly C[], fields);
}

function bindIndexed<S extends Schema, C extends Container>(runtime: Pick<Runtime<S>, 'schema'>, sprites: readonly C[], fields: PoseFieldNames): SpritesBinding<S, C> {
  const pose = new PoseViews(resolveBinding(runtime.schema, fields, undefined, 'bindSprites').fields);
  let overflow = 0;
  return {
    sprites,
    get overflow() {
      return overflow;
    },
    update(frame) {
      pose.read(frame.fields as { readonly [name: string]: Float32Array });
      const count = Math.min(frame.count, sprites.length);
      overflow = frame.count - count;
      for (let i = 0; i < sprites.length; i++) {
        const sprite = sprites[i]!;
        if (i >= count) {
          sprite.visible = false;
          continue;
        }
        sprite.visible = true;
        applyPose(sprite, pose, i);
      }
    },
  };
}
