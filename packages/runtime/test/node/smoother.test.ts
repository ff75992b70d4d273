import { describe, expect, it } from 'vitest';
import { DelayedSmoother } from 'steadyframe';

describe('delayed-display smoother (ARCHITECTURE.md, Source notes)', () => {
  it("moves the remaining way in proportion to the frame's share of the wait", () => {
    const s = new DelayedSmoother(0);
    s.insert(50, 10);
    expect(s.tick(16)).toBeCloseTo(3.2, 12); // 16/50 of 0..10
    expect(s.tick(16)).toBeCloseTo(6.4, 12); // 16/34 of the rest
    expect(s.tick(16)).toBeCloseTo(9.6, 12); // 16/18 of the rest
    expect(s.waiting).toBeCloseTo(2, 12);
  });

  it('snaps to the target when the frame is at least the time still to wait, and clears the wait', () => {
    const s = new DelayedSmoother(0);
    s.insert(10, 4);
    expect(s.tick(10)).toBe(4); // delta >= wait
    expect(s.waiting).toBe(0);
    s.insert(20, 8);
    expect(s.tick(10)).toBe(6); // the new value takes its whole duration: no leftover wait from before
  });

  it('turns a fixed tick seen through uneven frames into even motion (the judder fix)', () => {
    // logic: 50 ms ticks, the value goes up 1 per tick (20 per second); display: frames of uneven length
    const s = new DelayedSmoother(0);
    const frames = [16, 17, 16, 33, 9, 16, 16, 25, 8, 16, 17, 16, 16, 16, 40, 4, 16, 16];
    let logicTime = 0;
    let displayTime = 0;
    let value = 0;
    s.insert(50, ++value); // the display runs one tick behind the logic
    logicTime += 50;
    const speeds: number[] = [];
    for (const delta of frames) {
      displayTime += delta;
      // the logic ticks that fall within this display frame, as a fixed-step loop would run them
      while (logicTime <= displayTime + 50) {
        s.insert(50, ++value);
        logicTime += 50;
      }
      const before = s.value[0]!;
      s.tick(delta);
      speeds.push(((s.value[0]! - before) / delta) * 1000);
    }
    // 2 ticks in one frame, 0 in the next: the shown value still moves at exactly 20 per second
    for (const speed of speeds) expect(speed).toBeCloseTo(20, 9);
  });

  it('smooths several components together', () => {
    const s = new DelayedSmoother([0, 100]);
    s.insert(100, [10, 0]);
    s.tick(50);
    expect(Array.from(s.value)).toEqual([5, 50]);
    expect(Array.from(s.target)).toEqual([10, 0]);
  });

  it('refuses nonsense', () => {
    expect(() => new DelayedSmoother(0, 0)).toThrow(/width of at least 1/);
    expect(() => new DelayedSmoother().insert(-1, 0)).toThrow(/finite duration of at least 0/);
    expect(() => new DelayedSmoother().insert(Number.NaN, 0)).toThrow(/finite duration/);
  });
});
