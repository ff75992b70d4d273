/**
 * The GPU path: entities drawn as textured sprites of a single Pixi `Mesh`, one point each on a WebGL renderer,
 * one instanced quad each on a WebGPU renderer, whose vertex shader blends each entity's previous and current
 * state (sprite-shader.ts: GLSL and WGSL). The main thread never touches an entity
 * per frame: per tick it uploads the newly published state into vertex buffers (each field's run, the range
 * the live entities fill), and per frame it sets three uniforms.
 *
 * ```text
 *   update(time):
 *     acquire the pair ──▶ new publish since the last upload? (steadyframe/adapter's GPU pair mirror decides)
 *                            one  ('swap'): overwrite the older state's buffers with the current state, flip
 *                            more ('full'): upload previous and current runs (fields, entities 0 .. count;
 *                                           given a table, its entities base .. base + count, at 0 in the buffers)
 *                          the tick marked snaps (SNAPS > 0)? upload the pair's generations too (those not on the GPU)
 *                            none ('none'): upload nothing
 *                          its tracker notes PREV_TIME, CUR_TIME, COUNT, PREV_COUNT, SNAPS
 *     release
 *     sfAlpha = mirror.place(time, runtime.interpolation); sfFlip, sfPrevCount, sfSnaps; points drawn = COUNT
 *
 *   this file is the mirror's backend: two Pixi Buffers per channel (A and B: position, angle, generations),
 *   grown in place, copied into as below; two geometries over the same Buffers, the one the renderer needs
 *   set on the mesh as it renders (the mesh's onRender tells which renderer):
 *     WebGL   points: entity e is vertex e (attributes per vertex), an index buffer 0 .. n - 1, COUNT indices
 *     WebGPU  quads:  4 corners, 6 indices; the state buffers per instance, COUNT instances
 *
 *   an upload, once a renderer has drawn the mesh:
 *     WebGL   gl.bufferSubData(the GL buffer, the runtime's own view of the run in the shared memory)  ── under
 *     WebGPU  device.queue.writeBuffer(the GPUBuffer, the same view)                                      the lock
 *   before that (the first frame), or when a second renderer draws the mesh:
 *     copy the run into the Pixi Buffer's plain array, buffer.update() ──▶ Pixi uploads it at app.render
 * ```
 *
 * The direct upload must happen under the lock: after the release the worker may publish twice and write into
 * the slot these views show. The GL client copies the bytes into its command stream in the call, and
 * `writeBuffer` copies them before it returns (WebGPU's contract), so nothing reads the shared memory once the
 * lock is released. It saves the copy into the plain arrays (a memcpy of the
 * same bytes, and V8 copies out of shared memory word by word).
 *
 * The buffers start at `initialCapacity` entities and double when a state holds more (never past the runtime's capacity), so a large capacity costs no GPU memory until entities fill it.
 *
 * This is the runtime's 'interpolate' mode without a render delay, and its frames are placed by the sampler's
 * own decision: a frame past the newest state is late (held at alpha 1, or carried on up to `maxPrediction`
 * ticks under `whenLate: 'extrapolate'`: the shader's blend is the runtime's, unclamped), a frame before the
 * previous state is overtaken (drawn at it); both counted in `stats`. `mode` 'extrapolate' or 'latest',
 * `renderDelay` and `snapDistance` do not apply here.
 */
import { Buffer, BufferUsage, Geometry, Mesh, RendererType, Texture, type GlBufferSystem, type GpuBufferSystem, type Renderer, type Shader } from 'pixi.js';
import type { Runtime, Schema, TableName } from 'steadyframe';
import {
  angleModeOf,
  createGpuPairMirror,
  GENERATIONS,
  pointSpriteLayout,
  QUAD_CORNERS,
  QUAD_INDICES,
  type GpuFrameStats,
  type LateOptions,
  type MirrorChannel,
} from 'steadyframe/adapter';
import { resolveBinding, type PoseFieldNames, type PoseFields, type TableSchema } from './fields.ts';
import { createSpriteShader } from './sprite-shader.ts';

/** The fields the GPU path reads: a 2D position and, optionally, an angle (see `PoseFields`). */
export type SpriteFields<S extends Schema> = Pick<PoseFields<S>, 'position' | 'angle'>;

export interface InterpolatedSpritesOptions<N extends string = never> {
  /**
   * The table whose entities the sprites draw (a name `defineTables` gave): only its range of the state is
   * uploaded (its live entities), and the fields are the table's. Without it, every entity.
   */
  readonly table?: N;
  /** Every sprite's texture (a frame of an atlas works). Default `Texture.WHITE`. */
  readonly texture?: Texture;
  /** A sprite's size in the mesh's local units. Default: the texture's size. */
  readonly width?: number;
  readonly height?: number;
  /** Where the entity's position sits in the sprite, 0..1 (0.5: the centre, the default; a number sets both). */
  readonly anchor?: number | { readonly x: number; readonly y: number };
  /** Entities the vertex buffers hold before they first grow. Default 1024 (or the capacity, the table's given one, if less). */
  readonly initialCapacity?: number;
}

/**
 * Counters of what `update` did. `late`, `extrapolated`, `overtaken`: frames whose time was past the newest
 * state on the GPU (held, or carried on), and before its previous state (drawn at it), as the runtime's
 * `stats().sampling` counts its own.
 */
export interface InterpolatedSpritesStats extends GpuFrameStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /**
   * Of those uploads (full or swap), the ones sent straight from the shared memory to the GPU's buffers
   * (`gl.bufferSubData`, or WebGPU's `queue.writeBuffer`, of the runtime's views, under the lock); the rest
   * were copied into Pixi's buffers first. Every upload after the mesh's first render goes straight.
   */
  directUploads: number;
  /**
   * States whose generations were uploaded. Only a pair whose tick marked snaps (the runtime's SNAPS meta word,
   * as its own sampler reads it) needs them; without, the shader does not compare generations, and a quarter of
   * the bytes stays home.
   */
  generationUploads: number;
  /** Updates whose acquire gave up (the lock stayed busy): they kept the last pair. */
  misses: number;
  /** Times the vertex buffers grew. */
  grows: number;
}

/** What `createInterpolatedSprites` returns. */
export interface InterpolatedSprites {
  /**
   * Add this to the stage. One draw call for every entity. Its geometry is set as it renders: points on a WebGL
   * renderer, instanced quads on a WebGPU one.
   */
  readonly mesh: Mesh<Geometry, Shader>;
  /**
   * Brings the mesh to shared-clock time `time` (ms, on the `performance.now()` timeline: the rAF timestamp the
   * frame is for): takes the runtime's lock once, uploads a newly published state into the vertex buffers
   * (nothing when none was published since the last call; straight from the shared memory once a renderer
   * has drawn the mesh), and sets the alpha uniform from where `time` falls
   * between the pair's two states (a late frame by the runtime's `whenLate` and `maxPrediction`, read every
   * call). Call it once per rendered frame. Allocates nothing, except when the
   * buffers grow. Returns false when the lock stayed busy: the mesh keeps the last pair, at the new alpha.
   */
  update(time: number): boolean;
  /** The alpha uniform set by the last update: in [0, 1], or up to 1 + `maxPrediction` for a late frame carried on. */
  readonly alpha: number;
  /** Instances drawn: live entities (of the table, given one) in the pair last copied. */
  readonly count: number;
  /** Entities the vertex buffers hold now. */
  readonly bufferCapacity: number;
  readonly stats: Readonly<InterpolatedSpritesStats>;
  /** Destroys the mesh, its geometry and its buffers (not the texture). */
  dispose(): void;
}

const PREFIX = '@steadyframe/pixi:';

/** What the GPU path needs of the runtime (a render worker's context fits). */
type GpuRuntime<S extends Schema> = Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> & { readonly interpolation?: LateOptions };

function vertexBuffer(integer: boolean, elements: number): Buffer {
  const data = integer ? new Uint32Array(elements) : new Float32Array(elements);
  return new Buffer({ data, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST, label: 'steadyframe state' });
}

/** What the direct upload needs of a WebGPU device (Pixi's `renderer.gpu.device`). */
interface GpuQueue {
  readonly queue: { writeBuffer(buffer: unknown, bufferOffset: number, data: Float32Array | Uint32Array, dataOffset: number, size: number): void };
}

/** 0, 1, 2 ... entities - 1: the points, as an index buffer (its count says how many to draw). */
function pointIndices(entities: number): Uint32Array {
  const indices = new Uint32Array(entities);
  for (let e = 0; e < entities; e++) indices[e] = e;
  return indices;
}

/**
 * Creates a Mesh that draws the runtime's entities 0 .. count - 1 as textured sprites, interpolated on the GPU.
 * One draw call; the main thread's work per frame does not grow with the count. Given `options.table`, the
 * table's entities alone: its range `base .. base + count - 1` of each state is uploaded, so another table's
 * entities never show in this mesh (a mesh per table, each with its own texture).
 * Entities the runtime would snap are drawn at their current state: those spawned this tick (index at or past
 * the previous count) and those with a new generation (`world.snap`, `spawn`, `despawn`): the generations
 * are uploaded too and compared in the shader. A late frame follows `runtime.interpolation` (`whenLate`,
 * `maxPrediction`), read every `update`; a render worker's `context` carries none (late frames are held), so
 * pass `{ ...context, interpolation: { whenLate: 'extrapolate' } }` there to carry them on.
 *
 * ```ts
 * const bunnies = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { texture });
 * app.stage.addChild(bunnies.mesh);
 * attachToTicker(app, runtime, bunnies); // each rendered frame: bunnies.update(the ticker's frame time)
 * ```
 *
 * The mesh's own transform, tint and alpha apply to every sprite. Its bounds are empty (the shader places the
 * entities): leave `cullable` off. Each sprite is drawn as one point, so its bounding square (the turned
 * sprite's extent, in pixels) must fit the GPU's largest point size: `gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE)`
 * (WebGL guarantees 1 px; SwiftShader allows 1,023, desktops often more, some mobile GPUs 64): for big
 * sprites use `bindParticles`. On a WebGPU renderer (`preference: 'webgpu'`) each sprite is an instanced quad
 * instead, of any size. Needs WebGL 2 on a WebGL renderer (integer attributes, `gl_VertexID`). Throws at set-up if a field does not fit, or a scale or
 * alpha field is given (per-entity scale and alpha need the CPU path, `bindParticles`).
 */
export function createInterpolatedSprites<S extends Schema, const N extends TableName<S>>(
  runtime: GpuRuntime<S>,
  fields: SpriteFields<TableSchema<S, N>>,
  options: InterpolatedSpritesOptions<N> & { readonly table: N },
): InterpolatedSprites;
export function createInterpolatedSprites<S extends Schema>(runtime: GpuRuntime<S>, fields: SpriteFields<S>, options?: InterpolatedSpritesOptions): InterpolatedSprites;
export function createInterpolatedSprites<S extends Schema>(
  runtime: GpuRuntime<S>,
  fields: PoseFieldNames,
  options: InterpolatedSpritesOptions<string> = {},
): InterpolatedSprites {
  const extra: PoseFieldNames = fields;
  if (typeof fields === 'object' && fields !== null && (extra.scale !== undefined || extra.alpha !== undefined)) {
    throw new TypeError(`${PREFIX} the GPU path draws position and angle only; bind scale and alpha with bindParticles`);
  }
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields, options.table, 'createInterpolatedSprites');
  const texture = options.texture ?? Texture.WHITE;
  // the entities the buffers may have to hold: the table's, or every entity
  const capacity = table?.layout.capacity ?? runtime.capacity;
  const layout = pointSpriteLayout(
    { width: options.width ?? texture.width, height: options.height ?? texture.height, pivot: options.anchor, pivotName: 'anchor', initialCapacity: options.initialCapacity, capacity },
    PREFIX,
  );
  const angleMode = angleModeOf(runtime.schema, resolved.angle);
  const channels: MirrorChannel[] = [{ field: resolved.position, width: 2 }];
  if (resolved.angle !== null) channels.push({ field: resolved.angle, width: 1 });
  channels.push(GENERATIONS);
  /** Each channel's two vertex buffers, A and B (the mirror's 0 and 1), made at the first size and grown in place. */
  const buffers = channels.map((c) => [vertexBuffer(c.field === null, layout.bufferCapacity * c.width), vertexBuffer(c.field === null, layout.bufferCapacity * c.width)] as const);
  const pos = buffers[0]!;
  const gen = buffers[buffers.length - 1]!;
  const attributes: Record<string, { buffer: Buffer; format: 'float32' | 'float32x2' | 'uint32' }> = {
    aPosA: { buffer: pos[0], format: 'float32x2' },
    aPosB: { buffer: pos[1], format: 'float32x2' },
    aGenA: { buffer: gen[0], format: 'uint32' },
    aGenB: { buffer: gen[1], format: 'uint32' },
  };
  if (resolved.angle !== null) {
    const angle = buffers[1]!;
    attributes.aAngleA = { buffer: angle[0], format: 'float32' };
    attributes.aAngleB = { buffer: angle[1], format: 'float32' };
  }
  const geometry = new Geometry({ attributes, indexBuffer: pointIndices(layout.bufferCapacity), topology: 'point-list' });
  // WebGPU's: the same Buffers stepped per instance, a quad's corners per vertex (WebGPU points are one pixel)
  const perInstance = Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, { ...a, instance: true }]));
  const quads = new Geometry({
    attributes: { aCorner: { buffer: new Float32Array(QUAD_CORNERS), format: 'float32x2' }, ...perInstance },
    indexBuffer: new Uint32Array(QUAD_INDICES),
    topology: 'triangle-list',
  });
  const { shader, uniforms } = createSpriteShader(angleMode, texture);
  const values = uniforms.uniforms as unknown as {
    sfAlpha: number;
    sfPrevCount: number;
    sfFlip: number;
    sfSnaps: number;
    sfQuad: Float32Array;
    sfUv01: Float32Array;
    sfUv23: Float32Array;
  };
  const uvs = texture.uvs;
  values.sfQuad.set(layout.quad);
  values.sfUv01.set([uvs.x0, uvs.y0, uvs.x1, uvs.y1]);
  values.sfUv23.set([uvs.x2, uvs.y2, uvs.x3, uvs.y3]);
  const mesh = new Mesh({ geometry, shader, texture, label: 'steadyframe sprites' });
  mesh.renderable = false; // no entities yet: an index count of 0 would draw the whole index buffer

  const stats: InterpolatedSpritesStats = {
    fullUploads: 0,
    swaps: 0,
    directUploads: 0,
    generationUploads: 0,
    misses: 0,
    grows: 0,
    late: 0,
    extrapolated: 0,
    overtaken: 0,
  };
  const reader = runtime.reader;
  // the WebGL context and buffer system, or the WebGPU device and buffer system, of the one renderer that draws
  // the mesh (both null: copy for Pixi to upload)
  let gl: WebGL2RenderingContext | null = null;
  let bufferSystem: GlBufferSystem | null = null;
  let device: GpuQueue | null = null;
  let gpuBuffers: GpuBufferSystem | null = null;
  let drawnBy: Renderer | null = null;
  let shared = false; // a second renderer drew the mesh: each keeps its own GL buffers, so Pixi uploads for both
  // which publish is on the GPU, what to upload, the pair's times and counts, where each frame falls (counted into stats)
  const mirror = createGpuPairMirror(
    { channels, table, capacity: runtime.capacity, initialCapacity: layout.bufferCapacity, stats },
    {
      /** Buffers for `entities` entities (the same GL buffers, re-allocated: the vertex array stays valid). */
      allocate(entities) {
        channels.forEach((c, k) => {
          for (const b of buffers[k]!) b.data = c.field === null ? new Uint32Array(entities) : new Float32Array(entities * c.width);
        });
        geometry.indexBuffer.data = pointIndices(entities);
      },
      /**
       * Straight from the shared memory when the renderer is known, else copied into the Pixi Buffer's array
       * and marked for Pixi to upload.
       */
      copy(k, which, from, offset, elements) {
        const buffer = buffers[k]![which];
        if (device !== null) {
          // Pixi first (re)creates the GPUBuffer at the size of buffer.data, or writes a copy still pending
          device.queue.writeBuffer(gpuBuffers!.updateBuffer(buffer), 0, from, offset, elements);
          return;
        }
        if (gl !== null) {
          // Pixi first (re)allocates the GL buffer to the size of buffer.data, or sends a copy still pending
          const glBuffer = bufferSystem!.updateBuffer(buffer);
          gl.bindBuffer(gl.ARRAY_BUFFER, glBuffer.buffer); // not vertex-array state: Pixi's VAOs are untouched
          gl.bufferSubData(gl.ARRAY_BUFFER, 0, from, offset, elements);
          return;
        }
        (buffer.data as Float32Array | Uint32Array).set(offset === 0 && elements === from.length ? from : from.subarray(offset, offset + elements));
        buffer.update(elements * 4);
      },
      get direct() {
        return gl !== null || device !== null;
      },
    },
  );
  // Pixi rebuilds a GL buffer from the Buffer's own array, which the direct uploads never fill, after its GC
  // unloads it (a mesh not drawn for gcMaxUnusedTime: behind a menu, a paused game) and after a lost context is
  // restored: the next update uploads both states again instead of drawing what that array holds
  const forget = (): void => mirror.forget();
  for (const pair of buffers) for (const b of pair) b.on('unload', forget);
  /** The direct upload's target: the renderer's context (WebGL) or device (WebGPU), and its buffer system. */
  const uploadTo = (renderer: Renderer | null): void => {
    gl = null;
    bufferSystem = null;
    device = null;
    gpuBuffers = null;
    if (renderer?.type === RendererType.WEBGL) {
      const webgl = renderer as Renderer & { gl: WebGL2RenderingContext; buffer: GlBufferSystem };
      gl = webgl.gl;
      bufferSystem = webgl.buffer;
    } else if (renderer?.type === RendererType.WEBGPU) {
      const webgpu = renderer as Renderer & { gpu: { device: GpuQueue }; buffer: GpuBufferSystem };
      device = webgpu.gpu.device;
      gpuBuffers = webgpu.buffer;
    }
  };
  const contextListener = {
    contextChange(): void {
      if (!shared) uploadTo(drawnBy); // a restored context or a new device
      forget();
    },
  };
  mesh.onRender = (renderer: Renderer) => {
    // before Pixi builds the draw: the geometry this renderer's shader reads
    const wanted = renderer.type === RendererType.WEBGPU ? quads : geometry;
    if (mesh.geometry !== wanted) mesh.geometry = wanted;
    if (renderer === drawnBy || shared) return;
    if (drawnBy !== null) {
      shared = true;
      drawnBy.runners.contextChange.remove(contextListener); // Pixi's own uploads from here: its arrays are filled
      uploadTo(null);
      forget(); // Pixi's plain arrays missed the direct uploads: copy both states next time
      return;
    }
    drawnBy = renderer;
    renderer.runners.contextChange.add(contextListener);
    uploadTo(renderer);
  };

  return {
    mesh,
    get alpha() {
      return mirror.alpha;
    },
    get count() {
      return mirror.count;
    },
    get bufferCapacity() {
      return mirror.bufferCapacity;
    },
    stats,
    update(time) {
      const fresh = mirror.read(reader);
      // late and overtaken frames as the sampler places them (the options read every frame: setInterpolation)
      values.sfAlpha = mirror.place(time, runtime.interpolation);
      values.sfFlip = mirror.flip;
      values.sfPrevCount = mirror.previousCount;
      values.sfSnaps = mirror.snaps ? 1 : 0; // the tick marked snaps: the shader compares generations
      const count = mirror.count;
      if (count > 0) {
        geometry.indexCount = count;
        quads.instanceCount = count;
      }
      if (mesh.renderable !== count > 0) mesh.renderable = count > 0;
      return fresh;
    },
    dispose() {
      mesh.onRender = null;
      drawnBy?.runners.contextChange.remove(contextListener);
      drawnBy = null;
      for (const pair of buffers) for (const b of pair) b.off('unload', forget);
      uploadTo(null);
      mesh.destroy();
      geometry.destroy(true);
      const corners = quads.getBuffer('aCorner');
      const indices = quads.indexBuffer;
      quads.destroy(false); // the state buffers went with the points geometry
      corners.destroy();
      indices.destroy();
      shader.destroy();
    },
  };
}
