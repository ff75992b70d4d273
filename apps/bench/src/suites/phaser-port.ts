/**
 * Suite 12, a Phaser port: Phaser's "group world bounds event" example (phaserjs/examples,
 * public/src/physics/arcade/group world bounds event.js: balls bouncing off the world's edges under gravity,
 * each stepping its frame at a bounce) as apps/phaser-balls runs it, the same game made two ways and measured
 * side by side in one run at 2k, 10k (the size of Phaser's own "10000 world bodies" example) and 20k balls:
 *
 * | design   | where the motion is made                          | drawn with                                    |
 * |----------|---------------------------------------------------|-----------------------------------------------|
 * | `arcade` | Phaser's Arcade physics on the main thread, as    | the Arcade group's Images                     |
 * |          | published (fixed 60 Hz steps, no interpolation)   |                                               |
 * | `port`   | a steadyframe worker at 60 Hz (default options)   | SteadyframePlugin + bindGroup: a Group's      |
 * |          |                                                   | Images moved by the blended frame             |
 * | `gpu`    | the same worker                                   | createInterpolatedSprites: one Extern, every  |
 * |          |                                                   | ball a point blended in the vertex shader     |
 * | `floor`  | nowhere: the arcade design with its physics world | the same Images, standing still: what Phaser  |
 * |          | paused after its first full render                | and the browser cost a frame to draw them     |
 *
 * arcade and port render the same Images with the same textures in an 800×600 canvas; what differs is the main
 * thread's work besides: Arcade's bodies (gravity, move, world bounds, the event) against the runtime's frame
 * (the blend) and the binding's copy; the floor's main-thread time is what both pay to draw Images. gpu draws
 * the same balls (the same five frames, by a field) without Images: no per-sprite work on the main thread. Per 1 s window: rAF callbacks per second and renders per rAF callback, the page main
 * thread's CPU per rendered frame (/proc: everything it did, Phaser's render submission and GC included), the
 * page's own timing of Phaser's loop step (the whole rAF callback), the worker's CPU and every Chromium
 * thread's. And once per scene, the time from making the game to its first render with every ball.
 *
 * Headless Chromium's rAF is not locked to a display and software GL rasterises every sprite on the CPU, so the
 * frame rate is the machine's; the ratios of main-thread time per frame are what carries across machines.
 */
import type { Scene } from 'phaser';
import { createBallsGame, type BallsHooks, type BallsMode } from '../../../phaser-balls/src/scenes.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';

export type PhaserDesign = 'arcade' | 'port' | 'gpu' | 'floor';
const MODE: Record<PhaserDesign, BallsMode> = { arcade: 'arcade', port: 'steadyframe', gpu: 'steadyframe-gpu', floor: 'arcade' };
export const PHASER_SIZES = [2000, 10_000, 20_000];

export interface PhaserWindow {
  readonly rafPerSecond: number;
  /** Renders per rAF callback (1: every one rendered; the port's pacer may skip some). */
  readonly drawnPerRaf: number;
  /** /proc CPU ms of the page's main thread per rendered frame. */
  readonly mainCpuPerFrame: number;
  /** The page's timing of Phaser's loop step (the whole rAF callback), ms per rendered frame. */
  readonly stepPerFrame: number;
  /** /proc CPU ms of the dedicated workers per rendered frame. */
  readonly workerCpuPerFrame: number;
  /** /proc CPU ms of every Chromium thread (software GL included) per rendered frame. */
  readonly totalCpuPerFrame: number;
}

export interface PhaserRow {
  readonly design: PhaserDesign;
  readonly count: number;
  readonly windows: readonly PhaserWindow[];
  readonly summary: Record<keyof PhaserWindow, Spread>;
  /** ms from making the game to the end of its first render with every ball. */
  readonly firstFrameMs: number;
}

/** Resolves with the time of the end of the first render with `count` balls drawn. */
function firstFullRender(hooks: BallsHooks, count: number): Promise<number> {
  return new Promise((resolve) => {
    const game = hooks.game!;
    const check = (renderer: unknown) => {
      if (renderer === null || hooks.balls < count) return;
      game.events.off('postrender', check);
      resolve(performance.now());
    };
    game.events.on('postrender', check);
  });
}

async function measure(design: PhaserDesign, count: number, windows: number, windowMs: number): Promise<PhaserRow> {
  const parent = document.createElement('div');
  document.body.append(parent);
  const made = performance.now();
  const hooks = createBallsGame({ mode: MODE[design], balls: count, parent, fit: false });
  const game = hooks.game!;
  let renders = 0;
  game.events.on('postrender', (renderer: unknown) => {
    if (renderer !== null) renders++;
  });
  const firstFrameMs = (await firstFullRender(hooks, count)) - made;
  if (design === 'floor') (game.scene.getScene('balls') as Scene).physics.pause();
  await sleep(1500); // warm-up: the JIT settles, the pacer finds its interval
  const results: PhaserWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    renders = 0;
    const steps = hooks.stepMs.length;
    await sleep(windowMs);
    const cpu = await meter.stop();
    const stepped = hooks.stepMs.slice(steps);
    const rafs = stepped.length;
    const frames = Math.max(1, renders);
    results.push({
      rafPerSecond: (rafs * 1000) / cpu.wallMs,
      drawnPerRaf: renders / Math.max(1, rafs),
      mainCpuPerFrame: cpu.main / frames,
      stepPerFrame: stepped.reduce((a, b) => a + b, 0) / frames,
      workerCpuPerFrame: cpu.workers / frames,
      totalCpuPerFrame: cpu.total / frames,
    });
  }
  if (hooks.balls !== count) throw new Error(`phaser-port ${design} ${count}: ${hooks.balls} balls drawn, not ${count}`);
  game.destroy(true);
  await sleep(200); // Phaser destroys at its next step; the plugin disposes of the runtime then
  parent.remove();
  const keys = Object.keys(results[0]!) as (keyof PhaserWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof PhaserWindow, Spread>;
  return { design, count, windows: results, summary, firstFrameMs };
}

export async function phaserPort(quick: boolean, sizes = PHASER_SIZES): Promise<{ rows: PhaserRow[] }> {
  const windows = quick ? 2 : 5;
  const rows: PhaserRow[] = [];
  for (const count of quick ? sizes.slice(0, 2) : sizes) {
    // mirrored order, each run its own row: the machine drifts over a run
    for (const design of ['arcade', 'port', 'gpu', 'floor', 'floor', 'gpu', 'port', 'arcade'] as const) {
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const row = await measure(design, count, windows, 1000);
      const s = row.summary;
      log(
        `phaser-port ${design} ${count}: ${s.rafPerSecond.median.toFixed(1)} rAF/s, drawn/rAF ${s.drawnPerRaf.median.toFixed(3)}, ` +
          `main CPU ${s.mainCpuPerFrame.median.toFixed(2)} ms/frame, step ${s.stepPerFrame.median.toFixed(2)} ms/frame, ` +
          `worker ${s.workerCpuPerFrame.median.toFixed(2)}, all ${s.totalCpuPerFrame.median.toFixed(2)} ms/frame, first frame ${row.firstFrameMs.toFixed(0)} ms`,
      );
      rows.push(row);
    }
  }
  return { rows };
}
