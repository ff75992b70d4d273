/// <reference types="@vitest/browser-playwright" />
/**
 * The render worker (the third thread) drawing with three.js into an OffscreenCanvas: frames keep coming while
 * the page's main thread is busy, every sampled frame is one consistent tick pair, and the page still controls
 * the simulation. Counts and orders only, never wall-clock timings: the main thread stays busy until the render
 * worker has drawn (it watches the render worker's draws in a SharedArrayBuffer), so a loaded machine can make
 * a busy spell longer, never make it fail.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import { createRenderWorkerRuntime, manualVisibility, type RenderWorkerRuntime } from 'steadyframe';
import { askUntilAnswered } from 'steadyframe/testing';
import { motionSchema } from './fixtures/schema.ts';
import type { MotionCommands } from './fixtures/motion.worker.ts';
import { createScene, type SceneCounters as Counters } from './fixtures/scene.ts';
import { sleep } from './helpers.ts';
import { hasCdp } from '../../../runtime/test/shared/engine.ts';


let runtime: RenderWorkerRuntime<typeof motionSchema, MotionCommands> | undefined;
let canvas: HTMLCanvasElement | undefined;
afterEach(() => {
  runtime?.dispose();
  canvas?.remove();
  runtime = undefined;
});

let serial = 0;
async function renderWorkerRuntime(path: 'cpu' | 'gpu', renderIn: 'auto' | 'worker' | 'main' = 'worker', variant = '', visibility = manualVisibility(false)) {
  const name = `${path}-${serial++}${variant}`;
  const scene = createScene(path === 'gpu');
  // each draw, counted where the page's main thread can read it while it does nothing else (both renderers)
  // [draws, whether the page keeps its main thread busy, whether a draw reads its pixels back] (fixtures/scene.ts)
  const drawnWords = new Int32Array(new SharedArrayBuffer(12));
  scene.countDrawsInto(drawnWords);
  const renderWorker = new Worker(new URL('./fixtures/scene.render.ts', import.meta.url), { type: 'module', name });
  renderWorker.postMessage({ drawnWords: drawnWords.buffer });
  canvas = document.createElement('canvas');
  canvas.style.width = '88px';
  canvas.style.height = '72px';
  document.body.append(canvas);
  runtime = await createRenderWorkerRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('./fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    renderWorker,
    canvas,
    schema: motionSchema,
    capacity: 8,
    pacing: { adaptive: false },
    renderIn,
    fallback: scene.setup,
    visibility,
  });
  const onMain = runtime.renderer === 'main';
  const channel = new BroadcastChannel(name);
  const counters = async () => (onMain ? structuredClone(scene.counters) : askUntilAnswered<Counters>(channel, 'counters', name));
  /** Marks the page busy (or not); busy, resolves once no readback is in flight (Firefox's waits on this thread). */
  const busy = async (on: boolean): Promise<void> => {
    Atomics.store(drawnWords, 1, on ? 1 : 0);
    while (on && Atomics.load(drawnWords, 2) === 1) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { runtime, counters, drawn: () => Atomics.load(drawnWords, 0), busy, close: () => channel.close() };
}

/** Polls until `predicate` holds; a hang guard of 30 s (not a timing: a loaded machine only makes it slower). */
async function waitUntil(what: string, predicate: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Runs `rounds` busy loops of 30 ms on the page, a turn of the event loop apart, and returns each loop's window on
 * the shared clock and how many of the page's own animation frames ran in all (none can run inside a window).
 */
async function jank(now: () => number, rounds: number): Promise<{ windows: Array<[number, number]>; pageFrames: number }> {
  let pageFrames = 0;
  let handle = 0;
  const count = () => {
    pageFrames++;
    handle = requestAnimationFrame(count);
  };
  handle = requestAnimationFrame(count);
  const windows: Array<[number, number]> = [];
  for (let r = 0; r < rounds; r++) {
    const start = now();
    for (const until = performance.now() + 30; performance.now() < until; );
    windows.push([start, now()]);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  cancelAnimationFrame(handle);
  return { windows, pageFrames };
}

/**
 * Keeps the page's main thread busy (no task, no rAF callback of its own can run) until the render worker has
 * drawn `frames` more frames, `rounds` times, a turn of the event loop apart; returns how long each spell lasted.
 * A hang guard (not a timing) throws if one spell sees no frames for 10 s.
 */
async function busyUntilDrawn(drawn: () => number, busy: (on: boolean) => Promise<void>, frames: number, rounds: number): Promise<number[]> {
  const spells: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await busy(true);
    const from = drawn();
    const start = performance.now();
    while (drawn() < from + frames) {
      if (performance.now() - start > 10_000) throw new Error(`the render worker drew ${drawn() - from} frames in 10 s of a busy main thread`);
    }
    spells.push(performance.now() - start);
    await busy(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return spells;
}

/** Frames drawn inside each busy window: the page's draws' `times` against its busy loops. */
function framesInside(windows: Array<[number, number]>, times: number[]): number[] {
  return windows.map(([start, end]) => times.filter((t) => t >= start && t <= end).length);
}

describe.each(['cpu', 'gpu'] as const)('three.js in the render worker, %s path', (path) => {
  it('draws in the render worker while the main thread is busy, every frame a consistent pair', async () => {
    const { runtime, counters, drawn, busy, close } = await renderWorkerRuntime(path);
    expect(runtime.renderer).toBe('worker');
    expect(runtime.renderFallback).toBeNull();
    await runtime.start();
    await waitUntil('frames in the render worker', async () => (await counters()).drawn >= 10);
    const before = await counters();
    // the page can draw nothing while it is busy; the render worker draws on: each of 10 busy spells lasts until
    // it has drawn 3 frames (the page reads its draws from shared memory, never yielding meanwhile)
    const spells = await busyUntilDrawn(drawn, busy, 3, 10);
    // the GPU path's pixels are read back while the page is idle (see the scene)
    if (path === 'gpu') await waitUntil('pixels read back', async () => (await counters()).pixelChecked > 10);
    const after = await counters();
    close();
    console.log(`three.js render worker (${path}): busy spells until 3 frames were drawn: ${spells.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    expect(after.drawn).toBeGreaterThanOrEqual(before.drawn + 3 * 10);
    expect(after.calls).toBeGreaterThan(0); // three.js issued draw calls into the OffscreenCanvas
    expect(after.crossOriginIsolated).toBe(true);
    if (path === 'cpu') {
      expect(after.checked).toBeGreaterThan(10);
      expect(after.bad, after.firstBad).toBe(0);
    } else {
      // the shader's blend, read back: each box lit where the motion puts it at the alpha drawn
      expect(after.pixelChecked).toBeGreaterThan(10);
      expect(after.pixelBad, after.firstPixelBad).toBe(0);
    }
    const stats = await runtime.stats();
    expect(stats.render).toMatchObject({ thread: 'worker', fallback: null, crossOriginIsolated: true });
    expect(stats.render.drawn).toBeGreaterThanOrEqual(after.drawn);
    expect(stats.worker.tick).toBeGreaterThan(0);
    // the page never read the buffer: the render worker is the one reader
    expect(stats.lock.acquires).toBeGreaterThan(0);
  });
});

it('the same scene drawn on the main thread draws nothing inside the busy loops (the contrast)', async () => {
  const { runtime, counters, close } = await renderWorkerRuntime('cpu', 'main');
  expect(runtime.renderer).toBe('main');
  expect(runtime.renderFallback).toContain("renderIn: 'main'");
  await runtime.start();
  await waitUntil('frames on the page', async () => (await counters()).drawn >= 10);
  const { windows } = await jank(runtime.now, 10);
  const after = await counters();
  close();
  expect(framesInside(windows, after.times)).toEqual(windows.map(() => 0));
  expect(after.bad, after.firstBad).toBe(0);
  expect((await runtime.stats()).render).toMatchObject({ thread: 'main', fallback: runtime.renderFallback });
});

it('falls back to the main thread where the render worker has no requestAnimationFrame, and says why', async () => {
  const warn = vi.spyOn(console, 'warn');
  try {
    const { runtime, counters, close } = await renderWorkerRuntime('cpu', 'auto', '-no-raf');
    expect(runtime.renderer).toBe('main');
    expect(runtime.renderFallback).toBe('this browser has no requestAnimationFrame in workers');
    expect(warn.mock.calls.map((call) => String(call[0]))).toContain(`steadyframe: drawing on the main thread, not in the render worker: ${runtime.renderFallback}`);
    await runtime.start();
    await waitUntil('frames on the page', async () => (await counters()).drawn >= 5);
    close();
    expect((await runtime.stats()).render).toMatchObject({ thread: 'main', fallback: runtime.renderFallback });
  } finally {
    warn.mockRestore();
  }
});

it("rejects with renderIn: 'worker' where the render worker cannot draw", async () => {
  await expect(renderWorkerRuntime('cpu', 'worker', '-no-raf')).rejects.toThrow("steadyframe: renderIn: 'worker', but the render worker cannot be used: this browser has no requestAnimationFrame in workers");
});

it('keeps pause, commands, stats and resize on the main thread', async () => {
  const { runtime, counters, close } = await renderWorkerRuntime('cpu');
  await runtime.start();
  await waitUntil('frames', async () => (await counters()).drawn >= 5);
  // a game command reaches the simulation; the render worker draws its result
  await runtime.commands.setCount(5);
  await waitUntil('five entities drawn', async () => (await counters()).lastCount === 5);
  await runtime.pause();
  const paused = (await runtime.stats()).worker.tick;
  const drawnPaused = (await counters()).drawn;
  // frames go on while paused (the picture holds still, the loop does not stop); and for 300 ms at least, no tick
  const pausedAt = performance.now();
  await waitUntil('frames while paused', async () => (await counters()).drawn > drawnPaused + 5);
  await sleep(Math.max(0, 300 - (performance.now() - pausedAt)));
  expect((await runtime.stats()).worker.status).toBe('paused');
  expect((await runtime.stats()).worker.tick).toBe(paused);
  await runtime.resume();
  await waitUntil('ticks after resume', async () => (await runtime.stats()).worker.tick > paused);
  await runtime.resize(50, 40, 2);
  await waitUntil('the resize', async () => (await counters()).resizes.some((r) => r[0] === 50 && r[3] === 100 && r[4] === 80));
  const input = runtime.sendInput(7, 1);
  expect(input).toBe(true);
  const { bad, firstBad, checked } = await counters();
  close();
  // (frames while paused are late, holding the newest state: not checked)
  expect(checked).toBeGreaterThan(0);
  expect(bad, firstBad).toBe(0);
});

it('a hidden page stops the render worker\'s frames and tells the simulation; shown again, both go on', async () => {
  const visibility = manualVisibility(false);
  const { runtime, counters, close } = await renderWorkerRuntime('cpu', 'worker', '', visibility);
  const events: boolean[] = [];
  runtime.on('visibility', ({ hidden }) => events.push(hidden));
  await runtime.start();
  await waitUntil('frames', async () => (await counters()).drawn >= 5);
  visibility.set(true);
  await waitUntil('the simulation told', async () => (await runtime.stats()).worker.hidden);
  // the render worker has it once it answers a call sent after it on the same port (comlink keeps their order)
  await runtime.renderRemote!.stats();
  const hiddenAt = (await counters()).drawn;
  await sleep(300);
  // at most a frame already requested when the call arrived (a window in which nothing may happen: load can
  // only make it longer)
  expect((await counters()).drawn).toBeLessThanOrEqual(hiddenAt + 1);
  visibility.set(false);
  await waitUntil('frames again', async () => (await counters()).drawn > hiddenAt + 5);
  expect((await runtime.stats()).worker.hidden).toBe(false);
  expect(events).toEqual([true, false]);
  close();
});

describe.each(['worker', 'main'] as const)('drawn in the %s thread', (renderIn) => {
  /** A runtime drawing at 120 x 72 CSS px; `has(r)` tells whether the renderer saw the resize `r`. */
  async function resizing() {
    const { runtime, counters, close } = await renderWorkerRuntime('cpu', renderIn);
    expect(runtime.renderer).toBe(renderIn);
    await runtime.start();
    await waitUntil('frames', async () => (await counters()).drawn >= 3);
    const has = async (r: number[]) =>
      (await counters()).resizes.some((seen) => seen.length === r.length && seen.every((v, i) => v === r[i]));
    return { runtime, counters, close, has };
  }

  it("follows the canvas's CSS size by itself (no runtime.resize)", async () => {
    const { runtime, counters, close, has } = await resizing();
    // the CSS size: the ResizeObserver
    canvas!.style.width = '120px';
    await waitUntil('the new CSS width', () => has([120, 72, 1, 120, 72]));
    const drawn = (await counters()).drawn;
    await waitUntil('frames at the new size', async () => (await counters()).drawn > drawn + 3);
    close();
    expect((await runtime.stats()).render.canvas).toEqual({ width: 120, height: 72 });
  });

  // Chromium only: the ratio is emulated through the Chrome DevTools Protocol, which only its provider speaks
  it.runIf(hasCdp)('follows the device pixel ratio by itself', async () => {
    const { runtime, counters, close, has } = await resizing();
    canvas!.style.width = '120px';
    await waitUntil('the new CSS width', () => has([120, 72, 1, 120, 72]));
    // each resize carries the page's devicePixelRatio of the moment (CDP's emulated ratio fires no event inside
    // the test's frame, so the CSS size changes with it; a ratio change alone is caught by a resolution media
    // query in a real page)
    const session = cdp();
    await session.send('Emulation.setDeviceMetricsOverride', { width: 0, height: 0, deviceScaleFactor: 2, mobile: false });
    try {
      expect(devicePixelRatio).toBe(2);
      canvas!.style.width = '100px';
      await waitUntil('the new device pixel ratio', () => has([100, 72, 2, 200, 144]));
    } finally {
      await session.send('Emulation.clearDeviceMetricsOverride');
    }
    canvas!.style.width = '120px';
    await waitUntil('the ratio back', () => has([120, 72, 1, 120, 72]));
    const drawn = (await counters()).drawn;
    await waitUntil('frames at the new size', async () => (await counters()).drawn > drawn + 3);
    close();
    expect((await runtime.stats()).render.canvas).toEqual({ width: 120, height: 72 });
  });
});
