/**
 * The GPU path places its frames as the runtime's sampler does: a frame past the newest state is late (held at
 * alpha 1, or carried on under `whenLate: 'extrapolate'`, up to `maxPrediction` ticks), a frame before the
 * previous state is overtaken (drawn at it), and both are counted in `stats`. A stand-in reader hands the mesh
 * one pair (ticks at 100 and 150 ms); the runtime's interpolation options change between frames, as
 * `setInterpolation` changes them.
 */
import { expect, it } from 'vitest';
import { BoxGeometry, MeshBasicMaterial } from 'three';
import { defineSchema, type Runtime } from 'steadyframe';
import { computeLayout, META, type StatePair, type StateReader } from 'steadyframe/adapter';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';

const schema = defineSchema({ position: { width: 3, kind: 'linear' } });
type S = typeof schema;
const CAPACITY = 2;

function standIn() {
  const layout = computeLayout(schema, CAPACITY);
  const block = () => {
    const buffer = new ArrayBuffer(layout.blockBytes);
    return { position: new Float32Array(buffer, 0, 3 * CAPACITY), generation: new Uint32Array(buffer, layout.generationOffset, CAPACITY), block: new Float32Array(buffer) };
  };
  const previous = block();
  const current = block();
  const meta = new Float64Array(16);
  meta[META.COUNT] = CAPACITY;
  meta[META.PREV_COUNT] = CAPACITY;
  meta[META.PREV_TIME] = 100;
  meta[META.CUR_TIME] = 150;
  const pair: StatePair<S> = {
    previous: { position: previous.position },
    current: { position: current.position },
    previousGeneration: previous.generation,
    currentGeneration: current.generation,
    previousBlock: previous.block,
    currentBlock: current.block,
    previousGame: new Float64Array(0),
    currentGame: new Float64Array(0),
    metaWords: meta,
  };
  const reader: StateReader<S> = {
    read: (fn) => fn(pair, 1),
    publishCount: () => 1,
    stats: { acquires: 0, spins: 0, maxSpins: 0, misses: 0 },
  };
  const runtime: Pick<Runtime<S>, 'schema' | 'capacity' | 'reader'> & { interpolation: Runtime<S>['interpolation'] } = {
    schema,
    capacity: CAPACITY,
    reader,
    interpolation: { mode: 'interpolate', renderDelay: 0, whenLate: 'hold', maxPrediction: 1, snapDistance: null },
  };
  return runtime;
}

it('holds a late frame at the newest state by default, and counts it', () => {
  const runtime = standIn();
  const mesh = createInterpolatedInstancedMesh(runtime, new BoxGeometry(), new MeshBasicMaterial(), { position: 'position' });
  mesh.update(125);
  expect(mesh.alpha).toBe(0.5);
  mesh.update(175);
  expect(mesh.alpha).toBe(1);
  expect(mesh.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, directUploads: 0, generationUploads: 0, late: 1, extrapolated: 0, overtaken: 0 });
});

it("carries a late frame on when the runtime's whenLate says 'extrapolate', at most maxPrediction ticks", () => {
  const runtime = standIn();
  const mesh = createInterpolatedInstancedMesh(runtime, new BoxGeometry(), new MeshBasicMaterial(), { position: 'position' });
  runtime.interpolation = { ...runtime.interpolation, whenLate: 'extrapolate' };
  mesh.update(175);
  expect(mesh.alpha).toBeCloseTo(1.5, 12);
  mesh.update(1000);
  expect(mesh.alpha).toBe(2);
  runtime.interpolation = { ...runtime.interpolation, maxPrediction: 0.25 };
  mesh.update(1000);
  expect(mesh.alpha).toBe(1.25);
  // back to hold: the next late frame is held again
  runtime.interpolation = { ...runtime.interpolation, whenLate: 'hold' };
  mesh.update(175);
  expect(mesh.alpha).toBe(1);
  expect(mesh.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, directUploads: 0, generationUploads: 0, late: 4, extrapolated: 3, overtaken: 0 });
});

it('draws an overtaken frame (before the previous state) at the previous state, and counts it', () => {
  const runtime = standIn();
  const mesh = createInterpolatedInstancedMesh(runtime, new BoxGeometry(), new MeshBasicMaterial(), { position: 'position' });
  runtime.interpolation = { ...runtime.interpolation, whenLate: 'extrapolate' };
  mesh.update(60);
  expect(mesh.alpha).toBe(0);
  mesh.update(100);
  expect(mesh.alpha).toBe(0); // on the previous state: not overtaken
  expect(mesh.stats).toEqual({ fullUploads: 1, swaps: 0, misses: 0, directUploads: 0, generationUploads: 0, late: 0, extrapolated: 0, overtaken: 1 });
});
