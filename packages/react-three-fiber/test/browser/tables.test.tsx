/**
 * Tables under React Three Fiber: three `<InterpolatedInstances table=...>` in three colours over the three.js
 * adapter's table fixture (despawns from the middle of the tables at random), and an element per ship keyed by
 * handle (`useTableEntities`, `useTableEntity`). In every drawn frame whose GPU pair is the runtime's own sample,
 * the canvas is read back right after r3f's render: every lit pixel is in the square of a live entity of the table
 * whose colour it has, and every live entity is drawn in its own colour where the frame puts it. In every drawn
 * frame, each ship's element is on its own entity (`frame.tables.ships.indexOf(handle)`), or hidden once its
 * entity is gone; the list renders again only when the ships' handles change. The simulation runs live; nothing
 * asserted depends on how fast.
 */
import { useFrame } from '@react-three/fiber';
import { InterpolatedInstances, Steadyframe, UPDATE_PRIORITY, useSteadyframe, useSteadyframeContext, useTableEntities, useTableEntity } from '@steadyframe/react-three-fiber';
import type { InterpolatedInstancedMesh } from '@steadyframe/three';
import { createRef, useEffect, useMemo, type RefObject } from 'react';
import { createRuntime, type Runtime } from 'steadyframe';
import { MeshBasicMaterial, PlaneGeometry, type Group } from 'three';
import { afterEach, expect, it, onTestFinished } from 'vitest';
import { waitFor } from '../../../runtime/test/browser/helpers.ts';
import { SQUARE, TABLE_COLOURS, TABLE_NAMES, TABLES_CAPACITY, tablesSchema } from '../../../three/test/browser/fixtures/tables-schema.ts';
import { checkPicture, HEIGHT, PX_PER_UNIT, shownEntities, WIDTH } from '../../../three/test/browser/tables-stage.ts';
import { mount } from './helpers.tsx';

type S = typeof tablesSchema;
type Mesh = InterpolatedInstancedMesh<MeshBasicMaterial>;

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

const create = () =>
  createRuntime({
    worker: new Worker(new URL('../../../three/test/browser/fixtures/tables.worker.ts', import.meta.url), { type: 'module', name: 'tables' }),
    schema: tablesSchema,
    capacity: TABLES_CAPACITY,
    seed: 39,
  });

/** The canvas (320 x 200, dpr 1) sees the 6 x 4 grid at 16 px a unit, centred: the grid's pixels start here. */
const CANVAS = { width: 320, height: 200 };
const GRID_LEFT = CANVAS.width / 2 - WIDTH / 2;
const GRID_BOTTOM = CANVAS.height / 2 - HEIGHT / 2;

function Tables({ meshes }: { meshes: ReadonlyArray<RefObject<Mesh | null>> }) {
  const geometry = useMemo(() => new PlaneGeometry(SQUARE, SQUARE), []);
  const materials = useMemo(() => TABLE_COLOURS.map((color) => new MeshBasicMaterial({ color })), []);
  return (
    <>
      <InterpolatedInstances<S, MeshBasicMaterial, 'ships'> ref={meshes[0]!} table="ships" geometry={geometry} material={materials[0]!} fields={{ position: 'pos', rotation: 'heading' }} />
      <InterpolatedInstances<S, MeshBasicMaterial> ref={meshes[1]!} table="rocks" geometry={geometry} material={materials[1]!} fields={{ position: 'pos', scale: 'size' }} />
      <InterpolatedInstances<S, MeshBasicMaterial> ref={meshes[2]!} table="bullets" geometry={geometry} material={materials[2]!} fields={{ position: 'pos' }} />
    </>
  );
}

interface Seen {
  /** Each render of the ships' list: the handles it rendered. */
  renders: Array<readonly number[]>;
  /** Each ship element's object, by handle, while it is mounted. */
  elements: Map<number, Group>;
  mounts: number;
  /** Frames whose elements were checked, and what was wrong in them. */
  checked: number;
  hidden: number;
  problems: string[];
  /** Frames whose picture was read back and checked, and skipped (another pair than the sample's). */
  pictures: number;
  skipped: number;
  /** Entities found at another index than in the frame before (moved by a despawn). */
  moved: number;
  /** The last drawn frame's tick, and its live ships' handles (ascending, joined). */
  tick: number;
  ships: string;
}

function Ship({ handle, seen }: { handle: number; seen: Seen }) {
  const ref = useTableEntity<Group, S>('ships', handle, { position: 'pos', rotation: 'heading' });
  useEffect(() => {
    seen.mounts++;
    seen.elements.set(handle, ref.current!);
    return () => void seen.elements.delete(handle);
  }, [handle, ref, seen]);
  return <group ref={ref} />;
}

function Ships({ seen }: { seen: Seen }) {
  const handles = useTableEntities<S>('ships');
  seen.renders.push(handles);
  return handles.map((handle) => <Ship key={handle} handle={handle} seen={seen} />);
}

/** After the bindings' updates: every ship element against its entity in the shared frame. */
function CheckElements({ seen }: { seen: Seen }) {
  const { paced, frame } = useSteadyframeContext<S>();
  const where = useMemo(() => new Map<string, number>(), []);
  useFrame(() => {
    if (!paced()) return;
    const f = frame();
    const ships = f.tables.ships;
    for (const name of TABLE_NAMES) {
      const t = f.tables[name];
      for (let i = 0; i < t.count; i++) {
        if (t.indexOf(t.handle(i)) !== i) seen.problems.push(`frame ${f.index}: ${name} handle ${t.handle(i)} at ${i}, and at ${t.indexOf(t.handle(i))} (fresh ${f.fresh})`);
      }
    }
    for (const [handle, object] of seen.elements) {
      const i = ships.indexOf(handle);
      if (i < 0) {
        seen.hidden++;
        if (object.visible) seen.problems.push(`frame ${f.tick}: ship ${handle} is gone, its element still shows`);
        continue;
      }
      const [x, y] = [ships.fields.pos[2 * i]!, ships.fields.pos[2 * i + 1]!];
      if (!object.visible || object.position.x !== x || object.position.y !== y) {
        seen.problems.push(`frame ${f.tick}: ship ${handle} (index ${i}) at (${x}, ${y}), its element at (${object.position.x}, ${object.position.y}) visible ${object.visible}`);
      }
    }
    seen.checked++;
    seen.tick = f.tick;
    seen.ships = Array.from({ length: ships.count }, (_, i) => ships.handle(i))
      .sort((a, b) => a - b)
      .join();
    for (const name of TABLE_NAMES) {
      const t = f.tables[name];
      for (let i = 0; i < t.count; i++) {
        const key = `${name}:${t.handle(i)}`;
        const before = where.get(key);
        if (before !== undefined && before !== i) seen.moved++;
        where.set(key, i);
      }
    }
  }, 0);
  return null;
}

/**
 * Reads the picture back after r3f's render (priority 1), in the same animation frame, when the meshes drew the
 * pair the frame was sampled from at its alpha (a publish between the meshes' update and the sample, or an
 * overtaken frame the meshes draw at their pair's older state, is skipped and counted).
 */
function CheckPicture({ seen, meshes }: { seen: Seen; meshes: ReadonlyArray<RefObject<Mesh | null>> }) {
  const { runtime, paced, frame } = useSteadyframeContext<S>();
  const before = useMemo(() => ({ published: -1 }), []);
  const pixels = useMemo(() => new Uint8Array(4 * WIDTH * HEIGHT), []);
  useFrame(() => void (before.published = runtime.reader.publishCount()), UPDATE_PRIORITY - 1);
  useFrame(({ gl }) => {
    if (!paced()) return;
    const f = frame();
    const drawn = meshes.map((m) => m.current);
    const canvas = gl.domElement;
    const same =
      f.fresh &&
      runtime.reader.publishCount() === before.published &&
      drawn.every((m, t) => m !== null && Math.abs(m.alpha - f.alpha) < 1e-6 && m.count === f.tables[TABLE_NAMES[t]!].count);
    if (!same || canvas.width !== CANVAS.width || canvas.height !== CANVAS.height) {
      seen.skipped++;
      return;
    }
    const context = gl.getContext();
    context.readPixels(GRID_LEFT, GRID_BOTTOM, WIDTH, HEIGHT, context.RGBA, context.UNSIGNED_BYTE, pixels);
    seen.problems.push(...checkPicture(pixels, shownEntities(f), `frame at tick ${f.previousTick} + ${f.alpha.toFixed(3)}`));
    seen.pictures++;
  }, 2);
  return null;
}

it('draws each table with its own InterpolatedInstances, and keeps an element per ship on its entity by handle', async () => {
  const seen: Seen = { renders: [], elements: new Map(), mounts: 0, checked: 0, hidden: 0, problems: [], pictures: 0, skipped: 0, moved: 0, tick: 0, ships: '' };
  const meshes = TABLE_NAMES.map(() => createRef<Mesh>());
  const held: { runtime: Runtime<S> | null } = { runtime: null };
  function Hold() {
    held.runtime = useSteadyframe<S>();
    return null;
  }
  mounted = mount(
    <Steadyframe create={create}>
      <Hold />
      <Tables meshes={meshes} />
      <Ships seen={seen} />
      <CheckElements seen={seen} />
      <CheckPicture seen={seen} meshes={meshes} />
    </Steadyframe>,
    // an orthographic camera at 16 px a unit looking straight down -z at the grid's centre; no tone mapping
    { canvas: { orthographic: true, flat: true, camera: { zoom: PX_PER_UNIT, position: [3, 2, 10], rotation: [0, 0, 0] } } },
  );
  await waitFor('150 ticks and 30 pictures checked', () => seen.tick >= 150 && seen.pictures >= 30, 60_000);
  // once the simulation stops, the frames reach its last state and the elements are its live ships', one each
  await held.runtime!.pause();
  await waitFor('an element per live ship', () => {
    const elements = [...seen.elements.keys()].sort((a, b) => a - b).join();
    return elements === seen.ships;
  });
  expect(seen.problems.slice(0, 10)).toEqual([]);
  expect(seen.moved).toBeGreaterThan(10); // despawns moved entities within their tables
  // the list renders only when its handles change: never twice in a row with the same ones
  for (let r = 1; r < seen.renders.length; r++) expect(seen.renders[r]).not.toEqual(seen.renders[r - 1]);
  expect(seen.renders.length).toBeGreaterThan(5); // ships came and went
  expect(seen.renders.length).toBeLessThan(seen.checked); // and not every frame
  expect(seen.mounts).toBeGreaterThan(5);
});

it('useTableEntities and useTableEntity refuse, while rendering, a table the schema lacks and a field of another table', async () => {
  // r3f also hands what its scene throws to reportError (an error event on the window, which fails a test run)
  const reportError = globalThis.reportError;
  globalThis.reportError = () => {};
  onTestFinished(() => void (globalThis.reportError = reportError));
  function Planets() {
    // @ts-expect-error: no such table
    useTableEntities<S>('planets');
    return null;
  }
  function Sized() {
    // @ts-expect-error: size is a field of rocks, not of bullets
    useTableEntity<Group, S, 'bullets'>('bullets', 0, { position: 'pos', scale: 'size' });
    return null;
  }
  for (const [Element, message] of [
    [Planets, /useTableEntities: table "planets" is not one of the schema's tables \(ships, rocks, bullets\)/],
    [Sized, /fields\.scale names "size", which is not a field of table "bullets"/],
  ] as const) {
    const errors: unknown[] = [];
    mounted = mount(
      <Steadyframe create={create} start={false}>
        <Element />
      </Steadyframe>,
      { onError: (e) => errors.push(e) },
    );
    await waitFor('the error', () => errors.length > 0);
    expect(String(errors[0])).toMatch(message);
    mounted.unmount();
    mounted = undefined;
  }
});
