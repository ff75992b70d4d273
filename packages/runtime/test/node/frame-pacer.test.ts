import { describe, expect, it } from 'vitest';
import {
  createFramePacer,
  FRAME_PACER_DEFAULTS,
  type FramePacer,
  type FramePacerOptions,
  type PacerChange,
  type PacerChangeReason,
} from '../../src/main/frame-pacer.ts';
import { mulberry32 as prng } from '../../src/testing/prng.ts';

const P60 = 1000 / 60;
const P120 = 1000 / 120;
const P144 = 1000 / 144;


/** `count` vsync timestamps `period` apart from `start`, each moved by up to +-`jitter` ms. */
function vsyncs(count: number, period: number, start = 0, jitter = 0, seed = 1): number[] {
  const random = prng(seed);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(start + i * period + (random() * 2 - 1) * jitter);
  return out;
}

/** A pacer whose changes are kept, each with the rendered-frame count at which it happened. */
function recorded(options: Omit<FramePacerOptions, 'onChange'> = {}) {
  const changes: PacerChange[] = [];
  const changedAt: number[] = [];
  const pacer: FramePacer = createFramePacer({
    ...options,
    onChange: (change) => {
      changes.push(change);
      changedAt.push(pacer.renderedFrames);
    },
  });
  return { pacer, changes, changedAt };
}

/** Drives the pacer as the runtime does: each callback, and the cost of each rendered frame. */
function drive(
  pacer: FramePacer,
  timestamps: readonly number[],
  cost: (frame: number, timestamp: number) => number = () => 5,
): boolean[] {
  const pattern: boolean[] = [];
  for (const ts of timestamps) {
    const render = pacer.onAnimationFrame(ts);
    pattern.push(render);
    if (render) pacer.reportFrameCost(cost(pacer.renderedFrames, ts));
  }
  return pattern;
}

/** A cost function: 17 ms on the first frame at or after each multiple of `every` ms (until `until`), else 5. */
function spikes(every: number, until = Number.POSITIVE_INFINITY): (frame: number, timestamp: number) => number {
  let next = 0;
  return (_, timestamp) => {
    if (timestamp < next || timestamp >= until) return 5;
    while (next <= timestamp) next += every;
    return 17;
  };
}

/** The first timestamp from which every callback rendered, or NaN if the last one did not. */
function everyRefreshFrom(timestamps: readonly number[], pattern: readonly boolean[]): number {
  let i = pattern.length;
  while (i > 0 && pattern[i - 1]) i--;
  return i === pattern.length ? Number.NaN : timestamps[i]!;
}

/** Hands out successive vsyncs of one display so a scenario can run in phases. */
function display(period: number) {
  let i = 0;
  return {
    take(count: number): number[] {
      const out = vsyncs(count, period, i * period);
      i += count;
      return out;
    },
  };
}

describe('the refresh estimate', () => {
  it('finds 60 Hz through +-1 ms of jitter and ignores a 500 ms gap (a hidden tab)', () => {
    const { pacer, changes } = recorded();
    const before = vsyncs(100, P60, 0, 1, 7);
    const after = vsyncs(100, P60, 100 * P60 + 500, 1, 8);
    drive(pacer, [...before, ...after], () => 0);
    expect(pacer.refreshPeriod).toBeCloseTo(P60, 0);
    expect(Math.abs(pacer.refreshPeriod - P60)).toBeLessThan(0.3);
    // within 5% of the initial guess: the estimate is refined, not reported as a new display
    expect(pacer.refreshChanges).toBe(0);
    expect(changes).toEqual([]);
    // nothing skipped, and the first callback after the gap renders at once
    expect(pacer.skippedVsyncs).toBe(0);
    expect(pacer.renderedFrames).toBe(200);
  });

  it('finds 144 Hz through +-0.5 ms of jitter and reports the move from the 60 Hz guess', () => {
    const { pacer, changes } = recorded();
    drive(pacer, vsyncs(150, P144, 1000, 0.5, 3), () => 2);
    expect(Math.abs(pacer.refreshPeriod - P144)).toBeLessThan(0.2);
    expect(pacer.interval).toBe(pacer.refreshPeriod);
    expect(pacer.refreshChanges).toBe(1);
    expect(changes).toHaveLength(1);
    const change = changes[0]!;
    expect(change.reason).toBe('refresh-change');
    expect(change.from).toBeCloseTo(P60, 6);
    expect(Math.abs(change.to - P144)).toBeLessThan(0.5);
    // the estimate follows the median from the 5th gap on, silently; the first full window (31 gaps) is judged
    // against the guess and reported
    expect(change.at).toBeCloseTo(1000 + 31 * P144, 0);
  });

  it('detects a 60 -> 120 Hz change within 17 frames and reports it once', () => {
    const { pacer, changes } = recorded();
    const sixty = vsyncs(120, P60, 0, 0.5, 11);
    const switchAt = 120 * P60;
    const oneTwenty = vsyncs(200, P120, switchAt, 0.5, 12);
    drive(pacer, [...sixty, ...oneTwenty], () => 3);
    expect(pacer.refreshChanges).toBe(1);
    const change = changes[0]!;
    expect(change.reason).toBe('refresh-change');
    expect(Math.abs(change.from - P60)).toBeLessThan(0.3);
    expect(Math.abs(change.to - P120)).toBeLessThan(0.5);
    const framesAfterSwitch = Math.round((change.at - switchAt) / P120);
    expect(framesAfterSwitch).toBeGreaterThanOrEqual(15); // a median: half the window must agree first
    expect(framesAfterSwitch).toBeLessThanOrEqual(17);
    expect(Math.abs(pacer.refreshPeriod - P120)).toBeLessThan(0.2);
    expect(pacer.multiple).toBe(1); // 3 ms * 1.2 fits in 8.3 ms
    // until the change is seen, 8.3 ms callbacks are half a 60 Hz period apart and some are skipped; none after
    const skipped = pacer.skippedVsyncs;
    drive(pacer, vsyncs(100, P120, switchAt + 200 * P120, 0.5, 13), () => 3);
    expect(pacer.skippedVsyncs).toBe(skipped);
  });

  it('detects a 144 -> 60 Hz change, and reports no change in 20,000 frames of +-3 ms jitter', () => {
    const moved = recorded();
    drive(moved.pacer, [...vsyncs(300, P144, 0, 0.3, 31), ...vsyncs(300, P60, 300 * P144, 0.3, 32)], () => 4);
    expect(moved.changes.map((c) => c.reason)).toEqual(['refresh-change', 'refresh-change']);
    expect(Math.abs(moved.changes[1]!.to - P60)).toBeLessThan(0.5);
    expect(Math.abs(moved.pacer.refreshPeriod - P60)).toBeLessThan(0.2);

    const shaky = recorded();
    drive(shaky.pacer, vsyncs(20000, P60, 0, 3, 33), () => 5);
    expect(shaky.changes).toEqual([]);
    expect(Math.abs(shaky.pacer.refreshPeriod - P60)).toBeLessThan(1);
  });

  it('re-sizes n for the last cost on a new display: 10 ms frames go from n = 1 at 60 Hz to n = 2 at 144 Hz', () => {
    const { pacer, changes } = recorded();
    drive(pacer, [...vsyncs(60, P60), ...vsyncs(100, P144, 60 * P60)], () => 10);
    expect(changes.map((c) => c.reason)).toEqual(['refresh-change']);
    expect(changes[0]!.fromMultiple).toBe(1);
    expect(changes[0]!.toMultiple).toBe(2); // ceil(10 * 1.2 / 6.94) = 2
    expect(pacer.interval).toBeCloseTo(2 * P144, 6);
  });

  it('does not take its own slow frames for a slow display: rAF every other vsync at 20 ms a frame stays 60 Hz', () => {
    const { pacer, changes } = recorded();
    // a browser cannot start the next frame while a 20 ms one runs, so callbacks arrive 33.3 ms apart
    drive(pacer, vsyncs(200, 2 * P60, 0, 0.5, 5), () => 20);
    expect(pacer.refreshPeriod).toBeCloseTo(P60, 6);
    expect(pacer.refreshChanges).toBe(0);
    expect(pacer.multiple).toBe(2);
    expect(changes.map((c) => c.reason)).toEqual(['overrun']);
    expect(pacer.skippedVsyncs).toBe(0); // each callback is the one the pacer wants
  });
});

describe('stalls before the frame', () => {
  it('does not learn the gap after a callback that stalled before runtime.frame(): two in three stalled, 60 Hz stays', () => {
    // a game that stalls 45 ms in its callback before calling frame(): the frame's own cost is 1 ms, but the task
    // ends 47 ms after the callback's timestamp and the next callback comes two vsyncs later (33.3 ms gaps)
    const pacer = createFramePacer();
    let ts = 0;
    for (let i = 0; i < 300; i++) {
      const stalled = i % 3 !== 0;
      pacer.onAnimationFrame(ts);
      pacer.reportFrameCost(1, stalled ? 47 : 2);
      ts += stalled ? 2 * P60 : P60;
    }
    // two gaps in three are 33.3 ms: learned, their median would read as a 30 Hz display
    expect(pacer.refreshPeriod).toBeCloseTo(P60, 6);
    expect(pacer.refreshChanges).toBe(0);
    expect(pacer.interval).toBeCloseTo(P60, 6);
  });

  it('still learns gaps after callbacks that ended within a period of their timestamp', () => {
    const pacer = createFramePacer();
    let ts = 0;
    for (let i = 0; i < 200; i++) {
      pacer.onAnimationFrame(ts);
      pacer.reportFrameCost(1, 7); // ended 7 ms after its timestamp, before the next 120 Hz vsync (8.3 ms)
      ts += P120;
    }
    expect(Math.abs(pacer.refreshPeriod - P120)).toBeLessThan(0.01);
  });
});

describe('the adaptive interval', () => {
  it('keeps n = 1 on 5 ms frames, grows at once on 20 ms (n = 2) and 40 ms (n = 3), shrinks after 250 ms', () => {
    const { pacer, changes, changedAt } = recorded();
    const screen = display(P60);

    drive(pacer, screen.take(120), () => 5);
    expect(pacer.multiple).toBe(1);
    expect(pacer.interval).toBeCloseTo(P60, 6);
    expect(changes).toEqual([]);

    drive(pacer, screen.take(60), () => 20);
    expect(pacer.multiple).toBe(2);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ reason: 'overrun', fromMultiple: 1, toMultiple: 2 });
    expect(changes[0]!.from).toBeCloseTo(P60, 6);
    expect(changes[0]!.to).toBeCloseTo(2 * P60, 6);
    expect(changedAt[0]).toBe(121); // the first 20 ms frame: the source rule reacts at once (ARCHITECTURE.md, Source notes)

    drive(pacer, screen.take(60), () => 40);
    expect(pacer.multiple).toBe(3); // 40 * 1.2 = 48, ceil(48 / 16.67) = 3
    expect(changes[1]).toMatchObject({ reason: 'overrun', fromMultiple: 2, toMultiple: 3 });

    const cheap = screen.take(600);
    drive(pacer, cheap, () => 5);
    expect(pacer.multiple).toBe(1);
    // straight to the n the run's costliest frame needs, once 250 ms of cheap frames are in
    expect(changes.slice(2)).toMatchObject([{ reason: 'spare', fromMultiple: 3, toMultiple: 1 }]);
    const firstCheap = cheap.find((t) => t >= changes[1]!.at + 3 * P60 - 1)!; // the first frame rendered after
    expect(changes[2]!.at - firstCheap).toBeGreaterThanOrEqual(FRAME_PACER_DEFAULTS.spareMs);
    expect(changes[2]!.at - firstCheap).toBeLessThan(FRAME_PACER_DEFAULTS.spareMs + 3 * P60 + 1e-6);
    expect(pacer.grows).toBe(2);
    expect(pacer.shrinks).toBe(1);
    expect(pacer.lastChange).toBe(changes[2]);
  });

  it('a 490 ms first frame, then 1 ms frames at 60 Hz: every refresh renders again within 0.5 s', () => {
    for (const jitter of [0, 1]) {
      const { pacer, changes } = recorded();
      // the browser cannot call rAF while the first frame runs: the next callback is the first vsync after it
      const ts = [0, ...vsyncs(600, P60, 30 * P60, jitter, 5)];
      const pattern = drive(pacer, ts, (frame) => (frame === 1 ? 490 : 1));
      expect(changes[0]).toMatchObject({ reason: 'overrun', fromMultiple: 1, toMultiple: 4, at: 0 });
      expect(changes.slice(1)).toMatchObject([{ reason: 'spare', fromMultiple: 4, toMultiple: 1 }]);
      const from = everyRefreshFrom(ts, pattern);
      expect(from - 490).toBeLessThanOrEqual(500);
      expect(from - 490).toBeGreaterThanOrEqual(FRAME_PACER_DEFAULTS.spareMs); // a quarter second of evidence
      expect(pacer.multiple).toBe(1);
    }
  });

  it('one GC pause mid-run (60 ms) costs at most 0.5 s of reduced rate, and n comes back in one change', () => {
    const { pacer, changes } = recorded();
    const before = vsyncs(120, P60, 0, 0.5, 6);
    const after = vsyncs(300, P60, 124 * P60, 0.5, 7); // the pause swallows three vsyncs
    const ts = [...before, ...after];
    const pattern = drive(pacer, ts, (frame) => (frame === 120 ? 60 : 1));
    expect(changes.map((c) => [c.reason, c.toMultiple])).toEqual([
      ['overrun', 4],
      ['spare', 1],
    ]);
    expect(everyRefreshFrom(ts, pattern) - (before[119]! + 60)).toBeLessThanOrEqual(500);
  });

  it('sustained overload grows and stays grown: 10 s of 15-22 ms frames hold n = 2, of 36-40 ms n = 3', () => {
    for (const [low, high, n] of [
      [15, 22, 2], // 15 * 1.2 = 18 never fits one period with the margin
      [36, 40, 3], // 40 * 1.2 = 48 fits three periods; 36 * 1.2 = 43.2 never fits two
    ] as const) {
      const { pacer, changes } = recorded();
      const random = prng(n);
      drive(pacer, vsyncs(600, P60, 0, 0.5, 9), () => low + random() * (high - low));
      expect(pacer.multiple).toBe(n);
      expect(pacer.shrinks).toBe(0);
      expect(changes.every((c) => c.reason === 'overrun')).toBe(true);
    }
  });

  it('does not oscillate on costs alternating across a boundary', () => {
    for (const [low, high, n] of [
      [12, 17, 2], // 17 > 16.7 grows; 12 * 1.2 = 14.4 would fit n = 1, but never for 250 ms in a row
      [16, 17.5, 2], // hugging the 1x boundary
      [27, 34, 3], // 34 > 33.3 at n = 2: grows to ceil(40.8 / 16.7) = 3; 27 * 1.2 = 32.4 <= 33.3 only every other frame
    ] as const) {
      const { pacer } = recorded();
      drive(pacer, vsyncs(6000, P60, 0, 0.5, 9), (frame) => (frame % 2 === 0 ? high : low));
      expect(pacer.multiple).toBe(n);
      expect(pacer.shrinks).toBe(0);
      expect(pacer.grows).toBeLessThanOrEqual(2);
    }
  });

  it('does not flap on a spike every 300 ms: one premature shrink, then n holds', () => {
    // 5 ms frames and one 17 ms frame every 300 ms: 250 ms runs fit between the spikes, so n = 1 is tried
    // once; the next spike comes 50 ms after the shrink, which doubles the run a shrink needs to 500 ms
    const { pacer, changes } = recorded();
    drive(pacer, vsyncs(6000, P60, 0, 0.5, 10), spikes(300));
    expect(changes.map((c) => [c.reason, c.toMultiple])).toEqual([
      ['overrun', 2],
      ['spare', 1],
      ['overrun', 2],
    ]);
    expect(pacer.cooldown).toBe(2 * FRAME_PACER_DEFAULTS.spareMs);
    expect(pacer.multiple).toBe(2);
  });

  it('holds n on a spike every second, and lets a spike every 2 s cost only a quarter second each', () => {
    const each = recorded();
    // the first shrink (300 ms after the spike) is premature, the second (500 ms) too; then the runs a shrink
    // needs (1 s) no longer fit between the spikes, and n holds until they stop
    drive(each.pacer, vsyncs(70 * 60, P60, 0, 0.5, 12), spikes(1000, 60_000));
    expect(each.changes.map((c) => [c.reason, Math.round(c.at / 100) / 10])).toEqual([
      ['overrun', 0],
      ['spare', 0.3],
      ['overrun', 1],
      ['spare', 1.6],
      ['overrun', 2],
      ['spare', 60.1],
    ]);

    const rare = recorded();
    const ts = vsyncs(60 * 60, P60, 0, 0.5, 13);
    const pattern = drive(rare.pacer, ts, spikes(2000));
    // a shrink that held 1.7 s is not premature: each spike costs 250 ms of half rate, and no more
    expect(rare.pacer.grows).toBe(30);
    expect(rare.pacer.shrinks).toBe(30);
    expect(rare.pacer.cooldown).toBe(FRAME_PACER_DEFAULTS.spareMs);
    expect(pattern.filter(Boolean).length / pattern.length).toBeGreaterThan(0.92);
  });

  it('backs off when shrinks keep failing, up to 16 x 250 ms, and returns to 250 ms once a shrink holds', () => {
    const { pacer, changes } = recorded();
    // the worst case: a spike 100 ms after every shrink, for 40 s; then calm until 60 s; then one spike
    let shrinks = 0;
    let spikeAt = 0;
    drive(pacer, vsyncs(61 * 60, P60, 0, 0.5, 14), (_, t) => {
      if (pacer.shrinks > shrinks) {
        shrinks = pacer.shrinks;
        spikeAt = t + 100;
      }
      if ((t < 40_000 && t >= spikeAt) || (t >= 60_000 && spikeAt < 60_000)) {
        spikeAt = t >= 60_000 ? t : Number.POSITIVE_INFINITY;
        return 17;
      }
      return 5;
    });
    const grows = changes.filter((c) => c.reason === 'overrun').map((c) => c.at);
    const waits = changes.filter((c) => c.reason === 'spare').map((c, i) => Math.round(c.at - grows[i]!));
    const base = FRAME_PACER_DEFAULTS.spareMs;
    const expected = [1, 2, 4, 8, 16, 16, 16, 16].map((k) => base * k);
    expect(waits.length).toBeGreaterThan(expected.length);
    // each wait is the run it needed, from the first frame after the grow (two periods at n = 2) to the first
    // frame at or past its end (two more)
    for (const [i, wait] of waits.slice(0, expected.length).entries()) {
      expect(wait).toBeGreaterThanOrEqual(expected[i]!);
      expect(wait).toBeLessThanOrEqual(expected[i]! + 4 * P60 + 2);
    }
    // the last spike, 20 s after the last shrink, is an outlier again: a quarter second
    expect(grows.at(-1)).toBeGreaterThanOrEqual(60_000);
    expect(waits.at(-1)).toBeLessThanOrEqual(base + 4 * P60 + 2);
    expect(pacer.cooldown).toBe(base);
    expect(pacer.multiple).toBe(1);
  });

  it('grows no further than maxMultiple and counts the overruns it cannot absorb', () => {
    const { pacer, changes } = recorded({ maxMultiple: 3 });
    drive(pacer, vsyncs(100, P60), () => 200);
    expect(pacer.multiple).toBe(3);
    expect(changes).toHaveLength(1);
    expect(pacer.overruns).toBe(pacer.renderedFrames);
  });
});

describe('which callbacks render', () => {
  it('renders every other vsync at n = 2, and nextRenderTime names the next one', () => {
    const pacer = createFramePacer();
    const ts = vsyncs(41, P60);
    drive(pacer, ts.slice(0, 1), () => 18); // grows to n = 2 on the first frame
    expect(pacer.multiple).toBe(2);
    expect(pacer.nextRenderTime).toBeCloseTo(2 * P60, 9);
    const pattern: boolean[] = [];
    for (const t of ts.slice(1)) {
      const expected = pacer.nextRenderTime;
      const render = pacer.onAnimationFrame(t);
      pattern.push(render);
      if (render) {
        expect(t).toBeCloseTo(expected, 6);
        pacer.reportFrameCost(18);
        expect(pacer.nextRenderTime).toBeCloseTo(t + 2 * P60, 6);
      } else {
        expect(pacer.nextRenderTime).toBe(expected); // a skipped vsync leaves the schedule alone
      }
    }
    expect(pattern).toEqual(Array.from({ length: 40 }, (_, i) => i % 2 === 1));
    expect(pacer.skippedVsyncs).toBe(20);
  });

  it('neither skips nor double-renders with +-2.5 ms of jitter, at n = 1 and n = 2', () => {
    for (const [cost, n] of [
      [5, 1],
      [18, 2],
    ] as const) {
      const pacer = createFramePacer();
      const ts = vsyncs(3000, P60, 0, 2.5, 21 + n);
      let previousRender = Number.NaN;
      let predicted = Number.NaN;
      for (const [i, t] of ts.entries()) {
        if (!pacer.onAnimationFrame(t)) continue;
        if (i > 0) {
          // every rendered callback is the n-th vsync after the last, and the one nextRenderTime promised
          expect(Math.round((t - previousRender) / P60)).toBe(n);
          expect(Math.abs(t - predicted)).toBeLessThanOrEqual(5 + n); // two jitters, and n times the estimate's error
        }
        pacer.reportFrameCost(cost);
        previousRender = t;
        predicted = pacer.nextRenderTime;
      }
      expect(pacer.multiple).toBe(n);
      expect(pacer.refreshChanges).toBe(0); // jitter is not a new display
      expect(pacer.renderedFrames).toBe(Math.ceil(3000 / n));
      expect(pacer.skippedVsyncs).toBe(3000 - Math.ceil(3000 / n));
    }
  });

  it('moves nextRenderTime with the interval when a reported cost grows it', () => {
    const pacer = createFramePacer();
    pacer.onAnimationFrame(100);
    expect(pacer.nextRenderTime).toBeCloseTo(100 + P60, 9);
    pacer.reportFrameCost(40);
    expect(pacer.multiple).toBe(3);
    expect(pacer.nextRenderTime).toBeCloseTo(100 + 3 * P60, 9);
  });

  it('renders at once after a late callback and keeps the cadence from there', () => {
    const pacer = createFramePacer();
    drive(pacer, [0], () => 18); // n = 2, next at 33.3
    expect(pacer.onAnimationFrame(P60)).toBe(false);
    expect(pacer.onAnimationFrame(3 * P60)).toBe(true); // the 33.3 vsync was missed: 50 renders
    pacer.reportFrameCost(18);
    expect(pacer.nextRenderTime).toBeCloseTo(5 * P60, 9);
    expect(pacer.onAnimationFrame(4 * P60)).toBe(false);
    expect(pacer.onAnimationFrame(5 * P60)).toBe(true);
  });

  it('renders every callback with adaptive: false, whatever the cost', () => {
    const { pacer, changes } = recorded({ adaptive: false });
    const ts = vsyncs(120, P60, 0, 2, 4);
    expect(drive(pacer, ts, () => 40).every(Boolean)).toBe(true);
    expect(pacer.adaptive).toBe(false);
    expect(pacer.multiple).toBe(1);
    expect(pacer.interval).toBe(pacer.refreshPeriod);
    expect(pacer.nextRenderTime).toBe(ts[119]! + pacer.refreshPeriod);
    expect(pacer.grows).toBe(0);
    expect(pacer.overruns).toBe(120);
    expect(changes).toEqual([]);
  });
});

describe('the hot path', () => {
  it('never throws on bad input, and ignores it', () => {
    const pacer = createFramePacer();
    expect(pacer.onAnimationFrame(Number.NaN)).toBe(true);
    expect(pacer.renderedFrames).toBe(0);
    expect(Number.isNaN(pacer.nextRenderTime)).toBe(true);
    pacer.reportFrameCost(50); // no frame rendered yet
    expect(pacer.multiple).toBe(1);
    pacer.onAnimationFrame(0);
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) pacer.reportFrameCost(bad);
    expect(pacer.overruns).toBe(0);
    pacer.reportFrameCost(5);
    pacer.reportFrameCost(50); // a second report for the same frame adapts nothing
    expect(pacer.multiple).toBe(1);
  });

  it('does not render twice for a repeated timestamp, and re-anchors when time goes backwards', () => {
    const pacer = createFramePacer();
    expect(pacer.onAnimationFrame(1000)).toBe(true);
    expect(pacer.onAnimationFrame(1000)).toBe(false);
    expect(pacer.onAnimationFrame(10)).toBe(true);
    expect(pacer.nextRenderTime).toBeCloseTo(10 + P60, 9);
  });

  it('calls the listener once per change, with the record lastChange holds, and never on steady frames', () => {
    const { pacer, changes } = recorded();
    const screen = display(P60);
    drive(pacer, screen.take(300), () => 5);
    expect(changes).toHaveLength(0);
    expect(pacer.lastChange).toBeNull();
    drive(pacer, screen.take(1), () => 30);
    expect(changes).toHaveLength(1);
    expect(pacer.lastChange).toBe(changes[0]);
    expect(changes[0]).toMatchObject({ reason: 'overrun', fromMultiple: 1, toMultiple: 3, at: 300 * P60 });
    expect(changes[0]!.refreshPeriod).toBe(pacer.refreshPeriod);
  });
});

describe('options', () => {
  it('has documented defaults', () => {
    const pacer = createFramePacer();
    expect(pacer.adaptive).toBe(true);
    expect(pacer.refreshPeriod).toBe(P60);
    expect(pacer.cooldown).toBe(250);
    expect(FRAME_PACER_DEFAULTS).toEqual({ adaptive: true, maxMultiple: 4, spareMs: 250, initialPeriod: P60 });
    expect(createFramePacer({ initialPeriod: P144 }).interval).toBe(P144);
  });

  it('rejects bad options with a steadyframe: message that names the option', () => {
    const bad: [unknown, RegExp][] = [
      [null, /options must be an object/],
      [{ maxMultiple: 0 }, /maxMultiple must be a whole number of at least 1/],
      [{ maxMultiple: 2.5 }, /maxMultiple .* got 2\.5/],
      [{ maxMultiple: Number.NaN }, /maxMultiple/],
      [{ maxMultiple: '4' }, /maxMultiple/],
      [{ spareMs: -1 }, /spareMs must be a duration in ms of at least 0/],
      [{ spareMs: Number.NaN }, /spareMs .* got NaN/],
      [{ spareMs: '250' }, /spareMs/],
      [{ spareFrames: 45 }, /spareFrames is gone: .* use spareMs/],
      [{ cooldownFrames: 90 }, /cooldownFrames is gone: .* use spareMs/],
      [{ initialPeriod: 0 }, /initialPeriod must be a refresh period in ms from 2 to 250/],
      [{ initialPeriod: Number.POSITIVE_INFINITY }, /initialPeriod/],
      [{ adaptive: 'yes' }, /adaptive must be true or false/],
      [{ onChange: 5 }, /onChange must be a function/],
    ];
    for (const [options, message] of bad) {
      expect(() => createFramePacer(options as FramePacerOptions)).toThrow(/^steadyframe: frame pacer /);
      expect(() => createFramePacer(options as FramePacerOptions)).toThrow(message);
    }
    expect(() => createFramePacer({ maxMultiple: 1, spareMs: 0 })).not.toThrow();
  });
});
