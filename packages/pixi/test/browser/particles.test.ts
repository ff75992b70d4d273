import { afterEach, expect, it } from 'vitest';
import { Particle, ParticleContainer, Texture, type ParticleOptions } from 'pixi.js';
import { wrapAngle } from 'steadyframe/adapter';
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

it('takes particles already in the container as the first looks, and writes a two-wide scale', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 2);
  const own = [new Particle({ texture: Texture.WHITE, anchorX: 0.25, tint: 0xff0000 }), new Particle({ texture: Texture.WHITE, rotation: 1.5, alpha: 0.5 })];
  const container = new ParticleContainer({ particles: own.slice(), dynamicProperties: dynamic });
  const binding = bindParticles(runtime, container, { position: 'position', scale: 'stretch' });
  expect(binding.made).toBe(2);
  const frame = runtime.sample(timeAt(runtime, 0.5));
  binding.update(frame);
  const [a, b, c] = container.particleChildren as Particle[];
  // the binding's own particles, with the adopted ones' looks (rotation and alpha are not bound here)
  expect(a).not.toBe(own[0]);
  expect([a!.anchorX, a!.tint, a!.texture]).toEqual([0.25, 0xff0000, Texture.WHITE]);
  expect([b!.rotation, b!.alpha, b!.color]).toEqual([1.5, 0.5, own[1]!.color]);
  expect(container.particleChildren.length).toBe(3);
  const m = motionAt(2, 1.5);
  expect(c!.scaleX).toBeCloseTo(m.stretchX, 5);
  expect(c!.scaleY).toBeCloseTo(m.stretchY, 5);
  expect(a!.x).toBe(frame.fields.position[0]);
});

it('reads the newest frame: no copy per particle, and bound properties refuse writes', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 3);
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const binding = bindParticles(runtime, container, { position: 'position', angle: 'angle', alpha: 'alpha' }, () => ({
    texture: Texture.WHITE,
    tint: 0x00ff00,
    scaleX: 3,
  }));
  binding.update(runtime.sample(timeAt(runtime, 0.25)));
  const p = container.particleChildren[1] as Particle;
  // the next frame is read through the same particle, without another update (the views are the render buffer)
  const frame = runtime.sample(timeAt(runtime, 0.75));
  expect(p.x).toBe(frame.fields.position[2]);
  expect(p.rotation).toBe(frame.fields.angle[1]);
  expect(p.alpha).toBeCloseTo(frame.fields.alpha[1]!, 6);
  // Pixi's packed colour: the tint (bgr) under the drawn alpha's byte, as Particle packs it
  expect(p.color >>> 0).toBe(((((frame.fields.alpha[1]! * 255) | 0) << 24) + 0x00ff00) >>> 0);
  expect(() => {
    p.x = 5;
  }).toThrow(/particle 1's x is the runtime's interpolated "position"/);
  expect(() => {
    p.rotation = 1;
  }).toThrow(/rotation is the runtime's interpolated "angle"/);
  expect(() => {
    p.alpha = 1;
  }).toThrow(/alpha is the runtime's interpolated "alpha"/);
  expect(() => {
    p.color = 0;
  }).toThrow(/color is the runtime's interpolated "alpha"/);
  // what is not bound stays the particle's own
  p.tint = 0x0000ff;
  p.scaleY = 2;
  expect([p.tint, p.scaleX, p.scaleY]).toEqual([0x0000ff, 3, 2]);
  expect(p.color >>> 0).toBe(((((frame.fields.alpha[1]! * 255) | 0) << 24) + 0xff0000) >>> 0); // bgr
});

it('makes particles ahead with reserve, from a Particle or its options', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 1);
  const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const asked: number[] = [];
  const binding = bindParticles(runtime, container, { position: 'position' }, (i) => {
    asked.push(i);
    // a Particle, or options (keys that are not a particle's look are left out: one shape for all)
    return i % 2 === 0 ? new Particle({ texture: Texture.WHITE, anchorY: 0.75, tint: 0x123456 }) : { texture: Texture.WHITE, anchorY: 0.75, tint: 0x123456, speed: 3 };
  });
  expect(binding.reserve(4)).toBe(4);
  expect(container.particleChildren.length).toBe(0); // made, not yet drawn
  expect(binding.reserve(2)).toBe(4);
  binding.update(runtime.sample(timeAt(runtime, 0.5)));
  expect(asked).toEqual([0, 1, 2, 3]);
  expect(container.particleChildren.map((p) => p.anchorY)).toEqual([0.75, 0.75, 0.75]);
  expect(container.particleChildren.map((p) => (p as Particle).tint)).toEqual([0x123456, 0x123456, 0x123456]);
  expect(container.particleChildren.map((p) => p.color)).toEqual(Array(3).fill(new Particle({ texture: Texture.WHITE, tint: 0x123456 }).color));
  expect(container.particleChildren.some((p) => 'speed' in p)).toBe(false);
  expect(container.particleChildren.every((p) => p instanceof Particle)).toBe(true);
  expect(() => binding.reserve(-1)).toThrow(/reserve\(count\) takes a whole number >= 0, not -1/);
  expect(() => binding.reserve(1.5)).toThrow(RangeError);
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

/** A bound particle's own fields (its entity aside) hold what Particle's constructor gives `look`. */
function expectMadeLike(p: Particle, look: Particle | Record<string, unknown>): void {
  const reference = (look instanceof Particle ? look : new Particle(look as ParticleOptions)) as unknown as Record<string, unknown>;
  const fields = p as unknown as Record<string, unknown>;
  for (const key of Object.keys(p)) if (key !== '_entity') expect([key, fields[key]]).toEqual([key, reference[key]]);
}

it('makes its particles as copies of one that Particle made from the look, and sees a look changed between calls', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 1);
  // one options object changed in place, and a Particle changed in place: each change must make new particles
  const options = { texture: Texture.WHITE, anchorX: 0.25, tint: 0xff0000, alpha: 0.5 };
  const look = new Particle({ texture: Texture.WHITE, scaleX: 2, tint: 0x00ff00 });
  const fromOptions = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const fromParticle = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
  const tints = [0xff0000, 0x0000ff, 0xff0000];
  const alphas = [0.75, 0.25, 0.25];
  const bindings = [
    bindParticles(runtime, fromOptions, { position: 'position', angle: 'angle' }, (i) => {
      options.tint = tints[i]!;
      return options;
    }),
    bindParticles(runtime, fromParticle, { position: 'position', angle: 'angle' }, (i) => {
      look.alpha = alphas[i]!;
      return look;
    }),
  ];
  const frame = runtime.sample(timeAt(runtime, 0.5));
  for (const b of bindings) b.update(frame);
  const a = fromOptions.particleChildren as Particle[];
  const b = fromParticle.particleChildren as Particle[];
  expect(a.map((p) => p.tint)).toEqual(tints);
  expect(a.map((p) => p.alpha)).toEqual([0.5, 0.5, 0.5]);
  expect(b.map((p) => p.alpha)).toEqual(alphas);
  expect(b.map((p) => [p.tint, p.scaleX])).toEqual([[0x00ff00, 2], [0x00ff00, 2], [0x00ff00, 2]]);
  expectMadeLike(a[0]!, { ...options, tint: 0xff0000 });
  expectMadeLike(a[1]!, { ...options, tint: 0x0000ff });
  expectMadeLike(b[2]!, look);
  // one set of own fields, in one order, for every particle of a binding (what Pixi's upload loop sees), the
  // bound ones left out
  for (const made of [a, b]) {
    const keys = Object.keys(made[0]!);
    expect(keys).not.toContain('x');
    expect(keys).not.toContain('rotation');
    for (const p of made) expect(Object.keys(p)).toEqual(keys);
  }
  // and they are bound: the frame's values, writes refused
  expect(b[2]!.x).toBe(frame.fields.position[4]);
  expect(b[2]!.rotation).toBe(frame.fields.angle[2]);
  expect(() => {
    b[2]!.rotation = 1;
  }).toThrow(/particle 2's rotation/);
});

it('makes every particle through Particle itself when its fields are not the ones a copy writes', async () => {
  runtime = await motionRuntime();
  await steps(runtime, 1);
  const defaults = Particle.defaultOptions;
  // a Pixi whose Particle sets one more field (here: through its defaults, as a game may too)
  Particle.defaultOptions = { ...defaults, alpha: 0.5, extra: 7 } as typeof defaults;
  try {
    const container = new ParticleContainer({ texture: Texture.WHITE, dynamicProperties: dynamic });
    const binding = bindParticles(runtime, container, { position: 'position' });
    binding.update(runtime.sample(timeAt(runtime, 0.5)));
    const made = container.particleChildren as Particle[];
    expect(made.length).toBe(3);
    for (const p of made) {
      expect((p as unknown as { extra: number }).extra).toBe(7);
      expect(p.alpha).toBe(0.5);
    }
    expect(made[2]!.x).toBe(runtime.sample(timeAt(runtime, 0.5)).fields.position[4]);
  } finally {
    Particle.defaultOptions = defaults;
  }
});
