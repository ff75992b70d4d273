/**
 * The browser page's frame hooks (hosts/animation-frames.ts) on a stand-in for a browser's animation frames:
 * callbacks run in the order they were registered, each followed by its microtasks, and the marker task (a
 * MessageChannel message) never gets in between two frames here, as on a loaded WebKit, where the next frame ran
 * before it. `document.timeline` reads the frame's time (Chromium, Firefox) or now (WebKit).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnimationFrames, MARKER_EVERY } from '../../src/hosts/animation-frames.ts';
import type { FrameSource } from '../../src/contracts/host.ts';

const PERIOD = 1000 / 60;

/** Animation frames by hand, on a clock of the test's own. */
function fakeFrames(timeline: 'frame' | 'live') {
  let now = 1000;
  let frameTime = now;
  let nextId = 1;
  let pending: Array<{ id: number; callback: (time: number) => void }> = [];
  const cancelled = new Set<number>();
  const saved = { raf: globalThis.requestAnimationFrame, caf: globalThis.cancelAnimationFrame, document: globalThis.document, now: performance.now };
  Object.assign(globalThis, {
    requestAnimationFrame: (callback: (time: number) => void) => {
      pending.push({ id: nextId, callback });
      return nextId++;
    },
    cancelAnimationFrame: (id: number) => cancelled.add(id),
    document: { timeline: { get currentTime() { return timeline === 'frame' ? frameTime : now; } } },
  });
  performance.now = () => now;
  return {
    /** Runs one animation frame: each callback registered before it began, then its microtasks. */
    async frame(): Promise<void> {
      now = frameTime = now + PERIOD;
      const list = pending;
      pending = [];
      for (const { id, callback } of list) {
        if (cancelled.has(id)) continue;
        callback(frameTime);
        // a callback's own work: the time moves on within the frame (WebKit's live timeline with it)
        now += 2;
        await Promise.resolve();
        await Promise.resolve();
      }
    },
    /** Time passes between frames (a task, a timer). */
    wait(ms: number): void {
      now += ms;
    },
    restore(): void {
      Object.assign(globalThis, { requestAnimationFrame: saved.raf, cancelAnimationFrame: saved.caf, document: saved.document });
      performance.now = saved.now;
    },
  };
}

/** A game's loop as the frame loop makes one: re-registers first, then reads `current()` and says when it was null. */
function gameLoop(frames: FrameSource) {
  const seen: Array<{ time: number; current: number | null }> = [];
  let handle = 0;
  const loop = (time: number): void => {
    handle = requestAnimationFrame(loop);
    const current = frames.current();
    if (current === null) frames.missed?.();
    seen.push({ time, current });
  };
  return { start: () => (handle = requestAnimationFrame(loop)), stop: () => cancelAnimationFrame(handle), seen };
}

let restore = (): void => {};
let source: FrameSource | undefined;
afterEach(() => {
  source?.close();
  restore();
});

describe('frame hooks', () => {
  it.each(['frame', 'live'] as const)('enclose a loop started after them from its second frame on (timeline: %s)', async (timeline) => {
    const fake = fakeFrames(timeline);
    restore = fake.restore;
    const frames = (source = createAnimationFrames());
    frames.expect?.(true);
    for (let k = 0; k < 5; k++) await fake.frame();
    // started from a task: it runs after the end hook in its first frame
    fake.wait(3);
    const loop = gameLoop(frames);
    loop.start();
    for (let k = 0; k < 5; k++) await fake.frame();
    expect(loop.seen[0]!.current).toBeNull();
    // from the second frame on, between the hooks: current() is the frame's own time
    for (const s of loop.seen.slice(1)) expect(s.current).toBe(s.time);
    // and outside the frames, never a time
    expect(frames.current()).toBeNull();
  });

  it('leave a loop that runs before the start hook where it is: its frames unenclosed, current() null outside them', async () => {
    const fake = fakeFrames('live');
    restore = fake.restore;
    const frames = (source = createAnimationFrames());
    for (let k = 0; k < 3; k++) await fake.frame();
    // the simulation stops, nobody asks: after the quiet frames the hooks stop
    frames.expect?.(false);
    for (let k = 0; k < 70; k++) await fake.frame();
    // a loop that runs on across the stop, then the hooks start again after it (from a task)
    const loop = gameLoop(frames);
    loop.start();
    await fake.frame();
    frames.expect?.(true);
    // past MARKER_EVERY frames: the loop's misses ask for a move again
    for (let k = 0; k < MARKER_EVERY + 5; k++) {
      await fake.frame();
      // after each frame (a timer, a message handler): no time; moving the end hook here would leave one set
      expect(frames.current()).toBeNull();
    }
    for (const s of loop.seen) expect(s.current).toBeNull();
  });
});
