import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { wrapAngle } from 'steadyframe/adapter';
import { motionAt, motionSchema, SPIN_PER_TICK } from './fixtures/schemas.ts';
import { fixtureWorker, waitFor } from './helpers.ts';

let runtime: Runtime<typeof motionSchema> | undefined;
afterEach(() => runtime?.dispose());

interface Seen {
  alpha: number;
  previousTick: number;
  tick: number;
  fresh: boolean;
  overtaken: boolean;
  position: number[];
  angle: number[];
  spin: number[];
  frame: number[];
}

const copy = (f: Frame<typeof motionSchema>): Seen => ({
  alpha: f.alpha,
  previousTick: f.previousTick,
  tick: f.tick,
  fresh: f.fresh,
  overtaken: f.overtaken,
  position: Array.from(f.fields.position.subarray(0, 2 * f.count)),
  angle: Array.from(f.fields.angle.subarray(0, f.count)),
  spin: Array.from(f.fields.spin.subarray(0, 4 * f.count)),
  frame: Array.from(f.fields.frame.subarray(0, f.count)),
});

it.each([
  ['wasm-simd', 0],
  ['js', 0],
  ['wasm-simd', 1],
  ['js', 1],
] as const)('draw receives every field interpolated between the previous and current state (%s kernels, render delay %i)', async (kernels, renderDelay) => {
  const frames: Seen[] = [];
  let renderBuffers = new Set<ArrayBufferLike>();
  runtime = await createRuntime({
    worker: fixtureWorker('motion'),
    schema: motionSchema,
    capacity: 8,
    kernels,
    // with a delay, frames blend states from the history (in its own wasm memory, for the SIMD kernels)
    interpolation: { renderDelay },
    draw: (frame) => {
      frames.push(copy(frame));
      renderBuffers = new Set(Object.values(frame.fields).map((view) => view.buffer));
    },
  });
  expect(runtime.kernels).toBe(kernels); // Chromium has WebAssembly SIMD
  await runtime.start();
  await waitFor('60 frames', () => frames.length >= 60, 30_000);
  await runtime.stop();
  // one plain render buffer for all fields, whichever kernels wrote it (with wasm-simd here: the kernels'
  // unshared render memory, written straight from the shared states), never a shared one
  expect(renderBuffers.size).toBe(1);
  const [render] = renderBuffers;
  expect(render).toBeInstanceOf(ArrayBuffer);

  let between = 0;
  let overtaken = 0;
  let gaps = 0;
  let repeated = 0;
  for (const f of frames) {
    // the lock stayed busy (a worker descheduled mid-publish on a loaded machine): the last good frame again,
    // counted as a miss
    if (!f.fresh) {
      repeated++;
      continue;
    }
    expect(f.alpha).toBeGreaterThanOrEqual(0);
    expect(f.alpha).toBeLessThanOrEqual(1);
    if (f.tick === 0) continue; // tick 0: previous and current are both the initial state
    if (f.tick - f.previousTick > 1) gaps++;
    // a frame the worker overtook (its callback ran late, or earlier than announced, on a busy machine) whose
    // pair was not kept says so, and shows the nearest it has: not a blend of consecutive ticks to check here
    if (f.overtaken) {
      overtaken++;
      continue;
    }
    // the delayed view blends across ticks the main thread never saw (after a long pause of the page), and
    // counts it; without a delay every frame not flagged is drawn from consecutive ticks
    if (renderDelay > 0 && f.tick - f.previousTick > 1) continue;
    expect(f.tick - f.previousTick).toBe(1);
    const k = f.previousTick + f.alpha; // the fractional tick this frame shows
    if (f.alpha > 0 && f.alpha < 1) between++;
    for (let i = 0; i < 2; i++) {
      const m = motionAt(i, k);
      expect(f.position[2 * i]).toBeCloseTo(m.x, 3);
      expect(f.position[2 * i + 1]).toBeCloseTo(m.y, 3);
      // the worker stores wrapped angles; one radian per tick, so the short way is the true way
      expect(f.angle[i]).toBeCloseTo(wrapAngle(m.angle), 4);
      // nlerp over 0.3 rad stays within 1e-3 rad of the true rotation
      const [, , z, w] = f.spin.slice(4 * i, 4 * i + 4) as [number, number, number, number];
      expect(Math.hypot(z, w)).toBeCloseTo(1, 5);
      expect(Math.abs(wrapAngle(2 * Math.atan2(z, w) - k * SPIN_PER_TICK))).toBeLessThan(1e-3);
      // 'none' by the discrete rule: the current value once past the previous state
      expect(f.frame[i]).toBe(f.alpha > 0 ? f.tick : f.previousTick);
    }
  }
  const { sampling, lock } = await runtime.stats();
  expect(repeated).toBeLessThanOrEqual(lock.misses);
  expect(repeated).toBeLessThan(frames.length / 2);
  expect(sampling.overtaken).toBe(overtaken);
  expect(sampling.gaps).toBe(gaps);
  // frames fell between ticks (20 Hz ticks, ~60 Hz frames), and the simulation moved on meanwhile
  expect(between).toBeGreaterThan(0);
  expect(frames.at(-1)!.tick).toBeGreaterThan(frames[0]!.tick);
});
