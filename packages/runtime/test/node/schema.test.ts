import { describe, expect, it } from 'vitest';
import { defineSchema, schema2d, schema3d } from 'steadyframe';
import { schemaField, schemaSignature } from 'steadyframe/adapter';

describe('schema', () => {
  it('has 2D and 3D presets', () => {
    expect(schemaSignature(schema2d)).toBe('position:linear:2;angle:angle:1');
    expect(schemaSignature(schema3d)).toBe('position:linear:3;rotation:quaternion:4');
  });

  it('names the field and the fix for each mistake', () => {
    const bad = (s: unknown) => () => defineSchema(s as never);
    expect(bad({})).toThrow(/no per-entity fields/);
    expect(bad({ score: { kind: 'none', scope: 'game' } })).toThrow(/no per-entity fields/);
    expect(bad({ x: { width: 1, kind: 'linear' }, s: { kind: 'quaternion', scope: 'game' } })).toThrow(/game field "s" has kind "quaternion"; a game field is one number: use one of none, linear, angle/);
    expect(bad({ x: { width: 1, kind: 'linear' }, s: { kind: 'none', scope: 'game', width: 2 } })).toThrow(/game field "s" has width 2; a game field is one number/);
    expect(bad({ x: { width: 1, kind: 'linear' }, s: { kind: 'none', scope: 'world' } })).toThrow(/field "s" has scope "world"; the one scope is 'game'/);
    expect(bad({ x: { width: 1, kind: 'linear', velocity: 's' }, s: { kind: 'linear', scope: 'game' } })).toThrow(/velocity "s", a game field/);
    expect(bad(null)).toThrow(/a schema is an object of fields/);
    expect(bad({ x: { width: 1, kind: 'cubic' } })).toThrow(/field "x" has unknown interpolation kind "cubic"; use one of linear, angle, quaternion, none/);
    expect(bad({ x: { width: 0, kind: 'linear' } })).toThrow(/field "x" has width 0; a width is a whole number from 1 to 16/);
    expect(bad({ x: { width: 1.5, kind: 'linear' } })).toThrow(/width 1.5/);
    expect(bad({ q: { width: 3, kind: 'quaternion' } })).toThrow(/field "q" is a quaternion and must have width 4/);
    expect(bad({ a: { width: 2, kind: 'angle' } })).toThrow(/field "a" is an angle and must have width 1/);
    expect(bad({ '': { width: 1, kind: 'linear' } })).toThrow(/field "" is not a valid name/);
    expect(bad({ '0': { width: 1, kind: 'linear' } })).toThrow(/field "0" is not a valid name/);
    expect(bad({ x: 3 })).toThrow(/field "x" must be an object/);
  });

  it('looks fields up by name for adapters, naming what asked and what there is', () => {
    expect(schemaField(schema3d, 'rotation', 'x')).toEqual({ width: 4, kind: 'quaternion' });
    expect(() => schemaField(schema3d, 'pos', '@steadyframe/three: fields.position')).toThrow(
      '@steadyframe/three: fields.position names "pos", which is not a field of the schema (position, rotation)',
    );
    expect(() => schemaField(schema3d, 'toString', 'f')).toThrow(/names "toString"/); // own fields only
  });
});
