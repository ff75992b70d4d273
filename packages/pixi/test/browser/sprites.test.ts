import { afterEach, expect, it } from 'vitest';
import { Container, Sprite, Texture } from 'pixi.js';
import { wrapAngle } from 'steadyframe/adapter';
import { bindSprites } from '@steadyframe/pixi';
import { motionAt } from './fixtures/schema.ts';
import { motionRuntime, steps, timeAt, type MotionFrame, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const makeSprites = (n: number) => Array.from({ length: n }, () => new Sprite(Texture.WHITE));

/** Sprite i holds the frame's entity i exactly, and the analytic motion at the frame's tick and alpha. */
function expectSpriteLike(sprite: Container, frame: MotionFrame, i: number): void {
  const { position, angle, scale, alpha } = frame.fields;
  expect(sprite.visible).toBe(true);
  expect(sprite.x).toBe(position[2 * i]);
  expect(sprite.y).toBe(position[2 * i + 1]);
  expect(sprite.rotation).toBe(angle[i]);
  expect(sprite.scale.x).toBe(scale[i]);
  expect(sprite.scale.y).toBe(scale[i]);
  expect(sprite.alpha).toBe(alpha[i]);
  const m = motionAt(i, frame.previousTick + frame.alpha);
  expect(sprite.x).toBeCloseTo(m.x, 4);
  expect(sprite.y).toBeCloseTo(m.y, 4);
  expect(Math.abs(wrapAngle(sprite.rotation - m.angle))).toBeLessThan(1e-5);
  expect(sprite.scale.x).toBeCloseTo(m.scale, 5);
  expect(sprite.alpha).toBeCloseTo(m.alpha, 5);
}

it('sets x, y, rotation, scale and alpha to the values runtime.sample interpolates, and hides sprites past the count', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const sprites = makeSprites(5);
  const binding = bindSprites(runtime, sprites, { position: 'position', angle: 'angle', scale: 'scale', alpha: 'alpha' });
  for (const alpha of [0, 0.35, 0.5, 1]) {
    const frame = runtime.sample(timeAt(runtime, alpha));
    expect(frame.previousTick + frame.alpha).toBeCloseTo(2 + alpha, 6);
    binding.update(frame);
    for (let i = 0; i < 3; i++) expectSpriteLike(sprites[i]!, frame, i);
    expect(sprites[3]!.visible).toBe(false);
    expect(sprites[4]!.visible).toBe(false);
  }
  expect(binding.overflow).toBe(0);
  // a fourth entity: its sprite shows again, at its (snapped) first state
  await runtime.commands.setCount(4);
  await steps(runtime, 1);
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  for (let i = 0; i < 3; i++) expectSpriteLike(sprites[i]!, frame, i);
  expect(sprites[3]!.visible).toBe(true);
  expect(sprites[3]!.x).toBeCloseTo(motionAt(3, 4).x, 4);
  expect(sprites[4]!.visible).toBe(false);
});

it('turns the short way where the stored angle wraps, and reads a linear angle and a two-wide scale', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 11); // the angle wraps from 3.0 to 3.3 - 2 PI between ticks 10 and 11
  const sprites = makeSprites(3);
  const wrapped = bindSprites(runtime, sprites, { position: 'position', angle: 'angle', scale: 'stretch' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  wrapped.update(frame);
  const m = motionAt(0, 10.5);
  expect(Math.abs(wrapAngle(sprites[0]!.rotation - m.angle))).toBeLessThan(1e-5);
  expect(sprites[0]!.scale.x).toBeCloseTo(m.stretchX, 5);
  expect(sprites[0]!.scale.y).toBeCloseTo(m.stretchY, 5);
  const unwrapped = bindSprites(runtime, sprites, { position: 'position', angle: 'turn' });
  unwrapped.update(frame);
  expect(sprites[0]!.rotation).toBeCloseTo(m.turn, 5);
});

it('leaves rotation, scale and alpha alone when those fields are not bound, and counts entities past the sprites', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const sprites = makeSprites(2);
  for (const s of sprites) {
    s.rotation = 0.7;
    s.scale.set(3);
    s.alpha = 0.4;
  }
  const binding = bindSprites(runtime, sprites, { position: 'position' });
  const frame = runtime.sample(timeAt(runtime, 0.25));
  binding.update(frame);
  expect(binding.overflow).toBe(1);
  for (let i = 0; i < 2; i++) {
    expect(sprites[i]!.x).toBeCloseTo(motionAt(i, 1.25).x, 4);
    expect(sprites[i]!.rotation).toBe(0.7);
    expect(sprites[i]!.scale.x).toBe(3);
    expect(sprites[i]!.alpha).toBeCloseTo(0.4, 6);
  }
});

it('shows a teleported entity at its new place, not streaked from the old one', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  await runtime.commands.teleport(1, 5);
  await steps(runtime, 1);
  const sprites = makeSprites(3);
  const binding = bindSprites(runtime, sprites, { position: 'position', angle: 'angle' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(frame.snapped).toBeGreaterThan(0);
  expect(sprites[0]!.x).toBeCloseTo(motionAt(0, 2.5).x, 4);
  expect(sprites[1]!.x).toBeCloseTo(motionAt(1, 3).x + 5, 4);
  expect(sprites[2]!.x).toBeCloseTo(motionAt(2, 2.5).x, 4);
});

it('moves any Container, with a none-kind alpha', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const containers = [new Container(), new Container(), new Container()];
  const binding = bindSprites(runtime, containers, { position: 'position', alpha: 'blink' });
  // a none field does not blend: the previous state's value at alpha 0 (tick 2: 2 % 2 = 0), the current one's
  // once past it (tick 3: 1), the discrete rule
  binding.update(runtime.sample(timeAt(runtime, 0)));
  expect(containers[0]!.alpha).toBe(0);
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(containers[0]!.alpha).toBe(1);
  expect(containers[2]!.y).toBeCloseTo(motionAt(2, 2.5).y, 4);
});

it('throws at set-up naming a field that does not fit', async () => {
  runtime = await motionRuntime();
  const sprites = makeSprites(1);
  const rt = runtime;
  // @ts-expect-error: not a field of the schema
  expect(() => bindSprites(rt, sprites, { position: 'nowhere' })).toThrow(/fields\.position names "nowhere"/);
  // @ts-expect-error: the angle is one wide
  expect(() => bindSprites(rt, sprites, { position: 'angle' })).toThrow(/fields\.position "angle" must be a linear field of width 2/);
  // @ts-expect-error: a quaternion is not a 2D angle
  expect(() => bindSprites(rt, sprites, { position: 'position', angle: 'quaternion' })).toThrow(/fields\.angle "quaternion"/);
  // @ts-expect-error: the scale is one or two wide
  expect(() => bindSprites(rt, sprites, { position: 'position', scale: 'quaternion' })).toThrow(/fields\.scale "quaternion"/);
  // @ts-expect-error: alpha is one wide
  expect(() => bindSprites(rt, sprites, { position: 'position', alpha: 'position' })).toThrow(/fields\.alpha "position"/);
  expect(() => bindSprites(rt, sprites, { position: 'position', angle: 'turn', scale: 'stretch', alpha: 'blink' })).not.toThrow();
});
