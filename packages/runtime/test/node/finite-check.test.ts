import { expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import { computeLayout } from 'steadyframe/adapter';
import { fieldViews } from '../../src/core/layout.ts';
import { checkFinite } from '../../src/worker/finite-check.ts';

const schema = defineSchema({ pos: { width: 2, kind: 'linear' } });
const layout = computeLayout(schema, 4);
const views = () => fieldViews<typeof schema>(new ArrayBuffer(layout.blockBytes), 0, layout);

it("counts non-finite components of live entities and, holding, puts back the last published value", () => {
  const world = views();
  world.pos.set([1, Number.NaN, Number.POSITIVE_INFINITY, 4, Number.NaN, 6]);
  const last = views();
  last.pos.set([10, 20, 30, 40, 50, 60]);
  expect(checkFinite(layout, world, 2, null)).toBe(2); // entity 2 is not live: its NaN is not counted
  expect(checkFinite(layout, world, 3, last, 3)).toBe(3);
  expect(Array.from(world.pos.subarray(0, 6))).toEqual([1, 20, 30, 4, 50, 6]);
});

it('holds 0 for an entity the last published state did not have (its values there are dead)', () => {
  const world = views();
  world.pos.set([Number.NaN, 2, Number.NaN, Number.NaN]);
  const last = views();
  last.pos.set([10, 20, 777, 888]); // entity 1 was not live in the last state: 777 and 888 are an older tick's
  expect(checkFinite(layout, world, 2, last, 1)).toBe(3);
  expect(Array.from(world.pos.subarray(0, 4))).toEqual([10, 2, 0, 0]);
});
