/**
 * For a handful of entities drawn as their own display objects (Sprites, AnimatedSprites, Graphics, whole
 * Containers): entity i moves display object i.
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ sprites[i].x, y, rotation, scale, alpha
 * ```
 */
import type { Container } from 'pixi.js';
import type { Frame, Runtime, Schema } from 'steadyframe';
import { resolveFields, viewOf, type PoseFields } from './fields.ts';

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
 * Throws at set-up if a field does not fit (see `PoseFields`).
 */
export function bindSprites<S extends Schema, C extends Container = Container>(
  runtime: Pick<Runtime<S>, 'schema'>,
  sprites: readonly C[],
  fields: PoseFields<S>,
): SpritesBinding<S, C> {
  const resolved = resolveFields(runtime.schema, fields);
  const scaleWidth = resolved.scale?.width ?? 0;
  const scaleName = resolved.scale?.name ?? null;
  let overflow = 0;
  return {
    sprites,
    get overflow() {
      return overflow;
    },
    update(frame) {
      const views = frame.fields as { readonly [name: string]: Float32Array };
      const position = viewOf(views, resolved.position);
      const angle = resolved.angle === null ? null : viewOf(views, resolved.angle);
      const scale = scaleName === null ? null : viewOf(views, scaleName);
      const alpha = resolved.alpha === null ? null : viewOf(views, resolved.alpha);
      const count = Math.min(frame.count, sprites.length);
      overflow = frame.count - count;
      for (let i = 0; i < sprites.length; i++) {
        const sprite = sprites[i]!;
        if (i >= count) {
          sprite.visible = false;
          continue;
        }
        sprite.visible = true;
        sprite.position.set(position[2 * i]!, position[2 * i + 1]!);
        if (angle !== null) sprite.rotation = angle[i]!;
        if (scale !== null) {
          if (scaleWidth === 2) sprite.scale.set(scale[2 * i]!, scale[2 * i + 1]!);
          else sprite.scale.set(scale[i]!);
        }
        if (alpha !== null) sprite.alpha = alpha[i]!;
      }
    },
  };
}
