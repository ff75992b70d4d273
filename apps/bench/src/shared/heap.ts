/**
 * The r3f-port suite's scene, the same for every design (apps/bench/src/r3f/): `n` boxes of 0.8 units dropped in
 * about ten layers above a fixed floor, falling into a heap, Rapier's and cannon's default gravity (9.81), 60 Hz
 * steps. Each box's starting pose comes from here, drawn from a seeded generator, so that @react-three/rapier,
 * @react-three/cannon, the steadyframe worker and the floor design start from the same boxes in the same places.
 *
 * ```text
 *   side view                               top view: side × side cells of CELL units, jittered
 *     y ≈ DROP_Y + 9 × CELL  ▫ ▫ ▫ ▫ ▫          ▫ ▫ ▫ ▫ ▫
 *        ...                 ▫ ▫ ▫ ▫ ▫          ▫ ▫ ▫ ▫ ▫      side = ceil(sqrt(n / LAYERS)):
 *     y = DROP_Y             ▫ ▫ ▫ ▫ ▫          ▫ ▫ ▫ ▫ ▫      10 at 1k, 23 at 5k, 32 at 10k
 *   ───────────────── floor: FLOOR_HALF × 2 wide, its top at y = 0, 1 unit thick
 * ```
 */

/** A box's half extent (the boxes are 0.8 units across). */
export const BOX_HALF = 0.4;
/** The floor's half width and depth; it is 1 unit thick, its top at y = 0. */
export const FLOOR_HALF = 30;
/** The layers the boxes start in (about). */
export const LAYERS = 10;
/** The distance between two boxes' centres at the start. */
export const CELL = 1.2;
/** The lowest layer's height. */
export const DROP_Y = 2;
/** Steps per simulated second, for every design (@react-three/rapier's timeStep, cannon's stepSize, the worker's tick rate). */
export const TICK_RATE = 60;
/** The generator's seed: every design draws the same boxes. */
export const HEAP_SEED = 28;

/** `n` boxes' starting poses: positions (x, y, z) and XYZ Euler angles (a tilt about x and z, so the heap topples). */
export interface Heap {
  readonly count: number;
  readonly positions: Float32Array;
  readonly rotations: Float32Array;
}

/** mulberry32: a small seeded generator, enough to scatter boxes the same way in every design. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The side of the square of cells the boxes start in. */
export const heapSide = (n: number): number => Math.max(1, Math.ceil(Math.sqrt(n / LAYERS)));

export function heap(n: number): Heap {
  const random = mulberry32(HEAP_SEED);
  const side = heapSide(n);
  const positions = new Float32Array(3 * n);
  const rotations = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const layer = Math.floor(i / (side * side));
    const cell = i % (side * side);
    positions[3 * i] = ((cell % side) - (side - 1) / 2) * CELL + (random() - 0.5) * 0.3;
    positions[3 * i + 1] = DROP_Y + layer * CELL;
    positions[3 * i + 2] = (Math.floor(cell / side) - (side - 1) / 2) * CELL + (random() - 0.5) * 0.3;
    rotations[3 * i] = (random() - 0.5) * 0.6;
    rotations[3 * i + 2] = (random() - 0.5) * 0.6;
  }
  return { count: n, positions, rotations };
}

/** The quaternion (x, y, z, w) of XYZ Euler angles, as three.js's Quaternion.setFromEuler and cannon-es's setFromEuler make it. */
export function quaternionOfEuler(x: number, y: number, z: number): [number, number, number, number] {
  const c1 = Math.cos(x / 2);
  const c2 = Math.cos(y / 2);
  const c3 = Math.cos(z / 2);
  const s1 = Math.sin(x / 2);
  const s2 = Math.sin(y / 2);
  const s3 = Math.sin(z / 2);
  return [s1 * c2 * c3 + c1 * s2 * s3, c1 * s2 * c3 - s1 * c2 * s3, c1 * c2 * s3 + s1 * s2 * c3, c1 * c2 * c3 - s1 * s2 * s3];
}
