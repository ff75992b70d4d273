/**
 * The GPU pair mirror's buffers on a Babylon engine: what the thin instances' backend (interpolated-thin-instances.ts)
 * asks of them, whichever engine holds them: instanced vertex buffers on WebGL 2 (state-attributes.ts), one
 * storage buffer on WebGPU (state-storage.ts).
 */
import type { StorageBuffer } from '@babylonjs/core/Buffers/storageBuffer.js';
import type { MirrorBuffer } from 'steadyframe/adapter';

export interface StateBuffers {
  /** The storage buffer the WGSL blend reads (WebGPU), or null: the state is in vertex attributes (WebGL). */
  storage: StorageBuffer | null;
  /** Entities each buffer holds (the storage layout's block size: the WGSL blend's sfCapacity). */
  capacity: number;
  /** Makes every buffer hold `entities` entities; what they held is gone. */
  allocate(entities: number): void;
  /** The mirror's copy: `elements` values of `from` from `offset` on, into channel `k`'s buffer `buffer`, now. */
  copy(k: number, buffer: MirrorBuffer, from: Float32Array | Uint32Array, offset: number, elements: number): void;
  /** Frees the buffers (and takes the attributes off the mesh). */
  free(): void;
}
