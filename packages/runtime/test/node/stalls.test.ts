/**
 * Frames after main-thread stalls, on a manual clock (ARCHITECTURE.md, "Frames that come later than announced"
 * and "The frame clock"): what `test/browser/frame-clock.test.ts` and pixi's ticker-stall test guard, exact.
 * Each row is a stall pattern on a 60 Hz display, run with each timestamp a game passes to `runtime.frame`
 * (none, rAF's, a `performance.now()` read in the callback). A real worker thread runs the motion fixture at
 * 120 Hz; the page's frames, their stalls and the worker's ticks all move on the one hand-driven clock.
 *
 * The promise: no frame is drawn from a state older than its own time (late) unless the runtime gave up on it
 * knowingly and counted it (a wait that timed out, a frame in the second of no waits after three such, a frame
 * past the worker's hold); and each frame is drawn at its animation frame's time, blended from the pair around
 * it. Here the worker is always there to settle, so nothing is given up on: every frame that came later than
 * announced rings the worker and waits, and every wait reaches its states. Then a worker that makes no more
 * states: each late frame is counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import type { ManualClock } from 'steadyframe/node';
import { CATCH_UP_BACKOFF_MS, CATCH_UP_GIVE_UP, CATCH_UP_MAX_BACKOFF_MS } from '../../src/core/frame-catch-up.ts';
import { motionAt, motionSchema } from '../browser/fixtures/schemas.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { REFRESH as R, runCallback, STYLES, type Callback, type Drawn, type TimestampStyle } from './support/display.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';

afterEach(disposeRuntimes);

const TICK_RATE = 120;
const WARM_UP = 12;
const CYCLES = 10;

async function started(options: { heartbeatTimeout?: number | false } = {}): Promise<{ rt: Runtime<typeof motionSchema, MotionCommands>; clock: ManualClock }> {
  const { rt, clock } = await onManualClock({ capacity: 8, ...options });
  await rt.setTickRate(TICK_RATE);
  await rt.start();
  return { rt, clock };
}

/**
 * A stall pattern: the callbacks of one cycle, each as [its timestamp, when it begins], ms after the cycle's first
 * vsync; the cycle lasts `refreshes`; and what each cycle must show: frames drawn a refresh or more later than
 * announced (`unannounced`), and the catch-up waits they make (`waits`).
 */
interface Pattern {
  readonly name: string;
  readonly cycle: ReadonlyArray<readonly [ts: number, begins: number]>;
  readonly refreshes: number;
  readonly unannounced: number;
  readonly waits: number;
}

const PATTERNS: readonly Pattern[] = [
  { name: 'steady: every vsync on time', cycle: [[0, 0]], refreshes: 1, unannounced: 0, waits: 0 },
  {
    // game logic or a GC before runtime.frame(): a time read then is 25 ms past the animation frame's; a vsync
    // passes during the stall, and the next callback keeps the announced time, beginning right after it
    name: 'a 25 ms stall before the frame, one callback in four',
    cycle: [[0, 25], [R, 25], [2 * R, 2 * R], [3 * R, 3 * R]],
    refreshes: 4,
    unannounced: 0,
    waits: 0,
  },
  {
    // a slow handler between frames: the next callback runs with the vsync it had already issued (announced),
    // 23 ms late; the one after comes a refresh later than announced (the vsync at 2R passed during the task)
    name: 'a 40 ms task after the frame',
    cycle: [[0, 0], [R, 40], [3 * R, 3 * R]],
    refreshes: 4,
    unannounced: 1,
    waits: 1,
  },
  { name: 'rAF skips a vsync: a callback a refresh later than announced', cycle: [[0, 0], [R, R], [2 * R, 2 * R], [4 * R, 4 * R]], refreshes: 5, unannounced: 1, waits: 1 },
  { name: 'rAF skips two vsyncs', cycle: [[0, 0], [R, R], [4 * R, 4 * R]], refreshes: 5, unannounced: 1, waits: 1 },
  {
    // the browser test's cycle: a stall before the frame; the callback after it; a 40 ms task after that frame,
    // so the next callback begins 32 ms late at its announced vsync; and the one after, a refresh later than announced
    name: "the browser test's cycle of four",
    cycle: [[0, 25], [R, 25], [2 * R, R + 25 + 40], [4 * R, 4 * R]],
    refreshes: 5,
    unannounced: 1,
    waits: 1,
  },
  {
    // a callback that begins 10 ms after the vsync a refresh later than announced: still within the hold
    name: 'a refresh later than announced, beginning 10 ms late',
    cycle: [[0, 0], [R, R], [3 * R, 3 * R + 10]],
    refreshes: 4,
    unannounced: 1,
    waits: 1,
  },
];

/** The callbacks: a warm-up of steady frames, then `CYCLES` of the pattern. */
function callbacks(pattern: Pattern): Callback[] {
  const out: Callback[] = [];
  for (let k = 0; k < WARM_UP; k++) out.push({ ts: START + (k + 1) * R, begins: START + (k + 1) * R });
  let cycleStart = START + (WARM_UP + 1) * R;
  for (let c = 0; c < CYCLES; c++) {
    for (const [ts, begins] of pattern.cycle) out.push({ ts: cycleStart + ts, begins: cycleStart + begins });
    cycleStart += pattern.refreshes * R;
  }
  return out;
}

/** What every drawn frame must be: at its callback's timestamp, from the pair around it, not late, blended right. */
function expectKept(d: Drawn, why: string): void {
  expect(d.time, why).toBe(d.ts);
  expect(d.fresh, why).toBe(true);
  expect(d.late, why).toBe(false);
  if (!d.overtaken) {
    expect(d.previousTime, why).toBeLessThanOrEqual(d.time);
    expect(d.currentTime, why).toBeGreaterThanOrEqual(d.time);
  }
  // the motion fixture's x is the tick number: what is drawn is the blend of the pair the frame names
  expect(d.x, why).toBeCloseTo(motionAt(0, d.previousTick + d.alpha * (d.tick - d.previousTick)).x, 3);
}

describe('frames after main-thread stalls: at their own time, from their own pair, every wait reaching the worker', () => {
  const rows = PATTERNS.flatMap((pattern) => STYLES.map((style) => [pattern.name, style, pattern] as const));
  it.each(rows)('%s (timestamp: %s)', async (_name, style: TimestampStyle, pattern) => {
    const { rt, clock } = await started();
    const all = callbacks(pattern);
    const drawn: Drawn[] = [];
    let before = (await rt.stats()).frameClock;
    for (let i = 0; i < all.length; i++) {
      if (i === WARM_UP) before = (await rt.stats()).frameClock;
      const d = await runCallback(rt, clock, style, all[i]!);
      // the render interval stays 1 (the frames cost nothing on this clock): every callback draws
      expect(d, `callback ${i} (ts ${all[i]!.ts.toFixed(1)}) drew nothing`).not.toBeNull();
      if (i >= WARM_UP) drawn.push(d!);
    }
    for (const [i, d] of drawn.entries()) expectKept(d, `frame ${i} of the pattern (ts ${(d.ts - START).toFixed(1)}, began ${(d.begins - d.ts).toFixed(1)} ms after)`);
    const stats = await rt.stats();
    const clockStats = stats.frameClock;
    const delta = (key: 'unannounced' | 'waits' | 'timeouts' | 'unwaited' | 'unheld') => clockStats[key] - before[key];
    expect({
      unannounced: delta('unannounced'),
      waits: delta('waits'),
      timeouts: delta('timeouts'),
      unwaited: delta('unwaited'),
      unheld: delta('unheld'),
    }).toEqual({ unannounced: CYCLES * pattern.unannounced, waits: CYCLES * pattern.waits, timeouts: 0, unwaited: 0, unheld: 0 });
    // a wait begins with a ring (the frame is past what the sleeping worker covers); on this clock no time
    // passes while a frame waits
    expect(clockStats.rings).toBeGreaterThanOrEqual(clockStats.waits);
    expect(clockStats.maxWaitMs).toBe(0);
    expect(stats.pacing.multiple).toBe(1);
    expect(stats.sampling.late).toBe(0);
  });
});

describe('a callback past the worker\'s hold (FRAME_HOLD_MS, 50 ms)', () => {
  it.each(STYLES)('is drawn at its own time, never late: the worker went on past it, and the frame says so (timestamp: %s)', async (style) => {
    const { rt, clock } = await started();
    // the worker holds its states at an overdue frame for 50 ms; a callback 60 ms late finds it has gone on to
    // the wall clock, past the frame. The page never read the pair around the frame's time (the frame before
    // read the pair around its own), so no copy could serve it: it is drawn at the oldest state at hand and
    // flagged overtaken, never late (exact recoveries: exact-frames.test.ts)
    const cycle = [[0, 0], [R, R + 60], [5 * R, 5 * R]] as const;
    const all = callbacks({ name: '', cycle, refreshes: 6, unannounced: 0, waits: 0 });
    const drawn: Drawn[] = [];
    for (const [i, callback] of all.entries()) {
      const d = await runCallback(rt, clock, style, callback);
      if (d !== null && i >= WARM_UP) drawn.push(d);
    }
    for (const [i, d] of drawn.entries()) expectKept(d, `frame ${i}`);
    const { sampling, frameClock } = await rt.stats();
    // each late callback's frame: the worker had published past it
    expect(drawn.filter((d) => d.overtaken)).toHaveLength(CYCLES);
    expect(sampling.overtaken).toBe(CYCLES);
    expect(frameClock.timeouts + frameClock.unwaited + frameClock.unheld).toBe(0);
  });
});

describe('a worker that makes no more states: every late frame is one the runtime gave up on, and counted', () => {
  it.each(STYLES)('waits give up, three in a row stop them for a second, and each probe after a spell that gives up too doubles the next, to 8 s (timestamp: %s)', async (style) => {
    // no watchdog: an unresponsive worker's frames skip the lock (fresh false); this is about the catch-up
    const { rt, clock } = await started({ heartbeatTimeout: false });
    let t = START;
    for (let k = 0; k < WARM_UP; k++) await runCallback(rt, clock, style, { ts: (t += R), begins: t });
    // the worker's loop and heartbeat stop (a hung step, a dead thread): its states stay where they are
    await rt.remote.detach();
    const before = (await rt.stats()).frameClock;
    const drawn: Drawn[] = [];
    // 20 s of steady frames, then callbacks 60 ms late (past the worker's hold: drawn without a wait)
    for (let k = 0; k < 1200; k++) drawn.push((await runCallback(rt, clock, style, { ts: (t += R), begins: t }))!);
    for (let k = 0; k < 5; k++) drawn.push((await runCallback(rt, clock, style, { ts: (t += 4 * R), begins: t + 60 }))!);
    const after = (await rt.stats()).frameClock;
    const late = drawn.filter((d) => d.late && d.fresh).length;
    const counted = {
      timeouts: after.timeouts - before.timeouts,
      unwaited: after.unwaited - before.unwaited,
      unheld: after.unheld - before.unheld,
    };
    // every frame past the newest state, and each of them counted once
    expect(late).toBe(drawn.length);
    expect(counted.timeouts + counted.unwaited + counted.unheld).toBe(late);
    // three waits give up, then a second without waits; the wait after it (a probe) gives up too, so 2 s without,
    // a probe, 4 s, a probe, 8 s (the most), a probe, 8 s: in 20 s, three waits and four probes, each 4 ms at most
    expect([CATCH_UP_GIVE_UP, CATCH_UP_BACKOFF_MS, CATCH_UP_MAX_BACKOFF_MS]).toEqual([3, 1000, 8000]);
    expect(counted.timeouts).toBe(3 + 4);
    expect(counted.unwaited).toBe(1200 - 7);
    expect(counted.unheld).toBe(5);
    for (const d of drawn) expect(d.time).toBe(d.ts);
  });
});
