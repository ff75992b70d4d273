/**
 * The 2D glue (`@steadyframe/rapier/2d`) in Node, what is its own, on both 2D builds (the compat build 0.21, the
 * deterministic build 0.20): angles land in `angle` (teleported, spinning, fixed bodies), contacts come as events,
 * a saved world loaded elsewhere steps on alike, a table serves as the target, and set-up errors name the fix.
 * What both dimensions share (body i = entity i, generations, free fall, sleeping bodies) is tested on every
 * build in bodies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import RAPIER2D from '@dimforge/rapier2d-compat';
import DETERMINISTIC from '@dimforge/rapier2d-deterministic-compat';
import { mulberry32 as prng } from 'steadyframe/testing';
import { CONTACT_END, CONTACT_START, createPhysics, type Physics, type Rapier } from '@steadyframe/rapier/2d';
import { physicsHarness2d } from './harness.ts';
import { createTable } from './table.ts';

const BUILDS: ReadonlyArray<readonly [string, Rapier]> = [
  ['the compat build (0.21)', RAPIER2D],
  // the same API (see the README for what 0.21 added); TypeScript sees its classes as other classes
  ['the deterministic build (0.20)', DETERMINISTIC as unknown as Rapier],
];

/** The shortest signed turn from b to a, in radians. */
const turn = (a: number, b: number): number => Math.atan2(Math.sin(a - b), Math.cos(a - b));

describe.each(BUILDS)('the 2D glue on %s', (_build, rapier) => {
  it('teleports to an angle, or leaves the rotation alone; copies a fixed body on add and teleport only', async () => {
    const { physics, world, sim } = await physicsHarness2d(2, { tickRate: 60, gravity: { x: 0, y: 0 } }, rapier);
    const floor = physics.add(rapier.RigidBodyDesc.fixed().setTranslation(0, -1).setRotation(0.25), rapier.ColliderDesc.cuboid(5, 1));
    const ball = physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(3, 0), rapier.ColliderDesc.ball(0.5));
    for (const angle of [2.5, -3, 0.1]) {
      physics.teleport(ball, 4, 1, angle);
      // Rapier keeps a rotation as a unit complex number: the angle comes back to float precision
      expect(turn(world.fields.angle[ball]!, angle)).toBeCloseTo(0, 5);
      expect(world.fields.angle[ball]).toBe(Math.fround(physics.body(ball).rotation()));
    }
    expect(world.fields.position[2 * floor + 1]).toBe(-1);
    expect(world.fields.angle[floor]).toBeCloseTo(0.25, 6);
    physics.teleport(floor, 0, -2);
    expect(world.fields.position[2 * floor + 1]).toBe(-2);
    expect(world.fields.angle[floor]).toBeCloseTo(0.25, 6); // no angle given: the rotation is left alone
    world.fields.position[2 * floor] = 42;
    sim.stepOnce();
    expect(world.fields.position[2 * floor]).toBe(42); // the copy pass leaves a fixed body out
  });

  it('publishes a spinning body\'s angle each tick, the body\'s own to the bit, wrapped into (-PI, PI]', async () => {
    const w = 5; // rad/s: past PI in 0.63 s
    const h = await physicsHarness2d(
      4,
      {
        tickRate: 60,
        gravity: { x: 0, y: 0 },
        init(physics) {
          physics.add(rapier.RigidBodyDesc.dynamic().setAngvel(w).setCanSleep(false), rapier.ColliderDesc.cuboid(1, 0.2));
        },
      },
      rapier,
    );
    let wrapped = false;
    let last = 0;
    for (let n = 1; n <= 90; n++) {
      h.sim.stepOnce();
      const angle = h.world.fields.angle[0]!;
      expect(angle).toBe(Math.fround(h.physics.body(0).rotation()));
      expect(Math.abs(angle)).toBeLessThanOrEqual(Math.PI + 1e-6);
      // no damping: w t, less a drift Rapier's rotation update makes (about (w h)^3 / 3 a substep: 1e-3 by tick 90)
      expect(turn(angle, (w * n) / 60)).toBeCloseTo(0, 2);
      if (angle < last) wrapped = true;
      last = angle;
    }
    expect(wrapped).toBe(true);
  });

  it('emits a landing as a contact start with its impulse, and the end with -1 once the box is removed', async () => {
    const { physics } = await physicsHarness2d(4, { tickRate: 60, contacts: { events: true } }, rapier);
    physics.add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(10, 0.5)); // top at y = 0.5
    physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(0, 2.5), rapier.ColliderDesc.cuboid(0.5, 0.5)); // 1 kg, 1.5 m above
    const seen: number[][] = [];
    const tick = { emit: (code: number, p0 = 0, p1 = 0, p2 = 0) => seen.push([code, p0, p1, p2]) > 0 };
    for (let n = 0; n < 60; n++) {
      physics.step(1 / 60);
      physics.emitContacts(tick);
    }
    expect(seen.length).toBe(1);
    expect(seen[0]![0]).toBe(CONTACT_START);
    expect(seen[0]!.slice(1, 3).sort()).toEqual([0, 1]);
    // about m sqrt(2 g h) = 5.4 N·s
    expect(seen[0]![3]).toBeGreaterThan(3.5);
    expect(seen[0]![3]).toBeLessThan(7);
    physics.remove(1);
    physics.step(1 / 60);
    expect(physics.emitContacts(tick)).toBe(1);
    expect(seen[1]!.slice(0, 3)).toEqual([CONTACT_END, 0, -1]);
  });
});

describe('a saved 2D world (the deterministic build)', () => {
  it('loaded into another Physics over a copy of the entities, steps on to the same poses, bit for bit', async () => {
    const rapier = DETERMINISTIC as unknown as Rapier;
    await rapier.init();
    const widths = { position: 2, angle: 1 };
    const a = createTable(widths, 64);
    const pa = createPhysics(rapier, a);
    pa.add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(20, 0.5));
    const random = prng(5);
    for (let i = 0; i < 40; i++) {
      pa.add(rapier.RigidBodyDesc.dynamic().setTranslation((random() - 0.5) * 10, 2 + i * 0.6).setRotation(random() * 6), i % 2 ? rapier.ColliderDesc.ball(0.3) : rapier.ColliderDesc.cuboid(0.3, 0.2));
    }
    for (let n = 0; n < 45; n++) pa.step(1 / 60); // mid-fall, contacts warm
    pa.remove(7);
    const saved = pa.save();
    // another Physics, its own Rapier world with a body of its own, over a copy of the entities
    const b = createTable(widths, 64);
    b.count = a.count;
    b.fields.position!.set(a.fields.position!);
    b.fields.angle!.set(a.fields.angle!);
    const pb = createPhysics(rapier, b);
    b.count = 0;
    pb.add(rapier.RigidBodyDesc.dynamic());
    expect(() => pb.load(saved)).toThrow(/^steadyframe: @steadyframe\/rapier load\(\): the saved physics has 40 bodies and the world 1 entities/);
    b.count = a.count;
    pb.load(saved);
    for (let n = 0; n < 120; n++) {
      pa.step(1 / 60);
      pb.step(1 / 60);
    }
    expect(b.count).toBe(a.count);
    expect(Array.from(b.fields.position!.subarray(0, 2 * b.count))).toEqual(Array.from(a.fields.position!.subarray(0, 2 * a.count)));
    expect(Array.from(b.fields.angle!.subarray(0, b.count))).toEqual(Array.from(a.fields.angle!.subarray(0, a.count)));
    for (let i = 0; i < a.count; i++) {
      expect(pb.indexOfBody(pa.bodyHandle(i))).toBe(i);
      expect(pb.indexOf(pa.handle(i))).toBe(i); // the deprecated names: the same calls
    }
    pa.dispose();
    pb.dispose();
  });
});

describe('a target other than the world (an entity table)', () => {
  it('maps bodies onto a table of its own: spawns, swap-removes, teleports and the copy pass there, the world untouched', async () => {
    const table = createTable({ position: 2, angle: 1, hp: 1 }, 16);
    let physics!: Physics;
    const h = await physicsHarness2d(8, {
      tickRate: 60,
      gravity: { x: 0, y: 0 },
      target: () => table,
      init(p) {
        physics = p;
        for (let x = 0; x < 5; x++) p.add(RAPIER2D.RigidBodyDesc.dynamic().setTranslation(x, 1).setLinvel(0, 6), RAPIER2D.ColliderDesc.ball(0.1));
      },
    });
    expect(h.world.count).toBe(0);
    expect(table.count).toBe(5);
    expect([...table.snapped].sort()).toEqual([0, 1, 2, 3, 4]);
    table.snapped.clear();
    h.sim.stepOnce();
    expect(table.fields.position![2 * 3 + 1]).toBeCloseTo(1.1, 4); // 6 m/s for a tick
    expect(physics.remove(1)).toBe(4);
    expect(table.fields.position![2]).toBe(4);
    expect([...table.snapped]).toEqual([1]);
    physics.teleport(0, -3, 0, 1);
    expect([table.fields.position![0], table.fields.position![1]]).toEqual([-3, 0]);
    expect(table.fields.angle![0]).toBeCloseTo(1, 6);
    expect([...table.snapped]).toEqual([1, 0]);
    h.sim.stepOnce();
    expect(h.world.count).toBe(0);
    expect(h.published().count).toBe(0);
    expect(table.count).toBe(4);
    for (let i = 0; i < table.count; i++) expect(table.fields.position![2 * i + 1]).toBe(Math.fround(physics.body(i).translation().y));
  });

  it('refuses, at set-up, a target without the pose fields, naming the field and the option', async () => {
    await RAPIER2D.init();
    expect(() => createPhysics(RAPIER2D, createTable({ position: 2 }, 4))).toThrow(/^steadyframe: @steadyframe\/rapier needs an angle schema field "angle" of width 1 .*pass \{ angle: 'yourField' \}/);
    expect(() => createPhysics(RAPIER2D, createTable({ position: 3, angle: 1 }, 4))).toThrow(/needs a linear schema field "position" of width 2/);
    const physics = createPhysics(RAPIER2D, createTable({ at: 2, heading: 1 }, 4), { position: 'at', angle: 'heading' });
    expect(physics.add(RAPIER2D.RigidBodyDesc.dynamic().setTranslation(1, 2))).toBe(0);
    physics.dispose();
  });
});
