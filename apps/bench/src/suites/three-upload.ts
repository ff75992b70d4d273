/**
 * Suite 13, three.js uploads: @steadyframe/three's GPU path (`createInterpolatedInstancedMesh`) drawing the same
 * 3D simulation (30 ticks/s, a 60 fps frame loop) two ways, side by side in one run at 10k and 100k entities:
 *
 * | design   | each new tick's state reaches the GPU                                                        |
 * |----------|----------------------------------------------------------------------------------------------|
 * | `copy`   | copied into three.js's InstancedBufferAttribute arrays in `update`, uploaded by three.js in   |
 * |          | `render` (`bufferSubData` of those arrays): the path without `{ renderer }`                   |
 * | `direct` | `gl.bufferSubData` of the runtime's own views of the shared memory, under its lock, into the |
 * |          | mesh's GLBufferAttributes' buffers: the path with `{ renderer }`                             |
 *
 * Both draw one small triangle per entity in a 320×240 canvas (`px=N` for another width; what the GPU rasterises
 * is the same, and small).
 * Per 1 s window: the page's own timing of `mesh.update` and of `renderer.render` per frame (wall time: page
 * work), their sum, the page main thread's CPU per frame (/proc), and the uploads counted by the mesh. The issue's
 * goal: page work at 100k ≤ 0.2 ms a frame.
 */
import { BufferGeometry, Float32BufferAttribute, MeshBasicMaterial, OrthographicCamera, Scene, WebGLRenderer } from 'three';
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { createInterpolatedInstancedMesh } from '@steadyframe/three';
import { createSide } from '../shared/sims.ts';
import { spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, nextFrame, sleep } from '../page.ts';
import { simWorker } from '../workers.ts';

export type UploadDesign = 'copy' | 'direct';
export const UPLOAD_SIZES = [10_000, 100_000];
const TICK_RATE = 30;

export interface UploadWindow {
  readonly frames: number;
  /** ms per frame in `mesh.update` (the lock, the tracker, the copy or the direct upload). */
  readonly updatePerFrame: number;
  /** ms per frame in `renderer.render` (three.js's uploads of the copied runs, the draw call). */
  readonly renderPerFrame: number;
  /** The two: the page's work a frame for the mesh. */
  readonly workPerFrame: number;
  /** /proc CPU ms of the page's main thread per frame. */
  readonly mainCpuPerFrame: number;
  /** Uploads per frame (a new tick every other frame at 30 ticks/s and 60 fps). */
  readonly uploadsPerFrame: number;
}

export interface UploadRow {
  readonly design: UploadDesign;
  readonly count: number;
  readonly windows: readonly UploadWindow[];
  readonly summary: Record<keyof UploadWindow, Spread>;
  /** Of all uploads in the windows, those that went straight from the shared memory. */
  readonly directShare: number;
}

/** One small triangle (0.02 units across: about a pixel), the geometry every entity draws. */
function triangle(): BufferGeometry {
  return new BufferGeometry().setAttribute('position', new Float32BufferAttribute([0, 0, 0, 0.02, 0, 0, 0, 0.02, 0], 3));
}

async function measure(design: UploadDesign, count: number, windows: number, windowMs: number): Promise<UploadRow> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count, tickRate: TICK_RATE, side: createSide() }),
    schema: schema3d,
    capacity: count,
    visibility: null,
    pacing: { adaptive: false },
  });
  const canvas = document.createElement('canvas');
  canvas.width = Number(new URLSearchParams(location.search).get('px') ?? 320);
  canvas.height = Math.round((canvas.width * 3) / 4);
  document.body.append(canvas);
  const renderer = new WebGLRenderer({ canvas, antialias: false });
  const scene = new Scene();
  const camera = new OrthographicCamera(-110, 110, 80, -80, -200, 200);
  const mesh = createInterpolatedInstancedMesh(runtime, triangle(), new MeshBasicMaterial({ color: 0xffffff }), { position: 'position', rotation: 'rotation' }, design === 'direct' ? { renderer } : {});
  scene.add(mesh.mesh);
  await runtime.start();
  let updateMs = 0;
  let renderMs = 0;
  let frames = 0;
  let running = true;
  const loop = (ts: number): void => {
    if (!running) return;
    requestAnimationFrame(loop);
    if (!runtime.pace(ts)) return;
    const a = performance.now();
    mesh.update(ts);
    const b = performance.now();
    renderer.render(scene, camera);
    const c = performance.now();
    updateMs += b - a;
    renderMs += c - b;
    frames++;
  };
  requestAnimationFrame(loop);
  await sleep(1500); // warm-up: the first full upload, the JIT
  const results: UploadWindow[] = [];
  let uploads = 0;
  let direct = 0;
  for (let w = 0; w < windows; w++) {
    const before = { ...mesh.stats };
    const meter = cpuMeter();
    await meter.start();
    updateMs = renderMs = 0;
    frames = 0;
    await sleep(windowMs);
    const cpu = await meter.stop();
    const n = Math.max(1, frames);
    const u = mesh.stats.fullUploads + mesh.stats.swaps - before.fullUploads - before.swaps;
    uploads += u;
    direct += mesh.stats.directUploads - before.directUploads;
    results.push({
      frames,
      updatePerFrame: updateMs / n,
      renderPerFrame: renderMs / n,
      workPerFrame: (updateMs + renderMs) / n,
      mainCpuPerFrame: cpu.main / n,
      uploadsPerFrame: u / n,
    });
  }
  running = false;
  await nextFrame();
  mesh.dispose();
  renderer.dispose();
  canvas.remove();
  runtime.dispose();
  const keys = Object.keys(results[0]!) as (keyof UploadWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof UploadWindow, Spread>;
  return { design, count, windows: results, summary, directShare: uploads === 0 ? 0 : direct / uploads };
}

/** The upload's own floor at `count` entities: ms per `bufferSubData` of one state's bytes, from shared and plain memory. */
export interface UploadFloor {
  readonly count: number;
  /** Bytes of one state of the suite's schema (position 3, rotation 4 floats, a generation word): 32 an entity. */
  readonly bytes: number;
  readonly sharedMs: Spread;
  readonly plainMs: Spread;
}

/**
 * Times `gl.bufferSubData` of one state's bytes into a buffer of a WebGL 2 context, from a view of a
 * SharedArrayBuffer and from a plain one (what the direct path and three.js's own upload each pass), 40 calls
 * per sample, 15 samples. No draw, no finish: the page's side of the call only.
 */
function uploadFloor(count: number): UploadFloor {
  const gl = document.createElement('canvas').getContext('webgl2')!;
  const elements = 8 * count;
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, elements * 4, gl.DYNAMIC_DRAW);
  const shared = new Float32Array(new SharedArrayBuffer(elements * 4)).fill(1);
  const plain = new Float32Array(elements).fill(1);
  const sample = (from: Float32Array): number => {
    const t = performance.now();
    for (let k = 0; k < 40; k++) gl.bufferSubData(gl.ARRAY_BUFFER, 0, from, 0, elements);
    return (performance.now() - t) / 40;
  };
  sample(shared);
  sample(plain);
  const sharedMs: number[] = [];
  const plainMs: number[] = [];
  for (let r = 0; r < 15; r++) {
    sharedMs.push(sample(shared));
    plainMs.push(sample(plain));
  }
  gl.deleteBuffer(buffer);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { count, bytes: elements * 4, sharedMs: spread(sharedMs), plainMs: spread(plainMs) };
}

export async function threeUpload(quick: boolean, sizes = UPLOAD_SIZES): Promise<{ rows: UploadRow[]; floors: UploadFloor[] }> {
  const windows = quick ? 2 : 5;
  const rows: UploadRow[] = [];
  const floors: UploadFloor[] = [];
  for (const count of sizes) {
    const floor = uploadFloor(count);
    floors.push(floor);
    log(`three-upload floor ${count}: bufferSubData of ${(floor.bytes / 1e6).toFixed(2)} MB from shared memory ${floor.sharedMs.median.toFixed(3)} ms, from plain ${floor.plainMs.median.toFixed(3)} ms`);
    // mirrored order, each run its own row: the machine drifts over a run
    for (const design of ['copy', 'direct', 'direct', 'copy'] as const) {
      if (quick && rows.some((r) => r.design === design && r.count === count)) continue;
      await collectGarbage();
      const row = await measure(design, count, windows, 1000);
      const s = row.summary;
      log(
        `three-upload ${design} ${count}: ${s.frames.median.toFixed(0)} frames/s, update ${s.updatePerFrame.median.toFixed(3)} ms, ` +
          `render ${s.renderPerFrame.median.toFixed(3)} ms, work ${s.workPerFrame.median.toFixed(3)} ms, main CPU ${s.mainCpuPerFrame.median.toFixed(2)} ms a frame, ` +
          `uploads/frame ${s.uploadsPerFrame.median.toFixed(2)}, direct ${(100 * row.directShare).toFixed(0)}%`,
      );
      rows.push(row);
    }
  }
  return { rows, floors };
}
