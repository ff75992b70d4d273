/**
 * The GPU path: every entity drawn as a textured sprite by one Phaser `Extern` game object, one point each,
 * whose vertex shader blends each entity's previous and current state (`steadyframe/adapter`'s point-sprite
 * shader, in GLSL ES 1.00: Phaser draws with WebGL 1). The main thread never touches an entity per frame: per
 * tick it uploads the newly published state into vertex buffers, per frame it sets a few uniforms and draws once.
 *
 * ```text
 *   update(time): keeps the frame's time (attachToGame calls it after runtime.pace(time), on drawn refreshes)
 *   Phaser's render reaches the Extern ──▶ YieldContext (Phaser flushes its batch, hands over the GL state)
 *     render(): acquire the pair ──▶ new publish since the last upload? (the GPU pair mirror decides)
 *                  one  ('swap'): overwrite the older state's buffers with the current state, flip
 *                  more ('full'): upload previous and current runs (fields, entities 0 .. count; given a
 *                                 table, its entities base .. base + count, at 0 in the buffers)
 *                  the tick marked snaps: the pair's generations too
 *               release; alpha = mirror.place(time, runtime.interpolation)
 *               uniforms: camera × projection, the frame's size, alpha, flip ... ; one drawArrays(POINTS, count)
 *   ──▶ RebindContext (Phaser takes its GL state back)
 * ```
 *
 * Uploads are `gl.bufferSubData` of the runtime's own views of the shared memory, under the lock: after the
 * release the worker may publish twice and write into the slot these views show; the GL client copies the bytes
 * in the call. Phaser renders only inside its render, so the upload waits for it: a refresh the pacer skips
 * uploads nothing and draws nothing. This file is the mirror's backend: two WebGL buffers per channel (position,
 * angle, frame, generations) in the context it draws in, sized and copied into by `gl.bufferData`/`bufferSubData`.
 */
import type { Runtime, Schema, TableName } from 'steadyframe';
import {
  angleModeOf,
  createGpuPairMirror,
  GENERATIONS,
  pointSpriteLayout,
  schemaField,
  type FieldOf,
  type GpuFrameStats,
  type LateOptions,
} from 'steadyframe/adapter';
import { resolveBinding, type PoseFieldNames, type PoseFields, type TableSchema } from './fields.ts';
import { createSpriteGl, type SpriteChannel, type SpriteGl as Gl } from './sprite-program.ts';

/**
 * The fields the GPU path reads: a 2D position and, optionally, an angle (see `PoseFields`), and which of
 * `options.frames` each entity shows (`frame`: a `none` or `linear` field of width 1 holding 0, 1, 2 ...; drawn as
 * the newest tick has it).
 */
export type SpriteFields<S extends Schema> = Pick<PoseFields<S>, 'position' | 'angle'> & { readonly frame?: FieldOf<S, 'none' | 'linear', 1> };

/** Frames one sprite set can show per entity (`options.frames`). */
export const MAX_FRAMES = 16;

/** The parts of a Phaser texture frame the sprites are drawn with. */
export interface SpriteFrame {
  readonly width: number;
  readonly height: number;
  readonly u0: number;
  readonly v0: number;
  readonly u1: number;
  readonly v1: number;
  readonly source: { readonly glTexture: { readonly webGLTexture: WebGLTexture | null } | null };
}

/** What the GPU path needs of a Phaser scene: an Extern to draw with, and its textures. */
export interface SpritesScene {
  readonly add: { extern(): ExternObject };
  readonly textures: {
    exists(key: string): boolean;
    get(key: string): { has(frame: string | number): boolean; get(frame?: string | number): SpriteFrame };
  };
}

/** Phaser's WebGL renderer, the parts the GPU path uses. */
export interface SpritesRenderer {
  readonly gl: WebGLRenderingContext;
  readonly projectionMatrix: { readonly val: Float32Array };
  setProjectionMatrixFromDrawingContext(context: unknown): void;
  on(event: 'restorewebgl', listener: () => void): unknown;
  off(event: 'restorewebgl', listener: () => void): unknown;
}

/** Phaser's `Extern` game object: its `render` is the GPU path's. */
export interface ExternObject {
  render(renderer: SpritesRenderer, drawingContext: { readonly width: number; readonly height: number }, calcMatrix: { readonly matrix: ArrayLike<number> }, displayList: unknown, displayListIndex: number): void;
  readonly alpha: number;
  destroy(): void;
}

export interface InterpolatedSpritesOptions<N extends string = never> {
  /**
   * The table whose entities the sprites draw (a name `defineTables` gave): only its range of the state is
   * uploaded (its live entities), and the fields are the table's. Without it, every entity.
   */
  readonly table?: N;
  /** The texture key every sprite is drawn with (loaded or generated in the scene), and its frame. */
  readonly texture: string;
  readonly frame?: string | number;
  /**
   * With `fields.frame`: the texture's frames entity i picks from by its field's value (0 the first), at most
   * `MAX_FRAMES`, each an axis-aligned rectangle of the same texture image (a spritesheet's or atlas's frames,
   * not trimmed or rotated ones), all drawn at the sprite's one size.
   */
  readonly frames?: readonly (string | number)[];
  /** A sprite's size in world units. Default: the frame's size. */
  readonly width?: number;
  readonly height?: number;
  /** Where the entity's position sits in the sprite, 0..1 (0.5: the centre, the default; a number sets both). */
  readonly origin?: number | { readonly x: number; readonly y: number };
  /** Entities the vertex buffers hold before they first grow. Default 1024 (or the capacity, the table's given one, if less). */
  readonly initialCapacity?: number;
}

/** Counters of what the GPU path did (as `@steadyframe/pixi`'s). */
export interface InterpolatedSpritesStats extends GpuFrameStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /** States whose generations were uploaded (only a pair whose tick marked snaps needs them). */
  generationUploads: number;
  /** Renders whose acquire gave up (the lock stayed busy): they drew the last pair. */
  misses: number;
  /** Times the vertex buffers grew. */
  grows: number;
  /** Draw calls made. */
  draws: number;
}

/** What `createInterpolatedSprites` returns. */
export interface InterpolatedSprites {
  /** The Extern that draws them: on the scene's display list (depth, visibility, alpha and scroll factor apply). */
  readonly extern: ExternObject;
  /** The frame's time (ms, the rAF timestamp `attachToGame` passes): the next render draws the world then. */
  update(time: number): void;
  /** The alpha of the last render: in [0, 1], or up to 1 + `maxPrediction` for a late frame carried on. */
  readonly alpha: number;
  /** Entities drawn by the last render (the table's, given one). */
  readonly count: number;
  /** Entities the vertex buffers hold now. */
  readonly bufferCapacity: number;
  readonly stats: Readonly<InterpolatedSpritesStats>;
  /** Destroys the Extern and the GL objects (not the texture). */
  dispose(): void;
}

const PREFIX = '@steadyframe/phaser:';

/** What the GPU path needs of the runtime. */
type GpuRuntime<S extends Schema> = Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> & { readonly interpolation?: LateOptions };


/**
 * Creates an Extern in `scene` that draws the runtime's entities 0 .. count - 1 as sprites of one texture frame,
 * interpolated on the GPU: one draw call, and main-thread work per frame that does not grow with the count.
 * Entities the runtime would snap are drawn at their current state (spawned this tick, or a new generation:
 * `world.snap`, `spawn`, `despawn`). A late frame follows `runtime.interpolation` (`whenLate`, `maxPrediction`).
 * Given `options.table`, the table's entities alone: its range `base .. base + count - 1` of each state is
 * uploaded, so another table's entities never show in this Extern (an Extern per table, each its own texture).
 *
 * ```ts
 * const balls = createInterpolatedSprites(this, runtime, { position: 'position' }, { texture: 'ball' });
 * attachToGame(this.game, runtime, balls); // each drawn refresh: runtime.pace(time), balls.update(time)
 * ```
 *
 * Needs Phaser's WebGL renderer. The Extern's alpha and scroll factor apply to every sprite, and the camera
 * (scroll, zoom, rotation) too; per-entity scale, alpha and tint need the CPU path (`bindGroup`). Each sprite is
 * one point: its bounding square in pixels must fit the GPU's largest point size
 * (`gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE)`: 1,023 px in SwiftShader, more on most desktops, as little as
 * 64 on some mobile GPUs). Throws at set-up if a field does not fit or the texture frame is missing.
 */
export function createInterpolatedSprites<S extends Schema, const N extends TableName<S>>(
  scene: SpritesScene,
  runtime: GpuRuntime<S>,
  fields: SpriteFields<TableSchema<S, N>>,
  options: InterpolatedSpritesOptions<N> & { readonly table: N },
): InterpolatedSprites;
export function createInterpolatedSprites<S extends Schema>(scene: SpritesScene, runtime: GpuRuntime<S>, fields: SpriteFields<S>, options: InterpolatedSpritesOptions): InterpolatedSprites;
export function createInterpolatedSprites<S extends Schema>(
  scene: SpritesScene,
  runtime: GpuRuntime<S>,
  fields: PoseFieldNames & { readonly frame?: string },
  options: InterpolatedSpritesOptions<string>,
): InterpolatedSprites {
  const extra: PoseFieldNames = fields;
  if (typeof fields === 'object' && fields !== null && (extra.scale !== undefined || extra.alpha !== undefined)) {
    throw new TypeError(`${PREFIX} the GPU path draws position and angle only; bind scale and alpha with bindGroup`);
  }
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options?.table, 'createInterpolatedSprites');
  const schema = table?.schema ?? runtime.schema;
  if (typeof options?.texture !== 'string') throw new TypeError(`${PREFIX} options.texture must be a texture key`);
  // Phaser's own lookup answers a missing frame with the texture's first one (and a console warning): ask first
  const frameOf = (name: string | number | undefined): SpriteFrame => {
    if (!scene.textures.exists(options.texture) || (name !== undefined && !scene.textures.get(options.texture).has(name))) {
      throw new Error(`${PREFIX} no texture frame "${options.texture}"${name === undefined ? '' : ` / ${String(name)}`} in the scene: load or generate it before`);
    }
    return scene.textures.get(options.texture).get(name);
  };
  const frameField = fields.frame ?? null;
  const frames = frameField === null ? [] : (options.frames ?? []).map(frameOf);
  if (frameField !== null) {
    const spec = schemaField(schema, frameField, `${PREFIX} fields.frame`);
    if ((spec.kind !== 'none' && spec.kind !== 'linear') || spec.width !== 1) {
      throw new TypeError(`${PREFIX} fields.frame "${frameField}" must be a none or linear field of width 1; it is ${spec.kind} of width ${spec.width}`);
    }
    if (frames.length < 1 || frames.length > MAX_FRAMES) {
      throw new RangeError(`${PREFIX} fields.frame needs options.frames: 1 to ${MAX_FRAMES} frames of the texture; got ${frames.length}`);
    }
    if (frames.some((f) => f.source !== frames[0]!.source)) throw new Error(`${PREFIX} options.frames must all be frames of one texture image`);
  } else if (options.frames !== undefined) {
    throw new TypeError(`${PREFIX} options.frames needs fields.frame, the field that picks one per entity`);
  }
  const frame = frames[0] ?? frameOf(options.frame);
  // the entities the buffers may have to hold: the table's, or every entity
  const capacity = table?.layout.capacity ?? runtime.capacity;
  const { quad, bufferCapacity: initial } = pointSpriteLayout(
    { width: options.width ?? frame.width, height: options.height ?? frame.height, pivot: options.origin, pivotName: 'origin', initialCapacity: options.initialCapacity, capacity },
    PREFIX,
  );
  const angleMode = angleModeOf(runtime.schema, resolved.angle);
  /** The mirror's channels, each with its attributes' name less A/B. */
  const channels: SpriteChannel[] = [{ field: resolved.position, width: 2, attribute: 'aPos' }];
  if (resolved.angle !== null) channels.push({ field: resolved.angle, width: 1, attribute: 'aAngle' });
  if (frameField !== null) channels.push({ field: frameField, width: 1, attribute: 'aFrame' });
  channels.push({ ...GENERATIONS, attribute: 'aGen' });
  const frameRects = new Float32Array(4 * frames.length);
  frames.forEach((f, i) => frameRects.set([f.u0, f.v0, f.u1, f.v1], 4 * i));

  const stats: InterpolatedSpritesStats = { fullUploads: 0, swaps: 0, generationUploads: 0, misses: 0, grows: 0, draws: 0, late: 0, extrapolated: 0, overtaken: 0 };
  let time = Number.NEGATIVE_INFINITY;
  let alpha = 0;
  let ctx: Gl | null = null; // the program and buffers in the context drawn in (made at the first render in it)
  let renderer: SpritesRenderer | null = null;
  const mvp = new Float32Array(9);
  // corners 0 (u0, v0) and 1 (u1, v0) along x; 2 (u1, v1) and 3 (u0, v1): the frame's uvs as Phaser keeps them
  const uv01 = new Float32Array([frame.u0, frame.v0, frame.u1, frame.v0]);
  const uv23 = new Float32Array([frame.u1, frame.v1, frame.u0, frame.v1]);
  const colour = new Float32Array(4);
  const resolution = new Float32Array(2);

  // which publish is on the GPU, what to upload, the pair's times and counts, where each frame falls (counted into stats)
  const mirror = createGpuPairMirror(
    { channels, table, capacity: runtime.capacity, initialCapacity: initial, stats },
    {
      /** Sizes every buffer of the context's for `entities`, and the index buffer (0, 1, 2 ...). */
      allocate(entities) {
        const { gl } = ctx!;
        channels.forEach(({ width }, k) => {
          for (const b of ctx!.buffers[k]!) {
            gl.bindBuffer(gl.ARRAY_BUFFER, b);
            gl.bufferData(gl.ARRAY_BUFFER, entities * width * 4, gl.DYNAMIC_DRAW);
          }
        });
        const indices = new Float32Array(entities);
        for (let e = 0; e < entities; e++) indices[e] = e;
        gl.bindBuffer(gl.ARRAY_BUFFER, ctx!.index);
        gl.bufferData(gl.ARRAY_BUFFER, indices, gl.STATIC_DRAW);
      },
      /** Straight from the shared memory (WebGL 1's bufferSubData takes the view whole). */
      copy(k, which, from, offset, elements) {
        const { gl } = ctx!;
        gl.bindBuffer(gl.ARRAY_BUFFER, ctx!.buffers[k]![which]!);
        gl.bufferSubData(gl.ARRAY_BUFFER, 0, from.subarray(offset, offset + elements));
      },
    },
  );

  const restored = (): void => {
    ctx = null; // made again in the new context at the next render
    mirror.forget();
  };

  const extern = scene.add.extern();
  extern.render = (r, drawingContext, calcMatrix) => {
    if (renderer !== r) {
      if (typeof (r as Partial<SpritesRenderer>).setProjectionMatrixFromDrawingContext !== 'function') {
        throw new Error(`${PREFIX} createInterpolatedSprites draws with Phaser's WebGL renderer (type: Phaser.WEBGL or AUTO where WebGL is there)`);
      }
      renderer?.off('restorewebgl', restored);
      renderer = r;
      r.on('restorewebgl', restored);
      ctx = null;
    }
    if (ctx === null) {
      // a new context: nothing of the pair is on the GPU; the buffers sized as the mirror has them now
      ctx = createSpriteGl(r.gl, angleMode, frames.length, channels);
      mirror.reallocate();
    }
    const c = ctx;
    const { gl } = c;
    mirror.read(runtime.reader);
    if (time === Number.NEGATIVE_INFINITY) return; // never updated: no frame time to draw at yet
    alpha = mirror.place(time, runtime.interpolation);
    const count = mirror.count;
    const texture = frame.source.glTexture?.webGLTexture ?? null;
    if (count === 0 || texture === null || gl.isContextLost()) return;
    // clip space from the sprites' world units: Phaser's projection for this drawing context (2D part of its
    // ortho matrix) times the camera and Extern transform it computed (a, b, c, d, e, f: x' = a x + c y + e)
    r.setProjectionMatrixFromDrawingContext(drawingContext);
    const p = r.projectionMatrix.val;
    const m = calcMatrix.matrix;
    const a = m[0]!;
    const b = m[1]!;
    const cc = m[2]!;
    const d = m[3]!;
    const e = m[4]!;
    const f = m[5]!;
    mvp[0] = p[0]! * a + p[4]! * b;
    mvp[1] = p[1]! * a + p[5]! * b;
    mvp[3] = p[0]! * cc + p[4]! * d;
    mvp[4] = p[1]! * cc + p[5]! * d;
    mvp[6] = p[0]! * e + p[4]! * f + p[12]!;
    mvp[7] = p[1]! * e + p[5]! * f + p[13]!;
    mvp[8] = 1;
    resolution[0] = drawingContext.width;
    resolution[1] = drawingContext.height;
    colour.fill(extern.alpha); // premultiplied, as Phaser's textures and its normal blend are
    gl.useProgram(c.program);
    const u = c.uniforms;
    gl.uniformMatrix3fv(u.uMvp, false, mvp);
    gl.uniform2fv(u.uResolution, resolution);
    gl.uniform4fv(u.uColor, colour);
    gl.uniform1f(u.sfAlpha, alpha);
    gl.uniform1f(u.sfPrevCount, mirror.previousCount);
    gl.uniform1f(u.sfFlip, mirror.flip);
    gl.uniform1f(u.sfSnaps, mirror.snaps ? 1 : 0);
    gl.uniform4fv(u.sfQuad, quad);
    gl.uniform4fv(u.sfUv01, uv01);
    gl.uniform4fv(u.sfUv23, uv23);
    gl.uniform1i(u.uTexture, 0);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    // Phaser hands over the context with no vertex array bound: these pointers are the default array's, and
    // Phaser's RebindContext resets what it needs after
    for (const { at, buffer, size, type } of c.pointers) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, size, type, false, 0, 0);
    }
    if (frames.length > 0) gl.uniform4fv(u.sfFrames, frameRects);
    gl.drawArrays(gl.POINTS, 0, count);
    for (const { at } of c.pointers) gl.disableVertexAttribArray(at);
    stats.draws++;
  };

  return {
    extern,
    update(t) {
      time = t;
    },
    get alpha() {
      return alpha;
    },
    get count() {
      return mirror.count;
    },
    get bufferCapacity() {
      return mirror.bufferCapacity;
    },
    stats,
    dispose() {
      renderer?.off('restorewebgl', restored);
      if (ctx !== null && !ctx.gl.isContextLost()) {
        const { gl } = ctx;
        for (const pair of ctx.buffers) for (const b of pair) gl.deleteBuffer(b);
        gl.deleteBuffer(ctx.index);
        gl.deleteProgram(ctx.program);
      }
      ctx = null;
      renderer = null;
      extern.destroy();
    },
  };
}
