import { describe, expect, it } from 'vitest';
import { frameTimeFor } from '../../src/main/frame-time.ts';

const NONE = Number.NaN;

describe('frameTimeFor (the time a frame is drawn at)', () => {
  it.each([
    // timestamp passed, animation frame's time, the one the last frame took, now → drawn at
    [NONE, 1000, 983, 1003, 1000], // no timestamp, in a rAF callback: the animation frame's time
    [1000, 1000, 983, 1003, 1000], // rAF's (or a ticker's) timestamp: the same
    [1030, 1000, 983, 1030, 1000], // performance.now() after a 30 ms stall in the callback: the frame's time
    [NONE, 1000, 983, 1045, 1000], // a callback that ran 45 ms late: still the frame the worker was told about
    [NONE, 1000, 1000, 1010, 1010], // the same animation frame again (a second call, a setTimeout loop): now
    [1010, 1000, 1000, 1010, 1010], // ... or the timestamp given
    [990, 1000, 983, 1003, 990], // a timestamp before the animation frame: as given
    [NONE, null, Number.NEGATIVE_INFINITY, 1031, 1031], // no document (a worker): now
    [1031, null, Number.NEGATIVE_INFINITY, 1031, 1031], // ... or the timestamp given
    [NONE, 1040, 983, 1031, 1031], // a timeline ahead of now (never seen): now
    [1020, 1000, 983, 1010, 1020], // a timestamp in the future: as given
  ] as const)('timestamp %s, timeline %s (last %s), now %s: %s', (timestamp, timeline, previous, now, drawn) => {
    expect(frameTimeFor(timestamp, timeline, previous, now)).toBe(drawn);
  });
});
