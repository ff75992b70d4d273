/**
 * The GPU path in a real PixiJS v8 WebGL 2 renderer (SwiftShader in headless Chromium): the pixels land where
 * the runtime's own interpolation puts each entity, sprites turn with it, snaps do not streak, and the vertex
 * buffers grow.
 */
import { afterEach, expect, it } from 'vitest';
import { Container, RenderTexture, Sprite, Texture, WebGLRenderer } from 'pixi.js';
import { createInterpolatedSprites } from '@steadyframe/pixi';
import { createRuntime } from 'steadyframe';
import { countOf, currentTimeOf, previousTimeOf } from 'steadyframe/adapter';
import { motionSchema } from './fixtures/schema.ts';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { motionAt } from './fixtures/schema.ts';
import { motionRuntime, steps, timeAt, type MotionFrame, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let renderer: WebGLRenderer | undefined;
afterEach(() => {
  renderer?.destroy();
  runtime?.dispose();
  renderer = undefined;
  runtime = undefined;
});

/** Pixels per world unit; the side of each entity's square, world units; the square's centre from the entity. */
const SCALE = 16;
const SIDE = 0.5;
const ARM = 1;
const WIDTH = 192;
const HEIGHT = 160;
/** World units: a wrong alpha, angle or snap misses by far more than this. */
const TOLERANCE = 0.06;
/** Pixels a sprite drawn by the GPU path may light differently from a Pixi Sprite: one, a centre on its very edge. */
const EDGE_PIXELS_PER_SPRITE = 1;

/** Where the square's centre lands for an entity at (x, y) turned by `angle`. */
const marker = (x: number, y: number, angle: number): [number, number] => [x + ARM * Math.cos(angle), y + ARM * Math.sin(angle)];
/** The runtime's own interpolated pose of entity i, as a marker. */
const frameMarker = (frame: MotionFrame, i: number) =>
  marker(frame.fields.position[2 * i]!, frame.fields.position[2 * i + 1]!, frame.fields.angle[i]!);

/** A square of SIDE drawn ARM to the entity's right: an anchor left of the quad, so the angle moves it. */
const options = { texture: Texture.WHITE, width: SIDE, height: SIDE, anchor: { x: -(ARM - SIDE / 2) / SIDE, y: 0.5 } };

/** `extra`: more of Pixi's init options (its GC's timings, say). */
async function createRenderer(extra: object = {}): Promise<WebGLRenderer> {
  renderer = new WebGLRenderer();
  await renderer.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false, preference: 'webgl', ...extra } as never);
  return renderer;
}

/**
 * Renders `mesh` (scaled to pixels, the world shifted by `origin`) and returns every lit pixel's world place,
 * and the centroid of those within half a unit of each expected marker.
 */
function draw(r: WebGLRenderer, world: Container, expected: Array<[number, number]>, origin: [number, number] = [0, 0]) {
  const stage = new Container();
  world.scale.set(SCALE);
  world.position.set(-origin[0] * SCALE, -origin[1] * SCALE);
  stage.addChild(world);
  const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
  r.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
  const { pixels, width } = r.extract.pixels(target);
  target.destroy(true);
  stage.removeChild(world);
  let lit = 0;
  const sums = expected.map(() => ({ x: 0, y: 0, n: 0 }));
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < width; px++) {
      const o = 4 * (py * width + px);
      if (Math.max(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!) < 128) continue;
      lit++;
      const wx = (px + 0.5) / SCALE + origin[0];
      const wy = (py + 0.5) / SCALE + origin[1];
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

/** Each expected marker drawn as a whole square (about 64 pixels), at its place, and nothing else lit. */
function expectMarkers(result: ReturnType<typeof draw>, expected: Array<[number, number]>, what: string): void {
  for (const [i, m] of result.markers.entries()) {
    expect(m.n, `${what}: entity ${i}'s square`).toBeGreaterThan(48);
    expect(Math.abs(m.x - expected[i]![0]), `${what}: entity ${i} x`).toBeLessThan(TOLERANCE);
    expect(Math.abs(m.y - expected[i]![1]), `${what}: entity ${i} y`).toBeLessThan(TOLERANCE);
  }
  expect(result.lit, `${what}: nothing lit but the squares`).toBe(result.markers.reduce((n, m) => n + m.n, 0));
}

it('draws each sprite where runtime.sample puts it, at every alpha, uploading the state once', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  for (const alpha of [0, 0.25, 0.5, 0.8, 1]) {
    const time = timeAt(runtime, alpha);
    expect(sprites.update(time)).toBe(true);
    const frame = runtime.sample(time);
    expect(sprites.alpha).toBe(frame.alpha);
    expect(sprites.count).toBe(3);
    const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
    // and the analytic motion: the pair is ticks 2 and 3
    for (let i = 0; i < 3; i++) {
      const m = motionAt(i, 2 + alpha);
      const [x, y] = marker(m.x, m.y, m.angle);
      expect(Math.abs(expected[i]![0] - x) + Math.abs(expected[i]![1] - y)).toBeLessThan(1e-4);
    }
    expectMarkers(draw(r, world, expected), expected, `alpha ${alpha}`);
  }
  // no snaps marked in ticks 0 .. 3: the generations stay home
  expect(sprites.stats).toEqual({ fullUploads: 1, swaps: 0, directUploads: 0, generationUploads: 0, misses: 0, grows: 0, late: 0, extrapolated: 0, overtaken: 0 });
  sprites.dispose();
});

it('holds a late frame, carries it on under whenLate: extrapolate, draws an overtaken one at the previous state, as runtime.sample does', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3); // the pair is ticks 2 and 3
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  const motion = (k: number) =>
    [0, 1, 2].map((i) => {
      const m = motionAt(i, k);
      return marker(m.x, m.y, m.angle);
    });
  const drawnAt = (time: number, what: string, alpha: number, k: number | null) => {
    expect(sprites.update(time)).toBe(true);
    const frame = runtime!.sample(time);
    expect(sprites.alpha, what).toBe(frame.alpha);
    expect(sprites.alpha, what).toBeCloseTo(alpha, 9);
    const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
    // the motion is linear in ticks, and an angle carried on the short way is exact
    if (k !== null) motion(k).forEach(([x, y], i) => expect(Math.abs(expected[i]![0] - x) + Math.abs(expected[i]![1] - y), `${what}: entity ${i}`).toBeLessThan(1e-4));
    expectMarkers(draw(r, world, expected), expected, what);
    return frame;
  };

  // half a tick past the newest state: held there (the default whenLate)
  const late = timeAt(runtime, 1.5);
  expect(drawnAt(late, 'late, held', 1, 3).late).toBe(true);
  // the same frame carried on: the shader's blend past alpha 1 is the runtime's
  runtime.setInterpolation({ whenLate: 'extrapolate', maxPrediction: 1 });
  drawnAt(late, 'late, carried on', 1.5, 3.5);
  // and far past it, at most maxPrediction (1) tick on
  drawnAt(timeAt(runtime, 5), 'late, carried on at most maxPrediction', 2, 4);
  // half a tick before the previous state (the worker published past the frame): the previous state
  expect(drawnAt(timeAt(runtime, -0.5), 'overtaken', 0, 2).overtaken).toBe(true);
  // each counted, as the runtime counts its own; the pair was uploaded once
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 0, misses: 0, late: 3, extrapolated: 2, overtaken: 1 });
  sprites.dispose();
});

/** Which pixels `world` lights (scaled to pixels, shifted by `origin`), as one byte a pixel. */
function litMask(r: WebGLRenderer, world: Container, origin: [number, number]): Uint8Array {
  const stage = new Container();
  world.scale.set(SCALE);
  world.position.set(-origin[0] * SCALE, -origin[1] * SCALE);
  stage.addChild(world);
  const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
  r.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
  const { pixels } = r.extract.pixels(target);
  target.destroy(true);
  stage.removeChild(world);
  const mask = new Uint8Array(pixels.length / 4);
  for (let i = 0; i < mask.length; i++) mask[i] = pixels[4 * i]! >= 128 ? 1 : 0;
  return mask;
}

it('lights the very pixels Pixi sprites at the runtime\'s blended poses light, big sprites and 2 px ones', async () => {
  runtime = await motionRuntime();
  await runtime.commands.setCount(7);
  await steps(runtime, 3);
  const r = await createRenderer();
  const sizes = [
    { width: SIDE, height: SIDE, anchor: options.anchor }, // 8 px squares, an arm's length off the entity
    { width: 2 / SCALE, height: 2 / SCALE, anchor: 0.5 }, // 2 px squares, the bench's size: the point is tightest
    { width: 1.5, height: 0.25, anchor: { x: 0.3, y: 0.5 } }, // 24 x 4 px bars
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
      const want = litMask(r, cpu, origin);
      const got = litMask(r, gpu, origin);
      let lit = 0;
      let differ = 0;
      for (let p = 0; p < want.length; p++) {
        lit += want[p]!;
        differ += want[p] !== got[p] ? 1 : 0;
      }
      const what = `${size.width * SCALE} x ${size.height * SCALE} px, alpha ${alpha}`;
      expect(lit, `${what}: Pixi's sprites are on the target`).toBeGreaterThan(7 * size.width * size.height * SCALE * SCALE * 0.5);
      // a pixel centre on a sprite's very edge may fall either way (triangles and the shader's own test)
      expect(differ, `${what}: pixels lit by one and not the other (of ${lit})`).toBeLessThanOrEqual(7 * EDGE_PIXELS_PER_SPRITE);
      cpu.destroy({ children: true });
    }
    sprites.dispose();
  }
});

it('turns the short way round where the stored angle wraps, and blends a linear angle field linearly', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 11); // the pair is ticks 10 and 11: the angle wraps from about 3.0 to -2.98 between them
  const r = await createRenderer();
  const short = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const linear = createInterpolatedSprites(runtime, { position: 'position', angle: 'turn' }, options);
  const time = timeAt(runtime, 0.5);
  const frame = runtime.sample(time);
  const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
  const origin: [number, number] = [expected[0]![0] - 2, expected[0]![1] - 4];
  for (const [what, sprites] of [['angle field', short], ['linear field', linear]] as const) {
    const world = new Container();
    world.addChild(sprites.mesh);
    sprites.update(time);
    // 0.3 * 10.5 = 3.15 rad: just past pi, the way both fields turn (the long way round would be about 0)
    for (let i = 0; i < 3; i++) {
      const m = motionAt(i, 10.5);
      const [x, y] = marker(m.x, m.y, m.turn);
      expect(Math.abs(expected[i]![0] - x) + Math.abs(expected[i]![1] - y)).toBeLessThan(1e-4);
    }
    expectMarkers(draw(r, world, expected, origin), expected, what);
    sprites.dispose();
  }
});

it('turns the sprite itself: a bar lies along the interpolated angle', async () => {
  runtime = await motionRuntime();
  await runtime.commands.setCount(1);
  await steps(runtime, 4);
  const r = await createRenderer();
  // a 2 x 0.25 bar centred on the entity
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { texture: Texture.WHITE, width: 2, height: 0.25 });
  const world = new Container();
  world.addChild(sprites.mesh);
  for (const alpha of [0, 0.5, 1]) {
    const time = timeAt(runtime, alpha);
    sprites.update(time);
    const frame = runtime.sample(time);
    const x = frame.fields.position[0]!;
    const y = frame.fields.position[1]!;
    const angle = frame.fields.angle[0]!;
    const origin: [number, number] = [x - 5, y - 5];
    world.scale.set(SCALE);
    world.position.set(-origin[0] * SCALE, -origin[1] * SCALE);
    const stage = new Container();
    stage.addChild(world);
    const target = RenderTexture.create({ width: WIDTH, height: HEIGHT });
    r.render({ container: stage, target, clear: true, clearColor: 0x000000 } as never);
    const { pixels, width } = r.extract.pixels(target);
    target.destroy(true);
    stage.removeChild(world);
    // the lit pixels' centroid and principal axis
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let py = 0; py < HEIGHT; py++) {
      for (let px = 0; px < width; px++) {
        if (pixels[4 * (py * width + px)]! < 128) continue;
        const wx = (px + 0.5) / SCALE + origin[0];
        const wy = (py + 0.5) / SCALE + origin[1];
        n++;
        sx += wx;
        sy += wy;
        sxx += wx * wx;
        syy += wy * wy;
        sxy += wx * wy;
      }
    }
    const cx = sx / n;
    const cy = sy / n;
    const axis = 0.5 * Math.atan2(2 * (sxy / n - cx * cy), sxx / n - cx * cx - (syy / n - cy * cy));
    expect(n, `alpha ${alpha}: the bar's area, 2 x 0.25 units at 16 px a unit`).toBeGreaterThan(110);
    expect(n).toBeLessThan(146);
    expect(Math.abs(cx - x)).toBeLessThan(TOLERANCE);
    expect(Math.abs(cy - y)).toBeLessThan(TOLERANCE);
    // along the angle, modulo a half turn (a bar has no front)
    const off = Math.abs(((axis - angle) % Math.PI) + Math.PI) % Math.PI;
    expect(Math.min(off, Math.PI - off), `alpha ${alpha}: the bar's axis ${axis} vs the angle ${angle}`).toBeLessThan(0.05);
  }
  sprites.dispose();
});

it('after one publish reuses the uploaded state as the previous one (a flip), after two copies both', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  const check = (time: number, what: string) => {
    const frame = runtime!.sample(time);
    const expected = [0, 1, 2].map((i) => frameMarker(frame, i));
    const origin: [number, number] = [expected[0]![0] - 3, expected[0]![1] - 4];
    expectMarkers(draw(r, world, expected, origin), expected, what);
  };
  sprites.update(timeAt(runtime, 0.5));
  check(timeAt(runtime, 0.5), 'first');

  await steps(runtime, 1);
  sprites.update(timeAt(runtime, 0.3));
  // drawn once by a WebGL renderer: from now on each upload goes from the shared memory to the GL buffers
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 1, directUploads: 1 });
  check(timeAt(runtime, 0.3), 'after a flip');

  await steps(runtime, 2);
  sprites.update(timeAt(runtime, 0.7));
  expect(sprites.stats).toMatchObject({ fullUploads: 2, swaps: 1 });
  check(timeAt(runtime, 0.7), 'after two publishes');

  // two flips without a render in between still leave the right bytes
  await steps(runtime, 1);
  sprites.update(timeAt(runtime, 0.1));
  await steps(runtime, 1);
  sprites.update(timeAt(runtime, 0.6));
  expect(sprites.stats).toMatchObject({ fullUploads: 2, swaps: 3, directUploads: 4 });
  expect(runtime.sample(timeAt(runtime, 0.6)).previousTick).toBe(6);
  check(timeAt(runtime, 0.6), 'after two flips between renders');
  sprites.dispose();
});

it('draws the pair its update uploaded, though the worker publishes twice over that slot before the render', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  const markersAt = (time: number) => {
    const frame = runtime!.sample(time);
    return [0, 1, 2].map((i) => frameMarker(frame, i));
  };
  const originOf = (expected: Array<[number, number]>): [number, number] => [expected[0]![0] - 3, expected[0]![1] - 4];
  sprites.update(timeAt(runtime, 0.5)); // not drawn yet: copied into Pixi's buffers
  draw(r, world, []);
  expect(sprites.stats.directUploads).toBe(0);

  for (const [ticks, what] of [[1, 'a flip'], [2, 'both states']] as const) {
    await steps(runtime, ticks);
    const time = timeAt(runtime, 0.4);
    sprites.update(time); // uploads straight from the front slot's views, under the lock
    const expected = markersAt(time);
    // two more publishes: the second writes into the slot those views showed
    await steps(runtime, 2);
    const moved = markersAt(timeAt(runtime, 0.4));
    expect(Math.abs(moved[0]![0] - expected[0]![0]), 'the newer pair is elsewhere').toBeGreaterThan(0.5);
    expectMarkers(draw(r, world, expected, originOf(expected)), expected, `${what}, rendered after two publishes`);
  }
  expect(sprites.stats).toMatchObject({ fullUploads: 2, swaps: 1, directUploads: 2 });

  // a second renderer draws the mesh too: each has its own GL buffers, so the uploads go through Pixi again
  const other = new WebGLRenderer();
  await other.init({ width: WIDTH, height: HEIGHT, background: 0x000000, antialias: false, preference: 'webgl' } as never);
  try {
    const time = timeAt(runtime, 0.6);
    draw(other, world, []);
    sprites.update(time);
    expect(sprites.stats).toMatchObject({ fullUploads: 3, directUploads: 2 });
    const expected = markersAt(time);
    expectMarkers(draw(other, world, expected, originOf(expected)), expected, 'the second renderer');
    expectMarkers(draw(r, world, expected, originOf(expected)), expected, 'the first renderer, after the second');
  } finally {
    other.destroy();
  }
  sprites.dispose();
});

it('draws a teleported and a spawned entity at their new state, with no streak between', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  sprites.update(timeAt(runtime, 0.5));

  await runtime.commands.teleport(1, 5); // 5 units right on the next tick, marked to snap
  await runtime.commands.setCount(4); // entity 3 is new on the next tick
  await steps(runtime, 1); // the pair is ticks 2 and 3 (a flip: the generations are compared in the shader)
  const time = timeAt(runtime, 0.5);
  sprites.update(time);
  const frame = runtime.sample(time);
  expect(frame.snapped).toBe(2); // the runtime snaps the same two
  expect(sprites.count).toBe(4);
  // the tick marked snaps: both states' generations uploaded (the previous state's were not on the GPU yet)
  expect(sprites.stats.generationUploads).toBe(2);
  const expected = [0, 1, 2, 3].map((i) => frameMarker(frame, i));
  const at = (i: number, k: number, dx = 0) => {
    const m = motionAt(i, k);
    return marker(m.x + dx, m.y, m.angle);
  };
  // the runtime's snapped poses are the new states: entity 1 at tick 3 moved 5 right, entity 3 at tick 3
  expect(expected[1]![0]).toBeCloseTo(at(1, 3, 5)[0], 4);
  expect(expected[3]![0]).toBeCloseTo(at(3, 3)[0], 4);
  // a blend would have drawn entity 1 2.5 units short of there, where nothing may be lit
  const streak = at(1, 2.5, 2.5);
  const origin: [number, number] = [1, expected[0]![1] - 5];
  const drawn = draw(r, world, [...expected, streak], origin);
  expect(drawn.markers[4]!.n, 'pixels where a blend would have drawn the teleported entity').toBe(0);
  drawn.markers.pop();
  expectMarkers(drawn, expected, 'snap tick');

  // the next tick blends them all again
  await steps(runtime, 1);
  const next = timeAt(runtime, 0.5);
  sprites.update(next);
  const after = runtime.sample(next);
  expect(after.snapped).toBe(0);
  const again = [0, 1, 2, 3].map((i) => frameMarker(after, i));
  expect(again[1]![0]).toBeCloseTo(at(1, 3.5, 5)[0], 4);
  expectMarkers(draw(r, world, again, [1, again[0]![1] - 5]), again, 'the tick after');
  // no snaps marked: no generations uploaded, and none compared (the buffers still hold the older pair's)
  expect(sprites.stats).toMatchObject({ fullUploads: 1, swaps: 2, generationUploads: 2 });

  // a teleport again, one tick later: the previous state's generations are the ones uploaded two ticks ago
  await runtime.commands.teleport(2, 5);
  await steps(runtime, 1);
  const third = timeAt(runtime, 0.5);
  sprites.update(third);
  const moved = runtime.sample(third);
  expect(moved.snapped).toBe(1);
  expect(sprites.stats).toMatchObject({ swaps: 3, generationUploads: 4 });
  const poses = [0, 1, 2, 3].map((i) => frameMarker(moved, i));
  expectMarkers(draw(r, world, poses, [1, poses[0]![1] - 5]), poses, 'a second teleport');
  sprites.dispose();
});

it('grows its vertex buffers as the count grows past them, and draws every entity', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { ...options, initialCapacity: 2 });
  expect(sprites.bufferCapacity).toBe(2);
  const world = new Container();
  world.addChild(sprites.mesh);
  sprites.update(timeAt(runtime, 0.5)); // 3 entities: 2 -> 4
  expect(sprites.bufferCapacity).toBe(4);
  await runtime.commands.setCount(7);
  await steps(runtime, 1); // 7 entities: 4 -> 8 (the runtime's capacity)
  const time = timeAt(runtime, 0.4);
  sprites.update(time);
  expect(sprites.bufferCapacity).toBe(8);
  expect(sprites.stats.grows).toBe(2);
  const frame = runtime.sample(time);
  expect(frame.count).toBe(7);
  const expected = Array.from({ length: 7 }, (_, i) => frameMarker(frame, i));
  expectMarkers(draw(r, world, expected, [expected[0]![0] - 2, expected[0]![1] - 4]), expected, 'after growing');
  // and a flip after the growth
  await steps(runtime, 1);
  const next = timeAt(runtime, 0.6);
  sprites.update(next);
  expect(sprites.stats.swaps).toBe(1);
  const after = runtime.sample(next);
  const again = Array.from({ length: 7 }, (_, i) => frameMarker(after, i));
  expectMarkers(draw(r, world, again, [again[0]![0] - 2, again[0]![1] - 4]), again, 'a flip after growing');
  sprites.dispose();
});

it('draws thousands of entities from buffers grown to 4,096, and nothing for no entities', async () => {
  runtime = await createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity: 4096,
    pacing: { adaptive: false },
  });
  await runtime.commands.setCount(0);
  await steps(runtime, 2);
  const r = await createRenderer();
  const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, options);
  const world = new Container();
  world.addChild(sprites.mesh);
  sprites.update(timeAt(runtime, 0.5));
  expect(sprites.count).toBe(0);
  expect(draw(r, world, []).lit).toBe(0);

  await runtime.commands.setCount(2100);
  await steps(runtime, 2);
  const time = timeAt(runtime, 0.5);
  sprites.update(time);
  expect(sprites.count).toBe(2100);
  expect(sprites.bufferCapacity).toBe(4096);
  const frame = runtime.sample(time);
  // a few far into the buffers
  for (const first of [1022, 2046]) {
    const ids = [0, 1, 2, 3, 4].map((k) => first + k);
    const expected = ids.map((i) => frameMarker(frame, i));
    const m = motionAt(first, frame.previousTick + frame.alpha);
    expect(expected[0]![0]).toBeCloseTo(marker(m.x, m.y, m.angle)[0], 3);
    const origin: [number, number] = [expected[0]![0] - 2, expected[0]![1] - 4];
    // the view holds these five and parts of their neighbours at the edges: count only the five
    const drawn = draw(r, world, expected, origin);
    for (const [k, m] of drawn.markers.entries()) {
      expect(m.n, `entity ${ids[k]}`).toBeGreaterThan(48);
      expect(Math.abs(m.x - expected[k]![0]), `entity ${ids[k]} x`).toBeLessThan(TOLERANCE);
      expect(Math.abs(m.y - expected[k]![1]), `entity ${ids[k]} y`).toBeLessThan(TOLERANCE);
    }
  }
  sprites.dispose();
});

it('reads the pair meta words the runtime reads, and refuses fields it cannot draw', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const rt = runtime;
  const sprites = createInterpolatedSprites(rt, { position: 'position' });
  const time = timeAt(rt, 0.3);
  sprites.update(time);
  const meta = rt.reader.read((pair) => ({ count: countOf(pair), previousTime: previousTimeOf(pair), currentTime: currentTimeOf(pair) }))!;
  expect(sprites.count).toBe(meta.count);
  expect(sprites.alpha).toBeCloseTo((time - meta.previousTime) / (meta.currentTime - meta.previousTime), 9);
  sprites.dispose();
  // @ts-expect-error: the GPU path draws no per-entity scale
  expect(() => createInterpolatedSprites(rt, { position: 'position', scale: 'scale' })).toThrow(/bind scale and alpha with bindParticles/);
  // @ts-expect-error: a quaternion is not a 2D angle
  expect(() => createInterpolatedSprites(rt, { position: 'position', angle: 'quaternion' })).toThrow(/fields\.angle "quaternion"/);
  expect(() => createInterpolatedSprites(rt, { position: 'position' }, { initialCapacity: 0 })).toThrow(/initialCapacity/);
});

/*
 * The uploads go straight from the shared memory into Pixi's GL buffers, so the Pixi Buffers' own arrays never
 * hold the states. When Pixi drops a GL buffer and rebuilds it from that array (its GC unloads a buffer unused
 * for `gcMaxUnusedTime`; a lost context is restored), the next update must upload both states again: the same
 * pair at the same time draws the same picture as before (it drew the first frame's poses).
 */

const lit = (mask: Uint8Array): number => mask.reduce((n, v) => n + v, 0);
const differing = (a: Uint8Array, b: Uint8Array): number => a.reduce((n, v, i) => n + (v !== b[i] ? 1 : 0), 0);
/** Where the reload tests look: the motion's entities, scaled to pixels. */
const RELOAD_ORIGIN: [number, number] = [3, 8];

/** Draws once (the renderer becomes known: uploads go direct), then a full and a swap upload, direct. */
async function drawnDirect(gc: boolean) {
  const rt = (runtime = await motionRuntime());
  await steps(rt, 3);
  const r = await createRenderer(gc ? { gcMaxUnusedTime: 50, gcFrequency: 20 } : {});
  const sprites = createInterpolatedSprites(rt, { position: 'position', angle: 'angle' }, { texture: Texture.WHITE, width: 0.5, height: 0.5 });
  const world = new Container();
  world.addChild(sprites.mesh);
  sprites.update(timeAt(rt, 0.5));
  litMask(r, world, RELOAD_ORIGIN);
  await steps(rt, 2);
  sprites.update(timeAt(rt, 0.5));
  await steps(rt, 1);
  const time = timeAt(rt, 0.5);
  sprites.update(time);
  expect(sprites.stats.directUploads).toBe(2);
  const before = litMask(r, world, RELOAD_ORIGIN);
  expect(lit(before)).toBeGreaterThan(50);
  return { r, sprites, world, time, before };
}

/** The mesh off the stage (a menu, a hidden layer) for 0.5 s while the renderer draws other things. */
async function awayFromStage(r: WebGLRenderer): Promise<void> {
  const empty = new Container();
  for (let i = 0; i < 20; i++) {
    r.render({ container: empty });
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('control: the mesh away from the stage with no GC is drawn the same afterwards', async () => {
  const { r, sprites, world, time, before } = await drawnDirect(false);
  await awayFromStage(r);
  sprites.update(time);
  expect(differing(before, litMask(r, world, RELOAD_ORIGIN))).toBe(0);
  sprites.dispose();
});

it("after Pixi's GC unloaded its buffers, the same pair at the same time is drawn the same (not the first frame's poses)", async () => {
  const { r, sprites, world, time, before } = await drawnDirect(true);
  await awayFromStage(r);
  const full = sprites.stats.fullUploads;
  sprites.update(time); // no publish since: the buffers are uploaded again because Pixi unloaded them
  expect(sprites.stats.fullUploads).toBe(full + 1);
  expect(differing(before, litMask(r, world, RELOAD_ORIGIN))).toBe(0);
  sprites.dispose();
});

it('after a lost WebGL context is restored, the same pair at the same time is drawn the same', async () => {
  const { r, sprites, world, time, before } = await drawnDirect(false);
  const canvas = r.canvas as HTMLCanvasElement;
  const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
  (r as unknown as { context: { forceContextLoss(): void } }).context.forceContextLoss();
  await restored;
  await new Promise((resolve) => setTimeout(resolve, 50));
  sprites.update(time);
  expect(differing(before, litMask(r, world, RELOAD_ORIGIN))).toBe(0);
  sprites.dispose();
});
