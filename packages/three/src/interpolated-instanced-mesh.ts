/**
 * The GPU path: the previous and current state go to the GPU as instanced attributes, byte for byte, and the
 * vertex shader blends them (instance-shader.ts). The main thread never interpolates an entity.
 *
 * ```text
 *   update(time):
 *     acquire the pair ──▶ new publish since the last upload? (steadyframe/adapter's GPU pair mirror decides)
 *                            one  ('swap'): the old current attributes become the previous ones (flipped); upload current runs
 *                            more ('full'): upload previous and current runs (fields and generations, entities 0 .. count)
 *                            none ('none'): upload nothing
 *                          its tracker notes PREV_TIME, CUR_TIME, COUNT, PREV_COUNT, SNAPS
 *     release
 *     sfAlpha = mirror.place(time, runtime.interpolation); sfPrevCount; sfSnaps; instanceCount = COUNT
 *
 *   this file is the mirror's backend: two attributes per channel (position, rotation, scale, generations: the
 *   adapter's transformChannels), re-pointed on the geometry when the mirror flips, copied into as below
 *
 *   an upload, given the renderer (options.renderer): the attributes are GLBufferAttributes over WebGL buffers
 *     made here, and gl.bufferSubData(buffer, the runtime's own view of the run in the shared memory)   ── under the lock
 *   without it: copy the run into the InstancedBufferAttribute's array, mark the range: three.js uploads it at render
 *
 *   given a table (options.table): the runs are that table's range of each state, entities base .. base + the
 *     table's count in that state (its word in the pair's game run), uploaded to the attributes from 0; the
 *     counts are the table's, so instance i is the table's entity i and the shader's snap rules hold within it
 * ```
 *
 * The direct upload saves the copy into the attributes' arrays (V8 copies out of shared memory word by word,
 * and three.js then sends those bytes on); it must happen under the lock, since after the release the worker may
 * publish twice and write into the slot these views show, and the GL client copies the bytes in the call.
 *
 * This is the runtime's 'interpolate' mode without a render delay, and its frames are placed by the sampler's
 * own decision: a frame past the newest state is late (held at alpha 1, or carried on up to `maxPrediction`
 * ticks under `whenLate: 'extrapolate'`: the shader's blend is the runtime's, unclamped), a frame before the
 * previous state is overtaken (drawn at it); both counted in `stats`. `mode` 'extrapolate' or 'latest',
 * `renderDelay` and `snapDistance` do not apply here.
 */
import {
  DynamicDrawUsage,
  GLBufferAttribute,
  InstancedBufferAttribute,
  Mesh,
  type InstancedBufferGeometry,
  MeshDepthMaterial,
  MeshDistanceMaterial,
  type BufferGeometry,
  type Material,
} from 'three';
import type { Runtime, Schema, TableName } from 'steadyframe';
import { createGpuPairMirror, transformChannels, type GpuFrameStats, type LateOptions, type MirrorBuffer, type TransformChannel } from 'steadyframe/adapter';
import { resolveBinding, type BoundSchema, type TableOption, type TransformFields } from './fields.ts';
import { frameTime } from './frame-time.ts';
import { releaseGeometry, shareGeometry } from './instanced-geometry.ts';
import { ATTRIBUTES, patchMaterial, type InstanceUniforms } from './instance-shader.ts';

/** An instanced attribute: three.js's own (copied into), or one over a WebGL buffer of ours (uploaded straight). */
type StateAttribute = InstancedBufferAttribute | GLBufferAttribute;

/** The part of a three.js `WebGLRenderer` the direct uploads use. */
export interface UploadRenderer {
  getContext(): WebGLRenderingContext | WebGL2RenderingContext;
  readonly domElement: { addEventListener(type: 'webglcontextrestored', listener: () => void): void; removeEventListener(type: 'webglcontextrestored', listener: () => void): void };
}

/** Options of `createInterpolatedInstancedMesh`. */
export interface InterpolatedMeshOptions<N extends string = string> extends TableOption<N> {
  /**
   * The renderer that draws the mesh: its context takes each new state straight from the runtime's shared
   * memory (`gl.bufferSubData`, no copy on the page). Without it, each state is copied into three.js's attribute
   * arrays for three.js to upload. A mesh drawn by another renderer than this one draws nothing.
   */
  readonly renderer?: UploadRenderer;
}

/**
 * Counters of what `update` did. `late`, `extrapolated`, `overtaken`: frames whose time was past the newest
 * state on the GPU (held, or carried on), and before its previous state (drawn at it), as the runtime's
 * `stats().sampling` counts its own.
 */
export interface InterpolatedMeshStats extends GpuFrameStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /** Updates whose acquire gave up (the lock stayed busy): they kept the last pair. */
  misses: number;
  /** Of the uploads (full or swap), those sent straight from the shared memory to the GL buffers (`renderer` given). */
  directUploads: number;
  /**
   * States whose generations were uploaded. Only a pair whose tick marked snaps (the runtime's SNAPS meta word,
   * as its own sampler reads it) needs them; without, the shader does not compare generations.
   */
  generationUploads: number;
}

/** What `createInterpolatedInstancedMesh` returns. */
export interface InterpolatedInstancedMesh<M extends Material = Material> {
  /** Add this to the scene. Its geometry shares the source geometry's attributes and index. */
  readonly mesh: Mesh<InstancedBufferGeometry, M>;
  /**
   * Brings the mesh to shared-clock time `time` (ms): takes the runtime's lock once, copies a newly published
   * state into the instanced attributes (nothing when none was published since the last call), and sets the
   * `alpha` uniform from where `time` falls between the pair's two states (a late frame by the runtime's
   * `whenLate` and `maxPrediction`, read every call). Call once per rendered frame, after
   * `runtime.pace()`; with no `time` it takes the frame's (`runtime.frameTime`, or now for a runtime without
   * one). Allocates a few typed-array views per published tick, nothing per entity. Returns false
   * when the lock stayed busy: the mesh then keeps the last pair, at the new alpha.
   */
  update(time?: number): boolean;
  /** The alpha uniform set by the last update: in [0, 1], or up to 1 + `maxPrediction` for a late frame carried on. */
  readonly alpha: number;
  /** Instances drawn: live entities (of the table, given one) in the pair last copied. */
  readonly count: number;
  readonly stats: Readonly<InterpolatedMeshStats>;
  /**
   * Frees the GPU buffers of the instanced attributes and the depth materials made here, and gives `material` its
   * own shader hooks back (free for another interpolated mesh); does not dispose `material`, nor the source geometry.
   */
  dispose(): void;
}

function attribute(capacity: number, width: number, integer: boolean): InstancedBufferAttribute {
  const array = integer ? new Uint32Array(capacity * width) : new Float32Array(capacity * width);
  return new InstancedBufferAttribute(array, width).setUsage(DynamicDrawUsage);
}

/**
 * A GLBufferAttribute over a new WebGL buffer of `capacity` entities, instanced: three.js binds any attribute
 * that says `isInstancedBufferAttribute` with its `meshPerAttribute` as the divisor.
 */
function glAttribute(gl: WebGL2RenderingContext, capacity: number, width: number, integer: boolean): GLBufferAttribute {
  const buffer = gl.createBuffer()!;
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, capacity * width * 4, gl.DYNAMIC_DRAW);
  const made = new GLBufferAttribute(buffer, integer ? gl.UNSIGNED_INT : gl.FLOAT, width, 4, capacity);
  Object.assign(made, { isInstancedBufferAttribute: true, meshPerAttribute: 1 });
  return made;
}

/** Puts a state attribute on the geometry (three.js takes a GLBufferAttribute there; its types do not say so). */
function setState(geometry: InstancedBufferGeometry, name: string, attribute: StateAttribute): void {
  geometry.setAttribute(name, attribute as InstancedBufferAttribute);
}

/** A channel's two attributes (the mirror's buffers 0 and 1), over WebGL buffers of ours given a context. */
function attributes(c: TransformChannel, capacity: number, gl: WebGL2RenderingContext | null): [StateAttribute, StateAttribute] {
  const integer = c.field === null;
  const make = (): StateAttribute => (gl === null ? attribute(capacity, c.width, integer) : glAttribute(gl, capacity, c.width, integer));
  return [make(), make()];
}

/**
 * Uploads `elements` values of `from`, from `offset` on, into `to` from its start: straight into its WebGL buffer (a
 * GLBufferAttribute of ours), or copied into its array with that range marked for three.js to upload.
 */
function copyRun(gl: WebGL2RenderingContext | null, to: StateAttribute, from: Float32Array | Uint32Array, offset: number, elements: number): void {
  if (elements === 0) return;
  if (gl !== null && to instanceof GLBufferAttribute) {
    gl.bindBuffer(gl.ARRAY_BUFFER, to.buffer); // not vertex-array state: three.js's VAOs are untouched
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, from, offset, elements);
    return;
  }
  if (to instanceof GLBufferAttribute) return; // (never: a mesh has GL attributes only when it has a context)
  const array = to.array as Float32Array | Uint32Array;
  array.set(offset === 0 && elements === from.length ? from : from.subarray(offset, offset + elements));
  // one range, replaced each time, so ranges never pile up while the mesh is not rendered
  to.clearUpdateRanges();
  to.addUpdateRange(0, elements);
  to.needsUpdate = true;
}

/**
 * Creates a mesh that draws the runtime's entities 0 .. count - 1 as instances of `geometry`, interpolated on
 * the GPU. Given `{ table: 'ships' }` (a schema of `defineTables`), it draws that table's entities only: its range
 * of each state is uploaded, `fields` name its fields, and the buffers hold its capacity; one mesh per table. `material` is any built-in three.js material (MeshStandardMaterial lights correctly: normals turn
 * with each instance); it is changed in place for this mesh (see `patchMaterial`) and cannot serve another
 * interpolated mesh. Shadows work: the mesh gets patched depth and distance materials of its own.
 *
 * Entities the runtime would snap are drawn at their current state, not blended: those spawned this tick
 * (index at or past the previous count, the table's given one) and those with a new generation (`world.snap`,
 * `spawn`, and the entity a `despawn` moves).
 * The generations are uploaded too and compared in the shader, so snapping costs the main thread nothing.
 *
 * A late frame follows `runtime.interpolation` (`whenLate`, `maxPrediction`), read every `update`. A render
 * worker's `context` carries none, so late frames are held there; pass them along to carry late frames on:
 * `createInterpolatedInstancedMesh({ ...context, interpolation: { whenLate: 'extrapolate' } }, ...)`.
 *
 * ```ts
 * const ships = createInterpolatedInstancedMesh(runtime, new ConeGeometry(0.5, 1), new MeshStandardMaterial(), { position: 'position', rotation: 'rotation' }, { renderer });
 * scene.add(ships.mesh);
 * renderer.setAnimationLoop(() => {
 *   if (!runtime.pace()) return; // pacing, and tells the worker when the next frame is due; no CPU blend
 *   ships.update(); // at the frame's time
 *   renderer.render(scene, camera);
 * });
 * ```
 *
 * Give it the renderer that draws it (`{ renderer }`): each new state then goes from the runtime's shared memory
 * straight to the GPU, with no copy on the page; without, each state is copied for three.js to upload.
 *
 * `mesh.frustumCulled` is false: the geometry's bounds say nothing about where the instances are.
 * Needs WebGL 2 (integer attributes, `gl_InstanceID`), which three.js itself requires. Throws at set-up if a
 * field does not fit (see `TransformFields`) or is not one of the table's, the table is not one of the schema's,
 * or the material is already patched.
 */
export function createInterpolatedInstancedMesh<S extends Schema, M extends Material, N extends TableName<S> = never>(
  runtime: Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> & Partial<Pick<Runtime<S>, 'frameTime'>> & { readonly interpolation?: LateOptions },
  geometry: BufferGeometry,
  material: M,
  fields: TransformFields<BoundSchema<S, N>>,
  options: InterpolatedMeshOptions<N> = {},
): InterpolatedInstancedMesh<M> {
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields as TransformFields<S>, options.table, 'createInterpolatedInstancedMesh');
  // a table's range of each state (entities base .. base + capacity - 1), or every entity: the buffers hold its capacity
  const capacity = table?.layout.capacity ?? runtime.capacity;
  const reader = runtime.reader;
  const renderer = options.renderer ?? null;
  let gl: WebGL2RenderingContext | null = null;
  if (renderer !== null) {
    const context = renderer.getContext?.();
    if (context === undefined || context === null || !('createVertexArray' in context)) {
      throw new TypeError('@steadyframe/three: options.renderer must be a three.js WebGLRenderer (a WebGL 2 context: its getContext())');
    }
    gl = context;
  }
  const uniforms: InstanceUniforms = { sfAlpha: { value: 1 }, sfPrevCount: { value: 0 }, sfSnaps: { value: 0 } };

  // the source geometry's own attributes and index, shared rather than copied, plus the instanced ones
  const instanced = shareGeometry(geometry);
  const channels = transformChannels(resolved);
  let states = channels.map((c) => attributes(c, capacity, gl));
  let previous: MirrorBuffer = 0; // which attribute of each channel holds the previous state
  /** Puts each channel's previous and current attribute where the shader reads them. */
  const point = (): void => {
    for (let k = 0; k < channels.length; k++) {
      const names = ATTRIBUTES[channels[k]!.role];
      setState(instanced, names[0], states[k]![previous]);
      setState(instanced, names[1], states[k]![previous === 0 ? 1 : 0]);
    }
  };
  point();
  instanced.instanceCount = 0;

  const unpatch = patchMaterial(material, resolved, uniforms);
  const depth = new MeshDepthMaterial();
  const distance = new MeshDistanceMaterial();
  patchMaterial(depth, resolved, uniforms);
  patchMaterial(distance, resolved, uniforms);
  const mesh = new Mesh(instanced, material);
  mesh.customDepthMaterial = depth;
  mesh.customDistanceMaterial = distance;
  mesh.frustumCulled = false;

  const stats: InterpolatedMeshStats = { fullUploads: 0, swaps: 0, misses: 0, directUploads: 0, generationUploads: 0, late: 0, extrapolated: 0, overtaken: 0 };
  // which publish is on the GPU, what to upload, the pair's times and counts, where each frame falls (counted into stats)
  const mirror = createGpuPairMirror(
    { channels, table, capacity, stats },
    {
      // the buffers never grow (they hold the capacity): only a restored context makes new ones
      allocate(entities) {
        states = channels.map((c) => attributes(c, entities, gl));
        point();
      },
      copy(k, buffer, from, offset, elements) {
        copyRun(gl, states[k]![buffer], from, offset, elements);
      },
      flipped(p) {
        previous = p;
        point();
      },
      get direct() {
        return gl !== null;
      },
    },
  );

  // a lost context takes our buffers with it: when it is restored, new ones, and both states again
  const restored = (): void => {
    if (gl !== null) mirror.reallocate();
  };
  renderer?.domElement.addEventListener('webglcontextrestored', restored);

  return {
    mesh,
    get alpha() {
      return mirror.alpha;
    },
    get count() {
      return mirror.count;
    },
    stats,
    update(time = frameTime(runtime)) {
      const fresh = mirror.read(reader);
      // late and overtaken frames as the sampler places them (the options read every frame: setInterpolation)
      uniforms.sfAlpha.value = mirror.place(time, runtime.interpolation);
      uniforms.sfPrevCount.value = mirror.previousCount;
      uniforms.sfSnaps.value = mirror.snaps ? 1 : 0; // the tick marked snaps: the shader compares generations
      instanced.instanceCount = mirror.count;
      return fresh;
    },
    dispose() {
      renderer?.domElement.removeEventListener('webglcontextrestored', restored);
      if (gl !== null && !gl.isContextLost()) {
        for (const pair of states) for (const a of pair) if (a instanceof GLBufferAttribute) gl.deleteBuffer(a.buffer);
      }
      releaseGeometry(instanced, geometry); // the instanced attributes freed, the source geometry's kept
      depth.dispose();
      distance.dispose();
      unpatch();
    },
  };
}
