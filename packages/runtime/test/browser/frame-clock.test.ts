/**
 * A frame clock that cannot go stale: with real main-thread stalls (busy loops: before one frame in four, and
 * in a task after the next), no frame is drawn from a state older than its own time, whichever timestamp the game passes to
 * `runtime.frame` (none, the rAF timestamp, performance.now()).
 *
 * Two things made such frames stale before, and each has its own stall here. A time read later in the callback
 * (`performance.now()` after a stall before the frame) fell past the states the worker made for the animation
 * frame (frame-time.ts takes it back to the animation frame's time). And the callback after a long stall comes
 * with the timestamp of a vsync that passed during it, a refresh or more after the time the pacer announced,
 * while the worker sleeps holding at the announced time: that frame now rings the worker and waits (bounded)
 * for its states (core/frame-catch-up.ts).
 */
import { afterEach, expect, it } from 'vitest';
import { createRuntime, type Runtime, type RuntimeStats } from 'steadyframe';
import { motionSchema } from './fixtures/schemas.ts';
import { fixtureWorker, waitFor } from './helpers.ts';

let runtime: Runtime<typeof motionSchema> | undefined;
afterEach(() => runtime?.dispose());

const TICK_RATE = 120;
const TICK_MS = 1000 / TICK_RATE;
/**
 * A stall before the frame: a time read after it is more than a tick past the animation frame's time, and the
 * frame is still read well within the 50 ms the worker holds an announced frame for (FRAME_HOLD_MS), however
 * late the callback began. One vsync passes during it, so the next callback keeps the announced time.
 */
const STALL_BEFORE_MS = 25;
/**
 * A stall in a task after the next frame (a slow handler between frames). Chromium (headless, measured) then
 * runs the callback after it with the vsync it had already issued, the announced one, about 40 ms late, and
 * the one after that a refresh later than announced: that frame is the other case, and it begins only a few ms
 * late, well within the worker's hold. (One 40 ms stall before every other frame made both cases in the same
 * frames, leaving about 10 ms for the callback to begin after its vsync before the worker stopped holding: a
 * loaded CI run saw 1 to 4 frames stale at the time read, where this test needs more than 10.)
 */
const STALL_AFTER_MS = 40;
const FRAMES = 120;

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // a main-thread stall: layout, a GC, a slow handler
  }
};

type Style = 'none' | 'raf' | 'now';

interface Drawn {
  time: number;
  currentTime: number;
  /** Drawn from a state older than its time. */
  late: boolean;
  /** False when the lock stayed busy and the last good frame repeats. */
  fresh: boolean;
  sampledAt: number;
  /** performance.now() right before the frame call: the time a loop passing performance.now() stamps it with. */
  readAt: number;
  /** The callback stalled before its frame. */
  stalledBefore: boolean;
  /** The worker had published past the frame's time (see `Frame.overtaken`). */
  overtaken: boolean;
  /** How long after its timestamp the callback began, ms. */
  startedAfter: number;
}

async function run(style: Style): Promise<{ drawn: Drawn[]; stats: RuntimeStats }> {
  const rt = (runtime = await createRuntime({
    worker: fixtureWorker('motion'),
    schema: motionSchema,
    capacity: 8,
  }));
  await rt.setTickRate(TICK_RATE);
  await rt.start();
  const drawn: Drawn[] = [];
  let handle = 0;
  let timelineMismatches = 0;
  let frames = 0;
  /** Where the stall cycle stands: it moves on with each drawn frame (not with a refresh the pacer skips). */
  let cycle = 0;
  /** Whether the callback before drew a frame (a stall before the frame follows only one that did). */
  let drewLast = true;
  const loop = (ts: number): void => {
    const startedAfter = performance.now() - ts;
    handle = requestAnimationFrame(loop);
    // what the no-argument call relies on: inside a rAF callback the document timeline stands at its timestamp
    if (document.timeline.currentTime !== ts) timelineMismatches++;
    frames++;
    // from the 11th callback on, in every four drawn frames: a stall before the frame (game logic, a GC), so a
    // time read now is 25 ms late; a stall in a task after the frame; none (the callback begins late, at the
    // announced vsync); none (a refresh or more later than announced: it rings the worker and waits for its
    // states). A callback the pacer skips leaves the cycle where it was; a stall before the frame is made only
    // after a callback that drew (after a skipped one it would make two stalls back to back)
    const phase = frames > 10 ? cycle % 4 : -1;
    const stalledBefore = phase === 0 && drewLast;
    if (stalledBefore) busy(STALL_BEFORE_MS);
    const readAt = performance.now();
    const f = style === 'none' ? rt.frame() : rt.frame(style === 'raf' ? ts : readAt);
    // runtime.frameTime is the time the frame was made at, for GPU renderers after pace()
    if (f !== null && rt.frameTime !== f.time) timelineMismatches++;
    // drawn at the animation frame's time, whichever timestamp was passed. Not the loop's first frame: this loop
    // was started from a task, so in its first animation frame its callback runs after the runtime's frame hooks
    // have closed the frame, and the runtime, not sure it is inside one, draws at the time passed or now (never a
    // guess: ARCHITECTURE.md, "The frame clock"); from the second on, its hooks enclose the loop's callback
    if (f !== null && frames > 1 && f.time !== ts) timelineMismatches++;
    // the first frames settle the pacer and the worker
    if (f !== null && frames > 10) {
      drawn.push({
        time: f.time,
        currentTime: f.currentTime,
        late: f.late,
        fresh: f.fresh,
        sampledAt: performance.now(),
        readAt,
        stalledBefore,
        overtaken: f.overtaken,
        startedAfter,
      });
    }
    drewLast = f !== null;
    if (f === null) return;
    // in a task of its own (a slow event handler between frames): the pacer sizes frames by their own task
    if (phase === 1) setTimeout(busy, 0, STALL_AFTER_MS);
    if (phase >= 0) cycle++;
  };
  handle = requestAnimationFrame(loop);
  await waitFor(`${FRAMES} frames`, () => drawn.length >= FRAMES, 30_000);
  cancelAnimationFrame(handle);
  const stats = await rt.stats();
  await rt.stop();
  rt.dispose();
  runtime = undefined;
  expect(timelineMismatches).toBe(0);
  return { drawn, stats };
}

/**
 * One run: asserts what the runtime promises whatever the machine did, and returns whether the run showed the
 * case the test guards (enough frames of each kind), with a line that says what it saw.
 */
async function check(style: Style): Promise<{ seen: boolean; log: string }> {
  const { drawn, stats } = await run(style);
  const clock = stats.frameClock;
  // every frame's time is one the frame could be drawn at: not in the future of when it sampled
  for (const d of drawn) expect(d.time).toBeLessThanOrEqual(d.sampledAt + 1);
  const stalled = drawn.filter((d) => d.stalledBefore);
  const starts = drawn.map((d) => d.startedAfter).sort((a, b) => a - b);
  // the frames stalled before, drawn at the time read in the callback (what runtime.frame(performance.now())
  // did before frame-time.ts), would be stale by about the stall. (One the worker overtook, having stopped
  // holding for a callback that began very late, is not that case: it is not counted.)
  const atReadTime = stalled.filter((d) => !d.overtaken && d.readAt - d.currentTime > TICK_MS);
  // stale: drawn from a state older than the frame's own time (a late frame). None that the runtime did not
  // give up on knowingly, and count: a wait that gave up (the OS did not run the worker thread within
  // CATCH_UP_WAIT_MS, 4 ms), a frame in the second without waits after three such in a row, or a frame whose
  // callback came more than the worker's hold (FRAME_HOLD_MS) after its time (the worker stopped holding for
  // it; on a loaded machine a callback can start that late). A frame whose lock acquire gave up says so itself
  // (`fresh` false: the last good frame again)
  const stale = drawn.filter((d) => d.late && d.fresh);
  const log =
    `${style}: ${drawn.length} frames (${stalled.length} stalled before, ${atReadTime.length} of them stale at the time ` +
    `read, ${stalled.filter((d) => d.overtaken).length} overtaken; ${clock.unannounced} unannounced; callbacks began a ` +
    `median ${starts[starts.length >> 1]!.toFixed(2)} ms, at most ${starts[starts.length - 1]!.toFixed(2)} ms after ` +
    `their timestamp): ${stale.length} stale; waits ${clock.waits} (${clock.waitMs.toFixed(1)} ms, at most ` +
    `${clock.maxWaitMs.toFixed(2)}), ${clock.timeouts} gave up, ${clock.unwaited} unwaited, ${clock.unheld} unheld, ` +
    `${drawn.filter((d) => !d.fresh).length} not fresh; worker wakes late: ${stats.worker.lateWakes}, at most ` +
    `${stats.worker.maxWakeLateMs.toFixed(2)} ms; pacing ${stats.pacing.multiple} x ${stats.pacing.refreshPeriod.toFixed(1)} ms`;
  console.log(log);
  expect(stale.length, log).toBeLessThanOrEqual(clock.timeouts + clock.unwaited + clock.unheld);
  // the frames after a stall usually find the worker asleep short of them and wait for it (tenths of a ms each
  // alone; 20 to 45 waits a run). When enough did, most must succeed: a ring that did not reach the worker would
  // make every one give up; the worst seen (load average 14 on 2 cores, other browsers running) gave up on
  // half, at load 4 on none in most runs. (Under heavy load the pacer's picture of the display can change so
  // that few frames need a wait at all: the promise above holds either way.)
  if (clock.waits >= 10) expect(clock.timeouts, log).toBeLessThan(0.75 * clock.waits);
  // every frame announces the next one; a frame past what the sleeping worker's states reach rings it (a
  // catch-up wait begins with one, unless the worker published meanwhile), one within them does not
  expect(clock.announced).toBeGreaterThanOrEqual(drawn.length);
  if (clock.waits > 0) expect(clock.rings).toBeGreaterThan(0);
  expect(clock.rings).toBeLessThanOrEqual(clock.announced);
  // the case guarded: frames a time read after the stall would have drawn stale, and frames that came a
  // refresh or more later than the pacer announced (what rAF does after the long stalls), and catch-up waits
  // that reached the worker (a ring that never did would give up every wait, and after three in a row waits
  // stop for a second: a run would then have too few for the check above, and stale frames all counted)
  return { seen: atReadTime.length > 10 && clock.unannounced > 10 && clock.waits - clock.timeouts >= 5, log };
}

/**
 * Runs until one shows the case guarded. On a loaded machine callbacks can begin so late (150 ms and more in a
 * full CI run) that the worker stops holding for many of them; every run's frames are held to the promise.
 */
const ATTEMPTS = 3;

it.each(['none', 'raf', 'now'] as const)('no frame is drawn stale after main-thread stalls (timestamp: %s)', async (style) => {
  let result = await check(style);
  for (let attempt = 1; attempt < ATTEMPTS && !result.seen; attempt++) result = await check(style);
  expect(result.seen, `the case was not seen in ${ATTEMPTS} runs; the last: ${result.log}`).toBe(true);
}, ATTEMPTS * 40_000);
