/**
 * Rapier's builds as the shared glue's tests see them (bodies.test.ts): one descriptor per build with its
 * harness, how to make a body at a point, and its pose read from Rapier and from the fields. The glue is one
 * mechanism for both dimensions, so its tests are one set, run on each.
 */
import RAPIER3D from '@dimforge/rapier3d-compat';
import RAPIER2D from '@dimforge/rapier2d-compat';
import DETERMINISTIC2D from '@dimforge/rapier2d-deterministic-compat';
import type { Physics as Physics3D } from '@steadyframe/rapier';
import type { Physics as Physics2D, Rapier as Rapier2D } from '@steadyframe/rapier/2d';
import { defineTables, type Schema } from 'steadyframe';
import type { Simulation, World } from 'steadyframe/worker';
import { physicsHarness, physicsHarness2d, tablesHarness, tablesHarness2d, type Published } from './harness.ts';

/** What the shared tests call on one target's bodies (a Physics of one target, or `physics.tables.x`). */
export interface SharedBodies {
  readonly count: number;
  remove(index: number): number;
  bodyHandle(index: number): number;
  indexOfBody(bodyHandle: number): number;
  body(index: number): { readonly handle: number; isSleeping(): boolean; translation(): { x: number; y: number } };
  clear(): void;
}

/** What the shared tests call on a Physics of either dimension. */
export interface SharedPhysics extends SharedBodies {
  readonly world: { readonly bodies: { len(): number }; readonly integrationParameters: { readonly numSolverIterations: number } };
  publish(): number;
}

/** What they call on a Physics of tables. */
export interface SharedTablesPhysics {
  readonly world: { readonly bodies: { len(): number } };
  readonly tables: { readonly [name: string]: SharedBodies & { readonly name: string } };
  tableOf(bodyHandle: number): (SharedBodies & { readonly name: string }) | null;
  step(dt: number): void;
  publish(): number;
  save(): Uint8Array;
  load(saved: Uint8Array): void;
  clear(): void;
}

/** A schema of tables with the build's pose fields, stepped with `tables` naming them all. */
export interface TablesHarnessed {
  readonly sim: Pick<Simulation<never>, 'stepOnce'>;
  readonly physics: SharedTablesPhysics;
  readonly world: World<Schema>;
}

export interface Harnessed {
  readonly sim: Pick<Simulation<never>, 'stepOnce'>;
  readonly physics: SharedPhysics;
  readonly world: { readonly count: number; readonly fields: { readonly position: Float32Array } };
  published(): Published;
}

export interface Dimension {
  readonly name: string;
  /** Floats of `position` per entity. */
  readonly width: number;
  /** A harnessed simulation; `weightless`: no gravity (else Rapier's default, 9.81 down y). */
  harness(capacity: number, options: { readonly weightless?: boolean; init?(physics: SharedPhysics): void }): Promise<Harnessed>;
  /** Tables of these capacities, in this order, each with the pose fields, all in `tables` (and `contacts`). */
  tables(capacities: Readonly<Record<string, number>>, options?: { readonly weightless?: boolean; readonly contacts?: object }): Promise<TablesHarnessed>;
  /** Adds a dynamic ball of radius `r` at (x, y), moving along x at `vx`; the entity, or -1. */
  ball(bodies: SharedBodies, x: number, y: number, r: number, vx?: number): number;
  /** Adds a fixed box of half size `h` at (x, y) with no body: a collider that is no entity's. */
  ground(physics: SharedTablesPhysics, x: number, y: number, h: number): void;
  /** Adds a dynamic box of half size `h` at (x, y). */
  box(bodies: SharedBodies, x: number, y: number, h: number): number;
  /** Adds a fixed floor, its top at y = 0.5. */
  floor(bodies: SharedBodies): number;
  teleport(bodies: SharedBodies, index: number, x: number, y: number): void;
  /** Pushes entity `index`'s body up by an impulse, waking it. */
  kick(bodies: SharedBodies, index: number, up: number): void;
  /** Entity `index`'s pose as Rapier has it (translation, then rotation), each rounded to float32. */
  rapierPose(bodies: SharedBodies, index: number): number[];
  /** Entity `index`'s pose in the fields (position, then rotation or angle). */
  fieldsPose(harnessed: Harnessed, index: number): number[];
  /** Entity `index`'s pose in a target's own fields (a table's). */
  poseIn(fields: { readonly [name: string]: Float32Array }, index: number): number[];
}

const f = Math.fround;

/** A schema of tables of these capacities, each with `fields`. */
const tablesOf = (capacities: Readonly<Record<string, number>>, fields: object): Schema =>
  defineTables(Object.fromEntries(Object.entries(capacities).map(([name, capacity]) => [name, { capacity, fields }])) as never) as Schema;
const allTables = (capacities: Readonly<Record<string, number>>) => Object.fromEntries(Object.keys(capacities).map((name) => [name, {}]));

const threeD: Dimension = {
  name: '3D (rapier3d-compat 0.21)',
  width: 3,
  harness: (capacity, { weightless, init }) =>
    physicsHarness(capacity, { tickRate: 60, ...(weightless === true ? { gravity: { x: 0, y: 0, z: 0 } } : {}), ...(init === undefined ? {} : { init }) }),
  ball: (p, x, y, r, vx = 0) => (p as Physics3D).add(RAPIER3D.RigidBodyDesc.dynamic().setTranslation(x, y, 0).setLinvel(vx, 0, 0), RAPIER3D.ColliderDesc.ball(r)),
  ground: (p, x, y, h) => void (p.world as Physics3D['world']).createCollider(RAPIER3D.ColliderDesc.cuboid(h, h, h).setTranslation(x, y, 0)),
  box: (p, x, y, h) => (p as Physics3D).add(RAPIER3D.RigidBodyDesc.dynamic().setTranslation(x, y, 0), RAPIER3D.ColliderDesc.cuboid(h, h, h)),
  floor: (p) => (p as Physics3D).add(RAPIER3D.RigidBodyDesc.fixed(), RAPIER3D.ColliderDesc.cuboid(50, 0.5, 50)),
  teleport: (p, i, x, y) => (p as Physics3D).teleport(i, x, y, 0),
  kick: (p, i, up) => (p as Physics3D).body(i).applyImpulse({ x: 0, y: up, z: 0 }, true),
  rapierPose(p, i) {
    const body = (p as Physics3D).body(i);
    const t = body.translation();
    const q = body.rotation();
    return [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map(f);
  },
  fieldsPose: (h, i) => threeD.poseIn((h.world as unknown as { fields: { [name: string]: Float32Array } }).fields, i),
  poseIn: (fields, i) => [...fields.position!.subarray(3 * i, 3 * i + 3), ...fields.rotation!.subarray(4 * i, 4 * i + 4)],
  tables: (capacities, { weightless, contacts } = {}) =>
    tablesHarness(tablesOf(capacities, { position: { width: 3, kind: 'linear' }, rotation: { width: 4, kind: 'quaternion' } }), {
      tables: allTables(capacities),
      ...(weightless === true ? { gravity: { x: 0, y: 0, z: 0 } } : {}),
      ...(contacts === undefined ? {} : { contacts }),
    }),
};

function twoD(name: string, rapier: Rapier2D): Dimension {
  const dimension: Dimension = {
    name,
    width: 2,
    harness: (capacity, { weightless, init }) =>
      physicsHarness2d(capacity, { tickRate: 60, ...(weightless === true ? { gravity: { x: 0, y: 0 } } : {}), ...(init === undefined ? {} : { init }) }, rapier),
    ball: (p, x, y, r, vx = 0) => (p as Physics2D).add(rapier.RigidBodyDesc.dynamic().setTranslation(x, y).setLinvel(vx, 0), rapier.ColliderDesc.ball(r)),
    ground: (p, x, y, h) => void (p.world as Physics2D['world']).createCollider(rapier.ColliderDesc.cuboid(h, h).setTranslation(x, y)),
    box: (p, x, y, h) => (p as Physics2D).add(rapier.RigidBodyDesc.dynamic().setTranslation(x, y), rapier.ColliderDesc.cuboid(h, h)),
    floor: (p) => (p as Physics2D).add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(50, 0.5)),
    teleport: (p, i, x, y) => (p as Physics2D).teleport(i, x, y),
    kick: (p, i, up) => (p as Physics2D).body(i).applyImpulse({ x: 0, y: up }, true),
    rapierPose(p, i) {
      const body = (p as Physics2D).body(i);
      const t = body.translation();
      return [t.x, t.y, body.rotation()].map(f);
    },
    fieldsPose: (h, i) => dimension.poseIn((h.world as unknown as { fields: { [name: string]: Float32Array } }).fields, i),
    poseIn: (fields, i) => [...fields.position!.subarray(2 * i, 2 * i + 2), fields.angle![i]!],
    tables: (capacities, { weightless, contacts } = {}) =>
      tablesHarness2d(
        tablesOf(capacities, { position: { width: 2, kind: 'linear' }, angle: { width: 1, kind: 'angle' } }),
        { tables: allTables(capacities), ...(weightless === true ? { gravity: { x: 0, y: 0 } } : {}), ...(contacts === undefined ? {} : { contacts }) },
        rapier,
      ),
  };
  return dimension;
}

export const DIMENSIONS: readonly Dimension[] = [
  threeD,
  twoD('2D (rapier2d-compat 0.21)', RAPIER2D),
  // the same API (the package README says what 0.21 added); TypeScript sees its classes as other classes
  twoD('2D (rapier2d-deterministic-compat 0.20)', DETERMINISTIC2D as unknown as Rapier2D),
];
