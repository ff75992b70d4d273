/**
 * The Rapier glue in Node (Rapier's compat build runs there): entity i stays body i through adds, swap-removes
 * and teleports, each of which gives the entity a new generation; a body in free fall follows the integrator's
 * path; sleeping bodies are not copied, and their values are right all the same.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as prng } from 'steadyframe/testing';
import RAPIER from '@dimforge/rapier3d-compat';
import { createPhysics } from '@steadyframe/rapier';
import { physicsHarness } from './harness.ts';
import { createTable } from './table.ts';

describe('mapping bodies to entities', () => {
  it('keeps entity i and body i together through random adds, swap-removes and teleports', async () => {
    const capacity = 64;
    const h = await physicsHarness(capacity, { tickRate: 60, gravity: { x: 0, y: 0, z: 0 } });
    const { physics, world, rapier } = h;
    const random = prng(13);
    /** Each live body's label (its x at creation), by handle: what entity i must show. */
    const label = new Map<number, number>();
    let next = 0;
    for (let round = 0; round < 300; round++) {
      const r = random();
      if (r < 0.5 || physics.count === 0) {
        const x = next++;
        const i = physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(x, 0, 0), rapier.ColliderDesc.ball(0.1));
        if (i < 0) {
          expect(physics.count).toBe(capacity);
          continue;
        }
        expect(i).toBe(physics.count - 1);
        label.set(physics.handle(i), x);
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
        physics.teleport(i, x, 0, 0);
        label.set(physics.handle(i), x);
      }
      // every live entity names its own body, whose pose its fields hold
      expect(world.count).toBe(label.size);
      expect(h.rapier && physics.world.bodies.len()).toBe(label.size);
      for (let e = 0; e < physics.count; e++) {
        const handle = physics.handle(e);
        expect(physics.indexOf(handle)).toBe(e);
        expect(world.fields.position[3 * e]).toBe(label.get(handle));
        expect(physics.body(e).translation().x).toBe(label.get(handle));
        expect(world.fields.rotation[4 * e + 3]).toBe(1);
      }
    }
  });

  it('gives the entity a new generation on add, on the remove that moves another into its place, on teleport', async () => {
    const h = await physicsHarness(8, {
      tickRate: 60,
      gravity: { x: 0, y: 0, z: 0 },
      init(physics) {
        for (let x = 0; x < 4; x++) physics.add(h0.rapier.RigidBodyDesc.dynamic().setTranslation(x, 0, 0), h0.rapier.ColliderDesc.ball(0.1));
      },
    });
    const { sim, physics, published, rapier } = h;
    sim.stepOnce();
    let seen = published();
    expect(seen.count).toBe(4);
    for (let i = 0; i < 4; i++) expect(seen.generation(i)).toBe(seen.previousGeneration(i)); // blends

    physics.remove(1); // entity 3 moves into 1
    sim.stepOnce();
    seen = published();
    expect(seen.count).toBe(3);
    expect(seen.generation(1)).not.toBe(seen.previousGeneration(1));
    expect(seen.generation(0)).toBe(seen.previousGeneration(0));
    expect(seen.generation(2)).toBe(seen.previousGeneration(2));

    physics.teleport(2, 0, 50, 0);
    sim.stepOnce();
    seen = published();
    expect(seen.y(2)).toBeCloseTo(50, 5);
    expect(seen.generation(2)).not.toBe(seen.previousGeneration(2));
    expect(seen.generation(1)).toBe(seen.previousGeneration(1));

    const added = physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(0, 7, 0), rapier.ColliderDesc.ball(0.1));
    sim.stepOnce();
    seen = published();
    expect(added).toBe(3);
    expect(seen.count).toBe(4);
    expect(seen.y(3)).toBeCloseTo(7, 5);
    expect(seen.generation(3)).not.toBe(seen.previousGeneration(3));
  });

  it('refuses to add past the capacity, creating no body', async () => {
    const h = await physicsHarness(2, { tickRate: 60 });
    const { physics, rapier } = h;
    expect(physics.add(rapier.RigidBodyDesc.dynamic())).toBe(0);
    expect(physics.add(rapier.RigidBodyDesc.dynamic())).toBe(1);
    expect(physics.add(rapier.RigidBodyDesc.dynamic())).toBe(-1);
    expect(physics.world.bodies.len()).toBe(2);
  });
});

describe('fixed bodies', () => {
  it('copies a fixed body on add and on teleport, and never in the copy pass', async () => {
    const h = await physicsHarness(4, { tickRate: 60 });
    const { physics, world, rapier } = h;
    const floor = physics.add(rapier.RigidBodyDesc.fixed().setTranslation(0, -1, 0), rapier.ColliderDesc.cuboid(5, 1, 5));
    expect(world.fields.position[3 * floor + 1]).toBe(-1);
    expect(physics.publish()).toBe(0);
    physics.teleport(floor, 0, -2, 0);
    expect(world.fields.position[3 * floor + 1]).toBe(-2);
    // the copy pass still leaves it out: a value written into its field stays
    world.fields.position[3 * floor] = 42;
    h.sim.stepOnce();
    expect(physics.publish()).toBe(0);
    expect(world.fields.position[3 * floor]).toBe(42);
  });
});

describe('stepping', () => {
  it('moves a body in free fall along the integrator\'s path, within g t h / 2 of the analytic one', async () => {
    const tickRate = 60;
    const dt = 1 / tickRate;
    const g = 9.81;
    const y0 = 100;
    const h = await physicsHarness(4, {
      tickRate,
      gravity: { x: 0, y: -g, z: 0 },
      init(physics) {
        physics.add(h0.rapier.RigidBodyDesc.dynamic().setTranslation(0, y0, 0), h0.rapier.ColliderDesc.ball(0.5));
      },
    });
    // Rapier integrates semi-implicitly (v += g h, then y += v h) in k substeps of h = dt / k per step
    const k = h.physics.world.integrationParameters.numSolverIterations;
    const sub = dt / k;
    for (let n = 1; n <= 120; n++) {
      h.sim.stepOnce();
      const y = h.published().y(0);
      const t = n * dt;
      const m = n * k;
      expect(y).toBeCloseTo(y0 - (g * sub * sub * m * (m + 1)) / 2, 3);
      // which is the analytic path, y0 - g t^2 / 2, to within g t h / 2 (and float32)
      expect(Math.abs(y - (y0 - (g * t * t) / 2))).toBeLessThanOrEqual((g * t * sub) / 2 + 2e-5 * y0);
    }
  });
});

describe('sleeping bodies', () => {
  it('skips sleeping and fixed bodies in the copy pass, their values right to the bit; waking one copies it again', async () => {
    const h = await physicsHarness(64, {
      tickRate: 60,
      init(physics) {
        physics.add(h0.rapier.RigidBodyDesc.fixed(), h0.rapier.ColliderDesc.cuboid(50, 0.5, 50));
        for (let i = 0; i < 20; i++) {
          physics.add(h0.rapier.RigidBodyDesc.dynamic().setTranslation((i % 5) * 2 - 4, 1 + Math.floor(i / 5) * 1.2, 0), h0.rapier.ColliderDesc.cuboid(0.5, 0.5, 0.5));
        }
      },
    });
    const { sim, physics, world } = h;
    let asleep = false;
    for (let n = 0; n < 60 * 20 && !asleep; n++) {
      sim.stepOnce();
      asleep = true;
      for (let i = 1; i < physics.count; i++) if (!physics.body(i).isSleeping()) asleep = false;
    }
    expect(asleep).toBe(true);
    // every body's final pose (the one it fell asleep in) is in the world, to the bit
    for (let i = 0; i < physics.count; i++) {
      const p = physics.body(i).translation();
      const q = physics.body(i).rotation();
      expect([...world.fields.position.subarray(3 * i, 3 * i + 3)]).toEqual([Math.fround(p.x), Math.fround(p.y), Math.fround(p.z)]);
      expect([...world.fields.rotation.subarray(4 * i, 4 * i + 4)]).toEqual([Math.fround(q.x), Math.fround(q.y), Math.fround(q.z), Math.fround(q.w)]);
    }
    // a fixed body is never awake; the sleeping ones are not copied
    expect(physics.publish()).toBe(0);
    physics.body(5).applyImpulse({ x: 0, y: 5, z: 0 }, true);
    sim.stepOnce();
    expect(physics.body(5).isSleeping()).toBe(false);
    expect(physics.publish()).toBeGreaterThanOrEqual(1);
    expect(world.fields.position[3 * 5 + 1]).toBe(Math.fround(physics.body(5).translation().y));
  });
});

describe('a target other than the world (an entity table)', () => {
  it('maps bodies onto a table of its own: spawn, swap-remove, teleport and the copy pass there', async () => {
    await RAPIER.init();
    const table = createTable({ position: 3, rotation: 4 }, 8);
    const physics = createPhysics(RAPIER, table, { gravity: { x: 0, y: 0, z: 0 } });
    for (let x = 0; x < 3; x++) physics.add(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, 0, 0).setLinvel(0, 0, 6), RAPIER.ColliderDesc.ball(0.1));
    expect(table.count).toBe(3);
    physics.step(1 / 60);
    expect(table.fields.position![3 * 2 + 2]).toBeCloseTo(0.1, 4);
    table.snapped.clear();
    expect(physics.remove(0)).toBe(2);
    expect(table.fields.position![0]).toBe(2);
    physics.teleport(1, 0, 9, 0, 0, 0, 1, 0);
    expect([...table.snapped]).toEqual([0, 1]);
    expect(Array.from(table.fields.rotation!.subarray(4, 8))).toEqual([0, 0, 1, 0]);
    physics.step(1 / 60);
    for (let i = 0; i < table.count; i++) expect(table.fields.position![3 * i + 1]).toBe(Math.fround(physics.body(i).translation().y));
    physics.dispose();
  });
});

/** The Rapier module, for descs built inside `init` (which runs during the harness's own await). */
const h0 = { rapier: (await import('@dimforge/rapier3d-compat')).default };
