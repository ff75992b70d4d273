/**
 * A scene's state as the server's publisher reads it: one block of the layout (core/layout.ts: a run per field,
 * the generations after them), written by the scene and handed to the encoder; and what the same state cost on
 * wire version 3, which sent every value as a float32.
 */
import { computeLayout, generationView, type Layout } from '../../src/core/layout.ts';
import type { Schema } from '../../src/core/schema.ts';
import { wireFormat, type WireFormat } from '../../src/net/wire.ts';

export interface StateBlock {
  readonly format: WireFormat;
  readonly block: Float32Array;
  readonly generation: Uint32Array;
  /** Index in `block` of field `name`'s first value (entity i, component c: + i × width + c). */
  base(name: string): number;
}

export function stateBlock(schema: Schema, capacity: number): StateBlock {
  const layout: Layout = computeLayout(schema, capacity);
  const buffer = new ArrayBuffer(layout.blockBytes);
  return {
    format: wireFormat(layout),
    block: new Float32Array(buffer),
    generation: generationView(buffer, 0, layout),
    base(name) {
      const field = layout.fields.find((f) => f.name === name);
      if (field === undefined) throw new Error(`steadyframe bench: no field "${name}"`);
      return field.offset / 4;
    },
  };
}

/** Version 3's head: magic, type, version, hash, length, tick, count, time, snaps, interval. */
export const V3_HEAD_BYTES = 40;

/**
 * Bytes of a wire version 3 snapshot of `count` entities: the head, then every entity's float32 values and its
 * generation (4 bytes each), then the game fields as float64. A formula: version 3's encoder is gone.
 */
export function v3SnapshotBytes(format: WireFormat, count: number): number {
  return V3_HEAD_BYTES + count * (format.valuesPerEntity + 1) * 4 + format.gameValues * 8;
}
