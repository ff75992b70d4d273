/**
 * bindSprites and bindGroup on real Phaser game objects: each bound object holds exactly what the runtime's
 * frame interpolated (and the analytic motion of the fixture at the frame's tick and alpha), objects past the
 * count hide, a group grows as a pool and gives members back; and a rendered frame shows the sprite where the
 * frame puts it.
 */
import { afterEach, expect, it } from 'vitest';
import { GameObjects, type Game, type Scene } from 'phaser';
import { wrapAngle } from 'steadyframe/adapter';
import { attachToGame, bindGroup, bindSprites, type PoseTarget } from '@steadyframe/phaser';
import { canvasBounds, expectBoxAt, makeGame, motionAt, motionRuntime, refresh, steps, timeAt, white, type MotionFrame, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let game: Game | undefined;
afterEach(() => {
  game?.destroy(true);
  runtime?.dispose();
  game = undefined;
  runtime = undefined;
});

/** A runtime stepped `ticks` times, and a running game's scene to make objects in. */
async function setUp(ticks: number, capacity = 8): Promise<{ rt: MotionRuntime; scene: Scene }> {
  runtime = await motionRuntime(capacity);
  await steps(runtime, ticks);
  let made: Scene | null = null;
  game = await makeGame({
    create(this: Scene) {
      made = this;
    },
  });
  return { rt: runtime, scene: made! };
}

/**
 * Object i holds the frame's entity i, and (unless the entity just came in and snapped to its first state) the
 * analytic motion at the frame's tick and alpha.
 */
function expectPoseOf(o: PoseTarget, frame: MotionFrame, i: number, analytic = true): void {
  const { position, angle, scale, alpha } = frame.fields;
  expect(o.visible).toBe(true);
  expect(o.x).toBe(position[2 * i]);
  expect(o.y).toBe(position[2 * i + 1]);
  expect(Math.abs(wrapAngle(o.rotation - angle[i]!))).toBeLessThan(1e-6); // Phaser keeps rotation wrapped
  expect(o.scaleX).toBe(scale[i]);
  expect(o.scaleY).toBe(scale[i]);
  expect(o.alpha).toBe(alpha[i]);
  if (!analytic) return;
  const m = motionAt(i, frame.previousTick + frame.alpha);
  expect(o.x).toBeCloseTo(m.x, 4);
  expect(o.y).toBeCloseTo(m.y, 4);
  expect(Math.abs(wrapAngle(o.rotation - m.angle))).toBeLessThan(1e-5);
  expect(o.scaleX).toBeCloseTo(m.scale, 5);
  expect(o.alpha).toBeCloseTo(m.alpha, 5);
}

const ALL = { position: 'position', angle: 'angle', scale: 'scale', alpha: 'alpha' } as const;

it('bindSprites sets x, y, rotation, scale and alpha to what the runtime interpolates, and hides objects past the count', async () => {
  const { rt, scene } = await setUp(3);
  const sprites = Array.from({ length: 5 }, () => scene.add.image(0, 0, '__WHITE'));
  const binding = bindSprites(rt, sprites, ALL);
  for (const alpha of [0, 0.35, 0.5, 1]) {
    const frame = rt.sample(timeAt(rt, alpha));
    expect(frame.previousTick + frame.alpha).toBeCloseTo(2 + alpha, 6);
    binding.update(frame);
    for (let i = 0; i < 3; i++) expectPoseOf(sprites[i]!, frame, i);
    expect(sprites[3]!.visible).toBe(false);
    expect(sprites[4]!.visible).toBe(false);
  }
  expect(binding.overflow).toBe(0);
  // a fourth entity: its object shows again, at its (snapped) first state
  await rt.commands.setCount(4);
  await steps(rt, 1);
  const frame = rt.sample(timeAt(rt, 0.5));
  binding.update(frame);
  for (let i = 0; i < 3; i++) expectPoseOf(sprites[i]!, frame, i);
  expect(sprites[3]!.visible).toBe(true);
  expect(sprites[3]!.x).toBeCloseTo(motionAt(3, 4).x, 4);
  // fewer objects than entities: the rest are counted, not drawn
  const two = bindSprites(rt, sprites.slice(0, 2), { position: 'position' });
  two.update(frame);
  expect(two.overflow).toBe(2);
});

it('turns the short way where the stored angle wraps, reads a linear angle and a two-wide scale, and leaves unbound values alone', async () => {
  const { rt, scene } = await setUp(11); // the angle wraps from 3.0 to 3.3 - 2 PI between ticks 10 and 11
  const sprites = Array.from({ length: 3 }, () => scene.add.image(0, 0, '__WHITE'));
  const frame = rt.sample(timeAt(rt, 0.5));
  bindSprites(rt, sprites, { position: 'position', angle: 'angle', scale: 'stretch' }).update(frame);
  const m = motionAt(0, 10.5);
  expect(Math.abs(wrapAngle(sprites[0]!.rotation - m.angle))).toBeLessThan(1e-5);
  expect(sprites[0]!.scaleX).toBeCloseTo(m.stretchX, 5);
  expect(sprites[0]!.scaleY).toBeCloseTo(m.stretchY, 5);
  bindSprites(rt, sprites, { position: 'position', angle: 'turn' }).update(frame);
  expect(Math.abs(wrapAngle(sprites[0]!.rotation - m.turn))).toBeLessThan(1e-5);
  for (const s of sprites) s.setRotation(0.7).setScale(2).setAlpha(0.4);
  bindSprites(rt, sprites, { position: 'position' }).update(frame);
  expect(sprites[1]!.x).toBeCloseTo(motionAt(1, 10.5).x, 4);
  expect(sprites.map((s) => [s.rotation, s.scaleX, s.alpha])).toEqual(sprites.map(() => [expect.closeTo(0.7, 6), 2, expect.closeTo(0.4, 6)]));
});

it('bindGroup grows the group as a pool, gives members back when entities go, and comes back without making more', async () => {
  const { rt, scene } = await setUp(2, 64);
  const group = scene.add.group({ defaultKey: '__WHITE' });
  const binding = bindGroup(rt, group, ALL);
  let frame = rt.sample(timeAt(rt, 0.5));
  binding.update(frame);
  const members = () => group.getChildren() as GameObjects.Image[];
  expect(members()).toHaveLength(3);
  expect(binding.made).toBe(3);
  expect(members().every((m) => m.active && m.displayList === scene.children)).toBe(true);
  for (let i = 0; i < 3; i++) expectPoseOf(members()[i]!, frame, i);

  await rt.commands.setCount(40);
  await steps(rt, 1);
  frame = rt.sample(timeAt(rt, 0.5));
  binding.update(frame);
  expect(members()).toHaveLength(40);
  expect(group.countActive(true)).toBe(40);
  for (let i = 0; i < 40; i++) expectPoseOf(members()[i]!, frame, i, i < 3); // entities 3.. came in: snapped

  await rt.commands.setCount(5);
  await steps(rt, 1);
  frame = rt.sample(timeAt(rt, 0.25));
  binding.update(frame);
  expect(members()).toHaveLength(40); // the pool keeps them
  expect(group.countActive(true)).toBe(5);
  expect(members().slice(5).some((m) => m.visible || m.active)).toBe(false);
  for (let i = 0; i < 5; i++) expectPoseOf(members()[i]!, frame, i);

  await rt.commands.setCount(30);
  await steps(rt, 1);
  frame = rt.sample(timeAt(rt, 0.75));
  binding.update(frame);
  expect(binding.made).toBe(40); // back from the pool, none made
  expect(group.countActive(true)).toBe(30);
  for (let i = 0; i < 30; i++) expectPoseOf(members()[i]!, frame, i, i < 5);
  expect(members()[30]!.visible).toBe(false);
});

it('bindGroup stops at the group maxSize and counts the rest; make(i) and reserve make members up front', async () => {
  const { rt, scene } = await setUp(1, 64);
  await rt.commands.setCount(10);
  await steps(rt, 1);
  const frame = rt.sample(timeAt(rt, 0.5));

  const full = bindGroup(rt, scene.add.group({ defaultKey: '__WHITE', maxSize: 6 }), { position: 'position' });
  full.update(frame);
  expect(full.group.getChildren()).toHaveLength(6);
  expect(full.overflow).toBe(4);

  const madeAt: number[] = [];
  const group = scene.add.group();
  const custom = bindGroup(rt, group, { position: 'position' }, {
    make: (i) => {
      madeAt.push(i);
      // one on the display list already, one not: the binding adds the second to the scene
      return i % 2 === 0 ? scene.add.image(0, 0, '__WHITE').setTint(0xff0000) : new GameObjects.Image(scene, 0, 0, '__WHITE');
    },
  });
  custom.reserve(12);
  expect(madeAt).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  const members = group.getChildren() as GameObjects.Image[];
  expect(members.every((m) => m.displayList === scene.children && !m.visible && !m.active)).toBe(true);
  expect(scene.children.list.filter((c) => members.includes(c as GameObjects.Image))).toHaveLength(12); // each once
  custom.update(frame);
  expect(custom.made).toBe(12);
  expect(group.countActive(true)).toBe(10);
  expect(members[9]!.x).toBe(frame.fields.position[18]);
  expect(members[9]!.x).toBeCloseTo(motionAt(9, 2).x, 4); // it came in at tick 2: snapped there
  expect(() => custom.reserve(-1)).toThrow(/whole number/);
  expect(() => bindGroup(rt, group, { position: 'position' }, { make: () => null as never }).reserve(20)).toThrow(/must return a game object/);
});

it('throws at set-up on a field that does not fit, naming it and this package', async () => {
  const { rt, scene } = await setUp(0);
  const group = scene.add.group();
  expect(() => bindSprites(rt, [], { position: 'angle' } as never)).toThrow(/@steadyframe\/phaser: fields.position "angle" must be a linear field of width 2/);
  expect(() => bindGroup(rt, group, { position: 'position', angle: 'quaternion' } as never)).toThrow(/@steadyframe\/phaser: fields.angle "quaternion"/);
  expect(() => bindGroup(rt, group, { position: 'nope' } as never)).toThrow(/@steadyframe\/phaser: fields.position/);
  expect(() => bindGroup(rt, {} as never, { position: 'position' })).toThrow(/takes a Phaser Group/);
  expect(() => bindSprites(rt, null as never, { position: 'position' })).toThrow(/array of game objects/);
});

it('a rendered frame shows the sprite where the frame puts it', async () => {
  const { rt, scene } = await setUp(3);
  await rt.commands.setCount(1);
  await steps(rt, 1);
  // the fixture moves in small units: draw in a container scaled 8×, a 4×4 white image becomes 32×32 pixels
  const layer = scene.add.container(0, 0).setScale(8);
  const image = scene.add.image(0, 0, '__WHITE');
  layer.add(image);
  expect(image.width).toBe(4);
  const binding = bindSprites(rt, [image], { position: 'position' });
  const loop = attachToGame(game!, rt, (frame) => binding.update(frame));
  for (const alpha of [0, 0.5, 1]) {
    const time = timeAt(rt, alpha);
    await refresh(game!, time);
    const m = motionAt(0, 3 + alpha);
    expectBoxAt(canvasBounds(game!, white), m.x, m.y, `alpha ${alpha}`);
  }
  expect(loop.rendered).toBe(3);
});
