/**
 * The GPU path's upload decision across the wrap of the publish count (issue #14 bug 5): PUBLISH_SEQ counts mod
 * 2^32, so one publish on from 2^32 - 1 is 0, and must still be a swap (one state copied), not a full upload.
 * A stand-in reader hands the mesh pairs with the counts a long-running worker would.
 */
import { expect, it } from 'vitest';
import { BoxGeometry, MeshBasicMaterial } from 'three';
import { defineSchema, type Runtime } from 'steadyframe';
import { computeLayout, META, type StatePair, type StateReader } from 'steadyframe/adapter';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';

const schema = defineSchema({ position: { width: 3, kind: 'linear' } });
const CAPACITY = 2;

it('swaps (one upload) on each single publish, across 2^31 and 2^32', () => {
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
  meta[META.CUR_TIME] = 1;
  const pair: StatePair<typeof schema> = {
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
  let published = 0;
  const reader: StateReader<typeof schema> = {
    read: (fn) => fn(pair, published),
    publishCount: () => published,
    stats: { acquires: 0, spins: 0, maxSpins: 0, misses: 0 },
  };
  const runtime = { schema, capacity: CAPACITY, reader } as Pick<Runtime<typeof schema>, 'schema' | 'capacity' | 'reader'>;
  const mesh = createInterpolatedInstancedMesh(runtime, new BoxGeometry(), new MeshBasicMaterial(), { position: 'position' });
  for (const start of [2 ** 31 - 2, 2 ** 32 - 2]) {
    published = start;
    mesh.update(0.5);
    const { fullUploads, swaps } = mesh.stats;
    for (let i = 1; i <= 3; i++) {
      published = (start + i) >>> 0;
      expect(mesh.update(0.5)).toBe(true);
    }
    expect(mesh.stats.fullUploads).toBe(fullUploads);
    expect(mesh.stats.swaps).toBe(swaps + 3);
  }
});
