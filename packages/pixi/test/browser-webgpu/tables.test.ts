/**
 * One GPU mesh per table on PixiJS's WebGPURenderer: each uploads its table's range of the state (the run from
 * the table's base, written by `queue.writeBuffer` from that offset) through despawns from the middle, and every
 * picture read back holds each table's entities, in its colour, and nothing else. The WebGL test's run
 * (../browser/tables.test.ts), shortened.
 */
import { afterEach, expect, it } from 'vitest';
import { Container } from 'pixi.js';
import { createInterpolatedSprites } from '@steadyframe/pixi';
import { HEIGHT, SIDE, TABLE_COLOURS, TABLE_NAMES, WIDTH, checkPicture, entitiesOf, mulberry32, tablesRuntime, timeAt, type TablesRuntime } from '../browser/tables-helpers.ts';
import { createWebGpuStage, type WebGpuStage } from './stage.ts';

const TICKS = 80;

let runtime: TablesRuntime | undefined;
let stage: WebGpuStage | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

it("draws one table per GPU mesh, uploading only that table's range, through despawns from the middle", async () => {
  const rt = (runtime = await tablesRuntime());
  const s = (stage = await createWebGpuStage(WIDTH, HEIGHT, 1));
  const world = new Container();
  const meshes = TABLE_NAMES.map((table, t) => {
    const sprites = createInterpolatedSprites(rt, { position: 'pos' }, { table, width: SIDE, height: SIDE, initialCapacity: 4 });
    sprites.mesh.tint = TABLE_COLOURS[t]!;
    world.addChild(sprites.mesh);
    return sprites;
  });
  const alphaOf = mulberry32(23);
  let pictures = 0;
  for (let tick = 1; tick <= TICKS; tick++) {
    await rt.stepOnce();
    if (tick % 2 === 1 && tick < TICKS) continue; // two ticks between some frames: both states uploaded
    const time = timeAt(rt, 0.05 + 0.95 * alphaOf());
    for (const m of meshes) expect(m.update(time)).toBe(true);
    const frame = rt.sample(time);
    TABLE_NAMES.forEach((name, t) => expect(meshes[t]!.count, `tick ${tick} ${name}`).toBe(frame.tables[name].count));
    const wrong = checkPicture(await s.pixels(world), WIDTH, HEIGHT, entitiesOf(frame), (e) => TABLE_COLOURS[e.table]!);
    if (wrong !== null) expect.fail(`tick ${tick}: ${wrong}`);
    pictures++;
  }
  expect(pictures).toBe(TICKS / 2);
  for (const m of meshes) {
    expect(m.stats.directUploads, 'uploads after the first picture go straight from the shared memory').toBeGreaterThan(30);
    expect(m.stats.grows).toBeGreaterThan(0);
  }
  for (const m of meshes) m.dispose();
});
