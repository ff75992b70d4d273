/**
 * Contact events (`contacts: { events: true }`) through a real runtime in Node on a manual clock: two boxes fall
 * on a floor; each landing is one CONTACT_START, presented once, in the frame that shows the tick it happened in
 * (the frame that first draws the box at rest on the floor), naming the floor and the box by the indices that
 * tick publishes (after a swap-remove moved one of them), with an impulse about the box's momentum, m v.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { schema3d, type Runtime } from 'steadyframe';
import { createManualClock, createNodeRuntime } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import RAPIER from '@dimforge/rapier3d-compat';
import { CONTACT_END, CONTACT_START, physicsSimulation, type ContactOptions } from '@steadyframe/rapier';
import { physicsHarness } from './harness.ts';

let runtime: Runtime<typeof schema3d> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

const TICK_MS = 1000 / 60;

describe('contact events', () => {
  it('presents each landing once, in the frame that shows its tick, with the entities of that tick and the impulse', async () => {
    const clock = createManualClock(0);
    const worker = await buildWorkerModule(fileURLToPath(new URL('./fixtures/contacts.worker.ts', import.meta.url)));
    const rt = (runtime = await createNodeRuntime({ worker, schema: schema3d, capacity: 8, clock }));
    await rt.start();
    const starts: Array<{ tick: number; frameTick: number; a: number; b: number; impulse: number; y: number; yBefore: number }> = [];
    let ends = 0;
    let lastShown = 0;
    let yBefore = [0, 0, 0, 0];
    for (let n = 1; n <= 90; n++) {
      // one frame a tick, just past it: alpha above 0, so the frame shows tick n
      await clock.advanceTo(n * TICK_MS + 1);
      const frame = rt.frameAt(n * TICK_MS + 1);
      if (frame === null) continue;
      const events = frame.events;
      for (let i = 0; i < events.length; i++) {
        expect(events.tick(i)).toBeGreaterThan(lastShown); // never presented again
        expect(events.tick(i)).toBeLessThanOrEqual(frame.tick);
        if (events.code(i) === CONTACT_START) {
          const a = events.payload(i, 0);
          const b = events.payload(i, 1);
          const box = a === 0 ? b : a;
          starts.push({ tick: events.tick(i), frameTick: frame.tick, a, b, impulse: events.payload(i, 2), y: frame.fields.position[3 * box + 1]!, yBefore: yBefore[box]! });
        } else if (events.code(i) === CONTACT_END) ends++;
      }
      lastShown = frame.tick;
      yBefore = [0, 1, 2, 3].map((e) => frame.fields.position[3 * e + 1]!);
    }
    expect(ends).toBe(0);
    // box A (entity 2) lands first; box B lands after the decoy's removal moved it from 3 to 1
    expect(starts.map(({ a, b }) => [Math.min(a, b), Math.max(a, b)])).toEqual([[0, 2], [0, 1]]);
    for (const start of starts) {
      expect(start.tick).toBe(start.frameTick); // in the frame that shows its tick, not a later one
      expect(start.tick).toBeGreaterThan(10); // after the decoy's removal (tick 10)
      expect(start.y).toBeCloseTo(1, 1); // the frame draws the box on the floor...
      expect(start.yBefore).toBeGreaterThan(1.05); // ...and the frame before drew it in the air
    }
    // 1 kg boxes (density 1, 1 m^3) from 2 m and 4 m: momentum sqrt(2 g h), about 6.3 and 8.9 N·s
    expect(starts[0]!.impulse).toBeGreaterThan(4);
    expect(starts[0]!.impulse).toBeLessThan(8);
    expect(starts[1]!.impulse).toBeGreaterThan(starts[0]!.impulse);
  }, 60_000);
});

describe('contact events from the glue', () => {
  /** What the step emitted, by hand: [code, p0, p1, p2]. */
  const recorder = () => {
    const seen: number[][] = [];
    return { seen, emit: (code: number, p0 = 0, p1 = 0, p2 = 0) => seen.push([code, p0, p1, p2]) > 0 };
  };
  const land = async (contacts: Parameters<typeof physicsHarness>[1]['contacts']) => {
    const h = await physicsHarness(4, { tickRate: 60, ...(contacts === undefined ? {} : { contacts }) });
    const { physics, rapier } = h;
    physics.add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(10, 0.5, 10));
    physics.add(rapier.RigidBodyDesc.dynamic().setTranslation(0, 1.6, 0), rapier.ColliderDesc.cuboid(0.5, 0.5, 0.5));
    const out = recorder();
    for (let n = 0; n < 60; n++) {
      physics.step(1 / 60);
      physics.emitContacts(out);
    }
    return { ...h, out };
  };

  it('reports the end with -1 for a side no longer an entity, the entity first', async () => {
    const { physics, out } = await land({ events: true, codes: { start: 7, end: 8 } });
    expect(out.seen.length).toBe(1);
    expect(out.seen[0]![0]).toBe(7);
    expect(out.seen[0]!.slice(1, 3).sort()).toEqual([0, 1]);
    expect(out.seen[0]![3]).toBeGreaterThan(0);
    physics.remove(1);
    physics.step(1 / 60);
    expect(physics.emitContacts(out)).toBe(1);
    expect(out.seen[1]!.slice(0, 3)).toEqual([8, 0, -1]);
  });

  it('emits nothing when off, and no start below minImpulse', async () => {
    expect((await land(undefined)).out.seen).toEqual([]);
    expect((await land({ events: false })).out.seen).toEqual([]);
    expect((await land({ events: true, minImpulse: 1000 })).out.seen).toEqual([]);
  });

  it('refuses codes that are not two game codes, and a negative floor, at set-up, naming the fix', () => {
    const define = (contacts: ContactOptions) => () => physicsSimulation(RAPIER, { schema: schema3d, tickRate: 60, contacts });
    expect(define({ events: true, codes: { start: -1, end: 3 } })).toThrow(/^@steadyframe\/rapier: contacts.codes needs two different whole numbers/);
    expect(define({ events: true, codes: { start: 3, end: 3 } })).toThrow(/^@steadyframe\/rapier: contacts.codes/);
    expect(define({ events: true, minImpulse: -1 })).toThrow(/^@steadyframe\/rapier: contacts.minImpulse/);
  });
});
