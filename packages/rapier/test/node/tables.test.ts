/**
 * Several tables in one Rapier world (`{ tables }`), on each of Rapier's builds: each table's entity i stays
 * its body i through random adds, swap-removes and teleports spread over three tables, and no table claims
 * another's bodies; contacts come per pair of tables, under the pair's codes, its first table's entity first,
 * with both entities' steadyframe handles, also for a side removed before or after the step; a saved world of
 * tables loads into another Physics and steps on bit for bit (the deterministic build); set-up errors name the
 * fix.
 */
import { describe, expect, it } from 'vitest';
import DETERMINISTIC from '@dimforge/rapier2d-deterministic-compat';
import RAPIER2D from '@dimforge/rapier2d-compat';
import { mulberry32 as prng } from 'steadyframe/testing';
import type { WorldTable } from 'steadyframe/worker';
import { createPhysics, type Rapier } from '@steadyframe/rapier/2d';
import { DIMENSIONS, type SharedBodies, type TablesHarnessed } from './dimensions.ts';
import { createTable } from './table.ts';

const tablesOf = (h: TablesHarnessed) => h.world.tables as unknown as Readonly<Record<string, WorldTable>>;

describe.each(DIMENSIONS)('tables in one Rapier world, on $name', (dim) => {
  const { width } = dim;

  it('keeps each table\'s entity i and body i together through random adds, swap-removes and teleports in three tables', async () => {
    const capacities = { ships: 6, rocks: 24, bullets: 40 };
    const names = Object.keys(capacities) as (keyof typeof capacities)[];
    const h = await dim.tables(capacities, { weightless: true });
    const { physics, sim } = h;
    const tables = tablesOf(h);
    const random = prng(29);
    // each live entity's label (its x at creation or last teleport), by its table's steadyframe handle; a
    // label is its table's number mod 3, so one table's body in another's place shows
    const labels = names.map(() => new Map<number, number>());
    let next = 0;
    for (let round = 0; round < 600; round++) {
      const t = Math.floor(random() * names.length);
      const name = names[t]!;
      const bodies = physics.tables[name]!;
      const table = tables[name]!;
      const r = random();
      if (r < 0.5 || bodies.count === 0) {
        const x = 3 * next++ + t;
        const i = dim.ball(bodies, x, t, 0.1);
        if (i < 0) {
          expect(bodies.count).toBe(capacities[name]);
          continue;
        }
        expect(i).toBe(bodies.count - 1);
        labels[t]!.set(table.handle(i), x);
      } else if (r < 0.85) {
        const i = Math.floor(random() * bodies.count);
        const bodyHandle = bodies.bodyHandle(i);
        const last = bodies.count - 1;
        const lastBody = bodies.bodyHandle(last);
        labels[t]!.delete(table.handle(i));
        const moved = bodies.remove(i);
        expect(moved).toBe(i === last ? -1 : last);
        expect(bodies.indexOfBody(bodyHandle)).toBe(-1);
        expect(physics.tableOf(bodyHandle)).toBeNull();
        if (moved >= 0) expect(bodies.bodyHandle(i)).toBe(lastBody);
      } else {
        const i = Math.floor(random() * bodies.count);
        const x = 3 * next++ + t;
        dim.teleport(bodies, i, x, t);
        labels[t]!.set(table.handle(i), x);
      }
      if (round % 50 === 49) sim.stepOnce(); // the copy pass over every table (all at rest: nothing moves)
      // every table: its live entities name their own bodies, and only that table claims them
      let total = 0;
      names.forEach((n, u) => {
        const b: SharedBodies = physics.tables[n]!;
        const tb = tables[n]!;
        expect(b.count).toBe(labels[u]!.size);
        expect(tb.count).toBe(b.count);
        total += b.count;
        for (let e = 0; e < b.count; e++) {
          const bodyHandle = b.bodyHandle(e);
          expect(b.indexOfBody(bodyHandle)).toBe(e);
          expect(physics.tableOf(bodyHandle)).toBe(b);
          for (const other of names) if (other !== n) expect(physics.tables[other]!.indexOfBody(bodyHandle)).toBe(-1);
          const label = labels[u]!.get(tb.handle(e));
          expect(tb.fields.position![width * e]).toBe(label);
          expect(b.body(e).translation().x).toBe(label);
          expect(dim.poseIn(tb.fields, e)).toEqual(dim.rapierPose(b, e));
        }
      });
      expect(physics.world.bodies.len()).toBe(total);
    }
  }, 30_000);

  it('copies falling bodies of every table into that table\'s fields, to the bit, each step', async () => {
    const h = await dim.tables({ crates: 8, balls: 8 });
    const { physics, sim } = h;
    const tables = tablesOf(h);
    for (let k = 0; k < 5; k++) {
      dim.box(physics.tables.crates!, 3 * k, 10 + k, 0.5);
      dim.ball(physics.tables.balls!, 3 * k, 20 + k, 0.5);
    }
    dim.floor(physics.tables.crates!); // a fixed body among the crates: copied on add only
    for (let n = 0; n < 40; n++) sim.stepOnce();
    for (const name of ['crates', 'balls']) {
      const b = physics.tables[name]!;
      for (let e = 0; e < b.count; e++) expect(dim.poseIn(tables[name]!.fields, e)).toEqual(dim.rapierPose(b, e));
    }
    expect(tables.balls!.fields.position![width * 2 + 1]).toBeLessThan(22 - 1); // falling: 40 ticks
    expect(physics.publish()).toBe(10); // ten falling bodies, the fixed one left out
  });

  it('reports contacts per pair of tables: the pair\'s codes, its first table\'s entity first, both handles, a removed side as -1 with its handle', async () => {
    // the rows (y), each along x: who hits whom, and which pair (if any) reports it
    //   y  0  bullet A (+x) -> rock 0        ['bullets', 'rocks']  both removed in the step its start comes
    //   y 10  rock 1 <- bullet B (-x)        ['bullets', 'rocks']  B moved into index 0 first; removed after
    //   y 20  rock 2 <- ship 0 (-x)          ['rocks', 'ships']    no ends (the pair's own option)
    //   y 30  ship 1 (+x) -> ground          ['ships', null]       a collider with no entity
    //   y 40  bullet C (+x) -> ship 2        (no pair)             not reported
    //   y 99  a decoy bullet, removed at tick 2: the last bullet (B) moves into its index
    const pairs = [
      { tables: ['bullets', 'rocks'], codes: { start: 10, end: 11 } },
      { tables: ['ships', null], codes: { start: 20, end: 21 } },
      { tables: ['rocks', 'ships'], codes: { start: 30, end: 31 }, ends: false },
    ];
    const run = async (removeA: number) => {
      const h = await dim.tables({ ships: 4, rocks: 4, bullets: 8 }, { weightless: true, contacts: { events: true, pairs } });
      const { physics } = h;
      const { bullets, rocks, ships } = physics.tables as Record<string, SharedBodies>;
      dim.ball(bullets!, 0, 99, 1); // the decoy: index 0
      dim.ball(bullets!, -4, 40, 1, 30); // C
      dim.ball(bullets!, -4, 0, 1, 30); // A
      dim.ball(bullets!, 6, 10, 1, -30); // B
      for (const y of [0, 10, 20]) dim.ball(rocks!, 0, y, 1);
      dim.ball(ships!, 4, 20, 1, -10);
      dim.ball(ships!, -4, 30, 1, 10);
      dim.ball(ships!, 0, 40, 1);
      dim.ground(physics, 0, 30, 1);
      const tables = tablesOf(h);
      const handleA = tables.bullets!.handle(2);
      const handleB = tables.bullets!.handle(3);
      const rockHandles = [0, 1, 2].map((i) => tables.rocks!.handle(i));
      const seen: { tick: number; code: number; p: number[] }[] = [];
      let tick = 0;
      const emitter = { emit: () => expect.fail('the glue emits five words'), emitPayload: (code: number, p: ArrayLike<number>) => seen.push({ tick, code, p: Array.from(p) }) > 0 };
      let removeB = -1;
      for (tick = 1; tick <= 40; tick++) {
        // before the step: the decoy at tick 2, B the tick after its start was emitted
        if (tick === 2) expect(bullets!.remove(0)).toBe(3);
        if (tick === removeB) bullets!.remove(tables.bullets!.indexOf(handleB));
        physics.step(1 / 60);
        // after the step, before the emit: A and its rock, in the tick their start is collected (a first run
        // says when): neither is an entity when it is emitted, both are named by their handles
        if (tick === removeA) {
          bullets!.remove(tables.bullets!.indexOf(handleA));
          rocks!.remove(tables.rocks!.indexOf(rockHandles[0]!));
        }
        const from = seen.length;
        (physics as unknown as { emitContacts(e: typeof emitter): number }).emitContacts(emitter);
        for (const { code, p } of seen.slice(from)) {
          if (code === 10 && p[3] === handleB) removeB = tick + 1;
          // each side named by index is the entity of that table whose handle the event carries
          const [first, second] = pairs.find((pair) => pair.codes.start === code || pair.codes.end === code)!.tables;
          if (p[0]! >= 0) expect(tables[first!]!.handle(p[0]!)).toBe(p[3]);
          if (second !== null && p[1]! >= 0) expect(tables[second!]!.handle(p[1]!)).toBe(p[4]);
          if (second === null) expect([p[1], p[4]]).toEqual([-1, -1]);
          // and a start's two entities touch (within the glue's contact prediction)
          if ((code === 10 || code === 30) && p[0]! >= 0 && p[1]! >= 0) {
            const a = tables[first!]!.fields.position!;
            const b = tables[second!]!.fields.position!;
            expect(Math.hypot(a[width * p[0]!]! - b[width * p[1]!]!, a[width * p[0]! + 1]! - b[width * p[1]! + 1]!)).toBeLessThan(2.2);
          }
        }
      }
      return { seen, handleA, handleB, tables, rockHandles };
    };
    // a first run finds the tick A's start comes in; the second removes A then, after the step
    const first = await run(-1);
    const startA = first.seen.find((e) => e.code === 10 && e.p[3] === first.handleA)!.tick;
    const { seen, handleA, handleB, tables, rockHandles } = await run(startA);
    const rockHandle = (y: number) => rockHandles[[0, 10, 20].indexOf(y)]!;
    const summary = seen.map(({ code, p }) => [code, p[0]! < 0 ? -1 : 'i', p[1]! < 0 ? -1 : 'i', p[3], p[4]]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [10, -1, -1, handleA, rockHandle(0)], // A's start: A and its rock already removed, named by their handles
        [11, -1, -1, handleA, rockHandle(0)], // its end, next step
        [10, 'i', 'i', handleB, rockHandle(10)],
        [11, -1, 'i', handleB, rockHandle(10)], // B removed before the step that reports its end
        [30, 'i', 'i', rockHandle(20), tables.ships!.handle(0)], // the rock first, as the pair names it
        [20, 'i', -1, tables.ships!.handle(1), -1],
      ]),
    );
    expect(seen.length).toBe(6); // nothing else: no end for ['rocks', 'ships'], no bullet C against a ship
    expect(seen.find((e) => e.code === 10 && e.p[3] === handleB)!.p[0]).toBe(0); // B at the decoy's index
    expect(seen.find((e) => e.code === 10 && e.p[3] === handleA)!.tick).toBe(startA);
    expect(seen.find((e) => e.code === 10 && e.p[3] === handleA)!.p[2]).toBeGreaterThan(0); // its impulse, read before the removal
  }, 30_000);
});

describe('a saved world of tables (the deterministic 2D build)', () => {
  it('loaded into another Physics over a copy of the tables, steps on to the same poses, bit for bit', async () => {
    const rapier = DETERMINISTIC as unknown as Rapier;
    await rapier.init();
    const widths = { position: 2, angle: 1 };
    const make = () => ({ tables: { crates: createTable(widths, 32), balls: createTable(widths, 32), ground: createTable({ at: 2, angle: 1 }, 2) } });
    const options = { gravity: { x: 0, y: -9.81 }, tables: { ground: { position: 'at' }, crates: {}, balls: {} } };
    const a = make();
    const pa = createPhysics(rapier, a, options);
    pa.tables.ground.add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(20, 0.5));
    const random = prng(8);
    for (let i = 0; i < 40; i++) {
      const body = rapier.RigidBodyDesc.dynamic().setTranslation((random() - 0.5) * 10, 2 + i * 0.6).setRotation(random() * 6);
      if (i % 2 === 0) pa.tables.crates.add(body, rapier.ColliderDesc.cuboid(0.3, 0.2));
      else pa.tables.balls.add(body, rapier.ColliderDesc.ball(0.3));
    }
    for (let n = 0; n < 45; n++) pa.step(1 / 60); // mid-fall, contacts warm
    pa.tables.crates.remove(3);
    pa.tables.balls.remove(0);
    const saved = pa.save();
    // another Physics, its own Rapier world, over a copy of the tables
    const b = make();
    for (const name of ['crates', 'balls', 'ground'] as const) {
      b.tables[name].count = a.tables[name].count;
      for (const [field, view] of Object.entries(a.tables[name].fields)) b.tables[name].fields[field]!.set(view);
    }
    const pb = createPhysics(rapier, b, options);
    b.tables.balls.count = 0;
    expect(() => pb.load(saved)).toThrow(/^steadyframe: @steadyframe\/rapier load\(\): the saved physics has 19 bodies and the table "balls" 0 entities/);
    b.tables.balls.count = a.tables.balls.count;
    pb.load(saved);
    for (let n = 0; n < 120; n++) {
      pa.step(1 / 60);
      pb.step(1 / 60);
    }
    for (const name of ['crates', 'balls', 'ground'] as const) {
      const [ta, tb] = [a.tables[name], b.tables[name]];
      expect(tb.count).toBe(ta.count);
      for (const [field, view] of Object.entries(ta.fields)) expect(Array.from(tb.fields[field]!)).toEqual(Array.from(view));
      for (let i = 0; i < ta.count; i++) {
        expect(pb.tables[name].indexOfBody(pa.tables[name].bodyHandle(i))).toBe(i);
        expect(pb.tableOf(pa.tables[name].bodyHandle(i))).toBe(pb.tables[name]);
      }
    }
    expect(a.tables.crates.fields.position![1]).toBeLessThan(1); // they fell
    pa.dispose();
    pb.dispose();
  });
});

describe('set-up errors name the fix', () => {
  const target = () => ({ tables: { crates: createTable({ position: 2, angle: 1 }, 4), balls: createTable({ position: 2, heading: 1 }, 4) } });

  it('a table that is not there, a pose field that is not there', async () => {
    await RAPIER2D.init();
    expect(() => createPhysics(RAPIER2D, target() as never, { tables: { crates: {}, boxes: {} } } as never)).toThrow(/^steadyframe: @steadyframe\/rapier tables: "boxes" is not a table of the target \(its tables: crates, balls\)/);
    expect(() => createPhysics(RAPIER2D, target(), { tables: { crates: {}, balls: {} } })).toThrow(/needs an angle schema field "angle" of width 1 \(table "balls"\) for rotations/);
    const physics = createPhysics(RAPIER2D, target(), { tables: { crates: {}, balls: { angle: 'heading' } } });
    expect(physics.tables.balls.add(RAPIER2D.RigidBodyDesc.dynamic().setRotation(1))).toBe(0);
    expect(physics.tables.crates.count).toBe(0);
    physics.dispose();
  });

  it('contacts: pairs with tables only, and then required; pairs of known tables, each once, with codes of their own', async () => {
    await RAPIER2D.init();
    const tables = { crates: {}, balls: { angle: 'heading' } };
    const make = (contacts: object) => () => createPhysics(RAPIER2D, target(), { tables, contacts: contacts as never });
    const code = (start: number, end: number) => ({ start, end });
    expect(make({ events: true })).toThrow(/^@steadyframe\/rapier: contact events with tables need contacts.pairs/);
    expect(make({ events: true, pairs: [{ tables: ['crates', 'boxes'], codes: code(1, 2) }] })).toThrow(/contacts.pairs\[0\].tables is \["crates", "boxes"\]: name two of the Physics' tables \(crates, balls\)/);
    expect(make({ events: true, pairs: [{ tables: [null, 'crates'], codes: code(1, 2) }] })).toThrow(/contacts.pairs\[0\].tables/);
    expect(make({ events: true, pairs: [{ tables: ['crates', null], codes: code(1, 1) }] })).toThrow(/contacts.pairs\[0\].codes needs two different whole numbers/);
    expect(make({ events: true, pairs: [{ tables: ['crates', null], codes: code(1, 2) }, { tables: ['balls', null], codes: code(2, 3) }] })).toThrow(/contacts.pairs\[1\].codes uses 2, which another pair uses too/);
    expect(make({ events: true, pairs: [{ tables: ['crates', 'balls'], codes: code(1, 2) }, { tables: ['balls', 'crates'], codes: code(3, 4) }] })).toThrow(/contacts.pairs\[1\] names tables balls and crates, which an earlier pair names/);
    expect(make({ events: true, pairs: [{ tables: ['crates', null], codes: code(1, 2), minImpulse: -1 }] })).toThrow(/contacts.pairs\[0\].minImpulse is an impulse/);
    expect(() => createPhysics(RAPIER2D, createTable({ position: 2, angle: 1 }, 4), { contacts: { events: true, pairs: [] } })).toThrow(/contacts.pairs names tables, and this Physics has none/);
    make({ events: true, pairs: [{ tables: ['crates', 'crates'], codes: code(1, 2) }, { tables: ['balls', null], codes: code(3, 4) }] })().dispose();
  });
});
