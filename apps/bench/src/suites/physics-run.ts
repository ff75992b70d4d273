/**
 * One run of the physics comparison, in a page of its own (an iframe the `physics` suite opens, so "from page
 * load" means what it says: `performance.now()` here counts from this page's navigation start).
 *
 * | design   | where Rapier steps                                   | what the main thread does each frame          |
 * |----------|------------------------------------------------------|-----------------------------------------------|
 * | `main`   | the main thread, in requestAnimationFrame: delta clamped to 0.5 s, fixed-step accumulator (as @react-three/rapier runs it); each step keeps the previous and current pose of every body (raw reads, no allocation) | the steps due, then lerp + nlerp of every body into render arrays at alpha = accumulator / dt |
 * | `worker` | the steadyframe worker, @steadyframe/rapier           | `runtime.frame(ts)`: acquire + interpolate    |
 *
 * Neither draws with WebGL: both end with the same interpolated arrays a renderer would upload. Measured: the
 * time to the first frame with every body, then after a warm-up, over a window: main-thread CPU per frame
 * (/proc schedstat of the renderer's main thread), the page's own timed work per frame, frames per second, the
 * simulated seconds per wall second, and the probe's judder: each frame's drawn height says which moment of
 * its fall it shows (the inverse of its closed-form path); a straight line fitted to those moments against
 * the frames' timestamps is the smooth playback a perfect design would give at the same speed, and the judder
 * is each frame's distance from that line, in ticks (= % of the probe's motion in one tick). A design that
 * plays the fall in slow motion, evenly, has none; hitches, doubled or skipped ticks, and a sawtooth of late
 * frames do.
 */
import type { ColliderDesc, RigidBodyDesc } from '@dimforge/rapier3d-compat';
import { createRuntime, schema3d } from 'steadyframe';
import { cpuMeter, nextFrame, sleep } from '../page.ts';
import { buildPhysicsScene, EXTRA, GRAVITY, PHYSICS_TICK_RATE, PROBE, probeTimeAt, SUBSTEPS } from '../shared/physics-scene.ts';
import { percentiles } from '../shared/stats.ts';
import type { PhysicsSetup } from '../physics.worker.ts';

export type PhysicsDesign = 'main' | 'worker';

export interface PhysicsRunResult {
  readonly design: PhysicsDesign;
  readonly bodies: number;
  /** ms from this page's navigation start to the end of the first frame that had every body. */
  readonly startMs: number;
  readonly frames: number;
  readonly fps: number;
  readonly mainCpuPerFrame: number;
  readonly workPerFrame: number;
  /** Simulated seconds per wall second over the window (1: keeping up). */
  readonly simSpeed: number;
  readonly judderP50: number;
  readonly judderP99: number;
  readonly judderMax: number;
  /** Ms per Rapier step (and copy pass, for the worker) over the window: (a) timed around each step; (b) the worker's own stats. */
  readonly stepMs: number;
  /** (b) only: simulated ms the worker dropped as backlog in the window (it could not step in real time). */
  readonly droppedMs: number;
  /** (b) only: the share of frames drawn past the newest state (the worker was late: the picture held). */
  readonly lateFrames: number;
}

/** One design's frame: returns the probe's drawn height and the simulated time its state stands for, or null. */
interface Design {
  /** Bodies drawn so far (the floor and the probe included). */
  drawn(): number;
  frame(ts: number): { y: number; s: number } | null;
  /** Step time and dropped backlog so far: totals, differenced over the window. */
  counters(): Promise<{ stepMs: number; steps: number; droppedMs: number; late: number }>;
  dispose(): void;
}

const dt = 1 / PHYSICS_TICK_RATE;

async function mainThreadDesign(n: number): Promise<Design> {
  const RAPIER = (await import('@dimforge/rapier3d-compat')).default;
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -GRAVITY, z: 0 });
  world.timestep = dt;
  if (world.integrationParameters.numSolverIterations !== SUBSTEPS) throw new Error('physics bench: Rapier\'s substeps changed; update SUBSTEPS');
  const total = n + EXTRA;
  const handles = new Float64Array(total);
  let count = 0;
  buildPhysicsScene(RAPIER, n, (body: RigidBodyDesc, collider: ColliderDesc) => {
    const b = world.createRigidBody(body);
    world.createCollider(collider, b);
    handles[count] = b.handle;
    return count++;
  });
  const raw = world.bodies.raw;
  const scratch = new Float32Array(4);
  let previous = { p: new Float32Array(3 * total), q: new Float32Array(4 * total) };
  let current = { p: new Float32Array(3 * total), q: new Float32Array(4 * total) };
  const render = { p: new Float32Array(3 * total), q: new Float32Array(4 * total) };
  const read = (into: typeof current): void => {
    for (let i = 0; i < total; i++) {
      raw.rbTranslation(handles[i]!, scratch);
      into.p[3 * i] = scratch[0]!;
      into.p[3 * i + 1] = scratch[1]!;
      into.p[3 * i + 2] = scratch[2]!;
      raw.rbRotation(handles[i]!, scratch);
      into.q[4 * i] = scratch[0]!;
      into.q[4 * i + 1] = scratch[1]!;
      into.q[4 * i + 2] = scratch[2]!;
      into.q[4 * i + 3] = scratch[3]!;
    }
  };
  read(current);
  previous.p.set(current.p);
  previous.q.set(current.q);
  let accumulator = 0;
  let steps = 0;
  let stepMs = 0;
  let last = -1;
  return {
    drawn: () => total,
    frame(ts) {
      const delta = last < 0 ? 0 : Math.min(Math.max((ts - last) / 1000, 0), 0.5);
      last = ts;
      accumulator += delta;
      while (accumulator >= dt) {
        const swap = previous;
        previous = current;
        current = swap;
        const t = performance.now();
        world.step();
        read(current);
        stepMs += performance.now() - t;
        steps++;
        accumulator -= dt;
      }
      const alpha = accumulator / dt;
      const { p: p0, q: q0 } = previous;
      const { p: p1, q: q1 } = current;
      for (let i = 0; i < total; i++) {
        for (let c = 0; c < 3; c++) render.p[3 * i + c] = p0[3 * i + c]! + (p1[3 * i + c]! - p0[3 * i + c]!) * alpha;
        const o = 4 * i;
        const sign = q0[o]! * q1[o]! + q0[o + 1]! * q1[o + 1]! + q0[o + 2]! * q1[o + 2]! + q0[o + 3]! * q1[o + 3]! < 0 ? -1 : 1;
        let x = q0[o]! + (sign * q1[o]! - q0[o]!) * alpha;
        let y = q0[o + 1]! + (sign * q1[o + 1]! - q0[o + 1]!) * alpha;
        let z = q0[o + 2]! + (sign * q1[o + 2]! - q0[o + 2]!) * alpha;
        let w = q0[o + 3]! + (sign * q1[o + 3]! - q0[o + 3]!) * alpha;
        const inv = 1 / Math.hypot(x, y, z, w);
        render.q[o] = x * inv;
        render.q[o + 1] = y * inv;
        render.q[o + 2] = z * inv;
        render.q[o + 3] = w * inv;
      }
      return { y: render.p[3 * PROBE + 1]!, s: (steps - 1 + alpha) * dt };
    },
    counters: () => Promise.resolve({ stepMs, steps, droppedMs: 0, late: 0 }),
    dispose() {
      world.free();
    },
  };
}

async function workerDesign(n: number): Promise<Design> {
  const worker = new Worker(new URL('../physics.worker.ts', import.meta.url), { type: 'module', name: 'physics' });
  const setup: PhysicsSetup = { bodies: n };
  const runtime = await createRuntime({ worker, schema: schema3d, capacity: n + EXTRA, pacing: { adaptive: false }, setup });
  await runtime.start();
  let count = 0;
  return {
    drawn: () => count,
    frame(ts) {
      const frame = runtime.frame(ts);
      if (frame === null) return null;
      count = frame.count;
      const s = (frame.previousTick + frame.alpha * (frame.tick - frame.previousTick)) * dt;
      return { y: frame.fields.position[3 * PROBE + 1]!, s };
    },
    async counters() {
      // the worker reports its last step's ms; times the ticks made it is an estimate of the total
      const { worker, sampling } = await runtime.stats();
      return { stepMs: worker.lastStepMs * worker.tick, steps: worker.tick, droppedMs: worker.droppedMs, late: sampling.late };
    },
    dispose() {
      runtime.dispose();
    },
  };
}

export async function physicsRun(design: PhysicsDesign, n: number, quick: boolean): Promise<PhysicsRunResult> {
  const warmupMs = quick ? 500 : 1000;
  const windowMs = quick ? 1500 : 4000;
  const d = design === 'main' ? await mainThreadDesign(n) : await workerDesign(n);
  // the first frame with every body
  let startMs = Number.NaN;
  for (;;) {
    const ts = await nextFrame();
    d.frame(ts);
    if (d.drawn() === n + EXTRA) {
      startMs = performance.now();
      break;
    }
  }
  const until = performance.now() + warmupMs;
  while (performance.now() < until) d.frame(await nextFrame());
  // the moment the window starts from, in simulated time (for the sim speed)
  let tie: { ts: number; s: number } | null = null;
  while (tie === null) {
    const ts = await nextFrame();
    const f = d.frame(ts);
    if (f !== null) tie = { ts, s: f.s };
  }
  const before = await d.counters();
  const cpu = cpuMeter();
  await cpu.start();
  const times: number[] = [];
  const shown: number[] = [];
  let frames = 0;
  let callbacks = 0;
  let work = 0;
  let lastS = tie.s;
  const t0 = performance.now();
  while (performance.now() - t0 < windowMs) {
    const ts = await nextFrame();
    const w0 = performance.now();
    const f = d.frame(ts);
    work += performance.now() - w0;
    callbacks++;
    if (f === null) continue;
    frames++;
    lastS = f.s;
    times.push(ts / 1000);
    shown.push(probeTimeAt(f.y));
  }
  const wall = performance.now() - t0;
  const used = await cpu.stop();
  const after = await d.counters();
  d.dispose();
  await sleep(50);
  const p = percentiles(judder(times, shown));
  return {
    design,
    bodies: n,
    startMs,
    frames,
    fps: (1000 * frames) / wall,
    mainCpuPerFrame: used.main / Math.max(1, callbacks),
    workPerFrame: work / Math.max(1, callbacks),
    simSpeed: (lastS - tie.s) / (wall / 1000),
    judderP50: p.p50,
    judderP99: p.p99,
    judderMax: p.max,
    stepMs: design === 'main' ? (after.stepMs - before.stepMs) / Math.max(1, after.steps - before.steps) : after.stepMs / Math.max(1, after.steps),
    droppedMs: after.droppedMs - before.droppedMs,
    lateFrames: (after.late - before.late) / Math.max(1, frames),
  };
}

/** Each frame's distance, in ticks, from the least-squares line through (frame time, moment shown). */
export function judder(times: readonly number[], shown: readonly number[]): number[] {
  const n = times.length;
  if (n < 3) return [];
  let mt = 0;
  let ms = 0;
  for (let i = 0; i < n; i++) {
    mt += times[i]!;
    ms += shown[i]!;
  }
  mt /= n;
  ms /= n;
  let cov = 0;
  let varT = 0;
  for (let i = 0; i < n; i++) {
    cov += (times[i]! - mt) * (shown[i]! - ms);
    varT += (times[i]! - mt) ** 2;
  }
  const slope = cov / varT;
  return times.map((t, i) => Math.abs(shown[i]! - (ms + slope * (t - mt))) * PHYSICS_TICK_RATE);
}
