/**
 * For entities drawn as game objects you made yourself (Sprites, Images, Containers, Text): entity i moves
 * object i.
 *
 * ```text
 *   runtime.frame(ts) ──▶ frame.fields (interpolated, snaps applied) ──▶ update(frame) ──▶ objects[i].x, y, rotation, scale, alpha
 * ```
 */
import type { Frame, Runtime, Schema } from 'steadyframe';
import { resolveFields, type PoseFields } from './fields.ts';
import { applyPose, type PoseTarget } from './pose.ts';

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
 * Throws at set-up if a field does not fit (see `PoseFields`).
 */
export function bindSprites<S extends Schema, T extends PoseTarget = PoseTarget>(
  runtime: Pick<Runtime<S>, 'schema'>,
  sprites: readonly T[],
  fields: PoseFields<S>,
): SpritesBinding<S, T> {
  if (!Array.isArray(sprites)) throw new TypeError('@steadyframe/phaser: bindSprites takes an array of game objects');
  const resolved = resolveFields(runtime.schema, fields);
  let overflow = 0;
  return {
    sprites,
    get overflow() {
      return overflow;
    },
    update(frame) {
      const count = Math.min(frame.count, sprites.length);
      overflow = frame.count - count;
      applyPose(frame, resolved, sprites, count);
      for (let i = count; i < sprites.length; i++) sprites[i]!.visible = false;
    },
  };
}
