import { describe, expect, it } from 'vitest';
import { defineSchema, schema2d, schema3d } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import {
  allocateSharedBuffer,
  blockOffset,
  createSharedViews,
  DATA_OFFSET,
  F64,
  I32,
  MAGIC,
  META,
  slotMetaIndex,
} from '../../src/core/layout.ts';

describe('memory map', () => {
  it('pins the header words', () => {
    expect(I32).toEqual({
      MAGIC: 0,
      LOCK: 1,
      STATE_INDEX: 2,
      PUBLISH_SEQ: 3,
      FRAME_SEQ: 4,
      STATUS: 5,
      CAPACITY: 6,
      FIELD_COUNT: 7,
      OVERLOADS: 8,
      NEXT_FRAME_LO: 9,
      NEXT_FRAME_HI: 10,
      HEARTBEAT: 11,
      PLAN_SEQ: 12,
      COVERED_LO: 13,
      COVERED_HI: 14,
      READER_STALLS: 15,
    });
    // Float64 words, as indices into a Float64Array over the buffer
    expect(F64.CLOCK_ANCHOR * 8).toBe(64); // 64...71
    expect(slotMetaIndex(0) * 8).toBe(128); // 128...255
    expect(slotMetaIndex(1) * 8).toBe(256); // 256...383
    expect(META).toEqual({ PREV_TICK: 0, CUR_TICK: 1, PREV_TIME: 2, CUR_TIME: 3, COUNT: 4, SIM_TIME: 5, SCALE: 6, PREV_COUNT: 7, SNAPS: 8, INPUTS_THROUGH: 9 });
    expect(DATA_OFFSET).toBe(384);
  });

  it('pins the 3D preset at capacity 100', () => {
    const layout = computeLayout(schema3d, 100);
    expect(layout.fields).toEqual([
      // position: 100 * 3 float32 = 1200 bytes: 0...1199, padded to 1216
      { name: 'position', kind: 'linear', width: 3, offset: 0, length: 300 },
      // rotation: 100 * 4 float32 = 1600 bytes: 1216...2815
      { name: 'rotation', kind: 'quaternion', width: 4, offset: 1216, length: 400 },
    ]);
    // generation: 100 uint32 = 400 bytes: 2816...3215, padded to 3264
    expect(layout.generationOffset).toBe(2816);
    expect(layout.blockBytes).toBe(3264);
    expect(blockOffset(layout, 0, 'previous')).toBe(384); // 384...3647
    expect(blockOffset(layout, 0, 'current')).toBe(3648); // 3648...6911
    expect(blockOffset(layout, 1, 'previous')).toBe(6912); // 6912...10175
    expect(blockOffset(layout, 1, 'current')).toBe(10176); // 10176...13439
    expect(layout.worldOffset).toBe(13440); // the worker's world: 13440...16703
    expect(layout.totalBytes).toBe(16704);
    expect(layout.signature).toBe('position:linear:3;rotation:quaternion:4');
  });

  it('pins the 2D preset at capacity 1', () => {
    const layout = computeLayout(schema2d, 1);
    expect(layout.fields.map((f) => f.offset)).toEqual([0, 64]); // each run starts on a cache line
    expect(layout.generationOffset).toBe(128);
    expect(layout.blockBytes).toBe(192);
    expect(layout.worldOffset).toBe(384 + 4 * 192);
    expect(layout.totalBytes).toBe(384 + 5 * 192);
  });

  it('pins a schema with game fields: a float64 run after the generations, in schema order', () => {
    const schema = defineSchema({
      position: { width: 2, kind: 'linear' },
      score: { kind: 'none', scope: 'game' },
      angle: { width: 1, kind: 'angle' },
      timer: { kind: 'linear', scope: 'game' },
    });
    const layout = computeLayout(schema, 10);
    // the entity fields only: position 0...79 (pad to 128), angle 128...167 (pad to 192)
    expect(layout.fields.map((f) => [f.name, f.offset])).toEqual([
      ['position', 0],
      ['angle', 128],
    ]);
    // generations 192...231, padded to 256; the game run 256...271 (score, timer), padded to 320
    expect(layout.generationOffset).toBe(192);
    expect(layout.game).toEqual([
      { name: 'score', kind: 'none', index: 0, current: false },
      { name: 'timer', kind: 'linear', index: 1, current: false },
    ]);
    expect(layout.gameOffset).toBe(256);
    expect(layout.blockBytes).toBe(320);
    expect(layout.signature).toBe('position:linear:2;score:none:game;angle:angle:1;timer:linear:game');
    // without game fields the block ends at the padded generations, as before game fields
    expect(computeLayout(defineSchema({ position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } }), 10).blockBytes).toBe(256);
  });

  it('aligns every run, block and the whole buffer to 64 bytes', () => {
    const schema = defineSchema({ a: { width: 3, kind: 'linear' }, b: { width: 1, kind: 'none' }, c: { width: 4, kind: 'quaternion' } });
    for (const capacity of [1, 7, 100, 1001, 65_537]) {
      const layout = computeLayout(schema, capacity);
      for (const field of layout.fields) expect(field.offset % 64).toBe(0);
      expect(layout.generationOffset % 64).toBe(0);
      expect(layout.blockBytes % 64).toBe(0);
      expect(layout.blockBytes).toBeGreaterThanOrEqual(layout.generationOffset + capacity * 4);
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
