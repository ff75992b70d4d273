/**
 * The GPU path on three.js's WebGPURenderer: the previous and current state go to the GPU byte for byte, and a
 * TSL node (`instance-node.ts`) blends them in the vertex stage of any node material. The WebGL path
 * (`../interpolated-instanced-mesh.ts`, shaders patched through `onBeforeCompile`) is the same machine over
 * instanced attributes; `onBeforeCompile` does not run under WebGPURenderer, whose materials are node materials.
 *
 * ```text
 *   update(time):
 *     acquire the pair ──▶ steadyframe/adapter's GPU pair mirror decides: 'none', 'swap' (sfFlip = 1 - sfFlip,
 *                          then the current state), 'full' (both states)
 *                          this file is its backend: one StorageInstancedBufferAttribute per channel
 *                            [ half 0: capacity entities × width | half 1: the same ]  (uint32 for the generations)
 *                          and over the same array, an InstancedBufferAttribute a half (the WebGL 2 backend's)
 *                          a copy: once the WebGPU backend drew the mesh, straight from the shared memory
 *                          (`direct-upload.ts`: queue.writeBuffer into three.js's GPUBuffer, under the lock);
 *                          else the run into its half's start, that range marked for three.js to upload on both
 *                          (three.js sends only what the backend's node reads)
 *     release
 *     sfAlpha = mirror.place(time, runtime.interpolation); sfFlip; sfPrevCount; sfSnaps; instanceCount = COUNT
 * ```
 *
 * The buffers hold the capacity (the runtime's, or the table's) from the start and never grow: the shader
 * indexes the halves by it. Until the WebGPU backend has drawn the mesh (and on the WebGL 2 backend) the copies go
 * into the attributes' arrays; three.js sends the marked ranges at render (`queue.writeBuffer` on WebGPU,
 * `bufferSubData` on WebGL 2).
 */
import { InstancedBufferAttribute, Mesh, type BufferAttribute, type BufferGeometry, type InstancedBufferGeometry } from 'three';
import { StorageInstancedBufferAttribute, type Node, type NodeMaterial } from 'three/webgpu';
import type { Runtime, Schema, TableName } from 'steadyframe';
import { createGpuPairMirror, transformChannels, type LateOptions, type MirrorBuffer } from 'steadyframe/adapter';
import { resolveBinding, type BoundSchema, type TableOption, type TransformFields } from '../fields.ts';
import { releaseGeometry, shareGeometry } from '../instanced-geometry.ts';
import { frameTime } from '../frame-time.ts';
import type { InterpolatedMeshStats } from '../interpolated-instanced-mesh.ts';
import { directUpload } from './direct-upload.ts';
import { createInstanceNode, type NodeChannel } from './instance-node.ts';

/** What `createInterpolatedInstancedMesh` (WebGPURenderer's) returns. */
export interface InterpolatedNodeMesh<M extends NodeMaterial = NodeMaterial> {
  /** Add this to the scene. Its geometry shares the source geometry's attributes and index. */
  readonly mesh: Mesh<InstancedBufferGeometry, M>;
  /**
   * Brings the mesh to shared-clock time `time` (ms), as the WebGL path's `update` does: takes the runtime's
   * lock once, copies a newly published state into the storage attributes' arrays (nothing when none was
   * published since the last call), sets the alpha uniform (a late frame by the runtime's `whenLate` and
   * `maxPrediction`). With no `time`, the frame's (`runtime.frameTime`, or now). Returns false when the lock
   * stayed busy: the mesh keeps the last pair, at the new alpha. Allocates a few views per published tick.
   */
  update(time?: number): boolean;
  /** The alpha uniform set by the last update. */
  readonly alpha: number;
  /** Instances drawn: live entities (of the table, given one) in the pair last copied. */
  readonly count: number;
  /**
   * As the WebGL path's; `directUploads` counts the uploads that went straight from the shared memory to the
   * WebGPU backend's buffers (every one after the mesh's first render or two, on WebGPU; none on WebGL 2).
   */
  readonly stats: Readonly<InterpolatedMeshStats>;
  /** Frees the storage buffers, and gives `material` its own `positionNode` back (free for another mesh). */
  dispose(): void;
}

/** Materials that draw an interpolated mesh now: one material drives one mesh's uniforms. */
const patched = new WeakSet<NodeMaterial>();

/**
 * Creates a mesh that draws the runtime's entities 0 .. count - 1 (a table's, given `{ table }`) as instances of
 * `geometry`, interpolated on the GPU by WebGPURenderer. `material` must be a node material
 * (`MeshStandardNodeMaterial`, `MeshBasicNodeMaterial`, ... from `three/webgpu`): its `positionNode` becomes
 * the blend (a positionNode it had is the local position the blend places), and normals turn with each
 * instance. Throws at set-up for a material that is not a node material or draws another interpolated mesh,
 * a field that does not fit, or a table the schema has not.
 *
 * ```ts
 * import { MeshStandardNodeMaterial, WebGPURenderer } from 'three/webgpu';
 * import { createInterpolatedInstancedMesh } from '@steadyframe/three/webgpu';
 * const ships = createInterpolatedInstancedMesh(runtime, new ConeGeometry(0.5, 1), new MeshStandardNodeMaterial(), { position: 'position', rotation: 'rotation' });
 * scene.add(ships.mesh);
 * renderer.setAnimationLoop(() => {
 *   if (!runtime.pace()) return;
 *   ships.update();
 *   renderer.render(scene, camera);
 * });
 * ```
 */
export function createInterpolatedInstancedMesh<S extends Schema, M extends NodeMaterial, N extends TableName<S> = never>(
  runtime: Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> & Partial<Pick<Runtime<S>, 'frameTime'>> & { readonly interpolation?: LateOptions },
  geometry: BufferGeometry,
  material: M,
  fields: TransformFields<BoundSchema<S, N>>,
  options: TableOption<N> = {},
): InterpolatedNodeMesh<M> {
  if ((material as Partial<NodeMaterial> | null)?.isNodeMaterial !== true) {
    throw new TypeError('@steadyframe/three/webgpu: the material must be a node material (MeshStandardNodeMaterial, MeshBasicNodeMaterial... from three/webgpu); a classic material drawn by WebGPURenderer is converted at render into one that never sees the blend');
  }
  if (patched.has(material)) {
    throw new Error('@steadyframe/three/webgpu: this material already draws another interpolated mesh; give each mesh its own (material.clone())');
  }
  const { table, fields: resolved } = resolveBinding(runtime.schema, fields as TransformFields<S>, options.table, 'createInterpolatedInstancedMesh');
  const capacity = table?.layout.capacity ?? runtime.capacity;
  const channels = transformChannels(resolved);
  const storage: NodeChannel[] = channels.map((c) => {
    const array = c.field === null ? new Uint32Array(2 * capacity * c.width) : new Float32Array(2 * capacity * c.width);
    const half = (h: 0 | 1) => new InstancedBufferAttribute(array.subarray(h * capacity * c.width, (h + 1) * capacity * c.width), c.width);
    return { role: c.role, width: c.width, attribute: new StorageInstancedBufferAttribute(array, 1), halves: [half(0), half(1)] };
  });
  // the values each half of a channel holds that three.js has not sent yet, from the half's start: for the
  // storage attribute and for the half's own attribute
  const unsent = channels.map(() => ({ storage: [0, 0], halves: [0, 0] }));
  const node = createInstanceNode(storage, capacity, resolved);

  patched.add(material);
  const ownPosition: Node | null = material.positionNode;
  material.positionNode = node.position(ownPosition as Node<'vec3'> | null);
  material.needsUpdate = true;

  const instanced = shareGeometry(geometry);
  instanced.instanceCount = 0;
  const mesh = new Mesh(instanced, material);
  mesh.frustumCulled = false;

  const stats: InterpolatedMeshStats = { fullUploads: 0, swaps: 0, misses: 0, directUploads: 0, generationUploads: 0, late: 0, extrapolated: 0, overtaken: 0 };
  /** The time the last update placed the frame at (a second renderer's first render re-uploads at it). */
  let placedAt: number | null = null;
  const direct = directUpload(mesh, () => {
    mirror.forget();
    if (placedAt !== null) handle.update(placedAt);
  });
  const attributes = storage.map((channel) => channel.attribute);
  /** Whether every copy of the upload under way went straight to the GPU. */
  let allDirect = true;
  const mirror = createGpuPairMirror(
    { channels, table, capacity, stats },
    {
      // the storage holds the capacity from the start: never grown, and no context to restore under WebGPU
      allocate() {},
      copy(k, buffer: MirrorBuffer, from, offset, elements) {
        const { attribute, halves, width } = storage[k]!;
        if (direct.write(attribute, buffer * capacity * width, from, offset, elements)) return;
        allDirect = false;
        (attribute.array as Float32Array | Uint32Array).set(from.subarray(offset, offset + elements), buffer * capacity * width);
        const { storage: inStorage, halves: inHalves } = unsent[k]!;
        // three.js empties the ranges once it sent them: then nothing is unsent. At most one range a half, so
        // ranges never pile up while the mesh is not rendered (or its backend reads the other attributes)
        if (attribute.updateRanges.length === 0) inStorage[0] = inStorage[1] = 0;
        inStorage[buffer] = Math.max(inStorage[buffer]!, elements);
        attribute.clearUpdateRanges();
        for (const half of [0, 1] as const) if (inStorage[half]! > 0) attribute.addUpdateRange(half * capacity * width, inStorage[half]!);
        attribute.needsUpdate = true;
        const own: BufferAttribute = halves[buffer];
        if (own.updateRanges.length === 0) inHalves[buffer] = 0;
        inHalves[buffer] = Math.max(inHalves[buffer]!, elements);
        own.clearUpdateRanges();
        own.addUpdateRange(0, inHalves[buffer]!);
        own.needsUpdate = true;
      },
      flipped(previous) {
        node.uniforms.flip.value = previous;
      },
      get direct() {
        return allDirect;
      },
    },
  );

  const handle: InterpolatedNodeMesh<M> = {
    mesh,
    get alpha() {
      return mirror.alpha;
    },
    get count() {
      return mirror.count;
    },
    stats,
    update(time = frameTime(runtime)) {
      if (direct.replaced(attributes)) mirror.forget();
      allDirect = true;
      placedAt = time;
      const fresh = mirror.read(runtime.reader);
      node.uniforms.alpha.value = mirror.place(time, runtime.interpolation);
      node.uniforms.flip.value = mirror.flip;
      node.uniforms.previousCount.value = mirror.previousCount;
      node.uniforms.snaps.value = mirror.snaps ? 1 : 0;
      instanced.instanceCount = mirror.count;
      return fresh;
    },
    dispose() {
      for (const channel of storage) for (const attribute of [channel.attribute, ...channel.halves]) attribute.dispose();
      releaseGeometry(instanced, geometry);
      if (patched.delete(material)) {
        material.positionNode = ownPosition;
        material.needsUpdate = true;
      }
    },
  };
  return handle;
}
