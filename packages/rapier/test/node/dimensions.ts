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
import type { Simulation } from 'steadyframe/worker';
import { physicsHarness, physicsHarness2d, type Published } from './harness.ts';

/** What the shared tests call on a Physics of either dimension. */
export interface SharedPhysics {
  readonly count: number;
  readonly world: { readonly bodies: { len(): number }; readonly integrationParameters: { readonly numSolverIterations: number } };
  remove(index: number): number;
  handle(index: number): number;
  indexOf(handle: number): number;
  publish(): number;
  body(index: number): { isSleeping(): boolean; translation(): { x: number; y: number } };
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
  /** Adds a dynamic ball of radius `r` at (x, y); the entity, or -1. */
  ball(physics: SharedPhysics, x: number, y: number, r: number): number;
  /** Adds a dynamic box of half size `h` at (x, y). */
  box(physics: SharedPhysics, x: number, y: number, h: number): number;
  /** Adds a fixed floor, its top at y = 0.5. */
  floor(physics: SharedPhysics): number;
  teleport(physics: SharedPhysics, index: number, x: number, y: number): void;
  /** Pushes entity `index`'s body up by an impulse, waking it. */
  kick(physics: SharedPhysics, index: number, up: number): void;
  /** Entity `index`'s pose as Rapier has it (translation, then rotation), each rounded to float32. */
  rapierPose(physics: SharedPhysics, index: number): number[];
  /** Entity `index`'s pose in the fields (position, then rotation or angle). */
  fieldsPose(harnessed: Harnessed, index: number): number[];
}

const f = Math.fround;

const threeD: Dimension = {
  name: '3D (rapier3d-compat 0.21)',
  width: 3,
  harness: (capacity, { weightless, init }) =>
    physicsHarness(capacity, { tickRate: 60, ...(weightless === true ? { gravity: { x: 0, y: 0, z: 0 } } : {}), ...(init === undefined ? {} : { init }) }),
  ball: (p, x, y, r) => (p as Physics3D).add(RAPIER3D.RigidBodyDesc.dynamic().setTranslation(x, y, 0), RAPIER3D.ColliderDesc.ball(r)),
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
  fieldsPose: (h, i) => {
    const fields = (h.world as unknown as { fields: { position: Float32Array; rotation: Float32Array } }).fields;
    return [...fields.position.subarray(3 * i, 3 * i + 3), ...fields.rotation.subarray(4 * i, 4 * i + 4)];
  },
};

function twoD(name: string, rapier: Rapier2D): Dimension {
  return {
    name,
    width: 2,
    harness: (capacity, { weightless, init }) =>
      physicsHarness2d(capacity, { tickRate: 60, ...(weightless === true ? { gravity: { x: 0, y: 0 } } : {}), ...(init === undefined ? {} : { init }) }, rapier),
    ball: (p, x, y, r) => (p as Physics2D).add(rapier.RigidBodyDesc.dynamic().setTranslation(x, y), rapier.ColliderDesc.ball(r)),
    box: (p, x, y, h) => (p as Physics2D).add(rapier.RigidBodyDesc.dynamic().setTranslation(x, y), rapier.ColliderDesc.cuboid(h, h)),
    floor: (p) => (p as Physics2D).add(rapier.RigidBodyDesc.fixed(), rapier.ColliderDesc.cuboid(50, 0.5)),
    teleport: (p, i, x, y) => (p as Physics2D).teleport(i, x, y),
    kick: (p, i, up) => (p as Physics2D).body(i).applyImpulse({ x: 0, y: up }, true),
    rapierPose(p, i) {
      const body = (p as Physics2D).body(i);
      const t = body.translation();
      return [t.x, t.y, body.rotation()].map(f);
    },
    fieldsPose: (h, i) => {
      const fields = (h.world as unknown as { fields: { position: Float32Array; angle: Float32Array } }).fields;
      return [...fields.position.subarray(2 * i, 2 * i + 2), fields.angle[i]!];
    },
  };
}

export const DIMENSIONS: readonly Dimension[] = [
  threeD,
  twoD('2D (rapier2d-compat 0.21)', RAPIER2D),
  // the same API (the package README says what 0.21 added); TypeScript sees its classes as other classes
  twoD('2D (rapier2d-deterministic-compat 0.20)', DETERMINISTIC2D as unknown as Rapier2D),
];
