/**
 * The 2D glue (`@steadyframe/rapier/2d`) in Node, on both 2D builds (the compat build 0.21, the deterministic
 * build 0.20): entity i stays body i through adds, swap-removes and teleports, each of which gives the entity a
 * new generation; translations land in `position` (width 2) and angles in `angle`; a body in free fall follows
 * the integrator's path; sleeping bodies are not copied and their values are right all the same; contacts come
 * as events; a saved world loaded elsewhere steps on alike.
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
  it('keeps entity i and body i together through random adds, swap-removes and teleports', async () => {
    const capacity = 64;
    const { physics, world } = await physicsHarness2d(capacity, { tickRate: 60, gravity: { x: 0, y: 0 } }, rapier);
    const random = prng(13);
    /** Each live body's label (its x at creation or last teleport), by handle: what entity i must show. */
    const label = new Map<number, number>();
    const turned = new Map<number, number>();
    let next = 0;
    for (let round = 0; round < 300; round++) {
      const r = random();
      if (r < 0.5 || physics.count === 0) {
        const x = next++;
        const i = physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(x, 0), rapier.ColliderDesc.ball(0.1));
        if (i < 0) {
          expect(physics.count).toBe(capacity);
          continue;
        }
        expect(i).toBe(physics.count - 1);
        label.set(physics.handle(i), x);
        turned.set(physics.handle(i), 0);
      } else if (r < 0.85) {
        const i = Math.floor(random() * physics.count);
        const handle = physics.handle(i);
        const last = physics.count - 1;
        const lastHandle = physics.handle(last);
        const moved = physics.remove(i);
        label.delete(handle);
        expect(moved).toBe(i === last ? -1 : last);
        expect(physics.indexOf(handle)).toBe(-1);
        if (moved >= 0) expect(physics.handle(i)).toBe(lastHandle);
      } else {
        const i = Math.floor(random() * physics.count);
        const x = next++;
        const angle = (random() - 0.5) * 6;
        physics.teleport(i, x, 0, angle);
        label.set(physics.handle(i), x);
        turned.set(physics.handle(i), angle);
      }
      // every live entity names its own body, whose pose its fields hold
      expect(world.count).toBe(label.size);
      expect(physics.world.bodies.len()).toBe(label.size);
      for (let e = 0; e < physics.count; e++) {
        const handle = physics.handle(e);
        expect(physics.indexOf(handle)).toBe(e);
        expect(world.fields.position[2 * e]).toBe(label.get(handle));
        expect(world.fields.position[2 * e + 1]).toBe(0);
        expect(physics.body(e).translation().x).toBe(label.get(handle));
        // Rapier keeps a rotation as a unit complex number: the angle comes back to float precision
        expect(turn(world.fields.angle[e]!, turned.get(handle)!)).toBeCloseTo(0, 5);
        expect(world.fields.angle[e]).toBe(Math.fround(physics.body(e).rotation()));
      }
    }
  });

  it('gives the entity a new generation on add, on the remove that moves another into its place, on teleport', async () => {
    const h = await physicsHarness2d(
      8,
      {
        tickRate: 60,
        gravity: { x: 0, y: 0 },
        init(physics) {
          for (let x = 0; x < 4; x++) physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(x, 0), rapier.ColliderDesc.ball(0.1));
        },
      },
      rapier,
    );
    const { sim, physics, published } = h;
    sim.stepOnce();
    let seen = published();
    expect(seen.count).toBe(4);
    for (let i = 0; i < 4; i++) expect(seen.generation(i)).toBe(seen.previousGeneration(i)); // blends

    physics.remove(1); // entity 3 moves into 1
    sim.stepOnce();
    seen = published();
    expect(seen.count).toBe(3);
    expect(seen.at(1, 0)).toBe(3);
    expect(seen.generation(1)).not.toBe(seen.previousGeneration(1));
    expect(seen.generation(0)).toBe(seen.previousGeneration(0));
    expect(seen.generation(2)).toBe(seen.previousGeneration(2));

    physics.teleport(2, 0, 50);
    sim.stepOnce();
    seen = published();
    expect(seen.y(2)).toBeCloseTo(50, 5);
    expect(seen.generation(2)).not.toBe(seen.previousGeneration(2));
    expect(seen.generation(1)).toBe(seen.previousGeneration(1));

    const added = physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(0, 7), rapier.ColliderDesc.ball(0.1));
    sim.stepOnce();
    seen = published();
    expect(added).toBe(3);
    expect(seen.count).toBe(4);
    expect(seen.y(3)).toBeCloseTo(7, 5);
    expect(seen.generation(3)).not.toBe(seen.previousGeneration(3));
  });

  it('refuses to add past the capacity, creating no body; copies a fixed body on add and teleport only', async () => {
    const { physics, world, sim } = await physicsHarness2d(2, { tickRate: 60 }, rapier);
    const floor = physics.add(rapier.RigidBodyDesc.fixed().setTranslation(0, -1).setRotation(0.25), rapier.ColliderDesc.cuboid(5, 1));
    expect(physics.add(rapier.RigidBodyDesc.dynamic())).toBe(1);
    expect(physics.add(rapier.RigidBodyDesc.dynamic())).toBe(-1);
    expect(physics.world.bodies.len()).toBe(2);
    expect(world.fields.position[2 * floor + 1]).toBe(-1);
    expect(world.fields.angle[floor]).toBeCloseTo(0.25, 6);
    physics.teleport(floor, 0, -2);
    expect(world.fields.position[2 * floor + 1]).toBe(-2);
    expect(world.fields.angle[floor]).toBeCloseTo(0.25, 6); // no angle given: the rotation is left alone
    world.fields.position[2 * floor] = 42;
    sim.stepOnce();
    expect(world.fields.position[2 * floor]).toBe(42); // the copy pass leaves a fixed body out
  });

  it('moves a body in free fall along the integrator\'s path, within g t h / 2 of the analytic one', async () => {
    const tickRate = 60;
    const dt = 1 / tickRate;
    const g = 9.81;
    const y0 = 100;
    const h = await physicsHarness2d(
      4,
      {
        tickRate,
        init(physics) {
          physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(0, y0), rapier.ColliderDesc.ball(0.5));
        },
      },
      rapier,
    ); // the default gravity: 9.81 down, y up
    // Rapier integrates semi-implicitly (v += g h, then y += v h) in k substeps of h = dt / k per step
    const k = h.physics.world.integrationParameters.numSolverIterations;
    const sub = dt / k;
    for (let n = 1; n <= 120; n++) {
      h.sim.stepOnce();
      const y = h.published().y(0);
      const t = n * dt;
      const m = n * k;
      expect(y).toBeCloseTo(y0 - (g * sub * sub * m * (m + 1)) / 2, 3);
      expect(Math.abs(y - (y0 - (g * t * t) / 2))).toBeLessThanOrEqual((g * t * sub) / 2 + 2e-5 * y0);
    }
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

  it('skips sleeping and fixed bodies in the copy pass, their values right to the bit; waking one copies it again', async () => {
    const h = await physicsHarness2d(
      64,
      {
        tickRate: 60,
        init(physics) {
          physics.add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(50, 0.5));
          for (let i = 0; i < 20; i++) {
            physics.add(rapier.RigidBodyDesc.dynamic().setTranslation((i % 5) * 2 - 4, 1 + Math.floor(i / 5) * 1.2), rapier.ColliderDesc.cuboid(0.5, 0.5));
          }
        },
      },
      rapier,
    );
    const { sim, physics, world } = h;
    let asleep = false;
    for (let n = 0; n < 60 * 20 && !asleep; n++) {
      sim.stepOnce();
      asleep = true;
      for (let i = 1; i < physics.count; i++) if (!physics.body(i).isSleeping()) asleep = false;
    }
    expect(asleep).toBe(true);
    for (let i = 0; i < physics.count; i++) {
      const p = physics.body(i).translation();
      expect([...world.fields.position.subarray(2 * i, 2 * i + 2)]).toEqual([Math.fround(p.x), Math.fround(p.y)]);
      expect(world.fields.angle[i]).toBe(Math.fround(physics.body(i).rotation()));
    }
    expect(physics.publish()).toBe(0);
    physics.body(5).applyImpulse({ x: 0, y: 5 }, true);
    sim.stepOnce();
    expect(physics.body(5).isSleeping()).toBe(false);
    expect(physics.publish()).toBeGreaterThanOrEqual(1);
    expect(world.fields.position[2 * 5 + 1]).toBe(Math.fround(physics.body(5).translation().y));
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
    for (let i = 0; i < a.count; i++) expect(pb.indexOf(pa.handle(i))).toBe(i);
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
