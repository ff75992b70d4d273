/** The WebGPU path's three.js floor: the TSL names it takes, present in the installed three, named when missing. */
import { expect, it } from 'vitest';
import * as tsl from 'three/tsl';
import { REVISION } from 'three';
import { missingTsl, TSL_FLOOR } from '@steadyframe/three/webgpu';

it('finds every name it takes in the installed three.js, which is at or past the floor', () => {
  expect(missingTsl(tsl)).toEqual([]);
  expect(Number.parseInt(REVISION, 10)).toBeGreaterThanOrEqual(TSL_FLOOR);
});

it("names what a release before r168 lacks (r167's TSL had tslFn and cond, not Fn and select)", () => {
  const { Fn: _fn, select: _select, ...r167 } = tsl;
  expect(missingTsl({ ...r167, tslFn: _fn, cond: _select })).toEqual(['Fn', 'select']);
});
