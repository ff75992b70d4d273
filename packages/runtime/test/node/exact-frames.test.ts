/**
 * Frames that must show exactly the states the worker published, on a manual clock: what
 * `test/browser/exact-frames.test.ts` guards with real rAF, exact and with every case met. `mode: 'latest'`
 * shows each tick's current state bit for bit (NaNs, unwrapped angles, unnormalised quaternions), every tick
 * from the first on; a frame the worker overtook (its callback ran late: the worker published past its time)
 * is drawn from exactly the pair around it once the page keeps the states its frames read, for as long as the
 * overtaken watch lasts (ARCHITECTURE.md, "Overtaken frames"), and flagged where no kept state can serve it.
 * Both kernel sets; the shared transport (the message transport's frames are the browser-plain tests').
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, Runtime } from 'steadyframe';
import { interpolateField } from 'steadyframe/adapter';
import type { ManualClock } from 'steadyframe/node';
import { float32Bits, MOTION_WIDTH, motionAt, motionFields, motionSchema, MOTION_TICK_RATE, PUBLISHED_TICK_RATE, writeMotion, writePublished, type MotionFields } from '../browser/fixtures/schemas.ts';
import { REFRESH } from './support/display.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);

const KERNELS = ['wasm-simd', 'js'] as const;

const NAMES = Object.keys(MOTION_WIDTH) as (keyof MotionFields)[];

async function started(fixture: 'published' | 'motion', kernels: (typeof KERNELS)[number], latest: boolean): Promise<{ rt: Runtime<typeof motionSchema>; clock: ManualClock }> {
  const { rt, clock } = await onManualClock({ fixture, capacity: 8, kernels, ...(latest ? { interpolation: { mode: 'latest' as const } } : {}) });
  expect(rt.kernels).toBe(kernels);
  await rt.start();
  return { rt, clock };
}

describe("mode 'latest'", () => {
  it.each(KERNELS)('shows every tick\'s current state bit for bit, from tick 1 to 120 (%s kernels)', async (kernels) => {
    const { rt, clock } = await started('published', kernels, true);
    const tickMs = 1000 / PUBLISHED_TICK_RATE;
    for (let k = 1; k <= 120; k++) {
      await clock.advanceTo(START + (k - 0.5) * tickMs);
      // a frame at now, announcing now: the worker has run to the first tick at or past it, this one
      const frame = rt.frameAt(clock.now(), clock.now());
      expect(frame.tick).toBe(k);
      const expected = motionFields(frame.count);
      writePublished(expected, frame.count, k);
      for (const name of NAMES) {
        const n = frame.count * MOTION_WIDTH[name];
        expect(float32Bits(frame.fields[name], n), `${name} at tick ${k}`).toEqual(float32Bits(expected[name], n));
      }
    }
    // every kind of tick the fixture writes was met: NaN ones (k % 3 = 1), the finite ones right after
    // (k % 3 = 2, 0) and the float32(PI) ones (k % 4 = 0): all 120 were
    expect((await rt.stats()).sampling.late).toBe(0);
  });
});

describe('an overtaken frame', () => {
  /** The motion fixture's published state at tick k, as its step writes it (float32). */
  const stateAt = (k: number, count: number): MotionFields => {
    const f = motionFields(count);
    writeMotion(f, count, k);
    return f;
  };

  /** Animation frames at 60 Hz for `ms`, as a game's loop draws them; returns the last one's time and pair. */
  async function frames(rt: Runtime<typeof motionSchema>, clock: ManualClock, ms: number): Promise<{ time: number; previousTime: number; currentTime: number }> {
    let last = { time: 0, previousTime: 0, currentTime: 0 };
    for (let t = 0; t + REFRESH <= ms + 1e-9; t += REFRESH) {
      await clock.advance(REFRESH);
      clock.animationFrame(() => {
        const f = rt.frame()!;
        expect(f.late).toBe(false);
        last = { time: f.time, previousTime: f.previousTime, currentTime: f.currentTime };
      });
    }
    return last;
  }

  /**
   * A frame whose callback runs `lateBy` ms after its time `at` (inside the pair the last frame read): nothing is
   * drawn meanwhile, the worker stops holding for the frame it was told of and runs on to the wall clock, past
   * `at`; then the frame samples at its own time.
   */
  async function lateFrame(rt: Runtime<typeof motionSchema>, clock: ManualClock, at: number, lateBy: number): Promise<Omit<Frame<typeof motionSchema>, 'fields'> & { drawn: MotionFields }> {
    await clock.advanceTo(at + lateBy);
    let drawn: (Omit<Frame<typeof motionSchema>, 'fields'> & { drawn: MotionFields }) | null = null;
    clock.animationFrame(() => {
      const f = rt.frame(at)!;
      const copy = motionFields(2);
      for (const name of NAMES) copy[name].set(f.fields[name].subarray(0, 2 * MOTION_WIDTH[name]));
      drawn = { ...f, fields: undefined, drawn: copy } as never;
    }, at);
    return drawn!;
  }

  /** The pair's blend at alpha, as the JS kernels blend it (the wasm ones agree within ulps). */
  function expectBlendOf(f: Omit<Frame<typeof motionSchema>, 'fields'> & { drawn: MotionFields }): void {
    const a = stateAt(f.previousTick, 2);
    const b = stateAt(f.tick, 2);
    for (const name of NAMES) {
      const expected = new Float32Array(2 * MOTION_WIDTH[name]);
      interpolateField(motionSchema[name].kind, MOTION_WIDTH[name], a[name], b[name], expected, 2, f.alpha);
      Array.from(f.drawn[name]).forEach((v, j) => expect(v, `${name}[${j}]`).toBeCloseTo(expected[j]!, 5));
    }
    // ... which is the motion at the frame's own time, not at the newest states' (ticks later)
    expect(f.drawn.position[0]).toBeCloseTo(motionAt(0, f.previousTick + f.alpha).x, 4);
  }

  const rows = KERNELS.flatMap((kernels) => [
    // how late each late callback runs, and how long the frames between the two last
    [kernels, 100, 400, 'recovered'] as const,
    [kernels, 500, 400, 'recovered'] as const,
    // past the watch a lone overtaken frame starts (OVERTAKEN_WATCH_MIN_MS, 1 s)
    [kernels, 100, 1500, 'flagged'] as const,
  ]);
  it.each(rows)('%s kernels, callbacks %i ms late, %i ms of frames between them: the second is %s', async (kernels, lateBy, apart, outcome) => {
    const { rt, clock } = await started('motion', kernels, false);
    const tickMs = 1000 / MOTION_TICK_RATE;
    // the first overtaken frame: no states kept, it shows the oldest at hand and says so
    const early = await frames(rt, clock, 300);
    expect(early.time).toBeLessThan(early.currentTime);
    const first = await lateFrame(rt, clock, (early.time + early.currentTime) / 2, lateBy);
    expect(first).toMatchObject({ overtaken: true, alpha: 0, late: false });
    expect(first.previousTime).toBeGreaterThan(first.time);
    // from then on the main thread keeps the states its frames read, for a while: a frame whose time lies in the
    // pair the last frame read, overtaken by the worker meanwhile, is drawn from exactly that pair
    const last = await frames(rt, clock, apart);
    expect(last.time).toBeLessThan(last.currentTime);
    const before = (await rt.stats()).sampling;
    const late = await lateFrame(rt, clock, (last.time + last.currentTime) / 2, lateBy);
    const after = (await rt.stats()).sampling;
    expect(late.time).toBe((last.time + last.currentTime) / 2);
    expect(late.late).toBe(false);
    if (outcome === 'flagged') {
      // past the watch (a second after a lone overtaken frame): nothing kept, flagged again
      expect(after.overtaken - before.overtaken).toBe(1);
      expect(late).toMatchObject({ overtaken: true, alpha: 0 });
      return;
    }
    expect(after.recovered - before.recovered).toBe(1);
    expect(after.overtaken - before.overtaken).toBe(0);
    expect(late.overtaken).toBe(false);
    expect(late.previousTime).toBe(last.previousTime);
    expect(late.currentTime).toBe(last.currentTime);
    expect(late.tick - late.previousTick).toBe(1);
    expect(late.currentTime - late.previousTime).toBe(tickMs);
    expect(late.alpha).toBeCloseTo((late.time - late.previousTime) / tickMs, 12);
    expectBlendOf(late);
  });
});
