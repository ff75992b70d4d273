/**
 * The GPU path uploads straight from the shared memory into Pixi's GL buffers, so the Pixi Buffers' own arrays
 * never hold the states. When Pixi drops a GL buffer and rebuilds it from that array (its GC unloads a buffer
 * unused for `gcMaxUnusedTime`; a lost context is restored), the next update must upload both states again:
 * the same pair at the same time draws the same picture as before (it drew the first frame's poses).
 */
import { afterEach, expect, it } from 'vitest';
import { Container, RenderTexture, Texture, WebGLRenderer } from 'pixi.js';
import { createInterpolatedSprites, type InterpolatedSprites } from '@steadyframe/pixi';
import { motionRuntime, steps, timeAt, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let renderer: WebGLRenderer | undefined;
let sprites: InterpolatedSprites | undefined;
afterEach(() => {
  sprites?.dispose();
  renderer?.destroy();
  runtime?.dispose();
  sprites = undefined;
  renderer = undefined;
  runtime = undefined;
});

const W = 192;
const H = 160;
const SCALE = 16;

/** The lit pixels (red >= 128) of `world` drawn into a render texture, 1 or 0 each. */
function mask(r: WebGLRenderer, world: Container): Uint8Array {
  const stage = new Container();
  world.scale.set(SCALE);
  world.position.set(-3 * SCALE, -8 * SCALE);
  stage.addChild(world);
  const target = RenderTexture.create({ width: W, height: H });
  r.render({ container: stage, target, clear: true, clearColor: 0 });
  const { pixels } = r.extract.pixels(target);
  target.destroy(true);
  stage.removeChild(world);
  const m = new Uint8Array(pixels.length / 4);
  for (let i = 0; i < m.length; i++) m[i] = pixels[4 * i]! >= 128 ? 1 : 0;
  return m;
}
const differing = (a: Uint8Array, b: Uint8Array): number => a.reduce((n, v, i) => n + (v !== b[i] ? 1 : 0), 0);
const lit = (a: Uint8Array): number => a.reduce((n, v) => n + v, 0);

/** Draws once (the renderer becomes known: uploads go direct), then a full and a swap upload, direct. */
async function setup(gc: boolean): Promise<{ world: Container; time: number; before: Uint8Array }> {
  const rt = (runtime = await motionRuntime());
  await steps(rt, 3);
  const r = (renderer = new WebGLRenderer());
  await r.init({ width: W, height: H, background: 0, antialias: false, ...(gc ? { gcMaxUnusedTime: 50, gcFrequency: 20 } : {}) });
  const s = (sprites = createInterpolatedSprites(rt, { position: 'position', angle: 'angle' }, { texture: Texture.WHITE, width: 0.5, height: 0.5 }));
  const world = new Container();
  world.addChild(s.mesh);
  s.update(timeAt(rt, 0.5));
  mask(r, world);
  await steps(rt, 2);
  s.update(timeAt(rt, 0.5));
  await steps(rt, 1);
  const time = timeAt(rt, 0.5);
  s.update(time);
  expect(s.stats.directUploads).toBe(2);
  const before = mask(r, world);
  expect(lit(before)).toBeGreaterThan(50);
  return { world, time, before };
}

/** The mesh off the stage (a menu, a hidden layer) for 0.5 s while the renderer draws other things. */
async function awayFromStage(): Promise<void> {
  const empty = new Container();
  for (let i = 0; i < 20; i++) {
    renderer!.render({ container: empty });
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('control: the mesh away from the stage with no GC is drawn the same afterwards', async () => {
  const { world, time, before } = await setup(false);
  await awayFromStage();
  sprites!.update(time);
  expect(differing(before, mask(renderer!, world))).toBe(0);
});

it("after Pixi's GC unloaded its buffers, the same pair at the same time is drawn the same (not the first frame's poses)", async () => {
  const { world, time, before } = await setup(true);
  await awayFromStage();
  const full = sprites!.stats.fullUploads;
  sprites!.update(time); // no publish since: the buffers are uploaded again because Pixi unloaded them
  expect(sprites!.stats.fullUploads).toBe(full + 1);
  expect(differing(before, mask(renderer!, world))).toBe(0);
});

it('after a lost WebGL context is restored, the same pair at the same time is drawn the same', async () => {
  const { world, time, before } = await setup(false);
  const canvas = renderer!.canvas as HTMLCanvasElement;
  const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
  (renderer as unknown as { context: { forceContextLoss(): void } }).context.forceContextLoss();
  await restored;
  await new Promise((resolve) => setTimeout(resolve, 50));
  sprites!.update(time);
  expect(differing(before, mask(renderer!, world))).toBe(0);
});
