/**
 * The GPU path: a mesh's thin instances, each an entity, drawn between its previous and current state by the
 * vertex shader. The previous and current state go to the GPU as per-instance attributes, byte for byte; the
 * main thread never interpolates an entity. This file is the GPU pair mirror's Babylon backend.
 *
 * ```text
 *   update(time):
 *     acquire the pair ──▶ steadyframe/adapter's GPU pair mirror decides what to upload:
 *                            'swap' (one publish on): flip = 1 - flip (a uniform: no buffer re-bound); upload current runs
 *                            'full': upload previous and current runs (fields and generations, entities 0 .. count)
 *                            'none': upload nothing
 *                          each copy: the runtime's own view of the run in the shared memory, under the lock:
 *                          gl.bufferSubData (WebGL, state-attributes.ts) or queue.writeBuffer (WebGPU, state-storage.ts)
 *     release
 *     blend: sfAlpha = mirror.place(time, runtime.interpolation); sfPrevCount; sfSnaps; sfFlip
 *     mesh.thinInstanceCount = COUNT
 *
 *   the state: per channel (the adapter's transformChannels) two buffers: instanced vertex buffers sf<Channel>0
 *   and sf<Channel>1 (WebGL), or blocks of one storage buffer (WebGPU: its 8 vertex buffers would not hold them);
 *   the thin-instance matrices are identities (the blend is the instance's transform, in the mesh's space: the
 *   mesh's own position, rotation and scale still apply on top, as a parent's would)
 * ```
 *
 * This is the runtime's 'interpolate' mode without a render delay, and its frames are placed by the sampler's
 * own decision: a frame past the newest state is late (held at alpha 1, or carried on up to `maxPrediction`
 * ticks under `whenLate: 'extrapolate'`), a frame before the previous state is overtaken (drawn at it); both
 * counted in `stats`. `mode` 'extrapolate' or 'latest', `renderDelay` and `snapDistance` do not apply here.
 */
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import '@babylonjs/core/Meshes/thinInstanceMesh.js';
import type { Runtime, Schema, TableName } from 'steadyframe';
import { createGpuPairMirror, transformChannels, type GpuFrameStats, type LateOptions } from 'steadyframe/adapter';
import { PREFIX, resolveBinding, type BoundSchema, type TableOption, type TransformFields } from './fields.ts';
import { bindBlend, type MeshBlend } from './interpolation-plugin.ts';
import { createStateAttributes } from './state-attributes.ts';
import { createStateStorage } from './state-storage.ts';

/**
 * Counters of what `update` did. `late`, `extrapolated`, `overtaken`: frames whose time was past the newest
 * state on the GPU (held, or carried on), and before its previous state (drawn at it), as the runtime's
 * `stats().sampling` counts its own.
 */
export interface InterpolatedThinInstanceStats extends GpuFrameStats {
  /** Publishes uploaded by copying both states. */
  fullUploads: number;
  /** Publishes uploaded by copying the current state only (the previous one was already on the GPU). */
  swaps: number;
  /** Updates whose acquire gave up (the lock stayed busy): they kept the last pair. */
  misses: number;
  /** States whose generations were uploaded (only a pair whose tick marked snaps needs them). */
  generationUploads: number;
}

/** What `createInterpolatedThinInstances` returns. */
export interface InterpolatedThinInstances {
  /** The mesh given, now drawing the entities as its thin instances. */
  readonly mesh: Mesh;
  /**
   * Brings the instances to shared-clock time `time` (ms): takes the runtime's lock once, uploads a newly
   * published state (nothing when none was published since the last call), and sets the alpha from where `time`
   * falls between the pair's two states (a late frame by the runtime's `whenLate` and `maxPrediction`, read
   * every call). Call once per rendered frame, after `runtime.pace()`, before `scene.render()`; with no `time`
   * it takes the frame's (`runtime.frameTime`, or now for a runtime without one). Allocates a few typed-array
   * views per published tick, nothing per entity. Returns false when the lock stayed busy: the mesh then keeps
   * the last pair, at the new alpha.
   */
  update(time?: number): boolean;
  /** The alpha set by the last update: in [0, 1], or up to 1 + `maxPrediction` for a late frame carried on. */
  readonly alpha: number;
  /** Thin instances drawn: live entities (of the table, given one) in the pair last uploaded. */
  readonly count: number;
  readonly stats: Readonly<InterpolatedThinInstanceStats>;
  /** Frees the instance buffers and the identity matrices; the mesh and its material draw as before. */
  dispose(): void;
}

/** The part of a runtime the GPU path reads: its reader, and its frame time and interpolation options where it has them. */
export type BlendSource<S extends Schema> = Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> &
  Partial<Pick<Runtime<S>, 'frameTime'>> & { readonly interpolation?: LateOptions };

/** `entities` identity matrices, column after column (the thin instances' own transforms: the blend is theirs). */
function identities(entities: number): Float32Array {
  const m = new Float32Array(entities * 16);
  for (let i = 0; i < entities; i++) m[16 * i] = m[16 * i + 5] = m[16 * i + 10] = m[16 * i + 15] = 1;
  return m;
}

/**
 * Draws the runtime's entities 0 .. count - 1 as `mesh`'s thin instances, interpolated on the GPU. Given
 * `{ table: 'ships' }` (a schema of `defineTables`), it draws that table's entities only: its range of each
 * state is uploaded, `fields` name its fields, the buffers hold its capacity; one mesh per table.
 *
 * `mesh.material` must be set first: any material that runs plugins (StandardMaterial, PBRMaterial) keeps
 * everything it does and learns the blend (`interpolation-plugin.ts`); it may serve other meshes, blended or
 * not. Babylon's WebGL 2 engine (GLSL) and its WebGPU engine (WGSL) both draw it.
 *
 * Entities the runtime would snap are drawn at their current state, not blended: those spawned this tick
 * (index at or past the previous count) and those with a new generation (`world.snap`, `spawn`, and the entity a
 * `despawn` moves); the generations are uploaded and compared in the shader only for ticks that marked snaps.
 *
 * ```ts
 * const ships = MeshBuilder.CreateBox('ships', { size: 0.5 }, scene);
 * ships.material = new StandardMaterial('ships', scene);
 * const blended = createInterpolatedThinInstances(runtime, ships, { position: 'position', rotation: 'rotation' });
 * engine.runRenderLoop(() => {
 *   if (!runtime.pace()) return; // pacing, and tells the worker when the next frame is due; no CPU blend
 *   blended.update(); // at the frame's time
 *   scene.render();
 * });
 * ```
 *
 * The mesh is not culled (`alwaysSelectAsActiveMesh`: its bounds say nothing about where the instances are),
 * and is hidden (`isVisible` false) while no entity is live, since Babylon draws a mesh with no thin instances
 * as itself; hide it with `setEnabled(false)`. Its thin-instance matrices are the adapter's. Throws at set-up if
 * a field does not fit (see `TransformFields`) or is not one of the table's, the table is not one of the
 * schema's, the mesh has no material, or the engine is WebGL 1 (integer attributes, `gl_InstanceID`).
 */
export function createInterpolatedThinInstances<S extends Schema, N extends TableName<S> = never>(
  runtime: BlendSource<S>,
  mesh: Mesh,
  fields: TransformFields<BoundSchema<S, N>>,
  options: TableOption<N> = {},
): InterpolatedThinInstances {
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields as TransformFields<S>, options.table, 'createInterpolatedThinInstances');
  const engine = mesh.getEngine();
  const webgl = (engine as { webGLVersion?: number }).webGLVersion;
  if (!engine.isWebGPU && webgl !== undefined && webgl < 2) {
    throw new TypeError(`${PREFIX} createInterpolatedThinInstances needs WebGL 2 or WebGPU (integer attributes, the instance index); this engine is WebGL ${webgl}`);
  }
  // a table's range of each state (entities base .. base + capacity - 1), or every entity: the buffers hold its capacity
  const capacity = table?.layout.capacity ?? runtime.capacity;
  const channels = transformChannels(resolved);
  const state = engine.isWebGPU ? createStateStorage(engine as WebGPUEngine, channels, capacity) : createStateAttributes(mesh, channels, capacity);
  const blend: MeshBlend = { fields: resolved, channels, alpha: 1, prevCount: 0, snaps: 0, flip: 0, state };
  const unbind = bindBlend(mesh, blend, PREFIX);
  mesh.doNotSyncBoundingInfo = true; // else Babylon bounds every instance matrix on each world-matrix change
  mesh.alwaysSelectAsActiveMesh = true;
  mesh.thinInstanceSetBuffer('matrix', identities(capacity), 16, true);
  mesh.thinInstanceCount = 0;
  mesh.isVisible = false;

  const stats: InterpolatedThinInstanceStats = { fullUploads: 0, swaps: 0, misses: 0, generationUploads: 0, late: 0, extrapolated: 0, overtaken: 0 };
  const mirror = createGpuPairMirror(
    { channels, table, capacity, stats },
    {
      // the buffers hold the capacity from the start: only `reallocate` makes new ones
      allocate(entities) {
        state.allocate(entities);
      },
      // straight from the shared memory, under the lock: WebGL's bufferSubData and WebGPU's writeBuffer copy
      // the bytes in the call
      copy(k, buffer, from, offset, elements) {
        state.copy(k, buffer, from, offset, elements);
      },
      flipped(previous) {
        blend.flip = previous;
      },
      direct: true,
    },
  );

  // a lost context took the buffers' contents (Babylon makes the buffers again, empty): both states next
  const restored = engine.onContextRestoredObservable.add(() => mirror.forget());

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
      const fresh = mirror.read(runtime.reader);
      // late and overtaken frames as the sampler places them (the options read every frame: setInterpolation)
      blend.alpha = mirror.place(time, runtime.interpolation);
      blend.prevCount = mirror.previousCount;
      blend.snaps = mirror.snaps ? 1 : 0; // the tick marked snaps: the shader compares generations
      mesh.thinInstanceCount = mirror.count;
      mesh.isVisible = mirror.count > 0;
      return fresh;
    },
    dispose() {
      restored.remove();
      unbind();
      state.free();
      mesh.thinInstanceSetBuffer('matrix', null);
      mesh.isVisible = true;
    },
  };
}

/** The time of the runtime's newest paced frame, or now for a runtime that has none. */
function frameTime(runtime: { readonly frameTime?: number }): number {
  const time = runtime.frameTime;
  return time === undefined || Number.isNaN(time) ? performance.now() : time;
}
