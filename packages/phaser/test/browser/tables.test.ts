/**
 * Bindings per entity table on a real Phaser game (WebGL): three tables (ships, rocks, bullets), each drawn by
 * its own binding in its own colour, while the worker despawns from the middle of one table every other tick
 * (the table's last entity moves into the freed index) and spawns into them, for 300 ticks, paced by
 * `attachToGame`. The canvas is read back: every lit pixel belongs to one live entity and has its table's
 * colour (for objects kept per handle, that entity's own), so an object showing another entity's picture,
 * another table's, or a stale one fails. Objects and group members kept per handle are checked against
 * `frame.tables.x.indexOf(handle)` and the fields in every frame.
 */
import { afterEach, expect, it } from 'vitest';
import type { Game, GameObjects, Scene } from 'phaser';
import { attachToGame, bindGroup, bindSprites, createInterpolatedSprites, type PoseTarget } from '@steadyframe/phaser';
import { makeGame, refresh } from './helpers.ts';
import {
  HEIGHT,
  SIDE,
  TABLE_COLOURS,
  TABLE_NAMES,
  WIDTH,
  checkPicture,
  entitiesOf,
  handleColour,
  mulberry32,
  tablesRuntime,
  timeAt,
  type ShownEntity,
  type TablesFrame,
  type TablesRuntime,
} from '../../../pixi/test/browser/tables-helpers.ts';

const TICKS = 300;
/** A texture per table's colour (`table0` ...), and a white one to tint. */
const TEXTURES = ['table0', 'table1', 'table2'] as const;

let runtime: TablesRuntime | undefined;
let game: Game | undefined;
afterEach(() => {
  game?.destroy(true);
  runtime?.dispose();
  game = undefined;
  runtime = undefined;
});

/** A runtime on the tables fixture, and a game of the grid's size with SIDE-pixel textures: 'white', and one per table. */
async function setUp(): Promise<{ rt: TablesRuntime; scene: Scene }> {
  runtime = await tablesRuntime();
  let made: Scene | null = null;
  game = await makeGame(
    {
      create(this: Scene) {
        made = this;
        const square = (key: string, colour: number) => {
          const texture = this.textures.createCanvas(key, SIDE, SIDE)!;
          texture.context.fillStyle = `#${colour.toString(16).padStart(6, '0')}`;
          texture.context.fillRect(0, 0, SIDE, SIDE);
          texture.refresh();
        };
        square('white', 0xffffff);
        TEXTURES.forEach((key, t) => square(key, TABLE_COLOURS[t]!));
      },
    },
    // no multisampling: an edge pixel is lit or not, in the entity's own colour
    { width: WIDTH, height: HEIGHT, render: { preserveDrawingBuffer: true, antialias: false, antialiasGL: false } },
  );
  return { rt: runtime, scene: made! };
}

/** The canvas's pixels (RGBA rows from the top), read through a 2D canvas (the game keeps its drawing buffer). */
function canvasPixels(g: Game): Uint8ClampedArray {
  const copy = document.createElement('canvas');
  copy.width = g.canvas.width;
  copy.height = g.canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(g.canvas, 0, 0);
  return ctx.getImageData(0, 0, copy.width, copy.height).data;
}

/**
 * Table `t`'s objects kept per handle: each live entity's is `get(handle)`, stands where its entity does in the
 * frame, and is the one it had in every earlier frame (`kept`: handle to object, for the table's live
 * entities). Returns what is wrong first, or null.
 */
function checkKept(frame: TablesFrame, t: number, get: (handle: number) => PoseTarget | undefined, kept: Map<number, PoseTarget>): string | null {
  const table = frame.tables[TABLE_NAMES[t]!];
  const now = new Map<number, PoseTarget>();
  for (let i = 0; i < table.count; i++) {
    const h = table.handle(i);
    const o = get(h);
    if (o === undefined) return `${table.name}: no object for handle ${h}`;
    const before = kept.get(h);
    if (before !== undefined && before !== o) return `${table.name}: handle ${h} changed objects`;
    if (table.indexOf(h) !== i) return `${table.name}: indexOf(${h}) is ${table.indexOf(h)}, not ${i}`;
    if (o.x !== table.fields.pos[2 * i] || o.y !== table.fields.pos[2 * i + 1] || !o.visible) {
      return `${table.name}: handle ${h}'s object at (${o.x}, ${o.y}) (visible ${o.visible}), its entity ${i} at (${table.fields.pos[2 * i]}, ${table.fields.pos[2 * i + 1]})`;
    }
    now.set(h, o);
  }
  kept.clear();
  for (const [h, o] of now) kept.set(h, o);
  return null;
}

it('bindSprites and bindGroup keep an object per entity by handle through despawns from the middle, and never draw one table\'s picture for another', async () => {
  const { rt, scene } = await setUp();
  // ships and rocks as images kept per handle, each in its entity's own colour, in the scene's display list;
  // bullets as the members of a group
  const handleOf = new Map<GameObjects.Image, number>();
  const released: string[] = [];
  const objects = [0, 1].map((t) =>
    bindSprites(rt, scene.children, { position: 'pos' }, {
      table: TABLE_NAMES[t] as 'ships' | 'rocks',
      create: (handle) => {
        const image = scene.add.image(0, 0, 'white').setTint(handleColour(t, handle));
        handleOf.set(image, handle);
        return image;
      },
      release: (image, handle) => {
        expect(handleOf.get(image)).toBe(handle);
        expect(image.displayList).toBeNull(); // removed from the parent before
        released.push(`${t}:${handle}`);
        image.destroy();
      },
    }),
  );
  const group = scene.add.group({ defaultKey: TEXTURES[2] });
  const bullets = bindGroup(rt, group, { position: 'pos' }, { table: 'bullets' });
  const kept = TABLE_NAMES.map(() => new Map<number, PoseTarget>());
  let drawn = 0;
  let entities: ShownEntity[] = [];
  let wrong: string | null = null;
  attachToGame(game!, rt, (frame) => {
    for (const b of objects) b.update(frame);
    bullets.update(frame);
    drawn++;
    for (const [t, b] of objects.entries()) wrong ??= checkKept(frame, t, (h) => b.get(h), kept[t]!);
    wrong ??= checkKept(frame, 2, (h) => bullets.get(h), kept[2]!);
    if (bullets.overflow !== 0 || group.countActive(true) !== frame.tables.bullets.count) wrong ??= `bullets: ${group.countActive(true)} members active for ${frame.tables.bullets.count}`;
    entities = entitiesOf(frame);
  });
  const colourOf = (e: ShownEntity) => (e.table === 2 ? TABLE_COLOURS[2] : handleColour(e.table, e.handle));
  const alphaOf = mulberry32(31);
  let moved = 0;
  for (let tick = 1; tick <= TICKS; tick++) {
    await rt.stepOnce();
    const before = entities;
    await refresh(game!, timeAt(rt, alphaOf()));
    expect(drawn).toBe(tick);
    if (wrong !== null) expect.fail(`tick ${tick}: ${wrong}`);
    moved += entities.filter((e) => before.some((b) => b.table === e.table && b.handle === e.handle && b.index !== e.index)).length;
    if (tick % 3 === 0) {
      const picture = checkPicture(canvasPixels(game!), WIDTH, HEIGHT, entities, colourOf);
      if (picture !== null) expect.fail(`tick ${tick}: ${picture}`);
    }
  }
  // the run had what it tests: entities moved within their tables by despawns, objects released with them,
  // group members given back and taken again (never more than the table's capacity made)
  expect(moved).toBeGreaterThan(100);
  expect(released.length).toBeGreaterThan(50);
  expect(new Set(released).size).toBe(released.length);
  expect(bullets.made).toBeLessThanOrEqual(24);
  expect(group.getChildren().length).toBe(bullets.made);
});

it('draws one table per GPU Extern, uploading only that table\'s range, through despawns from the middle', async () => {
  const { rt, scene } = await setUp();
  const sprites = TABLE_NAMES.map((table, t) => createInterpolatedSprites(scene, rt, { position: 'pos' }, { table, texture: TEXTURES[t]!, initialCapacity: 4 }));
  attachToGame(game!, rt, sprites);
  const alphaOf = mulberry32(37);
  let moved = 0;
  let before: ShownEntity[] = [];
  for (let tick = 1; tick <= TICKS; tick++) {
    await rt.stepOnce();
    if (tick % 2 === 1 && tick < TICKS) continue; // two ticks between some frames: both states uploaded
    // past alpha 0, where the frame's entities are the newest state's, as the GPU draws them
    const time = timeAt(rt, 0.05 + 0.95 * alphaOf());
    await refresh(game!, time);
    const entities = entitiesOf(rt.sample(time));
    TABLE_NAMES.forEach((name, t) => expect(sprites[t]!.count, `tick ${tick} ${name}`).toBe(entities.filter((e) => e.table === t).length));
    moved += entities.filter((e) => before.some((b) => b.table === e.table && b.handle === e.handle && b.index !== e.index)).length;
    before = entities;
    const picture = checkPicture(canvasPixels(game!), WIDTH, HEIGHT, entities, (e) => TABLE_COLOURS[e.table]!);
    if (picture !== null) expect.fail(`tick ${tick}: ${picture}`);
  }
  expect(moved).toBeGreaterThan(50);
  for (const s of sprites) {
    expect(s.stats.generationUploads).toBeGreaterThan(0); // the despawns' snaps
    expect(s.stats.grows).toBeGreaterThan(0);
    expect(s.bufferCapacity).toBeLessThanOrEqual(s === sprites[0] ? 6 : 24); // the table's capacity, not the runtime's
  }
});

it('bindGroup with a table and a full group: entities without a member wait, undrawn and counted, and take the members despawns free', async () => {
  const { rt, scene } = await setUp();
  const group = scene.add.group({ defaultKey: TEXTURES[1], maxSize: 4 });
  const rocks = bindGroup(rt, group, { position: 'pos' }, { table: 'rocks' });
  rocks.reserve(2); // made up front, given to the first entities
  expect(rocks.made).toBe(2);
  let frames = 0;
  let waited = 0;
  for (let tick = 1; tick <= 60; tick++) {
    await rt.stepOnce();
    const frame = rt.sample(timeAt(rt, 0.5));
    rocks.update(frame);
    const table = frame.tables.rocks;
    const drawn: PoseTarget[] = [];
    for (let i = 0; i < table.count; i++) {
      const member = rocks.get(table.handle(i));
      if (member === undefined) continue;
      expect(member.x).toBe(table.fields.pos[2 * i]);
      expect(member.y).toBe(table.fields.pos[2 * i + 1]);
      drawn.push(member);
    }
    // every member draws an entity (all four, the table holding more than four throughout), once
    expect(new Set(drawn).size).toBe(4);
    expect(rocks.overflow).toBe(table.count - 4);
    expect(group.countActive(true)).toBe(4);
    waited += rocks.overflow;
    frames++;
  }
  expect(frames).toBe(60);
  expect(waited).toBeGreaterThan(0);
  expect(rocks.made).toBe(4);
});

it('throws at set-up for a table the schema has not, a field the table has not, or objects without a parent and create', async () => {
  const { rt, scene } = await setUp();
  const create = () => scene.add.image(0, 0, 'white');
  // @ts-expect-error: not one of the schema's tables
  expect(() => bindSprites(rt, scene.children, { position: 'pos' }, { table: 'planets', create })).toThrow(/@steadyframe\/phaser: bindSprites: table "planets" is not one of the schema's tables \(ships, rocks, bullets\)/);
  // @ts-expect-error: heading is a ships field, not a rocks one
  expect(() => bindGroup(rt, scene.add.group(), { position: 'pos', angle: 'heading' }, { table: 'rocks' })).toThrow(/fields\.angle names "heading", which is not a field of the schema \(pos, cell\)/);
  expect(() => bindGroup(rt, scene.add.group(), { position: 'pos', angle: 'heading' }, { table: 'ships' })).not.toThrow();
  // @ts-expect-error: with a table, the parent the objects go in, not an array
  expect(() => bindSprites(rt, [], { position: 'pos' }, { table: 'ships', create })).toThrow(/pass the parent they go in/);
  expect(() => bindSprites(rt, scene.children, { position: 'pos' }, { table: 'ships' } as never)).toThrow(/needs options\.create/);
  // @ts-expect-error: not one of the schema's tables
  expect(() => createInterpolatedSprites(scene, rt, { position: 'pos' }, { table: 'planets', texture: 'white' })).toThrow(/createInterpolatedSprites: table "planets"/);
});
