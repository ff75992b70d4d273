/**
 * The copy both sprite bindings run: entity i's pose from a frame's views (`steadyframe/adapter`'s `PoseViews`,
 * read once a frame) onto a display object.
 *
 * ```text
 *   pose.read(views) once a frame ──▶ applyPose(sprite, pose, i): x, y (rotation, scale, alpha where bound)
 * ```
 */
import type { Container } from 'pixi.js';
import type { PoseViews } from 'steadyframe/adapter';

export { PoseViews } from 'steadyframe/adapter';

/** Sets `sprite`'s pose from entity `i` of the views `pose` read: x, y, and the bound rotation, scale and alpha. Allocates nothing. */
export function applyPose(sprite: Container, pose: PoseViews, i: number): void {
  const { position, fields } = pose;
  sprite.position.set(position[2 * i]!, position[2 * i + 1]!);
  if (fields.angle !== null) sprite.rotation = pose.angle[i]!;
  if (pose.scaleWidth === 2) sprite.scale.set(pose.scale[2 * i]!, pose.scale[2 * i + 1]!);
  else if (pose.scaleWidth === 1) sprite.scale.set(pose.scale[i]!);
  if (fields.alpha !== null) sprite.alpha = pose.alpha[i]!;
}
