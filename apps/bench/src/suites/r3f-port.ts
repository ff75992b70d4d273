/**
 * Suite 14, React Three Fiber ports (issue #28, item 3a): one scene, a heap of boxes falling onto a floor
 * (shared/heap.ts), written the way each library's own published sources write it, measured side by side in one
 * run at 1k, 5k and 10k boxes:
 *
 * | design   | where the physics runs                                | how the boxes reach the InstancedMesh         |
 * |----------|-------------------------------------------------------|-----------------------------------------------|
 * | `rapier` | @react-three/rapier 2.2.0: Rapier on the main thread, | every instance's matrix set from its body     |
 * |          | stepped in a useFrame (fixed 1/60 s steps)            | after each frame's steps                      |
 * | `cannon` | @react-three/cannon 6.6.0: cannon-es in its worker,   | the worker's reply sets every instance's      |
 * |          | one step message per frame (ping-pong)                | matrix, in its message handler                |
 * | `ours`   | Rapier in a steadyframe worker (@steadyframe/rapier)  | <InterpolatedInstances>: each tick's state    |
 * |          | at 60 ticks/s                                         | uploaded, blended in the vertex shader        |
 * | `floor`  | nowhere: the same InstancedMesh standing still        | set once                                      |
 *
 * Every design draws the same canvas (640×480, dpr 1), camera, lights, floor, box geometry and material, one
 * InstancedMesh with `frustumCulled={false}`, under r3f's default `frameloop="always"` (apps/bench/src/r3f/).
 * Each design runs twice per size in mirrored order (rapier, cannon, ours, floor, floor, ours, cannon, rapier),
 * each run its own row, mounted in a fresh React root and unmounted (r3f disposes of the renderer and loses its
 * context) before the next. Per window (at least 1 s and one rendered frame): r3f's animation frames per second,
 * frames rendered per animation frame, the page main thread's CPU per rendered frame (/proc), the wall time inside
 * r3f's loop per rendered frame, the dedicated workers' and all Chromium threads' CPU per rendered frame, and the
 * physics updates per second (HeapProbe.updates). Per run: the time from the root's render call to the end of the
 * first frame rendered with every box placed by the physics (HeapProbe.ready says what that means per design),
 * and the JS heap after the unmount and a GC. One discarded run of each design at 100 boxes first, so every
 * measured run finds its chunks, Rapier's WebAssembly and use-cannon's worker code in the browser's caches.
 */
import { mountHeap, type HeapDesign, type MountedHeap } from '../r3f/mount.tsx';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';

export const R3F_SIZES = [1000, 5000, 10_000];
const MIRRORED: readonly HeapDesign[] = ['rapier', 'cannon', 'ours', 'floor', 'floor', 'ours', 'cannon', 'rapier'];
/** How long a first frame may take before the run is given up as broken (10k bodies mounted as React components). */
const FIRST_FRAME_LIMIT_MS = 120_000;

export interface R3fWindow {
  /** r3f's animation frames per second. */
  readonly rafPerSecond: number;
  /** Frames rendered per animation frame (1 under r3f; the steadyframe provider's pacer may skip some). */
  readonly drawnPerRaf: number;
  /** /proc CPU ms of the page's main thread per rendered frame (everything: r3f, physics, message handlers, GC). */
  readonly mainCpuPerFrame: number;
  /** The same CPU as a share of the window's wall time, % of one core. */
  readonly mainCpuPercent: number;
  /** Wall ms inside r3f's loop per rendered frame (useFrame callbacks and the render; not cannon's message handler). */
  readonly loopPerFrame: number;
  /** /proc CPU ms of the dedicated workers per rendered frame. */
  readonly workerCpuPerFrame: number;
  /** /proc CPU ms of every Chromium thread (software GL included) per rendered frame. */
  readonly totalCpuPerFrame: number;
  /** Physics updates per second (Rapier steps on the page; cannon's frame messages; ticks published). */
  readonly updatesPerSecond: number;
  /** ours only (NaN otherwise): ms per rendered frame the runtime spun for the worker's states (catch-up waits). */
  readonly catchUpPerFrame: number;
}

export interface R3fRow {
  readonly design: HeapDesign;
  readonly count: number;
  readonly windows: readonly R3fWindow[];
  readonly summary: Record<keyof R3fWindow, Spread>;
  /** ms from the root's render call to the end of the first frame rendered with every box (HeapProbe.ready). */
  readonly firstFrameMs: number;
  /** performance.memory's used JS heap after the unmount and a GC, MB (Chromium only; NaN elsewhere). */
  readonly heapAfterMB: number;
  /** Whether r3f released the renderer's WebGL context at the unmount. */
  readonly contextLost: boolean;
  /**
   * Steps on the way to the first frame, ms after the mount (HeapProbe.phases): rapier `physics` (Rapier loaded
   * and initialised, <Physics>'s children rendered); cannon `reply` (the worker's first frame message); ours
   * `runtime` (createRuntime resolved: worker, Rapier, the heap, the attach) and `started` (start() resolved).
   */
  readonly phases: Readonly<Record<string, number>>;
}

function usedHeapMB(): number {
  const memory = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
  return memory === undefined ? Number.NaN : memory.usedJSHeapSize / 2 ** 20;
}

async function firstFrameOf(mounted: MountedHeap, design: HeapDesign, count: number): Promise<number> {
  let timer = 0;
  const limit = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => reject(new Error(`r3f-port ${design} ${count}: no frame with every box within ${FIRST_FRAME_LIMIT_MS / 1000} s`)), FIRST_FRAME_LIMIT_MS);
  });
  try {
    return await Promise.race([mounted.firstFrame, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until at least `ms` have passed and `frames` more frames were rendered (a slow design's frames take seconds). */
async function settle(mounted: MountedHeap, ms: number, frames: number): Promise<void> {
  const renders = mounted.counters().renders;
  await sleep(ms);
  while (mounted.counters().renders < renders + frames) await sleep(20);
}

/**
 * One window. The counters and the clock are read when each /proc snapshot is asked for (the runner reads /proc
 * as the call arrives, even while the page's main thread is busy), not when it answers: a frame of seconds that
 * runs while the answer waits belongs to the window on both sides or on neither.
 */
async function measureWindow(mounted: MountedHeap, windowMs: number): Promise<R3fWindow> {
  const { catchUpMs } = mounted.probe;
  const waited0 = catchUpMs === undefined ? Number.NaN : await catchUpMs();
  const meter = cpuMeter();
  const c0 = mounted.counters();
  const t0 = performance.now();
  await meter.start();
  await settle(mounted, windowMs, 1);
  const c1 = mounted.counters();
  const t1 = performance.now();
  const cpu = await meter.stop();
  const waited1 = catchUpMs === undefined ? Number.NaN : await catchUpMs();
  const rafs = c1.rafs - c0.rafs;
  const frames = Math.max(1, c1.renders - c0.renders);
  const wall = t1 - t0;
  return {
    rafPerSecond: (rafs * 1000) / wall,
    drawnPerRaf: (c1.renders - c0.renders) / Math.max(1, rafs),
    mainCpuPerFrame: cpu.main / frames,
    mainCpuPercent: (100 * cpu.main) / wall,
    loopPerFrame: (c1.loopMs - c0.loopMs) / frames,
    workerCpuPerFrame: cpu.workers / frames,
    totalCpuPerFrame: cpu.total / frames,
    updatesPerSecond: ((c1.updates - c0.updates) * 1000) / wall,
    // asked outside the window (a comlink round trip): a frame or so either side may count in it
    catchUpPerFrame: (waited1 - waited0) / frames,
  };
}

/** `shots=1`: a PNG of each run's canvas after its warm-up, by `${design} ${count}` (a look: does it draw a heap?). */
const pictures: Record<string, string> = {};
declare global {
  interface Window {
    __pictures?: Record<string, string>;
  }
}

async function measure(design: HeapDesign, count: number, windows: number, windowMs: number, shots: boolean): Promise<R3fRow> {
  const mounted = await mountHeap(design, count);
  const firstFrameMs = await firstFrameOf(mounted, design, count);
  const phases = Object.entries(mounted.probe.phases).map(([k, v]) => `${k} ${v.toFixed(0)} ms`);
  log(`r3f-port ${design} ${count}: first frame with every box ${firstFrameMs.toFixed(0)} ms${phases.length > 0 ? ` (${phases.join(', ')})` : ''}`);
  await settle(mounted, 1500, 2); // warm-up: the JIT settles, the pacer finds its interval
  if (shots) window.__pictures = Object.assign(pictures, { [`${design} ${count}`]: await mounted.picture() });
  const results: R3fWindow[] = [];
  for (let w = 0; w < windows; w++) results.push(await measureWindow(mounted, windowMs));
  const { contextLost } = await mounted.unmount();
  // twice, a moment apart: what React and r3f let go of in their last cleanups goes in the second
  await collectGarbage();
  await sleep(200);
  await collectGarbage();
  const keys = Object.keys(results[0]!) as (keyof R3fWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof R3fWindow, Spread>;
  return { design, count, windows: results, summary, firstFrameMs, heapAfterMB: usedHeapMB(), contextLost, phases: { ...mounted.probe.phases } };
}

/** One discarded run of each design at 100 boxes: chunks, WebAssembly and worker code into the caches. */
async function warmUp(designs: readonly HeapDesign[]): Promise<void> {
  for (const design of designs) {
    const mounted = await mountHeap(design, 100);
    const ms = await firstFrameOf(mounted, design, 100);
    await settle(mounted, 300, 2);
    await mounted.unmount();
    log(`r3f-port warm-up ${design}: first frame ${ms.toFixed(0)} ms`);
  }
  await collectGarbage();
}

export async function r3fPort(quick: boolean, sizes = R3F_SIZES, designs?: readonly HeapDesign[], shots = false): Promise<{ rows: R3fRow[]; heapBeforeMB: number }> {
  const windows = quick ? 2 : 5;
  const order = MIRRORED.filter((d) => designs === undefined || designs.includes(d));
  await warmUp([...new Set(order)]);
  const heapBeforeMB = usedHeapMB();
  const rows: R3fRow[] = [];
  for (const count of quick ? sizes.slice(0, 2) : sizes) {
    // mirrored order, each run its own row: the machine drifts over a run
    for (const design of order) {
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const row = await measure(design, count, windows, 1000, shots);
      const s = row.summary;
      log(
        `r3f-port ${design} ${count}: ${s.rafPerSecond.median.toFixed(1)} rAF/s, drawn/rAF ${s.drawnPerRaf.median.toFixed(3)}, ` +
          `main CPU ${s.mainCpuPerFrame.median.toFixed(2)} ms/frame, loop ${s.loopPerFrame.median.toFixed(2)} ms/frame, ` +
          `worker ${s.workerCpuPerFrame.median.toFixed(2)}, all ${s.totalCpuPerFrame.median.toFixed(2)} ms/frame, ` +
          `${s.updatesPerSecond.median.toFixed(1)} updates/s; heap after ${row.heapAfterMB.toFixed(1)} MB${row.contextLost ? '' : ', context NOT lost'}`,
      );
      rows.push(row);
    }
  }
  return { rows, heapBeforeMB };
}
