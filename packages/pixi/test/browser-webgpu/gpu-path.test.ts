/**
 * The GPU path on PixiJS v8's WebGPURenderer (WGSL, one instanced quad per entity), on a real WebGPU device:
 * the same motion fixture and checks as the WebGL tests (../browser/gpu-path.test.ts). Each square lands where
 * the runtime's own interpolation puts the entity at the frame's time, late and overtaken frames are placed as
 * the sampler places them, snaps do not streak, uploads after the first render go straight from the shared
 * memory (`queue.writeBuffer`), and the quads light the pixels Pixi's own sprites light.
 */
import { afterEach, expect, it } from 'vitest';
import { Container, Sprite, Texture } from 'pixi.js';
import { createInterpolatedSprites } from '@steadyframe/pixi';
import { motionAt } from '../browser/fixtures/schema.ts';
import { motionRuntime, steps, timeAt, type MotionFrame, type MotionRuntime } from '../browser/helpers.ts';
import { createWebGpuStage, HEIGHT, SCALE, WIDTH, type WebGpuStage } from './stage.ts';

let runtime: MotionRuntime | undefined;
let stage: WebGpuStage | undefined;
afterEach(() => {
  stage?.dispose();
  runtime?.dispose();
  stage = undefined;
  runtime = undefined;
});

/** The side of each entity's square, world units; the square's centre from the entity. */
const SIDE = 0.5;
const ARM = 1;
/** World units: a wrong alpha, angle or snap misses by far more than this. */
const TOLERANCE = 0.06;

const marker = (x: number, y: number, angle: number): [number, number] => [x + ARM * Math.cos(angle), y + ARM * Math.sin(angle)];
const frameMarker = (frame: MotionFrame, i: number) => marker(frame.fields.position[2 * i]!, frame.fields.position[2 * i + 1]!, frame.fields.angle[i]!);
/** A square of SIDE drawn ARM to the entity's right: an anchor left of the quad, so the angle moves it. */
const options = { texture: Texture.WHITE, width: SIDE, height: SIDE, anchor: { x: -(ARM - SIDE / 2) / SIDE, y: 0.5 } };

/** Every lit pixel's world place, and the centroid of those within half a unit of each expected marker. */
async function draw(s: WebGpuStage, world: Container, expected: Array<[number, number]>, origin: [number, number] = [0, 0]) {
  const pixels = await s.pixels(world, origin);
  let lit = 0;
  const sums = expected.map(() => ({ x: 0, y: 0, n: 0 }));
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < WIDTH; px++) {
      const o = 4 * (py * WIDTH + px);
      if (Math.max(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!) < 128) continue;
      lit++;
      const wx = (px + 0.5) / SCALE + origin[0];
      const wy = (py + 0.5) / SCALE + origin[1];
      expected.forEach(([ex, ey], i) => {
        if (Math.abs(wx - ex) < 0.5 && Math.abs(wy - ey) < 0.5) {
          const sum = sums[i]!;
          sum.x += wx;
          sum.y += wy;
          sum.n++;
        }
      });
    }
  }
  return { lit, markers: sums.map((sum) => ({ x: sum.x / sum.n, y: sum.y / sum.n, n: sum.n })) };
}

/** Each expected marker drawn as a whole square (64 pixels), at its place, and nothing else lit. */
function expectMarkers(result: Awaited<ReturnType<typeof draw>>, expected: Array<[number, number]>, what: string): void {
  for (const [i, m] of result.markers.entries()) {
    expect(m.n, `${what}: entity ${i}'s square`).toBeGreaterThan(48);
    expect(Math.abs(m.x - expected[i]![0]), `${what}: entity ${i} x`).toBeLessThan(TOLERANCE);
    expect(Math.abs(m.y - expected[i]![1]), `${what}: entity ${i} y`).toBeLessThan(TOLERANCE);
  }
  expect(result.lit, `${what}: nothing lit but the squares`).toBe(result.markers.reduce((n, m) => n + m.n, 0));
}

async function setUp(ticks: number, extra: object = {}) {
  runtime = await motionRuntime();
  await steps(runtime, ticks);
  stage = await createWebGpuStage();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { ...options, ...extra });
  const world = new Container();
  world.addChild(sprites.mesh);
  return { rt: runtime, s: stage, sprites, world };
}

it('draws each sprite where runtime.sample puts it, at every alpha, on a WebGPU device', async () => {
  const { rt, s, sprites, world } = await setUp(3);
  for (const alpha of [0, 0.25, 0.5, 0.8, 1]) {
    const time = timeAt(rt, alpha);
    expect(sprites.update(time)).toBe(true);
    const frame = rt.sample(time);
    expect(sprites.alpha).toBe(frame.alpha);
    const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
    // and the analytic motion: the pair is ticks 2 and 3
    for (let i = 0; i < 3; i++) {
      const m = motionAt(i, 2 + alpha);
      const [x, y] = marker(m.x, m.y, m.angle);
      expect(Math.abs(expected[i]![0] - x) + Math.abs(expected[i]![1] - y)).toBeLessThan(1e-4);
    }
    expectMarkers(await draw(s, world, expected), expected, `alpha ${alpha}`);
  }
  expect(sprites.stats).toEqual({ fullUploads: 1, swaps: 0, directUploads: 0, generationUploads: 0, misses: 0, grows: 0, late: 0, extrapolated: 0, overtaken: 0 });
  sprites.dispose();
});

it('holds a late frame, carries it on under whenLate: extrapolate, draws an overtaken one at the previous state', async () => {
  const { rt, s, sprites, world } = await setUp(3);
  const drawnAt = async (time: number, what: string, alpha: number, k: number) => {
    expect(sprites.update(time)).toBe(true);
    const frame = rt.sample(time);
    expect(sprites.alpha, what).toBe(frame.alpha);
    expect(sprites.alpha, what).toBeCloseTo(alpha, 9);
    const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
    expected.forEach(([x, y], i) => {
      const m = motionAt(i, k);
      const [mx, my] = marker(m.x, m.y, m.angle);
      expect(Math.abs(x - mx) + Math.abs(y - my), `${what}: entity ${i}`).toBeLessThan(1e-4);
    });
    expectMarkers(await draw(s, world, expected), expected, what);
    return frame;
  };
  expect((await drawnAt(timeAt(rt, 1.5), 'late, held', 1, 3)).late).toBe(true);
  rt.setInterpolation({ whenLate: 'extrapolate', maxPrediction: 1 });
  await drawnAt(timeAt(rt, 1.5), 'late, carried on', 1.5, 3.5);
  await drawnAt(timeAt(rt, 5), 'late, carried on at most maxPrediction', 2, 4);
  expect((await drawnAt(timeAt(rt, -0.5), 'overtaken', 0, 2)).overtaken).toBe(true);
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 0, misses: 0, late: 3, extrapolated: 2, overtaken: 1 });
  sprites.dispose();
});

it('flips, and uploads straight from the shared memory once drawn: a pair survives two publishes over its slot', async () => {
  const { rt, s, sprites, world } = await setUp(2);
  const markersAt = (time: number) => {
    const frame = rt.sample(time);
    return [0, 1, 2].map((i) => frameMarker(frame, i));
  };
  const originOf = (expected: Array<[number, number]>): [number, number] => [expected[0]![0] - 3, expected[0]![1] - 4];
  sprites.update(timeAt(rt, 0.5)); // not drawn yet: copied into Pixi's buffers
  const first = markersAt(timeAt(rt, 0.5));
  expectMarkers(await draw(s, world, first, originOf(first)), first, 'first');
  expect(sprites.stats.directUploads).toBe(0);

  for (const [ticks, what] of [[1, 'a flip'], [2, 'both states']] as const) {
    await steps(rt, ticks);
    const time = timeAt(rt, 0.4);
    sprites.update(time); // writeBuffer of the front slot's views, under the lock
    const expected = markersAt(time);
    await steps(rt, 2); // the second publish writes into the slot those views showed
    const moved = markersAt(timeAt(rt, 0.4));
    expect(Math.abs(moved[0]![0] - expected[0]![0]), 'the newer pair is elsewhere').toBeGreaterThan(0.5);
    expectMarkers(await draw(s, world, expected, originOf(expected)), expected, `${what}, rendered after two publishes`);
  }
  expect(sprites.stats).toMatchObject({ fullUploads: 2, swaps: 1, directUploads: 2 });
  // a full upload and a flip between renders still leave the right bytes
  for (const alpha of [0.1, 0.6]) {
    await steps(rt, 1);
    sprites.update(timeAt(rt, alpha));
  }
  expect(sprites.stats).toMatchObject({ fullUploads: 3, swaps: 2, directUploads: 4 });
  const last = markersAt(timeAt(rt, 0.6));
  expectMarkers(await draw(s, world, last, originOf(last)), last, 'a full upload and a flip between renders');
  sprites.dispose();
});

it('draws a teleported and a spawned entity at their new state, with no streak between', async () => {
  const { rt, s, sprites, world } = await setUp(2);
  sprites.update(timeAt(rt, 0.5));
  await draw(s, world, []);
  await rt.commands.teleport(1, 5); // 5 units right on the next tick, marked to snap
  await rt.commands.setCount(4); // entity 3 is new on the next tick
  await steps(rt, 1); // a flip: the generations are compared in the shader
  const time = timeAt(rt, 0.5);
  sprites.update(time);
  const frame = rt.sample(time);
  expect(frame.snapped).toBe(2);
  expect(sprites.count).toBe(4);
  const expected = [0, 1, 2, 3].map((i) => frameMarker(frame, i));
  const m = motionAt(1, 2.5);
  const streak = marker(m.x + 2.5, m.y, m.angle); // where a blend would have drawn the teleported entity
  const drawn = await draw(s, world, [...expected, streak], [1, expected[0]![1] - 5]);
  expect(drawn.markers[4]!.n, 'pixels where a blend would have drawn the teleported entity').toBe(0);
  drawn.markers.pop();
  expectMarkers(drawn, expected, 'snap tick');
  // the next tick blends them all again
  await steps(rt, 1);
  const next = timeAt(rt, 0.5);
  sprites.update(next);
  const again = [0, 1, 2, 3].map((i) => frameMarker(rt.sample(next), i));
  expectMarkers(await draw(s, world, again, [1, again[0]![1] - 5]), again, 'the tick after');
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 2, generationUploads: 2, directUploads: 2 });
  sprites.dispose();
});

it('grows its buffers as the count grows past them, and draws every entity', async () => {
  const { rt, s, sprites, world } = await setUp(2, { initialCapacity: 2 });
  sprites.update(timeAt(rt, 0.5)); // 3 entities: 2 -> 4
  await draw(s, world, []);
  await rt.commands.setCount(7);
  await steps(rt, 1); // 7 entities: 4 -> 8
  const time = timeAt(rt, 0.4);
  sprites.update(time);
  expect(sprites.bufferCapacity).toBe(8);
  expect(sprites.stats.grows).toBe(2);
  const expected = Array.from({ length: 7 }, (_, i) => frameMarker(rt.sample(time), i));
  expectMarkers(await draw(s, world, expected, [expected[0]![0] - 2, expected[0]![1] - 4]), expected, 'after growing');
  sprites.dispose();
});

it("lights the very pixels Pixi's own sprites at the runtime's blended poses light, 2 px to 160 px", async () => {
  runtime = await motionRuntime();
  await runtime.commands.setCount(7);
  await steps(runtime, 3);
  stage = await createWebGpuStage();
  const sizes = [
    { width: SIDE, height: SIDE, anchor: options.anchor }, // 8 px squares, an arm's length off the entity
    { width: 2 / SCALE, height: 2 / SCALE, anchor: 0.5 }, // 2 px squares
    { width: 10, height: 0.25, anchor: { x: 0.3, y: 0.5 } }, // 160 x 4 px bars: no point size to outgrow
  ];
  for (const size of sizes) {
    const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { texture: Texture.WHITE, ...size });
    const gpu = new Container();
    gpu.addChild(sprites.mesh);
    for (const alpha of [0, 0.35, 0.8]) {
      const time = timeAt(runtime, alpha);
      sprites.update(time);
      const frame = runtime.sample(time);
      const cpu = new Container();
      for (let i = 0; i < 7; i++) {
        const a = typeof size.anchor === 'number' ? { x: size.anchor, y: size.anchor } : size.anchor;
        const sprite = new Sprite({ texture: Texture.WHITE, anchor: a, width: size.width, height: size.height });
        sprite.position.set(frame.fields.position[2 * i]!, frame.fields.position[2 * i + 1]!);
        sprite.rotation = frame.fields.angle[i]!;
        cpu.addChild(sprite);
      }
      const origin: [number, number] = [frame.fields.position[0]! - 2, frame.fields.position[1]! - 4];
      const want = await stage.pixels(cpu, origin);
      const got = await stage.pixels(gpu, origin);
      let lit = 0;
      let differ = 0;
      for (let p = 0; p < want.length; p += 4) {
        const w = want[p]! >= 128;
        lit += w ? 1 : 0;
        differ += w !== got[p]! >= 128 ? 1 : 0;
      }
      const what = `${size.width * SCALE} x ${size.height * SCALE} px, alpha ${alpha}`;
      expect(lit, `${what}: Pixi's sprites are on the target`).toBeGreaterThan(20);
      // the same two triangles a sprite is, in float32 against Pixi's own arithmetic: an edge pixel may differ
      expect(differ, `${what}: pixels lit by one and not the other (of ${lit})`).toBeLessThanOrEqual(7);
      cpu.destroy({ children: true });
    }
    sprites.dispose();
  }
});
