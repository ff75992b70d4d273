/**
 * Where the GPU pair mirror's buffers live on Babylon's WebGL 2 engine: two instanced vertex buffers per channel
 * (the attributes sf<Channel>0 and sf<Channel>1 of blend-glsl.ts), set on the mesh. A copy is one
 * `gl.bufferSubData` straight from the runtime's view of the shared memory (Babylon's `Buffer.updateDirectly`).
 *
 * ```text
 *   channel k (position, rotation, scale: float32 · width; generations: uint32)
 *     buffer 0 ── VertexBuffer 'sf<Channel>0' (instanced, divisor 1)
 *     buffer 1 ── VertexBuffer 'sf<Channel>1'
 * ```
 */
import { Buffer, VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { MirrorBuffer, TransformChannel } from 'steadyframe/adapter';
import { attributeNames } from './instance-shader.ts';
import type { StateBuffers } from './state-buffers.ts';

/** Two instanced vertex buffers of `entities` entities per channel, on `mesh`. */
export function createStateAttributes(mesh: Mesh, channels: readonly TransformChannel[], entities: number): StateBuffers {
  const engine = mesh.getEngine();
  const make = (c: TransformChannel, name: string, capacity: number): Buffer => {
    const integer = c.field === null;
    const data = integer ? new Uint32Array(capacity * c.width) : new Float32Array(capacity * c.width);
    const buffer = new Buffer(engine, data, true, c.width, false, true);
    const type = integer ? VertexBuffer.UNSIGNED_INT : VertexBuffer.FLOAT;
    mesh.setVerticesBuffer(new VertexBuffer(engine, buffer, name, { updatable: true, stride: c.width, size: c.width, instanced: true, type }), false);
    return buffer;
  };
  const makeAll = (capacity: number): Array<[Buffer, Buffer]> =>
    channels.map((c) => {
      const [n0, n1] = attributeNames(c);
      return [make(c, n0, capacity), make(c, n1, capacity)];
    });
  const free = (): void => {
    channels.forEach((c, k) => {
      for (const name of attributeNames(c)) mesh.removeVerticesData(name);
      for (const b of buffers[k]!) b.dispose();
    });
  };
  let buffers = makeAll(entities);
  const state: StateBuffers = {
    storage: null,
    capacity: entities,
    allocate(capacity) {
      free();
      buffers = makeAll(capacity);
      state.capacity = capacity;
    },
    copy(k: number, buffer: MirrorBuffer, from: Float32Array | Uint32Array, offset: number, elements: number) {
      // the entity count (not the whole view) keeps Babylon from holding on to the shared memory's view
      buffers[k]![buffer].updateDirectly(from.subarray(offset, offset + elements), 0, elements / channels[k]!.width);
    },
    free,
  };
  return state;
}
