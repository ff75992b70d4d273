/**
 * The physics comparison's scene, built the same way by both designs (Rapier on the main thread, Rapier in the
 * steadyframe worker): a fixed floor, one probe body in free fall beside it (it never touches anything: its
 * path is known in closed form), and `n` boxes and spheres in a column of layers above the floor, falling into
 * a pile. Entity order: 0 floor, 1 probe, 2 .. n + 1 the bodies.
 */
import type RAPIER from '@dimforge/rapier3d-compat';
import type { ColliderDesc, RigidBodyDesc } from '@dimforge/rapier3d-compat';

type Rapier = typeof RAPIER;

export const PHYSICS_TICK_RATE = 60;
export const GRAVITY = 9.81;
/** Rapier 0.21 integrates each step in this many substeps (its default numSolverIterations). */
export const SUBSTEPS = 4;
export const PROBE = 1;
export const PROBE_Y0 = 2000;
/** Entities besides the n bodies: the floor and the probe. */
export const EXTRA = 2;

/**
 * The probe's height after `k` steps of dt: semi-implicit Euler in SUBSTEPS substeps of h from rest,
 * y = y0 - g h^2 m (m + 1) / 2 with m = SUBSTEPS k (the Node tests of @steadyframe/rapier check Rapier does this).
 */
export function probeY(k: number): number {
  const h = 1 / PHYSICS_TICK_RATE / SUBSTEPS;
  const m = SUBSTEPS * k;
  return PROBE_Y0 - (GRAVITY * h * h * m * (m + 1)) / 2;
}


/** Adds the scene through `add` (a body and its collider; returns the entity index). */
export function buildPhysicsScene(rapier: Rapier, n: number, add: (body: RigidBodyDesc, collider: ColliderDesc) => number): void {
  add(rapier.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0), rapier.ColliderDesc.cuboid(30, 0.5, 30));
  add(rapier.RigidBodyDesc.dynamic().setTranslation(100, PROBE_Y0, 0).setCanSleep(false), rapier.ColliderDesc.ball(0.5));
  const side = Math.max(6, Math.min(24, Math.ceil(Math.sqrt(n / 10))));
  const gap = 1.25;
  for (let i = 0; i < n; i++) {
    const layer = Math.floor(i / (side * side));
    const cell = i % (side * side);
    const x = ((cell % side) - (side - 1) / 2) * gap + ((i * 0.37) % 0.2);
    const z = (Math.floor(cell / side) - (side - 1) / 2) * gap + ((i * 0.61) % 0.2);
    const body = rapier.RigidBodyDesc.dynamic().setTranslation(x, 3 + layer * gap, z).setAngularDamping(0.5);
    add(body, i % 2 === 0 ? rapier.ColliderDesc.cuboid(0.45, 0.45, 0.45) : rapier.ColliderDesc.ball(0.5));
  }
}

/**
 * The simulated time (s) at which the probe's ideal drawn path passes height `y`: the inverse of `probeAt`,
 * so a drawn frame says which moment of the fall it shows.
 */
export function probeTimeAt(y: number): number {
  const h = 1 / PHYSICS_TICK_RATE / SUBSTEPS;
  // y0 - y = g h^2 m (m + 1) / 2: the continuous m, then the tick k before it, then where y lies in that tick
  const drop = Math.max(0, PROBE_Y0 - y);
  const m = (-1 + Math.sqrt(1 + (8 * drop) / (GRAVITY * h * h))) / 2;
  let k = Math.max(0, Math.floor(m / SUBSTEPS));
  while (k > 0 && probeY(k) < y) k--;
  while (probeY(k + 1) >= y) k++;
  const a = probeY(k);
  const b = probeY(k + 1);
  return (k + (a - y) / (a - b)) / PHYSICS_TICK_RATE;
}
