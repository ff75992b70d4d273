/**
 * The one copy every CPU binding runs: entity i's pose from a frame's views onto a game object.
 *
 * ```text
 *   read(views) once a frame ──▶ apply(object, i): x, y (rotation, scaleX, scaleY, alpha where bound), visible
 * ```
 */
import type { ResolvedPoseFields } from 'steadyframe/adapter';
import { NO_VIEW, viewOf } from './fields.ts';

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

/** The bound fields' views of one frame, and the copy from entity i onto a game object. Allocates nothing. */
export class PoseWriter {
  readonly #fields: ResolvedPoseFields;
  readonly #scaleWidth: number;
  #position: Float32Array = NO_VIEW;
  #angle: Float32Array = NO_VIEW;
  #scale: Float32Array = NO_VIEW;
  #alpha: Float32Array = NO_VIEW;

  constructor(fields: ResolvedPoseFields) {
    this.#fields = fields;
    this.#scaleWidth = fields.scale?.width ?? 0;
  }

  /** Takes the frame's views (`frame.fields`, or a table's zero-based `fields`). */
  read(views: { readonly [name: string]: Float32Array }): void {
    const f = this.#fields;
    this.#position = viewOf(views, f.position);
    this.#angle = viewOf(views, f.angle);
    this.#scale = viewOf(views, f.scale?.name ?? null);
    this.#alpha = viewOf(views, f.alpha);
  }

  /** Sets `o`'s pose from entity `i` of the views read, and makes it visible. */
  apply(o: PoseTarget, i: number): void {
    const position = this.#position;
    o.x = position[2 * i]!;
    o.y = position[2 * i + 1]!;
    const f = this.#fields;
    if (f.angle !== null) o.rotation = this.#angle[i]!;
    if (this.#scaleWidth === 2) {
      o.scaleX = this.#scale[2 * i]!;
      o.scaleY = this.#scale[2 * i + 1]!;
    } else if (this.#scaleWidth === 1) {
      o.scaleX = o.scaleY = this.#scale[i]!;
    }
    if (f.alpha !== null) o.alpha = this.#alpha[i]!;
    if (!o.visible) o.visible = true;
  }

  /** Sets `objects[i]` from entity i for every i below `count`. */
  applyAll(objects: readonly PoseTarget[], count: number): void {
    for (let i = 0; i < count; i++) this.apply(objects[i]!, i);
  }
}
