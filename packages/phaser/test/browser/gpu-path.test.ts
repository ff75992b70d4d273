/**
 * createInterpolatedSprites on a real Phaser game (WebGL 1, as Phaser asks for it): the Extern draws every
 * entity where the runtime's own sampler places it (read back from the canvas), through the camera, turning
 * the short way round with the texture the right way up, snapping a teleported entity, uploading one state a
 * tick; and attachToGame paces it without sampling on the CPU.
 */
import { afterEach, expect, it } from 'vitest';
import type { Game, Scene } from 'phaser';
import { attachToGame, createInterpolatedSprites } from '@steadyframe/phaser';
import { blue, canvasBounds, expectBoxAt, makeGame, motionAt, motionRuntime, red, refresh, steps, timeAt, white, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let game: Game | undefined;
afterEach(() => {
  game?.destroy(true);
  runtime?.dispose();
  game = undefined;
  runtime = undefined;
});

/**
 * A runtime held at `ticks` with `count` entities, and a game whose camera shows world units 0..8 across the
 * 64 px canvas (zoom 8): a 4×4 texture frame becomes 32×32 pixels. Textures: 'white' (4×4), 'halves' (4×4,
 * red on top, blue below) and 'sheet' (two 4×4 frames: 0 red, 1 blue).
 */
async function setUp(ticks: number, count = 1): Promise<{ rt: MotionRuntime; scene: Scene }> {
  runtime = await motionRuntime();
  await runtime.commands.setCount(count);
  await steps(runtime, ticks);
  let made: Scene | null = null;
  game = await makeGame({
    create(this: Scene) {
      made = this;
      const white = this.textures.createCanvas('white', 4, 4)!;
      white.context.fillStyle = '#fff';
      white.context.fillRect(0, 0, 4, 4);
      white.refresh();
      const halves = this.textures.createCanvas('halves', 4, 4)!;
      halves.context.fillStyle = '#f00';
      halves.context.fillRect(0, 0, 4, 2);
      halves.context.fillStyle = '#00f';
      halves.context.fillRect(0, 2, 4, 2);
      halves.refresh();
      // a sheet of two 4×4 frames: 0 red, 1 blue
      const sheet = this.textures.createCanvas('sheet', 8, 4)!;
      sheet.context.fillStyle = '#f00';
      sheet.context.fillRect(0, 0, 4, 4);
      sheet.context.fillStyle = '#00f';
      sheet.context.fillRect(4, 0, 4, 4);
      sheet.add(0, 0, 0, 0, 4, 4);
      sheet.add(1, 0, 4, 0, 4, 4);
      sheet.refresh();
      this.cameras.main.setZoom(8).centerOn(4, 4);
    },
  });
  return { rt: runtime, scene: made! };
}

it('draws each entity where the runtime samples it, through the camera, one state uploaded a tick', async () => {
  const { rt, scene } = await setUp(1);
  const sprites = createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'white' });
  const loop = attachToGame(game!, rt, sprites);
  for (const tick of [1, 2, 3]) {
    if (tick > 1) await steps(rt, 1);
    for (const alpha of [0, 0.5, 1]) {
      const time = timeAt(rt, alpha);
      await refresh(game!, time);
      const sampled = rt.sample(time);
      expect(sprites.alpha).toBeCloseTo(sampled.alpha, 6);
      expect(sprites.count).toBe(1);
      const m = motionAt(0, tick - 1 + alpha); // x = k, y = 2k
      expectBoxAt(canvasBounds(game!, white), m.x, m.y, `tick ${tick} alpha ${alpha}`);
    }
  }
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 2, draws: 9, misses: 0 });
  expect(loop.rendered).toBe(9);
  // paced, never sampled on the CPU (the test's own samples above are the only frames)
  const sampled = (await rt.stats()).frames;
  const end = timeAt(rt, 1);
  for (let k = 1; k <= 3; k++) await refresh(game!, end + k);
  expect((await rt.stats()).frames).toBe(sampled + 1); // timeAt's one sample
  expect(sprites.stats.draws).toBe(12);
});

it('turns the short way where the stored angle wraps, with the texture the right way up', async () => {
  // the angle goes from 3.0 to 3.3 - 2 PI between ticks 10 and 11: halfway is PI the short way, 0 the long way
  const { rt, scene } = await setUp(11);
  scene.cameras.main.centerOn(10.5, 21); // entity 0 at tick 10.5 (the fixture moves it to (k, 2k))
  const sprites = createInterpolatedSprites(scene, rt, { position: 'position', angle: 'angle' }, { texture: 'halves' });
  attachToGame(game!, rt, sprites);
  await refresh(game!, timeAt(rt, 0));
  // at tick 10 the angle is 3.0 rad: nearly upside down already; at 0.5 it is PI: red is below blue
  await refresh(game!, timeAt(rt, 0.5));
  const r = canvasBounds(game!, red);
  const b = canvasBounds(game!, blue);
  expect(r).not.toBeNull();
  expect(b).not.toBeNull();
  expect(r!.top).toBeGreaterThan(b!.top); // upside down: turned by PI, not by 0
  // unturned (a linear angle field holding the same unwrapped turn: 3.15 rad), the same picture
  const linear = createInterpolatedSprites(scene, rt, { position: 'position', angle: 'turn' }, { texture: 'halves' });
  sprites.extern.destroy();
  linear.update(timeAt(rt, 0.5));
  await refresh(game!, timeAt(rt, 0.5) + 1);
  expect(canvasBounds(game!, red)!.top).toBeGreaterThan(canvasBounds(game!, blue)!.top);
});

it('draws the right way up at angle 0 and snaps a teleported entity to its new place', async () => {
  const { rt, scene } = await setUp(2);
  const sprites = createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'halves' });
  attachToGame(game!, rt, sprites);
  await refresh(game!, timeAt(rt, 0.5));
  expect(canvasBounds(game!, red)!.top).toBeLessThan(canvasBounds(game!, blue)!.top); // red on top, as the texture has it
  // teleported by +2 in x on the next tick: drawn there at once, not blended across
  await rt.commands.teleport(0, 2);
  await steps(rt, 1);
  await refresh(game!, timeAt(rt, 0.5));
  const m = motionAt(0, 3); // the current state (tick 3), with the teleport's +2
  const box = canvasBounds(game!, (r, g, b) => red(r, g, b) || blue(r, g, b));
  expectBoxAt(box, m.x + 2, m.y, 'after the teleport');
  expect(sprites.stats.generationUploads).toBeGreaterThan(0);
});

it('shows each entity the frame its field picks by the discrete rule: the newest tick\'s once past the previous state, as the CPU path does', async () => {
  const { rt, scene } = await setUp(2); // the fixture's blink field is the tick's parity: 0 at tick 2
  const sprites = createInterpolatedSprites(scene, rt, { position: 'position', frame: 'blink' }, { texture: 'sheet', frames: [0, 1] });
  attachToGame(game!, rt, sprites);
  await refresh(game!, timeAt(rt, 0.5));
  expect(canvasBounds(game!, red)).not.toBeNull();
  expect(canvasBounds(game!, blue)).toBeNull();
  await steps(rt, 1); // tick 3: blink 1
  // at alpha 0 the frame shows tick 2: its frame (red), as the CPU path's none field has it
  await refresh(game!, timeAt(rt, 0));
  expect(rt.sample(timeAt(rt, 0)).fields.blink[0]).toBe(0);
  expect(canvasBounds(game!, red)).not.toBeNull();
  expect(canvasBounds(game!, blue)).toBeNull();
  // past it, tick 3's (blue), on both paths
  await refresh(game!, timeAt(rt, 0.5));
  expect(rt.sample(timeAt(rt, 0.5)).fields.blink[0]).toBe(1);
  expect(canvasBounds(game!, red)).toBeNull();
  const m = motionAt(0, 2.5);
  expectBoxAt(canvasBounds(game!, blue), m.x, m.y, 'frame 1 at tick 2.5');
});

it('grows its buffers past initialCapacity and draws every entity, with no upload more than the pair needs', async () => {
  const { rt, scene } = await setUp(2, 3); // three entities at x = k, k + 1, k + 2 (y = 2k)
  const sprites = createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'white', initialCapacity: 1 });
  attachToGame(game!, rt, sprites);
  scene.cameras.main.setZoom(4).centerOn(2.5, 3); // 16 units across, on the middle one at tick 1.5
  await refresh(game!, timeAt(rt, 0.5));
  expect(sprites.bufferCapacity).toBe(4); // 1, 2, 4: doubled until three fit (never past the capacity, 8)
  expect(sprites.stats.grows).toBe(1);
  const box = canvasBounds(game!, white);
  // the three sprites' union: from entity 0's left edge to entity 2's right edge, 4 px a unit around x = 2.5
  const m = motionAt(0, 1.5);
  expect(box!.left).toBeCloseTo(32 + 4 * (m.x - 2 - 2.5), -0.5);
  expect(box!.right + 1).toBeCloseTo(32 + 4 * (m.x + 2 + 2 - 2.5), -0.5);
  expect(box!.top).toBeCloseTo(32 + 4 * (m.y - 2 - 3), -0.5);
  await refresh(game!, timeAt(rt, 0.75));
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 0, grows: 1, draws: 2 }); // the same pair: no upload again
});

it('refuses what it cannot draw, naming it', async () => {
  const { rt, scene } = await setUp(0);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'nope' })).toThrow(/no texture frame "nope"/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position', scale: 'scale' } as never, { texture: 'white' })).toThrow(/position and angle only/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'angle' } as never, { texture: 'white' })).toThrow(/fields.position "angle"/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'white', initialCapacity: 0 })).toThrow(/initialCapacity/);
  expect(() => attachToGame(game!, rt, { draw() {} } as never)).toThrow(/update\(time\)/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position' }, { texture: 'sheet', frames: [0, 1] })).toThrow(/options.frames needs fields.frame/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position', frame: 'blink' }, { texture: 'sheet' })).toThrow(/needs options.frames: 1 to 16/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position', frame: 'angle' } as never, { texture: 'sheet', frames: [0] })).toThrow(/fields.frame "angle" must be a none or linear field/);
  expect(() => createInterpolatedSprites(scene, rt, { position: 'position', frame: 'blink' }, { texture: 'sheet', frames: [0, 7] })).toThrow(/no texture frame "sheet" \/ 7/);
});
