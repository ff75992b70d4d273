/**
 * The rules: a swarm of bodies orbiting a centre, each on its own tilted ring at its own speed, tumbling about its
 * own axis and breathing in size. Plain arithmetic on the fields, the same in the worker (the example) and on
 * the page (the benchmark's plain-Babylon baseline, apps/bench): a step of `dt` seconds moves every body.
 *
 * ```text
 *   body i: ring radius r_i, tilt t_i, phase θ_i (private), angular speed ω_i = 2.2 / sqrt(r_i)
 *     θ_i += ω_i · dt
 *     position = (r cos θ, r sin θ · sin t + lift, r sin θ · cos t)     (a ring tilted about x)
 *     rotation = a turn of 3θ about the body's axis                      scale = 0.8 + 0.3 · sin(2θ + i)
 * ```
 */

/** The worker-only fields (`privateFields`): each body's ring (radius, tilt, lift), phase, and spin axis. */
export const privateFields = { ring: { width: 3 }, phase: { width: 1 }, axis: { width: 3 } } as const;

export interface SwarmFields {
  readonly position: Float32Array;
  readonly rotation: Float32Array;
  readonly scale: Float32Array;
  readonly ring: Float32Array;
  readonly phase: Float32Array;
  readonly axis: Float32Array;
}

/** Places body i on a new ring drawn from `random` (in [0, 1)). */
export function placeBody(f: SwarmFields, i: number, random: () => number): void {
  const r = 3 + 27 * Math.sqrt(random());
  f.ring[3 * i] = r;
  f.ring[3 * i + 1] = (random() - 0.5) * 1.2;
  f.ring[3 * i + 2] = (random() - 0.5) * 2;
  f.phase[i] = random() * 2 * Math.PI;
  // a unit axis, anywhere on the sphere
  const z = 2 * random() - 1;
  const a = 2 * Math.PI * random();
  const s = Math.sqrt(1 - z * z);
  f.axis[3 * i] = s * Math.cos(a);
  f.axis[3 * i + 1] = s * Math.sin(a);
  f.axis[3 * i + 2] = z;
  write(f, i);
}

/** One step of `dt` seconds for bodies [0, count). */
export function stepSwarm(f: SwarmFields, count: number, dt: number): void {
  for (let i = 0; i < count; i++) {
    f.phase[i] = (f.phase[i]! + (2.2 / Math.sqrt(f.ring[3 * i]!)) * dt) % (2 * Math.PI);
    write(f, i);
  }
}

function write(f: SwarmFields, i: number): void {
  const r = f.ring[3 * i]!;
  const tilt = f.ring[3 * i + 1]!;
  const lift = f.ring[3 * i + 2]!;
  const theta = f.phase[i]!;
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  f.position[3 * i] = r * c;
  f.position[3 * i + 1] = r * s * Math.sin(tilt) + lift;
  f.position[3 * i + 2] = r * s * Math.cos(tilt);
  const half = 1.5 * theta;
  const sh = Math.sin(half);
  f.rotation[4 * i] = f.axis[3 * i]! * sh;
  f.rotation[4 * i + 1] = f.axis[3 * i + 1]! * sh;
  f.rotation[4 * i + 2] = f.axis[3 * i + 2]! * sh;
  f.rotation[4 * i + 3] = Math.cos(half);
  f.scale[i] = 0.8 + 0.3 * Math.sin(2 * theta + i);
}
