/**
 * One real PixiJS v8 WebGL render (SwiftShader in headless Chromium): the bound sprites and particles are drawn
 * where the runtime's interpolated frame puts them. Read back as pixels, so a binding that set the right
 * numbers on objects Pixi does not draw from would fail here.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { Container, Particle, ParticleContainer, RenderTexture, Sprite, Texture, WebGLRenderer } from 'pixi.js';
import { bindParticles, bindSprites } from '@steadyframe/pixi';
import { motionAt } from './fixtures/schema.ts';
import { motionRuntime, steps, timeAt, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let renderer: WebGLRenderer | undefined;
afterEach(() => {
  renderer?.destroy();
  runtime?.dispose();
  renderer = undefined;
  runtime = undefined;
});

/** Pixels per world unit, and the side of each entity's square in world units. */
const SCALE = 16;
const SIDE = 0.5;
const WIDTH = 160;
const HEIGHT = 128;

/** Renders `world` (scaled to pixels) and returns the centroids (world units) of lit pixels around each expected place. */
async function drawn(world: Container, expected: Array<[number, number]>) {
  renderer = new WebGLRenderer();
  await renderer.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false, preference: 'webgl' } as never);
  const stage = new Container();
  world.scale.set(SCALE);
  stage.addChild(world);
  const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
  renderer.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
  const { pixels, width } = renderer.extract.pixels(target);
  let lit = 0;
  const sums = expected.map(() => ({ x: 0, y: 0, n: 0 }));
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < width; px++) {
      const o = 4 * (py * width + px);
      if (Math.max(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!) < 128) continue;
      lit++;
      const wx = (px + 0.5) / SCALE;
      const wy = (py + 0.5) / SCALE;
      expected.forEach(([ex, ey], i) => {
        if (Math.abs(wx - ex) < 0.5 && Math.abs(wy - ey) < 0.5) {
          const s = sums[i]!;
          s.x += wx;
          s.y += wy;
          s.n++;
        }
      });
    }
  }
  return { lit, markers: sums.map((s) => ({ x: s.x / s.n, y: s.y / s.n, n: s.n })) };
}

/**
 * Draws `world` and expects entities 0, 1 and 2 as squares at the motion's places at tick `k` (each about
 * (0.5 * 16)^2 = 64 pixels, rotated, so a few more or less), and nothing else lit.
 */
async function expectSquaresAt(world: Container, k: number): Promise<void> {
  const expected = [0, 1, 2].map((i): [number, number] => [motionAt(i, k).x, motionAt(i, k).y]);
  const { lit, markers } = await drawn(world, expected);
  for (const [i, m] of markers.entries()) {
    expect(m.n, `entity ${i}`).toBeGreaterThan(40);
    expect(m.x).toBeCloseTo(expected[i]![0], 1);
    expect(m.y).toBeCloseTo(expected[i]![1], 1);
  }
  expect(lit).toBe(markers.reduce((n, m) => n + m.n, 0));
}

it('draws bound sprites at the interpolated places, and not the hidden one', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const world = new Container();
  const sprites = Array.from({ length: 4 }, () => {
    const s = new Sprite({ texture: Texture.WHITE, anchor: 0.5, width: SIDE, height: SIDE });
    world.addChild(s);
    return s;
  });
  // Texture.WHITE is one pixel: the sprites get their size from width/height, so no scale field is bound here
  const binding = bindSprites(runtime, sprites, { position: 'position', angle: 'angle' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  await expectSquaresAt(world, 2.5);
});

it('draws bound particles at the interpolated places', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const world = new Container();
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: { position: true, rotation: true, vertex: true } });
  world.addChild(container);
  const binding = bindParticles(
    runtime,
    container,
    { position: 'position', angle: 'angle' },
    () => new Particle({ texture: Texture.WHITE, anchorX: 0.5, anchorY: 0.5, scaleX: SIDE, scaleY: SIDE }),
  );
  const frame = runtime.sample(timeAt(runtime, 0.25));
  binding.update(frame);
  await expectSquaresAt(world, 2.25);
});

it('draws particles adopted from the ParticleContainer constructor (Pixi never uploads their static data itself)', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const world = new Container();
  // as many particles as entities, handed to the constructor: the binding adopts them and never needs to grow
  // the list, while Pixi (8.22) uploads the quad corners, uvs and colours of such particles only when told to
  const own = [0, 1, 2].map(() => new Particle({ texture: Texture.WHITE, anchorX: 0.5, anchorY: 0.5, scaleX: SIDE, scaleY: SIDE }));
  const container = new ParticleContainer({ texture: Texture.WHITE, particles: own, dynamicProperties: { position: true, rotation: true } });
  world.addChild(container);
  const looks = own.slice();
  const binding = bindParticles(runtime, container, { position: 'position', angle: 'angle' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  // the binding's own particles in the container's list, with the constructor particles' looks (scale here)
  expect(container.particleChildren.map((p, i) => [p === looks[i], p.scaleX])).toEqual([0, 1, 2].map(() => [false, SIDE]));
  await expectSquaresAt(world, 2.5);
});

/** Pixi renderers made by the particle tests below, destroyed after each. */
const renderers: WebGLRenderer[] = [];
afterEach(() => {
  for (const r of renderers.splice(0)) r.destroy();
});

async function webgl(): Promise<WebGLRenderer> {
  const made = new WebGLRenderer();
  await made.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false, preference: 'webgl' } as never);
  renderers.push(made);
  return made;
}

/**
 * Bound particles whose tint is static data (only position and rotation are dynamic): each entity's own colour,
 * by its index. `draw` sets the count (or keeps it: null), draws with `pixi`, and returns the colour at each
 * entity's centre and at the place after the last; `step` only sets the count and updates the binding (a
 * frame not rendered).
 */
function tintedParticles(rt: MotionRuntime) {
  const stage = new Container();
  const world = new Container();
  world.scale.set(SCALE);
  stage.addChild(world);
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: { position: true, rotation: true } });
  world.addChild(container);
  const binding = bindParticles(rt, container, { position: 'position', angle: 'angle' }, (i) => ({
    texture: Texture.WHITE,
    anchorX: 0.5,
    anchorY: 0.5,
    scaleX: SIDE,
    scaleY: SIDE,
    tint: TINTS[i % 3]!,
  }));
  const uploads = vi.spyOn(container, 'update');
  // room for nine entities and the place after them
  const target = RenderTexture.create({ width: 12 * SCALE, height: HEIGHT });
  const step = async (count: number | null) => {
    if (count !== null) {
      await rt.commands.setCount(count);
      await steps(rt, 1);
    }
    const frame = rt.sample(timeAt(rt, 0.5));
    binding.update(frame);
    expect(container.particleChildren.length).toBe(frame.count);
    return frame;
  };
  const draw = async (pixi: WebGLRenderer, count: number | null): Promise<number[]> => {
    const frame = await step(count);
    // entity i at x = k + i, y = 2k: moved so that entity i sits at (1 + i, 2) on the target
    const { position } = frame.fields;
    const dx = 1 - position[0]!;
    const dy = 2 - position[1]!;
    container.position.set(dx, dy);
    pixi.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
    const { pixels, width } = pixi.extract.pixels(target);
    const colourAt = (x: number, y: number): number => {
      const o = 4 * (Math.floor((y + dy) * SCALE) * width + Math.floor((x + dx) * SCALE));
      return (pixels[o]! << 16) | (pixels[o + 1]! << 8) | pixels[o + 2]!;
    };
    const colours = Array.from({ length: frame.count }, (_, i) => colourAt(position[2 * i]!, position[2 * i + 1]!));
    return [...colours, colourAt(position[0]! + frame.count, position[1]!)];
  };
  return { container, uploads, step, draw };
}

const TINTS = [0xff0000, 0x00ff00, 0x0000ff];
/** The colours `draw` returns for `count` entities drawn in their own tints: theirs, then black. */
const tinted = (count: number) => [...Array.from({ length: count }, (_, i) => TINTS[i % 3]!), 0x000000];

it('draws particles back with their own looks when the count falls and grows again, uploading no static data until it passes the most drawn', async () => {
  runtime = await motionRuntime(9);
  await steps(runtime, 1);
  const pixi = await webgl();
  const { uploads, draw } = tintedParticles(runtime);
  expect(await draw(pixi, 6)).toEqual(tinted(6));
  expect(uploads).toHaveBeenCalledTimes(1);
  // fewer: the first two are drawn, the rest not; nothing to upload (the static data of 0 and 1 is there)
  expect(await draw(pixi, 2)).toEqual(tinted(2));
  expect(uploads).toHaveBeenCalledTimes(1);
  // back to six: entities 2 to 5 drawn in their own colours from the static data uploaded for them before
  expect(await draw(pixi, 6)).toEqual(tinted(6));
  expect(uploads).toHaveBeenCalledTimes(1);
  // past the most drawn: uploaded again, every colour right (Pixi grows its buffers here, to 9 particles, and
  // would upload the static data itself)
  expect(await draw(pixi, 8)).toEqual(tinted(8));
  expect(uploads).toHaveBeenCalledTimes(2);
  expect(await draw(pixi, 3)).toEqual(tinted(3));
  expect(await draw(pixi, 7)).toEqual(tinted(7));
  expect(uploads).toHaveBeenCalledTimes(2);
  // past it again, within Pixi's buffers: only the binding's upload gives entity 8 its colour
  expect(await draw(pixi, 9)).toEqual(tinted(9));
  expect(uploads).toHaveBeenCalledTimes(3);
});

it('gives a renderer that draws the particles for the first time their static data, from its second frame', async () => {
  runtime = await motionRuntime(9);
  await steps(runtime, 1);
  const { uploads, draw } = tintedParticles(runtime);
  const first = await webgl();
  expect(await draw(first, 6)).toEqual(tinted(6));
  expect(await draw(first, 2)).toEqual(tinted(2));
  expect(uploads).toHaveBeenCalledTimes(1);
  // another renderer: its buffers start empty. Its first frame is drawn before the binding can see them; from
  // the next on, every particle has its look, the count back up included
  first.destroy();
  renderers.splice(renderers.indexOf(first), 1);
  const second = await webgl();
  await draw(second, 6);
  expect(await draw(second, null)).toEqual(tinted(6));
  expect(uploads).toHaveBeenCalledTimes(2);
  expect(await draw(second, 3)).toEqual(tinted(3));
  expect(await draw(second, 6)).toEqual(tinted(6));
  expect(uploads).toHaveBeenCalledTimes(2);
});

it('counts an upload done only once a render drew it: a count that passed the most drawn in a frame not rendered is uploaded for', async () => {
  runtime = await motionRuntime(9);
  await steps(runtime, 1);
  const pixi = await webgl();
  const { step, draw } = tintedParticles(runtime);
  expect(await draw(pixi, 6)).toEqual(tinted(6));
  expect(await draw(pixi, 8)).toEqual(tinted(8)); // Pixi's buffers grow to 9 particles
  expect(await draw(pixi, 2)).toEqual(tinted(2));
  await step(9); // the upload asked for here is never drawn: the next render draws 3
  expect(await draw(pixi, 3)).toEqual(tinted(3));
  expect(await draw(pixi, 9)).toEqual(tinted(9));
});

it('uploads for buffers Pixi made anew (the container unloaded), even with an upload pending', async () => {
  runtime = await motionRuntime(12);
  await steps(runtime, 1);
  const pixi = await webgl();
  const { container, step, draw } = tintedParticles(runtime);
  expect(await draw(pixi, 10)).toEqual(tinted(10));
  expect(await draw(pixi, 2)).toEqual(tinted(2));
  await step(12); // past the most drawn, not rendered
  // Pixi's GC unloads a container not drawn for a while (or the app does): its buffers are made anew
  container.unload();
  for (const count of [4, 5, 6]) expect(await draw(pixi, count)).toEqual(tinted(count));
});
