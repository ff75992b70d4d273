import { afterEach, expect, it } from 'vitest';
import { Particle, ParticleContainer, Texture } from 'pixi.js';
import { wrapAngle } from 'steadyframe';
import { bindParticles } from '@steadyframe/pixi';
import { motionAt } from './fixtures/schema.ts';
import { motionRuntime, steps, timeAt, type MotionFrame, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const dynamic = { position: true, rotation: true, vertex: true, color: true };

/** Particle i holds the frame's entity i exactly, and the analytic motion at the frame's tick and alpha. */
function expectParticleLike(p: Particle, frame: MotionFrame, i: number): void {
  const { position, angle, scale, alpha } = frame.fields;
  expect(p.x).toBe(position[2 * i]);
  expect(p.y).toBe(position[2 * i + 1]);
  expect(p.rotation).toBe(angle[i]);
  expect(p.scaleX).toBe(scale[i]);
  expect(p.scaleY).toBe(scale[i]);
  expect(p.alpha).toBeCloseTo(alpha[i]!, 2); // Pixi keeps alpha as a byte of the packed colour
  const m = motionAt(i, frame.previousTick + frame.alpha);
  expect(p.x).toBeCloseTo(m.x, 4);
  expect(p.y).toBeCloseTo(m.y, 4);
  expect(Math.abs(wrapAngle(p.rotation - m.angle))).toBeLessThan(1e-5);
  expect(p.scaleX).toBeCloseTo(m.scale, 5);
}

it('keeps one particle per entity, at the values runtime.sample interpolates', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const binding = bindParticles(runtime, container, { position: 'position', angle: 'angle', scale: 'scale', alpha: 'alpha' });
  for (const alpha of [0, 0.35, 0.5, 1]) {
    const frame = runtime.sample(timeAt(runtime, alpha));
    binding.update(frame);
    expect(container.particleChildren.length).toBe(3);
    for (let i = 0; i < 3; i++) expectParticleLike(container.particleChildren[i] as Particle, frame, i);
  }
  expect(binding.made).toBe(3);
});

it('grows and shrinks the particle list with frame.count, reusing the particles it made', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 1);
  const container = new ParticleContainer({ dynamicProperties: dynamic });
  const made: number[] = [];
  const binding = bindParticles(runtime, container, { position: 'position', angle: 'angle' }, (i) => {
    made.push(i);
    return new Particle(Texture.WHITE);
  });
  binding.update(runtime.sample(timeAt(runtime, 0.5)));
  expect(container.particleChildren.length).toBe(3);
  const first = container.particleChildren.slice();
  await runtime.commands.setCount(6);
  await steps(runtime, 1);
  let frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(frame.count).toBe(6);
  expect(container.particleChildren.length).toBe(6);
  for (let i = 0; i < 6; i++) expect(container.particleChildren[i]!.x).toBeCloseTo(frame.fields.position[2 * i]!, 6);
  expect(container.particleChildren[5]!.x).toBeCloseTo(motionAt(5, 2).x, 4); // spawned: snapped to its first state
  await runtime.commands.setCount(2);
  await steps(runtime, 1);
  frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(container.particleChildren.length).toBe(2);
  await runtime.commands.setCount(5);
  await steps(runtime, 1);
  frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(container.particleChildren.length).toBe(5);
  expect(made).toEqual([0, 1, 2, 3, 4, 5]); // no particle made twice
  for (let i = 0; i < 3; i++) expect(container.particleChildren[i]).toBe(first[i]);
  for (let i = 0; i < 5; i++) expect(container.particleChildren[i]!.y).toBe(frame.fields.position[2 * i + 1]);
  expect(binding.made).toBe(6);
});

it('adopts particles already in the container, and writes a two-wide scale', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const own = [new Particle(Texture.WHITE), new Particle(Texture.WHITE)];
  const container = new ParticleContainer({ particles: own.slice(), dynamicProperties: dynamic });
  const binding = bindParticles(runtime, container, { position: 'position', scale: 'stretch' });
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  expect(container.particleChildren[0]).toBe(own[0]);
  expect(container.particleChildren[1]).toBe(own[1]);
  expect(container.particleChildren.length).toBe(3);
  const m = motionAt(2, 1.5);
  expect(container.particleChildren[2]!.scaleX).toBeCloseTo(m.stretchX, 5);
  expect(container.particleChildren[2]!.scaleY).toBeCloseTo(m.stretchY, 5);
});

it('shows a teleported entity at its new place', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  await runtime.commands.teleport(2, -4);
  await steps(runtime, 1);
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const binding = bindParticles(runtime, container, { position: 'position' });
  binding.update(runtime.sample(timeAt(runtime, 0.5)));
  expect(container.particleChildren[0]!.x).toBeCloseTo(motionAt(0, 2.5).x, 4);
  expect(container.particleChildren[2]!.x).toBeCloseTo(motionAt(2, 3).x - 4, 4);
});

it('throws at set-up naming a field that does not fit', async () => {
  runtime = await motionRuntime();
  const rt = runtime;
  const container = new ParticleContainer();
  // @ts-expect-error: a quaternion is not a 2D angle
  expect(() => bindParticles(rt, container, { position: 'position', angle: 'quaternion' })).toThrow(/fields\.angle "quaternion"/);
});
