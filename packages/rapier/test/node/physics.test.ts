/**
 * The 3D glue in Node (Rapier's compat build runs there), what is its own: fixed bodies and quaternions, and a
 * target other than the world. What both dimensions share (body i = entity i, generations, free fall, sleeping
 * bodies) is tested on every build in bodies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import RAPIER from '@dimforge/rapier3d-compat';
import { createPhysics } from '@steadyframe/rapier';
import { physicsHarness } from './harness.ts';
import { createTable } from './table.ts';

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
