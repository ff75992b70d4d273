/**
 * The copy both sprite bindings run: entity i's pose from a frame's views onto a display object.
 *
 * ```text
 *   read(views) once a frame ──▶ apply(sprite, i): x, y (rotation, scale, alpha where bound)
 * ```
 */
import type { Container } from 'pixi.js';
import { NO_VIEW, viewOf, type ResolvedFields } from './fields.ts';

/** The bound fields' views of one frame, and the copy from entity i onto a display object. Allocates nothing. */
export class PoseWriter {
  readonly #fields: ResolvedFields;
  readonly #scaleWidth: number;
  #position: Float32Array = NO_VIEW;
  #angle: Float32Array = NO_VIEW;
  #scale: Float32Array = NO_VIEW;
  #alpha: Float32Array = NO_VIEW;

  constructor(fields: ResolvedFields) {
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

  /** Sets `sprite`'s pose from entity `i` of the views read: x, y, and the bound rotation, scale and alpha. */
  apply(sprite: Container, i: number): void {
    const position = this.#position;
    sprite.position.set(position[2 * i]!, position[2 * i + 1]!);
    const f = this.#fields;
    if (f.angle !== null) sprite.rotation = this.#angle[i]!;
    if (this.#scaleWidth === 2) sprite.scale.set(this.#scale[2 * i]!, this.#scale[2 * i + 1]!);
    else if (this.#scaleWidth === 1) sprite.scale.set(this.#scale[i]!);
    if (f.alpha !== null) sprite.alpha = this.#alpha[i]!;
  }
}
