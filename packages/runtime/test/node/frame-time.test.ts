import { describe, expect, it } from 'vitest';
import { frameTimeFor } from '../../src/main/frame-time.ts';

const NONE = Number.NaN;

describe('frameTimeFor (the time a frame is drawn at)', () => {
  it.each([
    // timestamp passed, the animation frame running now (its first frame; null: none, or not its first), now,
    // the previous frame's time → drawn at
    [NONE, 1000, 1003, 983, 1000], // no timestamp, in a rAF callback: the animation frame's time
    [1000, 1000, 1003, 983, 1000], // rAF's (or a ticker's) timestamp: the same
    [1030, 1000, 1030, 983, 1000], // performance.now() after a 30 ms stall in the callback: the frame's time
    [NONE, 1000, 1045, 983, 1000], // a callback that ran 45 ms late: still the frame the worker was told about
    [990, 1000, 1003, 983, 990], // a timestamp before the animation frame: as given
    // WebKit rounds rAF timestamps to whole ms: the frame's time can be a fraction of a ms past the clock
    [999.6, 1000, 999.7, 983, 1000], // performance.now() read in such a callback: the frame's time
    [NONE, 1000, 999.7, 983, 1000], // no timestamp: the frame's time
    [998.9, 1000, 999.7, 983, 998.9], // more than the grain before it: as given
    [1020, 1000, 1010, 983, 1020], // a timestamp in the future: as given
    [NONE, null, 1010, 1000, 1010], // outside an animation frame (a timer, a message, a second frame in one): now
    [1010, null, 1010, 1000, 1010], // ... or the timestamp given
    [NONE, null, 1031, NONE, 1031], // the first frame ever: now
    // never earlier than the frame before
    [NONE, 1000, 1003, 1012, 1012], // an extra frame after the last animation frame drew at now: the next rAF's time is earlier
    [995, null, 1010, 1000, 1000], // a timestamp before the last frame's (a coarse clock, a stale ticker time)
    [1000, 1000, 1003, 1000, 1000], // the same time again: the same time
  ] as const)('timestamp %s, animation frame %s, now %s, previous %s: %s', (timestamp, animation, now, previous, drawn) => {
    expect(frameTimeFor(timestamp, animation, now, previous)).toBe(drawn);
  });
});
