/**
 * The GPU path: entities drawn as textured quads of a single Pixi `Mesh`, whose vertex shader blends each
 * entity's previous and current state (sprite-shader.ts). The main thread never touches an entity per frame:
 * per tick it copies the newly published state into data textures (a memcpy of each field's run, uploaded as
 * the rows that hold the live entities), and per frame it sets three uniforms.
 *
 * ```text
 *   update(time):
 *     acquire the pair ──▶ new publish since the last upload?
 *                            one  : overwrite the older state's textures with the current state, flip
 *                            more : copy previous and current runs (fields and generations, entities 0 .. count)
 *                            none : copy nothing
 *                          read PREV_TIME, CUR_TIME, COUNT, PREV_COUNT
 *     release
 *     sfAlpha = clamp((time - PREV_TIME) / (CUR_TIME - PREV_TIME), 0, 1); sfPrevCount; instanceCount = COUNT
 * ```
 *
 * The state textures (and the quads' index buffer) start at `initialCapacity` entities and double when a state
 * holds more (never past the runtime's capacity), so a large capacity costs no GPU memory until entities fill it.
 *
 * This is the runtime's 'interpolate' mode without a render delay: a frame past the newest state holds it
 * (alpha 1); `extrapolate`, `latest`, `renderDelay` and `snapDistance` do not apply here.
 */
import { BufferImageSource, Geometry, Mesh, Texture, type Shader, type TEXTURE_FORMATS } from 'pixi.js';
import { alphaAt, META, type Runtime, type Schema } from 'steadyframe';
import { resolveFields, type PoseFields } from './fields.ts';
import { createSpriteShader, STATE_TEXTURE_WIDTH, type AngleMode, type StateTextures } from './sprite-shader.ts';

/** The fields the GPU path reads: a 2D position and, optionally, an angle (see `PoseFields`). */
export type SpriteFields<S extends Schema> = Pick<PoseFields<S>, 'position' | 'angle'>;

export interface InterpolatedSpritesOptions {
  /** Every instance's texture (a frame of an atlas works). Default `Texture.WHITE`. */
  readonly texture?: Texture;
  /** The quad's size in the mesh's local units. Default: the texture's size. */
  readonly width?: number;
  readonly height?: number;
  /** Where the entity's position sits in the quad, 0..1 (0.5: the centre, the default; a number sets both). */
  readonly anchor?: number | { readonly x: number; readonly y: number };
  /** Entities the state textures hold before they first grow. Default 1024 (or the capacity, if less). */
  readonly initialCapacity?: number;
}

/** Counters of what `update` did. */
export interface InterpolatedSpritesStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /** Updates whose acquire gave up (the lock stayed busy): they kept the last pair. */
  misses: number;
  /** Times the state textures grew. */
  grows: number;
}

/** What `createInterpolatedSprites` returns. */
export interface InterpolatedSprites {
  /** Add this to the stage. One draw call for every entity. */
  readonly mesh: Mesh<Geometry, Shader>;
  /**
   * Brings the mesh to shared-clock time `time` (ms, on the `performance.now()` timeline: the rAF timestamp the
   * frame is for): takes the runtime's lock once, copies a newly published state into the state textures
   * (nothing when none was published since the last call), and sets the alpha uniform from where `time` falls
   * between the pair's two states. Call it once per rendered frame. Allocates nothing, except when the
   * textures grow. Returns false when the lock stayed busy: the mesh keeps the last pair, at the new alpha.
   */
  update(time: number): boolean;
  /** The alpha uniform set by the last update, in [0, 1]. */
  readonly alpha: number;
  /** Instances drawn: live entities in the pair last copied. */
  readonly count: number;
  /** Entities the state textures hold now. */
  readonly bufferCapacity: number;
  readonly stats: Readonly<InterpolatedSpritesStats>;
  /** Destroys the mesh, its geometry and its state textures (not the texture). */
  dispose(): void;
}

/** One field's two state textures (A and B) and the run of the state they are copied from. */
interface Channel {
  readonly name: string | null; // the schema field; null for the generations
  readonly width: number;
  readonly format: TEXTURE_FORMATS;
  readonly uniforms: readonly [keyof StateTextures, keyof StateTextures];
  readonly sources: [BufferImageSource, BufferImageSource];
}

const PREFIX = '@steadyframe/pixi:';
const FORMAT = { 1: 'r32float', 2: 'rg32float' } as const;

/** A state texture for `entities` entities: whole rows of STATE_TEXTURE_WIDTH texels. */
function stateTexture(format: TEXTURE_FORMATS, width: number, entities: number): BufferImageSource {
  const rows = Math.max(1, Math.ceil(entities / STATE_TEXTURE_WIDTH));
  const elements = STATE_TEXTURE_WIDTH * rows * width;
  return new BufferImageSource({
    resource: format === 'r32uint' ? new Uint32Array(elements) : new Float32Array(elements),
    width: STATE_TEXTURE_WIDTH,
    height: rows,
    format,
    alphaMode: 'no-premultiply-alpha', // data, not colour (and float textures are not filterable: nearest)
    scaleMode: 'nearest',
    autoGenerateMipmaps: false,
    label: 'steadyframe state',
  });
}

/** Indices of the quads of `entities` entities: 0 1 2, 0 2 3 for each, vertices 4e .. 4e + 3. */
function quadIndices(entities: number): Uint32Array {
  const indices = new Uint32Array(6 * entities);
  for (let e = 0, v = 0, o = 0; e < entities; e++, v += 4, o += 6) {
    indices[o] = v;
    indices[o + 1] = v + 1;
    indices[o + 2] = v + 2;
    indices[o + 3] = v;
    indices[o + 4] = v + 2;
    indices[o + 5] = v + 3;
  }
  return indices;
}

/**
 * Creates a Mesh that draws the runtime's entities 0 .. count - 1 as textured quads, interpolated on the GPU.
 * One draw call; the main thread's work per frame does not grow with the count.
 * Entities the runtime would snap are drawn at their current state: those spawned this tick (index at or past
 * the previous count) and those with a new generation (`world.snap`, `spawn`, `despawn`): the generations
 * are uploaded too and compared in the shader.
 *
 * ```ts
 * const bunnies = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { texture });
 * app.stage.addChild(bunnies.mesh);
 * attachToTicker(app, runtime, bunnies); // each rendered frame: bunnies.update(the ticker's frame time)
 * ```
 *
 * The mesh's own transform, tint and alpha apply to every instance. Its bounds are one quad's, not the
 * entities': leave `cullable` off. Needs WebGL 2 (Pixi's default `preference: 'webgl'`: `gl_VertexID`, float
 * and integer textures read in the vertex shader); a WebGPU renderer is not supported. Throws at set-up if a field does not fit, or a scale or alpha field is given (per-entity
 * scale and alpha need the CPU path, `bindParticles`).
 */
export function createInterpolatedSprites<S extends Schema>(
  runtime: Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'>,
  fields: SpriteFields<S>,
  options: InterpolatedSpritesOptions = {},
): InterpolatedSprites {
  const extra = fields as PoseFields<S>;
  if (typeof fields === 'object' && fields !== null && (extra.scale !== undefined || extra.alpha !== undefined)) {
    throw new TypeError(`${PREFIX} the GPU path draws position and angle only; bind scale and alpha with bindParticles`);
  }
  const resolved = resolveFields(runtime.schema, fields);
  const texture = options.texture ?? Texture.WHITE;
  const width = options.width ?? texture.width;
  const height = options.height ?? texture.height;
  const anchor = options.anchor ?? 0.5;
  const ax = typeof anchor === 'number' ? anchor : anchor.x;
  const ay = typeof anchor === 'number' ? anchor : anchor.y;
  for (const [name, value] of [['width', width], ['height', height], ['anchor x', ax], ['anchor y', ay]] as const) {
    if (!Number.isFinite(value)) throw new RangeError(`${PREFIX} options.${name} must be a finite number; got ${String(value)}`);
  }
  const capacity = runtime.capacity;
  const initial = options.initialCapacity ?? 1024;
  if (!Number.isInteger(initial) || initial < 1) {
    throw new RangeError(`${PREFIX} options.initialCapacity must be a whole number of at least 1; got ${String(initial)}`);
  }
  let bufferCapacity = Math.min(initial, capacity);

  const angleMode: AngleMode = resolved.angle === null ? 0 : runtime.schema[resolved.angle]!.kind === 'angle' ? 1 : 2;
  const channel = (name: string | null, width: 1 | 2, format: TEXTURE_FORMATS, a: keyof StateTextures, b: keyof StateTextures): Channel => ({
    name,
    width,
    format,
    uniforms: [a, b],
    sources: [stateTexture(format, width, bufferCapacity), stateTexture(format, width, bufferCapacity)],
  });
  const channels: Channel[] = [channel(resolved.position, 2, FORMAT[2], 'sfPosA', 'sfPosB')];
  if (resolved.angle !== null) channels.push(channel(resolved.angle, 1, FORMAT[1], 'sfAngleA', 'sfAngleB'));
  channels.push(channel(null, 1, 'r32uint', 'sfGenA', 'sfGenB'));
  const states = {} as StateTextures;
  for (const c of channels) {
    states[c.uniforms[0]] = c.sources[0];
    states[c.uniforms[1]] = c.sources[1];
  }

  // no vertex attributes are read: the shader places vertex v from gl_VertexID. aPosition (one quad) is there
  // for Pixi's bounds.
  const x0 = -ax * width;
  const y0 = -ay * height;
  const geometry = new Geometry({
    attributes: { aPosition: new Float32Array([x0, y0, x0 + width, y0, x0 + width, y0 + height, x0, y0 + height]) },
    indexBuffer: quadIndices(bufferCapacity),
  });
  const { shader, uniforms } = createSpriteShader(angleMode, texture, states);
  const values = uniforms.uniforms as unknown as {
    sfAlpha: number;
    sfPrevCount: number;
    sfFlip: number;
    sfQuad: Float32Array;
    sfUv01: Float32Array;
    sfUv23: Float32Array;
  };
  const uvs = texture.uvs;
  values.sfQuad.set([x0, y0, width, height]);
  values.sfUv01.set([uvs.x0, uvs.y0, uvs.x1, uvs.y1]);
  values.sfUv23.set([uvs.x2, uvs.y2, uvs.x3, uvs.y3]);
  const mesh = new Mesh({ geometry, shader, texture, label: 'steadyframe sprites' });
  mesh.renderable = false; // no entities yet: an index count of 0 would draw the whole index buffer

  /** New textures and indices for `entities` entities; the old textures are destroyed. */
  const grow = (entities: number): void => {
    for (const c of channels) {
      for (const k of [0, 1] as const) {
        c.sources[k].destroy();
        c.sources[k] = stateTexture(c.format, c.width, entities);
        (shader.resources as Record<string, unknown>)[c.uniforms[k]] = c.sources[k];
      }
    }
    geometry.indexBuffer.data = quadIndices(entities);
  };

  const stats: InterpolatedSpritesStats = { fullUploads: 0, swaps: 0, misses: 0, grows: 0 };
  const reader = runtime.reader;
  let uploaded = -1; // the publish count of the pair on the GPU
  let flip = 0; // which buffer of each channel holds the previous state: flip, the current one: 1 - flip
  let previousTime = 0;
  let currentTime = 0;
  let count = 0;
  let alpha = 1;

  /** Copies the first `entities` of `from` into texture `which` of `c` and uploads the texels that changed. */
  const copyRun = (c: Channel, which: number, from: Float32Array | Uint32Array, entities: number): void => {
    if (entities === 0) return;
    const source = c.sources[which]!;
    const elements = entities * c.width;
    (source.resource as Float32Array | Uint32Array).set(elements === from.length ? from : from.subarray(0, elements));
    source.update(0, entities); // texels [0, entities): the rows they span
  };

  return {
    mesh,
    get alpha() {
      return alpha;
    },
    get count() {
      return count;
    },
    get bufferCapacity() {
      return bufferCapacity;
    },
    stats,
    update(time) {
      const pair = reader.acquire();
      if (pair !== null) {
        try {
          const meta = pair.metaWords;
          // exact while we hold the lock: the worker counts a publish only under it
          const published = reader.publishCount();
          count = meta[META.COUNT]!;
          const previousCount = meta[META.PREV_COUNT]!;
          if (published !== uploaded) {
            let full = uploaded < 0 || published !== uploaded + 1;
            const needed = Math.max(count, previousCount);
            if (needed > bufferCapacity) {
              // both states of every channel grow together
              while (bufferCapacity < needed) bufferCapacity = Math.min(bufferCapacity * 2, capacity);
              grow(bufferCapacity);
              stats.grows++;
              full = true; // the new textures hold nothing yet
            }
            if (full) {
              for (const c of channels) {
                const from = c.name === null ? pair.previousGeneration : pair.previous[c.name as keyof S];
                copyRun(c, flip, from, previousCount);
              }
              stats.fullUploads++;
            } else {
              // one publish on: its previous state is the current state uploaded last time; the older
              // textures take the new current state
              flip = 1 - flip;
              stats.swaps++;
            }
            for (const c of channels) {
              const from = c.name === null ? pair.currentGeneration : pair.current[c.name as keyof S];
              copyRun(c, 1 - flip, from, count);
            }
            uploaded = published;
          }
          // read every time: a restamp (resume, new time scale) moves the times without a publish
          previousTime = meta[META.PREV_TIME]!;
          currentTime = meta[META.CUR_TIME]!;
          values.sfPrevCount = previousCount;
        } finally {
          // the worker may publish over this slot again
          reader.release();
        }
      } else {
        stats.misses++;
      }
      alpha = alphaAt(time, previousTime, currentTime);
      values.sfAlpha = alpha;
      values.sfFlip = flip;
      if (count > 0) geometry.indexCount = 6 * count;
      if (mesh.renderable !== count > 0) mesh.renderable = count > 0;
      return pair !== null;
    },
    dispose() {
      mesh.destroy();
      geometry.destroy(true);
      shader.destroy();
      for (const c of channels) for (const source of c.sources) source.destroy();
    },
  };
}
