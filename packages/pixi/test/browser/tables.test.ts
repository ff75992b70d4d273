/**
 * Bindings per entity table, in a real PixiJS v8 WebGL renderer (SwiftShader in headless Chromium): three
 * tables (ships, rocks, bullets), each drawn by its own binding in its own colour, while the worker despawns from
 * the middle of one table every other tick (the table's last entity moves into the freed index) and spawns into
 * them, for 300 ticks. Each frame is read back as pixels: every lit pixel belongs to one live entity and has its
 * table's colour (and, for sprites kept per handle, that entity's own colour), so a sprite showing another
 * entity's picture, another table's, or a stale one fails. Sprites kept per handle are checked against
 * `frame.tables.x.indexOf(handle)` and the fields in every frame.
 */
import { afterEach, expect, it } from 'vitest';
import { Container, Particle, ParticleContainer, RenderTexture, Sprite, Texture, WebGLRenderer } from 'pixi.js';
import type { Schema } from 'steadyframe';
import { bindParticles, bindSprites, createInterpolatedSprites, type TableSpritesBinding } from '@steadyframe/pixi';
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
} from './tables-helpers.ts';

const TICKS = 300;

let runtime: TablesRuntime | undefined;
let renderer: WebGLRenderer | undefined;
afterEach(() => {
  renderer?.destroy();
  runtime?.dispose();
  renderer = undefined;
  runtime = undefined;
});

async function createRenderer(): Promise<WebGLRenderer> {
  renderer = new WebGLRenderer();
  await renderer.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false, preference: 'webgl' } as never);
  return renderer;
}

/** Renders `stage` and returns its pixels (RGBA rows from the top). */
function pixelsOf(r: WebGLRenderer, stage: Container): { pixels: Uint8ClampedArray | Uint8Array; width: number } {
  const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
  r.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
  const { pixels, width } = r.extract.pixels(target);
  target.destroy(true);
  return { pixels, width };
}

/** What the frames showed: entities that despawns moved to another index, and despawns seen. */
interface Moves {
  moved: number;
  gone: number;
  last: Map<number, number>[];
}

/** Counts entities a despawn moved and entities gone, per table, from one frame to the next. */
function noteMoves(frame: TablesFrame, moves: Moves): void {
  TABLE_NAMES.forEach((name, t) => {
    const table = frame.tables[name];
    const now = new Map<number, number>();
    for (let i = 0; i < table.count; i++) now.set(table.handle(i), i);
    for (const [h, i] of moves.last[t]!) {
      const at = now.get(h);
      if (at === undefined) moves.gone++;
      else if (at !== i) moves.moved++;
    }
    moves.last[t] = now;
  });
}

/**
 * Each sprite of a table binding is the one made for its entity's handle, at that entity's place in the frame,
 * and the binding holds one per live entity. Returns what is wrong first, or null.
 */
function checkSprites(frame: TablesFrame, t: number, binding: Pick<TableSpritesBinding<Schema, Sprite>, 'size' | 'get'>, handleOf: Map<Sprite, number>): string | null {
  const table = frame.tables[TABLE_NAMES[t]!];
  if (binding.size !== table.count) return `${table.name}: ${binding.size} sprites for ${table.count} entities`;
  for (let i = 0; i < table.count; i++) {
    const h = table.handle(i);
    const sprite = binding.get(h);
    if (sprite === undefined) return `${table.name}: no sprite for handle ${h}`;
    if (handleOf.get(sprite) !== h) return `${table.name}: handle ${h} has the sprite made for ${handleOf.get(sprite)}`;
    if (table.indexOf(h) !== i) return `${table.name}: indexOf(${h}) is ${table.indexOf(h)}, not ${i}`;
    if (sprite.x !== table.fields.pos[2 * i] || sprite.y !== table.fields.pos[2 * i + 1]) {
      return `${table.name}: handle ${h}'s sprite at (${sprite.x}, ${sprite.y}), its entity ${i} at (${table.fields.pos[2 * i]}, ${table.fields.pos[2 * i + 1]})`;
    }
  }
  return null;
}

it('keeps a sprite per entity by handle through despawns from the middle, and never draws one table\'s picture for another', async () => {
  runtime = await tablesRuntime();
  const rt = runtime;
  const r = await createRenderer();
  const stage = new Container();
  // ships and rocks as sprites kept per handle, each in its entity's own colour; bullets as particles, by index
  const handleOf = new Map<Sprite, number>();
  const released: string[] = [];
  const spriteTables = [0, 1].map((t) =>
    bindSprites(rt, stage, { position: 'pos' }, {
      table: TABLE_NAMES[t] as 'ships' | 'rocks',
      create: (handle) => {
        const sprite = new Sprite({ texture: Texture.WHITE, anchor: 0.5, width: SIDE, height: SIDE, tint: handleColour(t, handle) });
        handleOf.set(sprite, handle);
        return sprite;
      },
      release: (sprite, handle) => {
        expect(handleOf.get(sprite)).toBe(handle);
        expect(sprite.parent).toBeNull(); // removed from the container before
        released.push(`${t}:${handle}`);
        sprite.destroy();
      },
    }),
  );
  const particles = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: { position: true } });
  stage.addChild(particles);
  const bullets = bindParticles(rt, particles, { position: 'pos' }, {
    table: 'bullets',
    makeParticle: () => new Particle({ texture: Texture.WHITE, anchorX: 0.5, anchorY: 0.5, scaleX: SIDE, scaleY: SIDE, tint: TABLE_COLOURS[2] }),
  });
  const colourOf = (e: ShownEntity) => (e.table === 2 ? TABLE_COLOURS[2] : handleColour(e.table, e.handle));
  const moves: Moves = { moved: 0, gone: 0, last: TABLE_NAMES.map(() => new Map()) };
  const alphaOf = mulberry32(17);
  let pictures = 0;
  for (let tick = 1; tick <= TICKS; tick++) {
    await rt.stepOnce();
    const frame = rt.sample(timeAt(rt, alphaOf()));
    for (const b of spriteTables) b.update(frame);
    bullets.update(frame);
    for (const [t, b] of spriteTables.entries()) {
      const wrong = checkSprites(frame, t, b, handleOf);
      if (wrong !== null) expect.fail(`tick ${tick}: ${wrong}`);
    }
    expect(particles.particleChildren.length).toBe(frame.tables.bullets.count);
    expect(stage.children.length).toBe(1 + frame.tables.ships.count + frame.tables.rocks.count); // no stale sprite left
    noteMoves(frame, moves);
    if (tick % 3 === 0) {
      const entities = entitiesOf(frame);
      const { pixels, width } = pixelsOf(r, stage);
      const wrong = checkPicture(pixels, width, HEIGHT, entities, colourOf);
      if (wrong !== null) expect.fail(`tick ${tick}: ${wrong}`);
      pictures++;
    }
  }
  // the run had what it tests: despawns that moved entities within their tables, sprites released with them
  expect(pictures).toBe(TICKS / 3);
  expect(moves.gone).toBeGreaterThan(100);
  expect(moves.moved).toBeGreaterThan(100);
  expect(released.length).toBeGreaterThan(50);
  expect(new Set(released).size).toBe(released.length); // each entity's sprite released once
  // clear releases every sprite
  for (const b of spriteTables) b.clear();
  expect(stage.children.length).toBe(1);
});

it('draws one table per GPU mesh, uploading only that table\'s range, through despawns from the middle', async () => {
  runtime = await tablesRuntime();
  const rt = runtime;
  const r = await createRenderer();
  const stage = new Container();
  const meshes = TABLE_NAMES.map((table, t) => {
    const sprites = createInterpolatedSprites(rt, { position: 'pos' }, { table, width: SIDE, height: SIDE, initialCapacity: 4 });
    sprites.mesh.tint = TABLE_COLOURS[t]!;
    stage.addChild(sprites.mesh);
    return sprites;
  });
  const moves: Moves = { moved: 0, gone: 0, last: TABLE_NAMES.map(() => new Map()) };
  const alphaOf = mulberry32(23);
  for (let tick = 1; tick <= TICKS; tick++) {
    await rt.stepOnce();
    if (tick % 2 === 1 && tick < TICKS) continue; // two ticks between some frames: both states uploaded
    // past alpha 0, where the frame's entities are the newest state's, as the GPU draws them
    const time = timeAt(rt, 0.05 + 0.95 * alphaOf());
    for (const m of meshes) expect(m.update(time)).toBe(true);
    const frame = rt.sample(time);
    TABLE_NAMES.forEach((name, t) => expect(meshes[t]!.count, `tick ${tick} ${name}`).toBe(frame.tables[name].count));
    noteMoves(frame, moves);
    const entities = entitiesOf(frame);
    const { pixels, width } = pixelsOf(r, stage);
    const wrong = checkPicture(pixels, width, HEIGHT, entities, (e) => TABLE_COLOURS[e.table]!);
    if (wrong !== null) expect.fail(`tick ${tick}: ${wrong}`);
  }
  expect(moves.moved).toBeGreaterThan(50);
  for (const m of meshes) {
    expect(m.stats.generationUploads).toBeGreaterThan(0); // the despawns' snaps
    expect(m.stats.grows).toBeGreaterThan(0); // up to the table's capacity, not the runtime's
    expect(m.bufferCapacity).toBeLessThanOrEqual(m === meshes[0] ? 6 : 24);
    m.dispose();
  }
});

it('throws at set-up for a table the schema has not, a field the table has not, or sprites without a container and create', async () => {
  runtime = await tablesRuntime();
  const rt = runtime;
  const stage = new Container();
  const create = () => new Sprite(Texture.WHITE);
  // @ts-expect-error: not one of the schema's tables
  expect(() => bindSprites(rt, stage, { position: 'pos' }, { table: 'planets', create })).toThrow(/bindSprites: table "planets" is not one of the schema's tables \(ships, rocks, bullets\)/);
  // @ts-expect-error: heading is a ships field, not a rocks one
  expect(() => bindSprites(rt, stage, { position: 'pos', angle: 'heading' }, { table: 'rocks', create })).toThrow(/fields\.angle names "heading", which is not a field of the schema \(pos, cell\)/);
  expect(() => bindSprites(rt, stage, { position: 'pos', angle: 'heading' }, { table: 'ships', create })).not.toThrow();
  // @ts-expect-error: with a table, the container the sprites go in, not an array
  expect(() => bindSprites(rt, [] as Sprite[], { position: 'pos' }, { table: 'ships', create })).toThrow(/pass the Container they go in/);
  expect(() => bindSprites(rt, stage, { position: 'pos' }, { table: 'ships' } as never)).toThrow(/needs options\.create/);
  // @ts-expect-error: heading is not a bullets field
  expect(() => bindParticles(rt, new ParticleContainer(), { position: 'pos', angle: 'heading' }, { table: 'bullets' })).toThrow(/fields\.angle names "heading"/);
  // @ts-expect-error: not one of the schema's tables
  expect(() => createInterpolatedSprites(rt, { position: 'pos' }, { table: 'planets' })).toThrow(/createInterpolatedSprites: table "planets"/);
});
