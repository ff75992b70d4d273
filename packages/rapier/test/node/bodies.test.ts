/**
 * The shared glue (`bodies.ts`), on each of Rapier's builds (3D, 2D, 2D deterministic): entity i stays body i
 * through adds, swap-removes and teleports, each of which gives the entity a new generation; a body in free fall
 * follows the integrator's path; sleeping bodies are not copied, and their values are right all the same.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 as prng } from 'steadyframe/testing';
import { DIMENSIONS } from './dimensions.ts';

describe.each(DIMENSIONS)('the glue on $name', (dim) => {
  const { width } = dim;

  it('keeps entity i and body i together through random adds, swap-removes and teleports', async () => {
    const capacity = 64;
    const h = await dim.harness(capacity, { weightless: true });
    const { physics, world } = h;
    const random = prng(13);
    /** Each live body's label (its x at creation or last teleport), by handle: what entity i must show. */
    const label = new Map<number, number>();
    let next = 0;
    for (let round = 0; round < 300; round++) {
      const r = random();
      if (r < 0.5 || physics.count === 0) {
        const x = next++;
        const i = dim.ball(physics, x, 0, 0.1);
        if (i < 0) {
          expect(physics.count).toBe(capacity);
          continue;
        }
        expect(i).toBe(physics.count - 1);
        label.set(physics.bodyHandle(i), x);
      } else if (r < 0.85) {
        const i = Math.floor(random() * physics.count);
        const handle = physics.bodyHandle(i);
        const last = physics.count - 1;
        const lastHandle = physics.bodyHandle(last);
        const moved = physics.remove(i);
        label.delete(handle);
        expect(moved).toBe(i === last ? -1 : last);
        expect(physics.indexOfBody(handle)).toBe(-1);
        if (moved >= 0) expect(physics.bodyHandle(i)).toBe(lastHandle);
      } else {
        const i = Math.floor(random() * physics.count);
        const x = next++;
        dim.teleport(physics, i, x, 0);
        label.set(physics.bodyHandle(i), x);
      }
      // every live entity names its own body, whose pose its fields hold, to the bit
      expect(world.count).toBe(label.size);
      expect(physics.world.bodies.len()).toBe(label.size);
      for (let e = 0; e < physics.count; e++) {
        const handle = physics.bodyHandle(e);
        expect(physics.indexOfBody(handle)).toBe(e);
        expect(world.fields.position[width * e]).toBe(label.get(handle));
        expect(physics.body(e).translation().x).toBe(label.get(handle));
        expect(dim.fieldsPose(h, e)).toEqual(dim.rapierPose(physics, e));
      }
    }
  }, 30_000); // a hang guard: 300 rounds of checks take seconds on a loaded machine

  it('gives the entity a new generation on add, on the remove that moves another into its place, on teleport', async () => {
    const h = await dim.harness(8, {
      weightless: true,
      init(physics) {
        for (let x = 0; x < 4; x++) dim.ball(physics, x, 0, 0.1);
      },
    });
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

    dim.teleport(physics, 2, 0, 50);
    sim.stepOnce();
    seen = published();
    expect(seen.y(2)).toBeCloseTo(50, 5);
    expect(seen.generation(2)).not.toBe(seen.previousGeneration(2));
    expect(seen.generation(1)).toBe(seen.previousGeneration(1));

    const added = dim.ball(physics, 0, 7, 0.1);
    sim.stepOnce();
    seen = published();
    expect(added).toBe(3);
    expect(seen.count).toBe(4);
    expect(seen.y(3)).toBeCloseTo(7, 5);
    expect(seen.generation(3)).not.toBe(seen.previousGeneration(3));
  });

  it('moves each body\'s copy state with it in a swap-remove: a fixed body stays out of the copy pass, a falling one in it', async () => {
    const { sim, physics, published } = await dim.harness(8, {});
    dim.floor(physics); // 0: fixed
    dim.ball(physics, 0, 20, 0.5); // 1: falls
    dim.ball(physics, 5, 20, 0.5); // 2: falls
    dim.floor(physics); // 3: fixed, moves into 1
    expect(physics.remove(1)).toBe(3);
    sim.stepOnce();
    expect(physics.publish()).toBe(1); // the one falling body, not the fixed one now at 1
    expect(physics.remove(0)).toBe(2); // the falling body moves into 0
    sim.stepOnce();
    const y = published().y(0);
    expect(y).toBeGreaterThan(19);
    sim.stepOnce();
    sim.stepOnce();
    expect(published().y(0)).toBeLessThan(y - 0.005); // still copied: it keeps falling in the published state
    expect(physics.publish()).toBe(1);
  });

  it('refuses to add past the capacity, creating no body', async () => {
    const { physics } = await dim.harness(2, {});
    expect(dim.ball(physics, 0, 0, 0.5)).toBe(0);
    expect(dim.ball(physics, 2, 0, 0.5)).toBe(1);
    expect(dim.ball(physics, 4, 0, 0.5)).toBe(-1);
    expect(physics.world.bodies.len()).toBe(2);
  });

  it('moves a body in free fall along the integrator\'s path, within g t h / 2 of the analytic one', async () => {
    const dt = 1 / 60;
    const g = 9.81; // Rapier's default gravity here
    const y0 = 100;
    const h = await dim.harness(4, { init: (physics) => dim.ball(physics, 0, y0, 0.5) });
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

  it('skips sleeping and fixed bodies in the copy pass, their values right to the bit; waking one copies it again', async () => {
    const h = await dim.harness(64, {
      init(physics) {
        dim.floor(physics);
        for (let i = 0; i < 20; i++) dim.box(physics, (i % 5) * 2 - 4, 1 + Math.floor(i / 5) * 1.2, 0.5);
      },
    });
    const { sim, physics } = h;
    let asleep = false;
    for (let n = 0; n < 60 * 20 && !asleep; n++) {
      sim.stepOnce();
      asleep = true;
      for (let i = 1; i < physics.count; i++) if (!physics.body(i).isSleeping()) asleep = false;
    }
    expect(asleep).toBe(true);
    // every body's final pose (the one it fell asleep in) is in the fields, to the bit
    for (let i = 0; i < physics.count; i++) expect(dim.fieldsPose(h, i)).toEqual(dim.rapierPose(physics, i));
    // a fixed body is never awake; the sleeping ones are not copied
    expect(physics.publish()).toBe(0);
    dim.kick(physics, 5, 5);
    sim.stepOnce();
    expect(physics.body(5).isSleeping()).toBe(false);
    expect(physics.publish()).toBeGreaterThanOrEqual(1);
    expect(dim.fieldsPose(h, 5)).toEqual(dim.rapierPose(physics, 5));
  });
});
