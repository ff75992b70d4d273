import { describe, expect, it } from 'vitest';
import { CATCH_UP_WAIT_MS, needsCatchUp } from '../../src/core/frame-catch-up.ts';
import { FRAME_HOLD_MS } from '../../src/core/fixed-step.ts';

const AWAKE = Number.NEGATIVE_INFINITY;
const REWRITING = Number.NaN;

describe('needsCatchUp: whether a frame makes sure of the worker before it is drawn', () => {
  // [what, frame time, now, COVERED, expected]
  const table: Array<[string, number, number, number, boolean]> = [
    ['the announced frame, the worker asleep past it (every steady frame)', 1000, 1002, 1004, false],
    ['asleep exactly at the frame', 1000, 1002, 1000, false],
    ['a frame a refresh later than announced, after a stall: asleep short of it', 1016.7, 1031, 1004, true],
    ['the same, the callback 40 ms overdue', 1016.7, 1056.7, 1004, true],
    ['overdue past the hold: the worker follows the wall clock, it would overtake the frame', 1016.7, 1016.7 + FRAME_HOLD_MS + 1, 1004, false],
    ['overdue exactly by the hold: still held', 1016.7, 1016.7 + FRAME_HOLD_MS, 1004, true],
    ['awake (COVERED -Infinity): it may be short of the frame, look', 1016.7, 1031, AWAKE, true],
    ['COVERED being rewritten (NaN): in doubt, look', 1016.7, 1031, REWRITING, true],
    ['a frame in the future (a timestamp the game made up): the lead cap decides, not a wait', 1040, 1031, 1004, false],
    ['a frame at now', 1031, 1031, 1004, true],
    ['a frame a fraction of a ms past now (a rAF timestamp WebKit rounded up): now', 1031.5, 1031, 1004, true],
    ['a frame more than the clock grain past now: the future', 1032.5, 1031, 1004, false],
  ];
  it.each(table)('%s', (_what, time, now, covered, expected) => {
    expect(needsCatchUp(time, now, covered)).toBe(expected);
  });

  it('takes the hold as a parameter', () => {
    expect(needsCatchUp(1000, 1020, 990, 10)).toBe(false);
    expect(needsCatchUp(1000, 1010, 990, 10)).toBe(true);
  });

  it('waits at most a quarter of a 60 Hz refresh', () => {
    expect(CATCH_UP_WAIT_MS).toBeLessThanOrEqual(1000 / 60 / 4);
  });
});
