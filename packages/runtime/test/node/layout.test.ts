import { describe, expect, it } from 'vitest';
import { computeLayout, defineSchema, schema2d, schema3d } from 'steadyframe';
import {
  allocateSharedBuffer,
  blockOffset,
  createSharedViews,
  DATA_OFFSET,
  F64,
  I32,
  MAGIC,
  slotMetaIndex,
} from '../../src/core/layout.ts';

describe('memory map', () => {
  it('pins the header words', () => {
    expect(I32).toEqual({ MAGIC: 0, LOCK: 1, STATE_INDEX: 2, PUBLISH_SEQ: 3, FRAME_SEQ: 4, STATUS: 5, CAPACITY: 6, FIELD_COUNT: 7 });
    // Float64 words, as indices into a Float64Array over the buffer
    expect(F64.CLOCK_ANCHOR * 8).toBe(64); // 64...71
    expect(F64.NEXT_FRAME * 8).toBe(72); // 72...79
    expect(slotMetaIndex(0) * 8).toBe(128); // 128...191
    expect(slotMetaIndex(1) * 8).toBe(192); // 192...255
    expect(DATA_OFFSET).toBe(256);
  });

  it('pins the 3D preset at capacity 100', () => {
    const layout = computeLayout(schema3d, 100);
    expect(layout.fields).toEqual([
      // position: 100 * 3 float32 = 1200 bytes: 0...1199, padded to 1216
      { name: 'position', kind: 'linear', width: 3, offset: 0, length: 300 },
      // rotation: 100 * 4 float32 = 1600 bytes: 1216...2815
      { name: 'rotation', kind: 'quaternion', width: 4, offset: 1216, length: 400 },
    ]);
    expect(layout.blockBytes).toBe(2816);
    expect(blockOffset(layout, 0, 'previous')).toBe(256); // 256...3071
    expect(blockOffset(layout, 0, 'current')).toBe(3072); // 3072...5887
    expect(blockOffset(layout, 1, 'previous')).toBe(5888); // 5888...8703
    expect(blockOffset(layout, 1, 'current')).toBe(8704); // 8704...11519
    expect(layout.totalBytes).toBe(11520);
    expect(layout.signature).toBe('position:linear:3;rotation:quaternion:4');
  });

  it('pins the 2D preset at capacity 1', () => {
    const layout = computeLayout(schema2d, 1);
    expect(layout.fields.map((f) => f.offset)).toEqual([0, 64]); // each run starts on a cache line
    expect(layout.blockBytes).toBe(128);
    expect(layout.totalBytes).toBe(256 + 4 * 128);
  });

  it('aligns every run, block and the whole buffer to 64 bytes', () => {
    const schema = defineSchema({ a: { width: 3, kind: 'linear' }, b: { width: 1, kind: 'none' }, c: { width: 4, kind: 'quaternion' } });
    for (const capacity of [1, 7, 100, 1001, 65_537]) {
      const layout = computeLayout(schema, capacity);
      for (const field of layout.fields) expect(field.offset % 64).toBe(0);
      expect(layout.blockBytes % 64).toBe(0);
      // runs do not overlap
      for (let i = 1; i < layout.fields.length; i++) {
        const before = layout.fields[i - 1]!;
        expect(layout.fields[i]!.offset).toBeGreaterThanOrEqual(before.offset + before.length * 4);
      }
    }
  });

  it('rejects capacities that are not whole, positive and allocatable', () => {
    expect(() => computeLayout(schema3d, 0)).toThrow(/capacity must be a whole number of entities, at least 1; got 0/);
    expect(() => computeLayout(schema3d, 2.5)).toThrow(/got 2.5/);
    expect(() => computeLayout(schema3d, Number.NaN)).toThrow(/got NaN/);
    expect(() => computeLayout(schema3d, 100_000_000)).toThrow(/needs \d+ bytes of shared memory.*lower the capacity/);
  });

  it('lays views over an allocated buffer and refuses a mismatched one', () => {
    const layout = computeLayout(schema3d, 10);
    const buffer = allocateSharedBuffer(layout, 1234.5);
    const views = createSharedViews(buffer, schema3d, 10);
    expect(views.i32[I32.MAGIC]).toBe(MAGIC);
    expect(views.i32[I32.CAPACITY]).toBe(10);
    expect(views.f64[F64.CLOCK_ANCHOR]).toBe(1234.5);
    expect(views.slots[1].current.rotation.byteOffset).toBe(blockOffset(layout, 1, 'current') + layout.fields[1]!.offset);
    expect(views.slots[0].previous.position.length).toBe(30);
    expect(() => createSharedViews(buffer, schema3d, 11)).toThrow(/both threads must use the same schema and capacity/);
    expect(() => createSharedViews(new SharedArrayBuffer(layout.totalBytes), schema3d, 10)).toThrow(/not made by steadyframe/);
  });
});
