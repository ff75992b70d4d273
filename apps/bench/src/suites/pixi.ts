/**
 * Suite 6, PixiJS: the same scene of moving, turning sprites (Pixi's 1×1 white texture at scale 2: 2×2 px, a
 * ParticleContainer or one Mesh of points, a 640×480 canvas in the page) drawn every animation frame three ways,
 * and a floor:
 *
 * | design  | where the motion is made                  | each frame                                            |
 * |---------|-------------------------------------------|-------------------------------------------------------|
 * | `plain` | the main thread: x += vx dt, angle += w dt | plain PixiJS: the update loop over every particle,    |
 * |         |                                           | then app.render (ParticleContainer, dynamic position  |
 * |         |                                           | and rotation)                                         |
 * | `cpu`   | a steadyframe worker (30 ticks/s)         | attachToTicker + bindParticles: runtime.frame blends, |
 * |         |                                           | app.render: Pixi's upload reads the bound particles'  |
 * |         |                                           | accessors onto the blend                              |
 * | `gpu`   | a steadyframe worker (30 ticks/s)         | attachToTicker + createInterpolatedSprites: pace,     |
 * |         |                                           | upload a new tick's state (once a tick),              |
 * |         |                                           | three uniforms, app.render; the vertex shader blends  |
 * | `gpu-still` | the gpu design, its simulation paused | the same, with no new tick: no upload. The floor:     |
 * |         | after a few ticks                         | what the browser and Pixi cost a frame to draw the    |
 * |         |                                           | scene at this frame rate, under every design          |
 *
 * All render on every animation frame (`pacing: { adaptive: false }`). In software GL (SwiftShader) at 100k and
 * more, every design is bound by the GPU process's rasterising (a few frames a second on 2 cores:
 * ARCHITECTURE.md, "Measurements behind the code"), so a frame's main-thread CPU includes the browser's own
 * frame work at that rate (the commit reads the WebGL canvas back for the software compositor), which the floor
 * row measures. Each design runs twice per size, in mirrored order (plain, cpu, gpu, gpu-still, then back), its
 * windows pooled. Measured per 1 s window: the renderer main
 * thread's CPU per frame from /proc (everything the page's main thread did, the browser's frame work and GC
 * included) and the page's own timing of the ticker's work per frame (from the first listener to the last:
 * the update and app.render; wall time, so it includes waits on the GPU process).
 */
import { Application, Particle, ParticleContainer, Texture, UPDATE_PRIORITY, type Ticker } from 'pixi.js';
import { createRuntime, schema2d, type Runtime, type RuntimeStats } from 'steadyframe';
import { attachToTicker, bindParticles, createInterpolatedSprites, type TickerLoop } from '@steadyframe/pixi';
import { BenchWorld, churnCount } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

/** `cpu-reupload` (the churn suite's): the cpu design re-uploading Pixi's static data on every count change, as bindParticles did before. */
export type PixiDesign = 'plain' | 'cpu' | 'gpu' | 'gpu-still' | 'cpu-reupload';

export const PIXI_TICK_RATE = 30;

export interface PixiWindow {
  readonly frames: number;
  readonly fps: number;
  /** /proc CPU ms of the page's main thread per frame. */
  readonly mainCpuPerFrame: number;
  /** The page's own timing of the ticker's work (update + render) per frame, ms. */
  readonly workPerFrame: number;
  /** /proc CPU ms of the dedicated workers (the simulation) per frame. */
  readonly workerCpuPerFrame: number;
  /** /proc CPU ms of every Chromium thread (the GPU process's software GL included) per frame. */
  readonly totalCpuPerFrame: number;
  /** gpu designs: uploads in the window. */
  readonly uploads?: GpuUploads;
  /** gpu designs: the page's own timing of `createInterpolatedSprites`' update per frame (the read, the uploads, the uniforms), ms. */
  readonly updatePerFrame?: number;
  /** gpu designs: MB of states uploaded per frame (a full upload is two states, a flip one; 12 bytes an entity each). */
  readonly uploadMBPerFrame?: number;
  /** cpu and gpu designs: ms per frame the runtime spun for the worker's states (`stats().frameClock.waitMs`). */
  readonly catchUpPerFrame?: number;
}

export interface PixiRow {
  readonly design: PixiDesign;
  readonly count: number;
  readonly windows: readonly PixiWindow[];
  /** Spreads of the windows' numbers (the optional ones where the design has them). */
  readonly summary: Record<Exclude<keyof PixiWindow, 'uploads' | 'updatePerFrame' | 'uploadMBPerFrame' | 'catchUpPerFrame'>, Spread> &
    Partial<Record<'updatePerFrame' | 'uploadMBPerFrame' | 'catchUpPerFrame', Spread>>;
  /** ms the first frame's update took (the CPU path makes every particle then). */
  readonly firstUpdateMs: number;
  /**
   * The CPU path's sampling counters over the measured windows (`stats().sampling`): frames the worker
   * overtook, those recovered from kept states, and the state copies kept for them; null for the others.
   */
  readonly sampling: {
    readonly frames: number;
    readonly overtaken: number;
    readonly recovered: number;
    readonly keptCopies: number;
    readonly keptBytes: number;
    /** Next-frame times announced to the worker, and those that rang its doorbell (stats().frameClock). */
    readonly announced: number;
    readonly rings: number;
  } | null;
}

interface Scene {
  readonly app: Application;
  /** The GPU path's upload counters (createInterpolatedSprites' stats), for the gpu designs. */
  readonly uploads: (() => Readonly<GpuUploads>) | undefined;
  /** The runtime's stats, where there is one. */
  readonly stats?: () => Promise<RuntimeStats>;
  /** gpu designs: ms spent in the GPU path's update since the scene began. */
  readonly updateMs: (() => number) | undefined;
  dispose(): void;
}

/** How a window's ticks reached the GPU: both states, or the new one only (a flip); straight from the shared memory. */
export interface GpuUploads {
  readonly fullUploads: number;
  readonly swaps: number;
  readonly directUploads: number;
}

const WIDTH = 640;
const HEIGHT = 480;

async function application(): Promise<Application> {
  const app = new Application();
  await app.init({ width: WIDTH, height: HEIGHT, preference: 'webgl', background: 0x000000, antialias: false });
  document.body.append(app.canvas);
  return app;
}

/** The world box (±100 units, BenchWorld's) onto the canvas. */
function place(container: { position: { set(x: number, y: number): void }; scale: { set(s: number): void } }): void {
  container.position.set(WIDTH / 2, HEIGHT / 2);
  container.scale.set(2);
}

const texture = () => Texture.WHITE;

async function plainScene(count: number, firstUpdate: (ms: number) => void, churn = 0): Promise<Scene> {
  const app = await application();
  const world = new BenchWorld('2d', count);
  const position = new Float32Array(2 * count);
  const angle = new Float32Array(count);
  world.init(position, angle, count);
  const particles: Particle[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const p = new Particle({ texture: texture(), anchorX: 0.5, anchorY: 0.5, x: position[2 * i]!, y: position[2 * i + 1]!, rotation: angle[i]! });
    particles.push(p);
  }
  firstUpdate(performance.now() - t0);
  const container = new ParticleContainer({ texture: texture(), particles, dynamicProperties: { position: true, rotation: true } });
  // Pixi (8.22) never uploads the static data (quad corners, uvs, colours) of particles given to the constructor:
  // without this every quad is degenerate and software GL draws nothing, which made plain look cheap
  container.update();
  place(container);
  app.stage.addChild(container);
  const v = world.velocity;
  const spin = world.spin;
  // every particle, for those that come back (the container's list is the array it was given: it shrinks)
  const all = particles.slice();
  const started = performance.now();
  // what a game on the main thread does each frame: move every particle by its velocity (the same motion the
  // worker simulates), then Pixi renders. With churn, first the live count changes as the worker's does, at
  // the tick rate (entities at the end despawn and spawn), the way a game changes its list through Pixi's
  // addParticle and removeParticles: they ask for a static upload (`update()`) on every change
  const update = (ticker: Ticker) => {
    const dt = ticker.deltaMS / 1000;
    let live = count;
    if (churn > 0) {
      live = churnCount(count, churn, Math.floor(((performance.now() - started) * PIXI_TICK_RATE) / 1000));
      const list = container.particleChildren;
      if (list.length !== live) {
        if (list.length > live) list.length = live;
        else for (let i = list.length; i < live; i++) list.push(all[i]!);
        container.update();
      }
    }
    for (let i = 0; i < live; i++) {
      const p = all[i]!;
      p.x += v[2 * i]! * dt;
      p.y += v[2 * i + 1]! * dt;
      p.rotation += spin[i]! * dt;
    }
  };
  app.ticker.add(update);
  return {
    app,
    uploads: undefined,
    updateMs: undefined,
    dispose() {
      app.ticker.remove(update);
      app.destroy(true, { children: true });
    },
  };
}

async function oursScene(count: number, gpu: boolean, firstUpdate: (ms: number) => void, still = false, churn = 0, reupload = false): Promise<Scene> {
  const runtime: Runtime<typeof schema2d> = await createRuntime({
    worker: simWorker({ kind: '2d', count, tickRate: PIXI_TICK_RATE, ...(churn > 0 ? { churn } : {}) }),
    schema: schema2d,
    capacity: count,
    visibility: null,
    pacing: { adaptive: false },
  });
  const app = await application();
  let loop: TickerLoop;
  let disposeDrawing: () => void;
  let first = true;
  let uploads: (() => GpuUploads) | undefined;
  let updateMs: (() => number) | undefined;
  if (gpu) {
    let spent = 0;
    const sprites = createInterpolatedSprites(runtime, { position: 'position', angle: 'angle' }, { texture: texture(), initialCapacity: count });
    place(sprites.mesh);
    app.stage.addChild(sprites.mesh);
    loop = attachToTicker(app, runtime, {
      update(time) {
        const t0 = performance.now();
        sprites.update(time);
        const ms = performance.now() - t0;
        spent += ms;
        if (first) firstUpdate(ms);
        first = false;
      },
    });
    uploads = () => sprites.stats;
    updateMs = () => spent;
    disposeDrawing = () => sprites.dispose();
  } else {
    const container = new ParticleContainer({ texture: texture(), dynamicProperties: { position: true, rotation: true } });
    place(container);
    app.stage.addChild(container);
    const particles = bindParticles(runtime, container, { position: 'position', angle: 'angle' });
    let drawnCount = -1;
    loop = attachToTicker(app, runtime, (frame) => {
      const t0 = performance.now();
      particles.update(frame);
      // the baseline: Pixi's static data re-uploaded on every count change, as the binding did before
      if (reupload && frame.count !== drawnCount) container.update();
      drawnCount = frame.count;
      if (first) firstUpdate(performance.now() - t0);
      first = false;
    });
    disposeDrawing = () => undefined;
  }
  await runtime.start();
  if (still) {
    await sleep(200); // a few ticks published and uploaded, then no more
    await runtime.pause();
  }
  return {
    app,
    uploads,
    updateMs,
    stats: () => runtime.stats(),
    dispose() {
      loop.detach();
      disposeDrawing();
      app.destroy(true, { children: true });
      runtime.dispose();
    },
  };
}

async function measure(design: PixiDesign, count: number, windows: number, windowMs: number, churn = 0): Promise<PixiRow> {
  let firstUpdateMs = Number.NaN;
  const onFirst = (ms: number) => {
    firstUpdateMs = ms;
  };
  const gpu = design === 'gpu' || design === 'gpu-still';
  const scene =
    design === 'plain' ? await plainScene(count, onFirst, churn) : await oursScene(count, gpu, onFirst, design === 'gpu-still', churn, design === 'cpu-reupload');
  const ticker = scene.app.ticker;
  // the ticker's work per frame: from before its first listener to after its last
  let frames = 0;
  let work = 0;
  let started = 0;
  const begin = () => {
    started = performance.now();
  };
  const end = () => {
    work += performance.now() - started;
    frames++;
  };
  ticker.add(begin, undefined, UPDATE_PRIORITY.INTERACTION + 1);
  ticker.add(end, undefined, UPDATE_PRIORITY.UTILITY - 1);
  await sleep(1500); // warm-up: the first frames build the buffers, the JIT settles
  const before = await scene.stats?.();
  const results: PixiWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const clockBefore = (await scene.stats?.())?.frameClock.waitMs;
    const meter = cpuMeter();
    await meter.start();
    frames = 0;
    work = 0;
    const before = scene.uploads?.();
    const [full0, swaps0, direct0] = before === undefined ? [0, 0, 0] : [before.fullUploads, before.swaps, before.directUploads];
    const update0 = scene.updateMs?.() ?? 0;
    await sleep(windowMs);
    const cpu = await meter.stop();
    const after = scene.uploads?.();
    const update1 = scene.updateMs?.();
    const clockAfter = (await scene.stats?.())?.frameClock.waitMs;
    const states = after === undefined ? 0 : 2 * (after.fullUploads - full0) + (after.swaps - swaps0);
    results.push({
      frames,
      fps: (frames * 1000) / cpu.wallMs,
      mainCpuPerFrame: cpu.main / frames,
      workPerFrame: work / Math.max(1, frames),
      workerCpuPerFrame: cpu.workers / frames,
      totalCpuPerFrame: cpu.total / frames,
      ...(after === undefined
        ? {}
        : {
            uploads: { fullUploads: after.fullUploads - full0, swaps: after.swaps - swaps0, directUploads: after.directUploads - direct0 },
            updatePerFrame: (update1! - update0) / Math.max(1, frames),
            uploadMBPerFrame: (states * count * 12) / 1e6 / Math.max(1, frames),
          }),
      ...(clockBefore === undefined || clockAfter === undefined ? {} : { catchUpPerFrame: (clockAfter - clockBefore) / Math.max(1, frames) }),
    });
  }
  const after = await scene.stats?.();
  ticker.remove(begin);
  ticker.remove(end);
  scene.dispose();
  const sampling =
    design === 'cpu' && before !== undefined && after !== undefined
      ? {
          frames: after.frames - before.frames,
          overtaken: after.sampling.overtaken - before.sampling.overtaken,
          recovered: after.sampling.recovered - before.sampling.recovered,
          keptCopies: after.sampling.keptCopies - before.sampling.keptCopies,
          keptBytes: after.sampling.keptBytes - before.sampling.keptBytes,
          announced: after.frameClock.announced - before.frameClock.announced,
          rings: after.frameClock.rings - before.frameClock.rings,
        }
      : null;
  if (sampling !== null) log(`pixi ${design} ${count}: sampling ${JSON.stringify(sampling)}`);
  return { design, count, windows: results, summary: summarize(results), firstUpdateMs, sampling };
}

function summarize(windows: readonly PixiWindow[]): PixiRow['summary'] {
  const keys = (
    ['frames', 'fps', 'mainCpuPerFrame', 'workPerFrame', 'workerCpuPerFrame', 'totalCpuPerFrame', 'updatePerFrame', 'uploadMBPerFrame', 'catchUpPerFrame'] as const
  ).filter((k) => k in windows[0]!);
  return Object.fromEntries(keys.map((k) => [k, spread(windows.map((r) => r[k] ?? Number.NaN))])) as PixiRow['summary'];
}

/** One row from a design's two runs: their windows pooled, the first run's first update, the counters summed. */
function pool(a: PixiRow, b: PixiRow): PixiRow {
  const windows = [...a.windows, ...b.windows];
  const sum = (x: NonNullable<PixiRow['sampling']>, y: NonNullable<PixiRow['sampling']>) =>
    Object.fromEntries(Object.keys(x).map((k) => [k, x[k as keyof typeof x] + y[k as keyof typeof y]])) as NonNullable<PixiRow['sampling']>;
  return { ...a, windows, summary: summarize(windows), sampling: a.sampling !== null && b.sampling !== null ? sum(a.sampling, b.sampling) : a.sampling };
}

/**
 * Each design twice at `count`, in mirrored order (the designs, then back: plain, cpu, gpu, gpu, cpu, plain), its
 * windows pooled: a machine that slows down or speeds up over the minutes of a size weighs on every design alike.
 */
async function mirrored(designs: readonly PixiDesign[], count: number, windows: number, churn = 0): Promise<PixiRow[]> {
  const first = new Map<PixiDesign, PixiRow>();
  const pooled = new Map<PixiDesign, PixiRow>();
  for (const design of [...designs, ...[...designs].reverse()]) {
    await collectGarbage();
    const run = await measure(design, count, windows, 1000, churn);
    const before = first.get(design);
    if (before === undefined) {
      first.set(design, run);
      continue;
    }
    const row = pool(before, run);
    const s = row.summary;
    const up = row.windows.map((w) => w.uploads).filter((u) => u !== undefined);
    const perWindow = up.length === 0 ? '' : `, uploads a window: ${up.map((u) => `${u.fullUploads} full + ${u.swaps} flips (${u.directUploads} direct)`).join('; ')}`;
    log(
      `pixi${churn > 0 ? ` (churn ${churn})` : ''} ${design} ${count}: main CPU ${s.mainCpuPerFrame.median.toFixed(3)} ms/frame, ticker work ${s.workPerFrame.median.toFixed(3)} ms/frame, ` +
        `worker CPU ${s.workerCpuPerFrame.median.toFixed(3)}, all CPU ${s.totalCpuPerFrame.median.toFixed(3)} ms/frame, ${s.fps.median.toFixed(0)} fps, first update ${row.firstUpdateMs.toFixed(1)} ms` +
        (s.updatePerFrame ? `, update ${s.updatePerFrame.median.toFixed(3)} ms/frame for ${s.uploadMBPerFrame!.median.toFixed(2)} MB` : '') +
        (s.catchUpPerFrame ? `, catch-up waits ${s.catchUpPerFrame.median.toFixed(3)} ms/frame` : '') +
        perWindow,
    );
    pooled.set(design, row);
  }
  return designs.map((design) => pooled.get(design)!);
}

/**
 * `?suite=pixi&sizes=100000,200000&designs=plain,gpu&windows=8` narrows a run by hand (the bench page, or a
 * profiler driving it); the runner passes none of them.
 */
export async function pixi(quick: boolean): Promise<{ tickRate: number; rows: PixiRow[] }> {
  const params = new URLSearchParams(location.search);
  const list = (name: string): string[] | null => params.get(name)?.split(',').filter((s) => s !== '') ?? null;
  const sizes = list('sizes')?.map(Number) ?? (quick ? [20_000, 100_000] : [10_000, 100_000, 200_000]);
  const designs = (list('designs') ?? ['plain', 'cpu', 'gpu', 'gpu-still']) as PixiDesign[];
  const windows = Number(params.get('windows') ?? (quick ? 2 : 5));
  const rows: PixiRow[] = [];
  for (const count of sizes) rows.push(...(await mirrored(designs, count, windows)));
  return { tickRate: PIXI_TICK_RATE, rows };
}

/**
 * Suite pixi-churn: the same scene at 100k with a count that changes every step, by up to 1% (entities at the end
 * despawn and spawn again), three ways: **plain** (PixiJS alone: the game changes the list at the tick rate, as
 * the worker does, and calls `container.update()`, as Pixi's addParticle and removeParticles do), **cpu** (bindParticles, which uploads Pixi's
 * static data only when the count passes the longest list drawn), and **cpu-reupload** (the same, re-uploading on
 * every count change, as bindParticles did before). `?sizes=&windows=` narrow it by hand.
 */
export async function pixiChurn(quick: boolean): Promise<{ tickRate: number; churnShare: number; rows: PixiRow[] }> {
  const params = new URLSearchParams(location.search);
  const sizes = params.get('sizes')?.split(',').map(Number) ?? [quick ? 20_000 : 100_000];
  const windows = Number(params.get('windows') ?? (quick ? 2 : 4));
  const rows: PixiRow[] = [];
  for (const count of sizes) rows.push(...(await mirrored(['plain', 'cpu', 'cpu-reupload'], count, windows, Math.round(count * CHURN_SHARE))));
  return { tickRate: PIXI_TICK_RATE, churnShare: CHURN_SHARE, rows };
}

/** How much of the scene the churn suite's count moves by, at most, each step. */
const CHURN_SHARE = 0.01;
