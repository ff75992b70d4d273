/**
 * The motion fixture's runtime, its times and the checks of a drawn picture: shared by the three.js adapter's browser
 * tests (helpers.ts adds the three.js stage) and by other renderers' tests of the same fixture (@steadyframe/babylon's).
 * Nothing here imports a renderer.
 */
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { motionSchema, ROW } from './fixtures/schema.ts';
import type { MotionCommands } from './fixtures/motion.worker.ts';

export type MotionRuntime = Runtime<typeof motionSchema, MotionCommands>;
export type MotionFrame = Frame<typeof motionSchema>;

/** A runtime on the motion fixture, attached (tick 0 published) and not started: tests step it by hand. */
export async function motionRuntime(): Promise<MotionRuntime> {
  return createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity: 8,
    pacing: { adaptive: false },
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `n` ticks of a runtime that is not started, one after another. */
export async function steps(rt: MotionRuntime, n: number): Promise<void> {
  for (let k = 0; k < n; k++) await rt.stepOnce();
}

/** Polls until `predicate` holds; fails with `what` after `timeoutMs` (a hang guard, not a timing check). */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The shared-clock time at `alpha` between the newest pair's two states. */
export function timeAt(runtime: { sample(time: number): { readonly previousTime: number; readonly currentTime: number } }, alpha: number): number {
  const f = runtime.sample(Number.POSITIVE_INFINITY);
  return f.previousTime + alpha * (f.currentTime - f.previousTime);
}

/** Side of the square each entity is drawn as, in world units, before its scale. */
export const SQUARE = 0.5;
/** The square's centre in the entity's own frame: off its origin, so the centroid shows the rotation too. */
export const ARM = 1;

/** Where the marker's centre lands for an entity at (x, y), turned `angle` about +z, scaled `scale`. */
export function markerCentre(x: number, y: number, angle: number, scale: number): [number, number] {
  return [x + scale * ARM * Math.cos(angle), y + scale * ARM * Math.sin(angle)];
}

/** The runtime's own interpolated transform of entity i, as a marker centre. */
export function frameCentre(frame: MotionFrame, i: number): [number, number] {
  const { position, rotation, scale } = frame.fields;
  const [, , z, w] = rotation.subarray(4 * i, 4 * i + 4) as unknown as [number, number, number, number];
  return markerCentre(position[3 * i]!, position[3 * i + 1]!, 2 * Math.atan2(z, w), scale[i]!);
}

/** A world window a camera sees, and pixels per world unit. */
export interface View {
  readonly left: number;
  readonly right: number;
  readonly bottom: number;
  readonly top: number;
  readonly scale: number;
}

/** The motion fixture's window: its rows of entities as they move along x. */
export const VIEW: View = { left: -3, right: 20, bottom: -2.5, top: 14.5, scale: 16 };

/** What was drawn in one entity's row: lit pixels' centroid (world units), their count, mean red, red-weighted centroid. */
export interface Marker {
  readonly x: number;
  readonly y: number;
  readonly pixels: number;
  readonly red: number;
  readonly redX: number;
  readonly redY: number;
}


/**
 * Each row's drawn marker in `pixels` (RGBA, bottom row first, of `view`'s window at its scale): the centroid of
 * the lit pixels in the band around y = ROW * i, in world units, with their count and mean red; null where
 * nothing was drawn.
 */
export function markersIn(pixels: Uint8Array, view: View, rows: number): Array<Marker | null> {
  const width = (view.right - view.left) * view.scale;
  const height = (view.top - view.bottom) * view.scale;
  const sums = Array.from({ length: rows }, () => ({ x: 0, y: 0, n: 0, red: 0, rx: 0, ry: 0 }));
  for (let py = 0; py < height; py++) {
    const wy = view.bottom + (py + 0.5) / view.scale;
    const row = Math.round(wy / ROW);
    if (row < 0 || row >= rows) continue;
    for (let px = 0; px < width; px++) {
      const o = 4 * (py * width + px);
      const lit = Math.max(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!);
      if (lit < 8) continue;
      const s = sums[row]!;
      const wx = view.left + (px + 0.5) / view.scale;
      s.x += wx;
      s.y += wy;
      s.n++;
      s.red += pixels[o]!;
      s.rx += wx * pixels[o]!;
      s.ry += wy * pixels[o]!;
    }
  }
  return sums.map((s) =>
    s.n === 0 ? null : { x: s.x / s.n, y: s.y / s.n, pixels: s.n, red: s.red / s.n, redX: s.rx / s.red, redY: s.ry / s.red },
  );
}

/** Asserts, in world units, that a marker was drawn at `expected`. */
export function expectNear(
  marker: { x: number; y: number } | null,
  expected: readonly [number, number],
  tolerance: number,
  what: string,
): void {
  if (marker === null) throw new Error(`${what}: nothing drawn`);
  const d = Math.hypot(marker.x - expected[0], marker.y - expected[1]);
  if (!(d <= tolerance)) {
    throw new Error(`${what}: drawn at (${marker.x.toFixed(3)}, ${marker.y.toFixed(3)}), expected (${expected[0].toFixed(3)}, ${expected[1].toFixed(3)}): ${d.toFixed(3)} apart`);
  }
}

/**
 * Every drawn marker sits where the runtime's own interpolation puts the entity, within `tolerance` world units
 * (a pixel is 1/16 of a unit: a wrong alpha or angle misses by far more).
 */
export function expectDrawnLike(frame: MotionFrame, drawn: ReadonlyArray<{ x: number; y: number } | null>, what: string, tolerance = 0.05): void {
  for (let i = 0; i < frame.count; i++) expectNear(drawn[i]!, frameCentre(frame, i), tolerance, `${what}, entity ${i} vs runtime.sample`);
}
