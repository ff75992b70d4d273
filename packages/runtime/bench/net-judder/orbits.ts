/**
 * The network benchmark's world (net-judder.measure.ts): entities on circles whose angular speed swells and
 * ebbs, written by the server's simulation at each tick's time and known exactly at any time, so every frame a
 * client draws can be held against the truth.
 *
 * ```text
 *  θ(t) = phase + ω·(t + (m/ν)·sin(ν·t + ψ))      t in seconds: the angular speed ω·(1 + m·cos(ν·t + ψ)),
 *  position = centre + r·(cos θ, sin θ)            between ω/2 and 3ω/2, never stopping, never reversing
 *  velocity = r·θ'(t)·(−sin θ, cos θ)              units a second (the schema's velocity field)
 * ```
 *
 * With r in 4–12 units and |ω| in 1.5–3 rad/s, an entity moves 0.15–2.7 units and turns 2–13° between two
 * snapshots at 20 Hz: the curvature of a steered player or an orb, not a straight line (which any blend draws
 * exactly).
 */
import { defineSchema } from 'steadyframe';
import { mulberry32 } from 'steadyframe/testing';
import type { RangeQuantize } from '../../src/core/quantize.ts';

/** How the orbits' two fields cross the wire (core/quantize.ts), or null: as their float32 bits. */
export interface OrbitQuantize {
  readonly position: RangeQuantize;
  readonly velocity: RangeQuantize;
}

/**
 * The benchmark's quantisation, stated in docs/net-judder.md. Every centre lies within ±50 units and every radius
 * is at most 12, so every position is within ±62: the range ±64 leaves a margin. A thousandth of a unit is
 * 128,000 steps (17 bits): 0.7% of the slowest entity's motion between two snapshots (0.15 units, what judder
 * is counted in) and 2% of its motion in one 60 Hz frame (0.05 units). The fastest entity moves r·|ω|·(1 + m) ≤
 * 12 × 3 × 1.5 = 54 units a second: the same ±64, in hundredths (12,800 steps, 14 bits). Velocity only shapes the
 * Hermite curve between two snapshots (its slope at each end), where a hundredth of a unit a second moves the
 * curve by under 0.001 units in a 50 ms interval.
 */
export const ORBIT_QUANTIZE: OrbitQuantize = {
  position: { min: -64, max: 64, precision: 1 / 1000 },
  velocity: { min: -64, max: 64, precision: 1 / 100 },
};

/** The orbits' schema, quantised or not (one type: `quantize` changes the wire, not the layout). */
export type OrbitSchema = {
  readonly position: { readonly width: 2; readonly kind: 'linear'; readonly velocity: 'velocity'; readonly quantize?: RangeQuantize };
  readonly velocity: { readonly width: 2; readonly kind: 'linear'; readonly quantize?: RangeQuantize };
};

/** The orbits' schema with `quantize` (null: none; the fields cross as their float32 bits). */
export function orbitSchemaWith(quantize: OrbitQuantize | null): OrbitSchema {
  const position = { width: 2, kind: 'linear', velocity: 'velocity' } as const;
  const velocity = { width: 2, kind: 'linear' } as const;
  return defineSchema<OrbitSchema>(
    quantize === null ? { position, velocity } : { position: { ...position, quantize: quantize.position }, velocity: { ...velocity, quantize: quantize.velocity } },
  );
}

/** The schema the server and its clients use: quantised as ORBIT_QUANTIZE says. */
export const orbitSchema = orbitSchemaWith(ORBIT_QUANTIZE);

/** The server's ticks a second and its snapshots: every third tick (20 Hz). */
export const ORBIT_TICK_RATE = 60;
export const ORBIT_SEND_EVERY = 3;

/** What `createRuntime({ setup })` gives the orbits worker. */
export interface OrbitSetup {
  readonly count: number;
  readonly seed: number;
}

export interface Orbit {
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  /** Mean angular speed, rad/s (either sign). */
  readonly w: number;
  readonly m: number;
  readonly nu: number;
  readonly psi: number;
  readonly phase: number;
}

/** `count` orbits from `seed` (the same on the server and in the benchmark). */
export function makeOrbits(count: number, seed: number): Orbit[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => ({
    cx: 100 * random() - 50,
    cy: 100 * random() - 50,
    r: 4 + 8 * random(),
    w: (1.5 + 1.5 * random()) * (random() < 0.5 ? -1 : 1),
    m: 0.5,
    nu: 0.5 + random(),
    psi: 2 * Math.PI * random(),
    phase: 2 * Math.PI * random(),
  }));
}

/** The angle at `ms` (any clock's ms: the server's, as its ticks are stamped). */
export function angleAt(o: Orbit, ms: number): number {
  const t = ms / 1000;
  return o.phase + o.w * (t + (o.m / o.nu) * Math.sin(o.nu * t + o.psi));
}

/** The angular speed at `ms`, rad/s. */
export function turnRateAt(o: Orbit, ms: number): number {
  return o.w * (1 + o.m * Math.cos((o.nu * ms) / 1000 + o.psi));
}

/** Speed along the circle at `ms`, units a second. */
export function speedAt(o: Orbit, ms: number): number {
  return Math.abs(o.r * turnRateAt(o, ms));
}

/** Writes the position (and the velocity, if given) at `ms` into entity `i` of the arrays (2 floats an entity). */
export function writeOrbit(o: Orbit, ms: number, position: Float32Array | Float64Array, i: number, velocity?: Float32Array): void {
  const a = angleAt(o, ms);
  const c = Math.cos(a);
  const s = Math.sin(a);
  position[2 * i] = o.cx + o.r * c;
  position[2 * i + 1] = o.cy + o.r * s;
  if (velocity !== undefined) {
    const v = o.r * turnRateAt(o, ms);
    velocity[2 * i] = -v * s;
    velocity[2 * i + 1] = v * c;
  }
}

/**
 * The time (same clock as `angleAt`) whose true position is nearest the drawn point (x, y), searched from
 * `guess`: where on its path the point is, as a time. Newton on the angle, the angle taken the short way round.
 */
export function timeOfPoint(o: Orbit, x: number, y: number, guess: number): number {
  const drawn = Math.atan2(y - o.cy, x - o.cx);
  let ms = guess;
  for (let k = 0; k < 4; k++) {
    let d = (drawn - angleAt(o, ms)) % (2 * Math.PI);
    if (d > Math.PI) d -= 2 * Math.PI;
    else if (d < -Math.PI) d += 2 * Math.PI;
    ms += (1000 * d) / turnRateAt(o, ms);
  }
  return ms;
}
