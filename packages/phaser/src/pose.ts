/**
 * The one copy every CPU binding runs: entity i's pose from a frame's views (`steadyframe/adapter`'s
 * `PoseViews`, read once a frame) onto a game object.
 *
 * ```text
 *   pose.read(views) once a frame ──▶ applyPose(object, pose, i): x, y (rotation, scaleX, scaleY, alpha where bound), visible
 * ```
 */
import type { PoseViews } from 'steadyframe/adapter';

export { PoseViews } from 'steadyframe/adapter';

/**
 * What a bound game object needs: Phaser's Transform, Alpha and Visible components, which Sprite, Image,
 * Container, Text, Graphics and the other display objects have.
 */
export interface PoseTarget {
  x: number;
  y: number;
  rotation: number;
  scaleX: number;
  scaleY: number;
  alpha: number;
  visible: boolean;
}

/** Sets `o`'s pose from entity `i` of the views `pose` read, and makes it visible. Allocates nothing. */
export function applyPose(o: PoseTarget, pose: PoseViews, i: number): void {
  const { position, fields } = pose;
  o.x = position[2 * i]!;
  o.y = position[2 * i + 1]!;
  if (fields.angle !== null) o.rotation = pose.angle[i]!;
  if (pose.scaleWidth === 2) {
    o.scaleX = pose.scale[2 * i]!;
    o.scaleY = pose.scale[2 * i + 1]!;
  } else if (pose.scaleWidth === 1) {
    o.scaleX = o.scaleY = pose.scale[i]!;
  }
  if (fields.alpha !== null) o.alpha = pose.alpha[i]!;
  if (!o.visible) o.visible = true;
}

/** Sets `objects[i]` from entity i for every i below `count`. */
export function applyPoses(objects: readonly PoseTarget[], pose: PoseViews, count: number): void {
  for (let i = 0; i < count; i++) applyPose(objects[i]!, pose, i);
}
