/**
 * The GPU paths' geometry: an InstancedBufferGeometry that shares a source geometry's attributes, index, morph
 * targets, groups and draw range (by reference, never copied), for the instanced mesh of either renderer
 * (WebGLRenderer's, `interpolated-instanced-mesh.ts`; WebGPURenderer's, `webgpu/interpolated-instanced-mesh.ts`).
 */
import { InstancedBufferGeometry, type BufferGeometry } from 'three';

/** A new instanced geometry over `geometry`'s own attributes and index, drawing no instances yet. */
export function shareGeometry(geometry: BufferGeometry): InstancedBufferGeometry {
  const instanced = new InstancedBufferGeometry();
  instanced.setIndex(geometry.index);
  for (const [name, value] of Object.entries(geometry.attributes)) instanced.setAttribute(name, value);
  instanced.morphAttributes = { ...geometry.morphAttributes };
  instanced.morphTargetsRelative = geometry.morphTargetsRelative;
  for (const group of geometry.groups) instanced.addGroup(group.start, group.count, group.materialIndex);
  instanced.setDrawRange(geometry.drawRange.start, geometry.drawRange.count);
  return instanced;
}

/**
 * Disposes `instanced` without freeing what it shares: three.js frees the buffers of what a geometry holds when
 * it is disposed, so it is left only its own attributes first, and the source geometry's buffers stay for
 * whoever else draws it.
 */
export function releaseGeometry(instanced: InstancedBufferGeometry, geometry: BufferGeometry): void {
  instanced.setIndex(null);
  for (const name of Object.keys(geometry.attributes)) instanced.deleteAttribute(name);
  instanced.morphAttributes = {};
  instanced.dispose();
}
