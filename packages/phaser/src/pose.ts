/**
 * The one copy loop both bindings run: entity i's pose from the frame onto game object i.
 *
 * ```text
 *   frame.fields (interpolated, snaps applied) ──▶ objects[i].x, y (rotation, scaleX, scaleY, alpha), i < count
 * ```
 */
import type { Frame, Schema } from 'steadyframe';
import type { ResolvedPoseFields } from 'steadyframe/adapter';
import { viewOf } from './fields.ts';

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

/**
 * Sets `objects[i]`'s pose from entity i for every i below `count` (at most the frame's count), and makes each
 * of them visible. Reads the views once; allocates nothing.
 */
export function applyPose<S extends Schema>(frame: Frame<S>, fields: ResolvedPoseFields, objects: readonly PoseTarget[], count: number): void {
  const views = frame.fields as { readonly [name: string]: Float32Array };
  const position = viewOf(views, fields.position);
  const angle = fields.angle === null ? null : viewOf(views, fields.angle);
  const scale = fields.scale === null ? null : viewOf(views, fields.scale.name);
  const scaleWidth = fields.scale?.width ?? 0;
  const alpha = fields.alpha === null ? null : viewOf(views, fields.alpha);
  for (let i = 0; i < count; i++) {
    const o = objects[i]!;
    o.x = position[2 * i]!;
    o.y = position[2 * i + 1]!;
    if (angle !== null) o.rotation = angle[i]!;
    if (scale !== null) {
      if (scaleWidth === 2) {
        o.scaleX = scale[2 * i]!;
        o.scaleY = scale[2 * i + 1]!;
      } else {
        o.scaleX = o.scaleY = scale[i]!;
      }
    }
    if (alpha !== null) o.alpha = alpha[i]!;
    if (!o.visible) o.visible = true;
  }
}
