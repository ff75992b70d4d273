/**
 * Where a state can go straight from the shared memory to the GPU under three.js's WebGPURenderer: the
 * `GPUBuffer` its WebGPU backend made for a storage attribute, once it drew the mesh, and the device's
 * `queue.writeBuffer`, which copies the bytes before it returns (WebGPU's contract: nothing reads the shared memory
 * after the lock is released). Saves the copy into the attribute's array, and three.js's own `writeBuffer` of it.
 *
 * ```text
 *   the mesh's first render, by renderer R    onBeforeRender: R is the one renderer; its backend and device kept
 *   a copy of channel k into half h           R's GPUBuffer for k exists, and three.js has sent every range it
 *                                             was given (none pending, so it cannot send an older array over it)?
 *                                               yes: writeBuffer(that buffer, h's byte offset, the shared view)
 *                                               no:  the array, and a range marked (three.js sends it at render)
 *   a second renderer draws the mesh          each keeps its own GPUBuffers: copies only, from then on; and at
 *                                             once (its onBeforeRender, before it makes its buffers from the
 *                                             arrays the direct writes never filled) `shared()`: the mesh uploads
 *                                             both states again, into the arrays
 *   R's GPUBuffer for k is not the one written (three.js made it again from the array, which the direct writes
 *                                             never filled): the mirror forgets, and uploads both states again
 * ```
 *
 * Reads three.js's backend internals (`backend.get(attribute).buffer`, as three r187 keeps it); where they are not
 * there (another release, the WebGL 2 backend), every copy goes through the array, as before.
 */
import type { BufferAttribute, Object3D } from 'three';

/** What the direct writes use of a WebGPURenderer's backend. */
interface WebGpuBackendPart {
  readonly isWebGPUBackend?: boolean;
  readonly device?: { readonly queue: { writeBuffer(buffer: unknown, offset: number, data: Float32Array | Uint32Array, dataOffset: number, size: number): void } };
  get(object: object): { buffer?: unknown } | undefined;
}

/** A mesh's direct writes: to the buffers of the one renderer that draws it. */
export interface DirectUpload {
  /**
   * Writes `elements` values of `from` (from `offset`) at value `at` of `attribute`'s GPUBuffer, when it can (see
   * above); false: copy instead. Call under the lock.
   */
  write(attribute: BufferAttribute, at: number, from: Float32Array | Uint32Array, offset: number, elements: number): boolean;
  /**
   * True when a buffer written straight before is no longer the renderer's (three.js made it again from the array
   * the direct writes never filled): the mirror must upload all again.
   */
  replaced(attributes: readonly BufferAttribute[]): boolean;
}

/**
 * Direct writes for `mesh`, learning its renderer from its `onBeforeRender`; `shared` runs there when a second
 * renderer is about to draw it after direct writes (the mesh must fill its arrays for that render).
 */
export function directUpload(mesh: Object3D, shared: () => void): DirectUpload {
  let backend: WebGpuBackendPart | null = null;
  let drawnBy: unknown = null;
  let many = false;
  /** The GPUBuffer each attribute was last written straight into. */
  const written = new Map<BufferAttribute, unknown>();
  mesh.onBeforeRender = (renderer) => {
    if (drawnBy === null) {
      drawnBy = renderer;
      const part = (renderer as { backend?: WebGpuBackendPart }).backend;
      backend = part?.isWebGPUBackend === true && part.device !== undefined && typeof part.get === 'function' ? part : null;
    } else if (renderer !== drawnBy && !many) {
      many = true;
      backend = null;
      if (written.size > 0) {
        written.clear();
        shared();
      }
    }
  };
  const bufferOf = (attribute: BufferAttribute): unknown => backend?.get(attribute)?.buffer;
  return {
    write(attribute, at, from, offset, elements) {
      if (backend === null || attribute.updateRanges.length > 0) return false;
      const buffer = bufferOf(attribute);
      if (buffer === undefined) return false;
      backend.device!.queue.writeBuffer(buffer, at * 4, from, offset, elements);
      written.set(attribute, buffer);
      return true;
    },
    replaced(attributes) {
      let replaced = false;
      for (const attribute of attributes) {
        if (!written.has(attribute) || bufferOf(attribute) === written.get(attribute)) continue;
        written.delete(attribute); // told once: the mirror's next upload fills it
        replaced = true;
      }
      return replaced;
    },
  };
}
