/**
 * The frame clock keeps its word (ARCHITECTURE.md, "The frame clock"), on a hand-driven clock: a frame is drawn
 * at the time it was asked for, the animation frame's own only inside one, never earlier than the frame before,
 * and the source notes' worked timeline can be drawn exactly through the documented call (`frameAt`). A real
 * worker thread runs the motion fixture; the manual clock makes every case exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, Runtime } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import { motionAt, motionSchema } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);

const REFRESH = 1000 / 60;

async function started(tickRate: number, adaptive = true): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock }> {
  const { rt, clock } = await onManualClock({ capacity: 2, pacing: { adaptive } });
  await rt.setTickRate(tickRate);
  await rt.start();
  return { rt, clock };
}

describe('which time a frame is drawn at', () => {
  // pacing: { adaptive: false } renders on every call (frame() is never null), so every call shows its time
  it('outside an animation frame: the timestamp as given, none means now (not the last animation frame)', async () => {
    const { rt, clock } = await started(60, false);
    await clock.advance(REFRESH);
    clock.animationFrame(() => rt.frame());
    // a timer a few ms later (the runtime knows no animation frame runs): as given, and now without one
    await clock.advance(7);
    expect(rt.frame(clock.now() - 2)!.time).toBe(clock.now() - 2);
    await clock.advance(3);
    expect(rt.frame()!.time).toBe(clock.now());
    expect(rt.frameTime).toBe(clock.now());
    // a game that draws only from timers while animation frames go by (they draw nothing): each of its frames
    // at now, never at the animation frame that last ran
    for (let i = 0; i < 10; i++) {
      await clock.advance(REFRESH);
      clock.animationFrame();
      await clock.advance(5);
      expect(rt.frame()!.time).toBe(clock.now());
      expect(rt.frame(clock.now() - 1)!.time).toBe(clock.now()); // never back, either
    }
    // and counted as such: the one frame drawn inside an animation frame is not
    expect((await rt.stats()).frameClock.outsideFrames).toBe(2 + 2 * 10);
  });

  it("inside one: the animation frame's time for none, or for a time read later in it (a stall before frame()); a second frame in it: now", async () => {
    const { rt, clock } = await started(60);
    for (const style of ['none', 'later'] as const) {
      await clock.advance(REFRESH);
      const vsync = clock.now();
      // the callback begins 25 ms after its vsync (a stall before it): performance.now() reads vsync + 25
      await clock.advance(25);
      let first: Frame<typeof motionSchema> | null = null;
      let second: Frame<typeof motionSchema> | null = null;
      let secondTime = 0;
      clock.animationFrame(() => {
        first = rt.frame(style === 'none' ? undefined : clock.now());
        const time = first!.time;
        second = rt.frame();
        secondTime = second!.time;
        expect(time).toBe(vsync);
      }, vsync);
      expect(first).not.toBeNull();
      expect(second).not.toBeNull();
      expect(secondTime).toBe(clock.now());
    }
  });

  it('never earlier than the frame before: animation frames with extra frames between them at later times', async () => {
    const { rt, clock } = await started(240, false);
    let last = Number.NEGATIVE_INFINITY;
    let frames = 0;
    let back = 0;
    for (let refresh = 0; refresh < 120; refresh++) {
      // the vsync, and a callback that begins after the extra frames of the gap before it (timers that ran
      // between the vsync and the callback: their now is past the vsync)
      await clock.advance(REFRESH / 2);
      const vsync = clock.now();
      for (let extra = 0; extra < 4; extra++) {
        await clock.advance(REFRESH / 10);
        const f = rt.frame();
        if (f === null) continue;
        frames++;
        if (f.time < last) back++;
        last = f.time;
        expect(f.time).toBe(rt.frameTime);
      }
      clock.animationFrame(() => {
        const f = rt.frame();
        if (f === null) return;
        frames++;
        if (f.time < last) back++;
        // the vsync is earlier than the extra frames before it: the frame is drawn at the last one's time
        expect(f.time).toBe(Math.max(vsync, last));
        last = f.time;
      }, vsync);
      await clock.advance(REFRESH / 2 - (4 * REFRESH) / 10);
    }
    expect(frames).toBeGreaterThan(400);
    expect(back).toBe(0);
  });
});

describe('the worked timeline of the source notes, through frameAt', () => {
  // ARCHITECTURE.md, Source notes, "The worked timeline": a fixed step of 5 ms and a frame every 16 ms; the
  // simulation runs until its newest state is just past the next frame, and the frame at T0 + 16 blends the
  // states at 15 and 20 by 0.2
  it('draws each frame at T0 + 16k from the states just around it, 112 frames', async () => {
    const { rt, clock } = await started(200, false);
    const t0 = rt.sample().currentTime; // tick 0 stands at the start
    expect(t0).toBe(START);
    rt.frameAt(t0, t0 + 16);
    const rows: Array<[number, number, number, number]> = [];
    for (let k = 1; k < 112; k++) {
      const time = t0 + 16 * k;
      // the clock reaches the frame's time; the worker, told of it by the frame before, has simulated just past it
      await clock.advanceTo(time);
      const f = rt.frameAt(time, time + 16);
      rows.push([16 * k, f.previousTime - t0, f.currentTime - t0, f.alpha]);
      // the oracle: the newest state is the first tick at or past the frame, the previous one a step before it
      const current = 5 * Math.ceil((16 * k) / 5);
      expect(f.time).toBe(time);
      expect(f.currentTime - t0).toBe(current);
      expect(f.previousTime - t0).toBe(current - 5);
      expect(f.tick).toBe(current / 5);
      expect(f.alpha).toBeCloseTo((16 * k - (current - 5)) / 5, 12);
      expect(f.late).toBe(false);
      // what is drawn is the motion at the frame's own time
      expect(f.fields.position[0]).toBeCloseTo(motionAt(0, (16 * k) / 5).x, 3);
    }
    // the note's own row: the frame at +16 blends (15, 20) by 0.2
    expect(rows[0]![0]).toBe(16);
    expect(rows[0]!.slice(1, 3)).toEqual([15, 20]);
    expect(rows[0]![3]).toBeCloseTo(0.2, 12);
  });

  it('a time earlier than the previous frame draws the previous frame again (the picture never goes back)', async () => {
    const { rt, clock } = await started(200, false);
    await clock.advance(40);
    const at = rt.frameAt(clock.now()).time;
    expect(rt.frameAt(clock.now() - 20).time).toBe(at);
    expect(rt.frameTime).toBe(at);
  });
});
