/**
 * Where the GPU pair mirror's buffers live on Babylon's WebGPU engine: one read-only storage buffer, a block per
 * (buffer, channel) as blend-wgsl.ts draws it (WebGPU's 8 vertex buffers would not hold the state's 8 channel
 * buffers beside the mesh's own). A copy is one `queue.writeBuffer` straight from the runtime's view of the
 * shared memory (Babylon's `StorageBuffer.update`) into its block.
 *
 * ```text
 *   byte offset of channel k in buffer b = 4 · (b · stride + prefix_k) · capacity
 *     stride: the channels' widths summed; prefix_k: the widths of the channels before k
 * ```
 */
import { StorageBuffer } from '@babylonjs/core/Buffers/storageBuffer.js';
import type { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import type { MirrorBuffer, TransformChannel } from 'steadyframe/adapter';
import type { StateBuffers } from './state-buffers.ts';

/** One storage buffer of both states of `entities` entities, every channel (WGSL reads it as `array<u32>`). */
export function createStateStorage(engine: WebGPUEngine, channels: readonly TransformChannel[], entities: number): StateBuffers {
  const prefix: number[] = [];
  let stride = 0;
  for (const c of channels) {
    prefix.push(stride);
    stride += c.width;
  }
  let capacity = entities;
  const make = (n: number): StorageBuffer => new StorageBuffer(engine, 4 * 2 * stride * n, undefined, 'steadyframe state');
  const state: StateBuffers = {
    storage: make(capacity),
    capacity,
    allocate(n) {
      state.storage!.dispose();
      capacity = n;
      state.storage = make(n);
      state.capacity = n;
    },
    copy(k: number, buffer: MirrorBuffer, from: Float32Array | Uint32Array, offset: number, elements: number) {
      const at = 4 * (buffer * stride + prefix[k]!) * capacity;
      state.storage!.update(from.subarray(offset, offset + elements), at, 4 * elements);
    },
    free() {
      state.storage!.dispose();
    },
  };
  return state;
}
