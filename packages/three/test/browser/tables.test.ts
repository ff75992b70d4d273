/**
 * The bindings given a table (a schema of `defineTables`): three tables drawn in three colours, one mesh and one
 * material each, while the worker despawns from the middle of the tables at random for 300 ticks (so despawns
 * move entities within a table and snap them). Every checked frame's picture is read back: every lit pixel is
 * in the square of a live entity of the table whose colour it has, and every live entity is drawn in its own
 * colour where the frame puts it (tables-stage.ts). Objects kept per handle sit on their own entity in every
 * checked frame. Time moves by `stepOnce` and frames are sampled at chosen alphas: nothing here is timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Group, InstancedMesh, MeshBasicMaterial, Object3D, PlaneGeometry } from 'three';
import { createRuntime, type Runtime } from 'steadyframe';
import { bindInstancedMesh, bindObjects, createInterpolatedInstancedMesh } from '@steadyframe/three';
import { motionSchema } from './fixtures/schema.ts';
import { timeAt } from './helpers.ts';
import { SQUARE, TABLE_COLOURS, TABLE_NAMES, TABLES_CAPACITY, tablesSchema } from './fixtures/tables-schema.ts';
import { checkPicture, createTablesStage, shownEntities } from './tables-stage.ts';

type TablesRuntime = Runtime<typeof tablesSchema>;

let runtime: TablesRuntime | undefined;
let stage: ReturnType<typeof createTablesStage> | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

/** Attached (tick 0 published), not started: the test steps it. One seed: the same spawns and despawns every run. */
function tablesRuntime(): Promise<TablesRuntime> {
  return createRuntime({
    worker: new Worker(new URL('./fixtures/tables.worker.ts', import.meta.url), { type: 'module', name: 'tables' }),
    schema: tablesSchema,
    capacity: TABLES_CAPACITY,
    seed: 39,
    pacing: { adaptive: false },
  });
}

const square = () => new PlaneGeometry(SQUARE, SQUARE);
const colour = (t: number) => new MeshBasicMaterial({ color: TABLE_COLOURS[t]! });
const TICKS = 300;

/** Tracks, across checked frames, how often an entity was found at another index than before (a despawn moved it). */
function moveCounter() {
  const where = new Map<string, number>();
  let moved = 0;
  return {
    see(frame: ReturnType<TablesRuntime['sample']>) {
      for (const name of TABLE_NAMES) {
        const t = frame.tables[name];
        for (let i = 0; i < t.count; i++) {
          const key = `${name}:${t.handle(i)}`;
          const before = where.get(key);
          if (before !== undefined && before !== i) moved++;
          where.set(key, i);
        }
      }
    },
    get moved() {
      return moved;
    },
  };
}

it('refuses at set-up a field of another table, a table the schema lacks, handles without a table', () => {
  const rt = { schema: tablesSchema };
  const mesh = new InstancedMesh(square(), colour(0), 8);
  // @ts-expect-error: heading is a field of ships, not of rocks
  expect(() => bindInstancedMesh(rt, mesh, { position: 'pos', rotation: 'heading' }, { table: 'rocks' })).toThrow(/fields\.rotation names "heading", which is not a field of table "rocks" \(another table has it\); table "rocks" has pos, size/);
  // @ts-expect-error: no such table
  expect(() => bindInstancedMesh(rt, mesh, { position: 'pos' }, { table: 'planets' })).toThrow(/bindInstancedMesh: table "planets" is not one of the schema's tables \(ships, rocks, bullets\)/);
  expect(() => bindInstancedMesh({ schema: motionSchema }, mesh, { position: 'position' }, { table: 'ships' as never })).toThrow(/the schema has no tables/);
  // @ts-expect-error: size is a field of rocks, not of bullets
  expect(() => bindObjects(rt, [new Object3D()], { position: 'pos', scale: 'size' }, { table: 'bullets' })).toThrow(/not a field of table "bullets"/);
  // @ts-expect-error: size is a field of rocks, not of ships
  expect(() => bindObjects(rt, { table: 'ships', create: () => new Object3D() }, { position: 'pos', scale: 'size' })).toThrow(/not a field of table "ships"/);
  expect(() => bindObjects(rt, [new Object3D()], { position: 'pos' }, { handles: [0] })).toThrow(/needs the table/);
  expect(() => bindObjects(rt, [new Object3D()], { position: 'pos' }, { table: 'ships', handles: [0, 1] })).toThrow(/1 objects and 2 handles/);
  const gpu = { schema: tablesSchema, capacity: TABLES_CAPACITY, reader: undefined as never };
  // @ts-expect-error: size is a field of rocks, not of bullets
  expect(() => createInterpolatedInstancedMesh(gpu, square(), colour(2), { position: 'pos', scale: 'size' }, { table: 'bullets' })).toThrow(/not a field of table "bullets"/);
  // the whole schema's fields, without a table, as before
  expect(() => bindInstancedMesh(rt, mesh, { position: 'pos', rotation: 'heading' })).not.toThrow();
});

it('the picture check sees one mesh drawing every table (no table given): the ships\' colour on the other tables\' entities', async () => {
  runtime = await tablesRuntime();
  stage = createTablesStage();
  const all = new InstancedMesh(square(), colour(0), TABLES_CAPACITY);
  const binding = bindInstancedMesh(runtime, all, { position: 'pos' });
  stage.add(all);
  const frame = runtime.sample();
  binding.update(frame);
  const problems = checkPicture(stage.render(), shownEntities(frame), 'one mesh', 10_000);
  expect(problems.join('\n')).toMatch(/ships' colour at .* on rocks entity/);
  expect(problems.join('\n')).toMatch(/ships' colour at .* on bullets entity/);
});

it('CPU: one InstancedMesh per table draws its own table in every checked frame; objects kept per handle follow their entities', async () => {
  runtime = await tablesRuntime();
  stage = createTablesStage();
  const meshes = TABLE_NAMES.map((_, t) => new InstancedMesh(square(), colour(t), 8));
  meshes.forEach((m) => stage!.add(m));
  const bindings = [
    bindInstancedMesh(runtime, meshes[0]!, { position: 'pos', rotation: 'heading' }, { table: 'ships' }),
    bindInstancedMesh(runtime, meshes[1]!, { position: 'pos', scale: 'size' }, { table: 'rocks' }),
    bindInstancedMesh(runtime, meshes[2]!, { position: 'pos' }, { table: 'bullets' }),
  ];
  // one object per rock, by handle, in a group of their own (not drawn)
  const parent = new Group();
  const made = new Map<number, Object3D>();
  const released: number[] = [];
  const perRock = bindObjects(
    runtime,
    {
      table: 'rocks',
      parent,
      create(handle) {
        expect(made.has(handle)).toBe(false); // once per entity's life
        const object = new Object3D();
        made.set(handle, object);
        return object;
      },
      release(object, handle) {
        expect(object).toBe(made.get(handle));
        expect(object.parent).toBe(null); // out of the parent first
        released.push(handle);
      },
    },
    { position: 'pos' },
  );
  // two objects bound to the handles rocks 0 and 2 had at tick 0
  const first = runtime.sample();
  const followed = [first.tables.rocks.handle(0), first.tables.rocks.handle(2)];
  const pair = [new Object3D(), new Object3D()];
  const byHandle = bindObjects(runtime, pair, { position: 'pos' }, { table: 'rocks', handles: followed });
  const moves = moveCounter();
  const problems: string[] = [];
  let checked = 0;
  for (let k = 1; k <= TICKS; k++) {
    await runtime.stepOnce();
    if (k % 3 !== 0) continue;
    const frame = runtime.sample(timeAt(runtime, 0.5));
    for (const b of bindings) b.update(frame);
    problems.push(...checkPicture(stage.render(), shownEntities(frame), `tick ${k}`));
    moves.see(frame);
    checked++;

    const rocks = frame.tables.rocks;
    expect(perRock.update(frame)).toBe(rocks.count);
    expect(parent.children).toHaveLength(rocks.count);
    for (let i = 0; i < rocks.count; i++) {
      const h = rocks.handle(i);
      const object = perRock.get(h)!;
      expect(object).toBe(made.get(h));
      expect(rocks.indexOf(h)).toBe(i);
      expect([object.position.x, object.position.y]).toEqual([rocks.fields.pos[2 * i], rocks.fields.pos[2 * i + 1]]);
    }
    byHandle.update(frame);
    followed.forEach((h, n) => {
      const i = rocks.indexOf(h);
      expect(pair[n]!.visible).toBe(i >= 0);
      if (i >= 0) expect([pair[n]!.position.x, pair[n]!.position.y]).toEqual([rocks.fields.pos[2 * i], rocks.fields.pos[2 * i + 1]]);
    });
  }
  expect(problems).toEqual([]);
  expect(checked).toBe(TICKS / 3);
  // the run did what it is for: entities moved within their tables, rocks came and went, a followed one went
  expect(moves.moved).toBeGreaterThan(20);
  expect(released.length).toBeGreaterThan(10);
  expect(made.size - released.length).toBe(perRock.size);
  expect(pair.some((o) => !o.visible)).toBe(true);
  perRock.clear();
  expect(parent.children).toHaveLength(0);
});

describe.each(['direct', 'copy'] as const)('GPU, uploads %s', (upload) => {
  it('one interpolated mesh per table uploads and draws only its table, snapping the entities despawns move', async () => {
    runtime = await tablesRuntime();
    stage = createTablesStage();
    const options = upload === 'direct' ? { renderer: stage.renderer } : {};
    const meshes = [
      createInterpolatedInstancedMesh(runtime, square(), colour(0), { position: 'pos', rotation: 'heading' }, { ...options, table: 'ships' }),
      createInterpolatedInstancedMesh(runtime, square(), colour(1), { position: 'pos', scale: 'size' }, { ...options, table: 'rocks' }),
      createInterpolatedInstancedMesh(runtime, square(), colour(2), { position: 'pos' }, { ...options, table: 'bullets' }),
    ];
    meshes.forEach((m) => stage!.add(m.mesh));
    const moves = moveCounter();
    const problems: string[] = [];
    for (let k = 1; k <= TICKS; k++) {
      await runtime.stepOnce();
      // every tick uploaded (a swap: one state a publish), every third one drawn at alpha 0.4 and checked
      const time = timeAt(runtime, 0.4);
      for (const m of meshes) expect(m.update(time)).toBe(true);
      if (k % 3 !== 0) continue;
      const frame = runtime.sample(time);
      TABLE_NAMES.forEach((name, t) => expect(meshes[t]!.count).toBe(frame.tables[name].count));
      expect(meshes[0]!.alpha).toBeCloseTo(0.4, 9);
      problems.push(...checkPicture(stage.render(), shownEntities(frame), `tick ${k}`));
      moves.see(frame);
    }
    expect(problems).toEqual([]);
    expect(moves.moved).toBeGreaterThan(20);
    for (const m of meshes) {
      expect(m.stats.swaps).toBeGreaterThan(TICKS / 2);
      expect(m.stats.generationUploads).toBeGreaterThan(0); // despawns and spawns marked snaps
      expect(m.stats.directUploads).toBe(upload === 'direct' ? m.stats.swaps + m.stats.fullUploads : 0);
      m.dispose();
    }
  });
});
