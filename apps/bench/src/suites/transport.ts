/**
 * Suite 2, transport: the same 3D simulation (30 ticks/s) delivered to a 60 fps frame loop three ways, each
 * with the interpolation it needs:
 *
 * | design     | delivery                                             | each frame draws                             |
 * |------------|------------------------------------------------------|----------------------------------------------|
 * | `ours`     | steadyframe: the shared double buffer                 | `runtime.frame(ts)`: acquire + interpolate   |
 * | `ours-gpu` | the same                                              | `runtime.pace(ts)`, then acquire and, when a |
 * |            |                                                       | new tick is out, copy its state for upload   |
 * |            |                                                       | (as @steadyframe/three's GPU path does; the  |
 * |            |                                                       | shader blends)                               |
 * | `clone`    | postMessage of the arrays, structured clone          | the last two states, one tick behind         |
 * | `transfer` | transferable ArrayBuffers, ping-pong (use-cannon)    | the last two states, one tick behind         |
 * | `empty`    | none: no worker                                       | nothing: the same frame loop, doing no work  |
 *
 * `empty` measures what the page's main thread spends on an animation frame loop by itself (rAF, the
 * browser's frame work, timers), in the same run: the designs' own cost is what they add above it.
 *
 * Measured per 1 s window (repeated): main-thread CPU per frame from /proc (the renderer's main
 * thread: everything it did, GC and message deserialisation included), the page's own timing of its frame
 * work (message handler, where `event.data` is first read and the clone is deserialised, plus the frame's
 * interpolation), worker CPU per tick from /proc (all dedicated worker threads), tick-to-screen latency (from
 * the end of a tick's step to the end of the first frame that drew it), and frames drawn without the newest
 * tick whose step had ended when the frame began.
 */
import { createRuntime, schema3d, type Runtime } from 'steadyframe';
import { countOf, interpolateField, previousCountOf, tickOf, type StatePair } from 'steadyframe/adapter';
import type { MessageConfig, TickMessage, ToWorker, WorkerReport } from '../shared/messages.ts';
import { createSide, SIDE, sideViews, type SideViews } from '../shared/sims.ts';
import { percentiles, spread, type Spread } from '../shared/stats.ts';
import { collectGarbage, cpuMeter, log, sleep } from '../page.ts';
import { messageWorker, simWorker } from '../workers.ts';

export type DesignName = 'empty' | 'ours' | 'ours-gpu' | 'clone' | 'transfer';

export const TRANSPORT_TICK_RATE = 30;

interface Design {
  /** Draws the frame at `ts`; returns the newest tick the frame used (-1 before the first). */
  frame(ts: number): number;
  /** Deliveries received so far and ms spent receiving them (message handlers; 0 for ours). */
  readonly deliveries: number;
  readonly receiveMs: number;
  /** Worker-side counters, for the record. */
  stop(): Promise<Record<string, unknown>>;
}

export interface TransportWindow {
  readonly frames: number;
  readonly fps: number;
  /** /proc CPU ms of the page's main thread per frame. */
  readonly mainCpuPerFrame: number;
  /** The page's own timing: (receive + frame work) per frame, mean and p99 over frames. */
  readonly workPerFrame: number;
  readonly workP99: number;
  /** Receive ms per delivery (message handler), NaN for ours. */
  readonly receivePerDelivery: number;
  readonly deliveries: number;
  /** Ticks whose step ended in the window. */
  readonly ticks: number;
  /** /proc CPU ms of the worker thread(s) per tick. */
  readonly workerCpuPerTick: number;
  /** Tick-to-screen latency, ms. */
  readonly latencyP50: number;
  readonly latencyP99: number;
  /** Share of frames drawn without the newest finished tick. */
  readonly staleFrames: number;
}

export interface TransportRow {
  readonly design: DesignName;
  readonly count: number;
  readonly windows: readonly TransportWindow[];
  readonly summary: Record<keyof TransportWindow, Spread>;
  readonly worker: Record<string, unknown>;
}

function renderBuffers(count: number) {
  return { position: new Float32Array(3 * count), rotation: new Float32Array(4 * count) };
}

function gpuBuffers(count: number) {
  return { ...renderBuffers(count), generation: new Uint32Array(count) };
}

async function oursDesign(count: number, side: SharedArrayBuffer, gpu = false): Promise<Design> {
  const runtime: Runtime<typeof schema3d> = await createRuntime({
    worker: simWorker({ kind: '3d', count, tickRate: TRANSPORT_TICK_RATE, side }),
    schema: schema3d,
    capacity: count,
    visibility: null,
    pacing: { adaptive: false },
  });
  await runtime.start();
  let tick = -1;
  // The GPU path's staging, as @steadyframe/three's createInterpolatedInstancedMesh keeps it: the previous and
  // current runs (fields and generations) for attribute upload. A new publish one past the uploaded one swaps
  // them and copies only the current state (its previous state is the current one already staged); any other
  // new publish copies both; a frame without a new publish copies nothing (the shader blends by a uniform).
  let staging = gpu ? { previous: gpuBuffers(count), current: gpuBuffers(count) } : null;
  let uploaded = -1;
  /** Copies a new pair to the staging buffers, under the lock (read() releases it after). */
  const stage = (pair: StatePair<typeof schema3d>, published: number): void => {
    if (staging === null) return;
    if (published !== uploaded) {
      const n = countOf(pair);
      if (uploaded >= 0 && published === uploaded + 1) {
        staging = { previous: staging.current, current: staging.previous };
        swaps++;
      } else {
        fullCopies++;
        const m = previousCountOf(pair);
        staging.previous.position.set(pair.previous.position.subarray(0, 3 * m));
        staging.previous.rotation.set(pair.previous.rotation.subarray(0, 4 * m));
        staging.previous.generation.set(pair.previousGeneration.subarray(0, m));
      }
      staging.current.position.set(pair.current.position.subarray(0, 3 * n));
      staging.current.rotation.set(pair.current.rotation.subarray(0, 4 * n));
      staging.current.generation.set(pair.currentGeneration.subarray(0, n));
      uploaded = published;
    }
    tick = tickOf(pair);
  };
  let swaps = 0;
  let fullCopies = 0;
  return {
    frame(ts) {
      if (staging === null) {
        const frame = runtime.frame(ts);
        if (frame !== null && frame.fresh) tick = frame.tick;
        return tick;
      }
      if (!runtime.pace(ts)) return tick;
      runtime.reader.read(stage);
      return tick;
    },
    get deliveries() {
      return runtime.reader.publishCount();
    },
    receiveMs: 0,
    async stop() {
      const stats = await runtime.stats();
      runtime.dispose();
      return {
        publishes: stats.worker.publishes,
        overloads: stats.worker.overloads,
        lock: stats.lock,
        flipWaits: stats.worker.flipWaits,
        ...(gpu ? { uploads: { swaps, fullCopies } } : {}),
      };
    },
  };
}

interface Received {
  tick: number;
  time: number;
  position: Float32Array;
  rotation: Float32Array;
  buffer: ArrayBuffer | null;
}

/** The frame loop alone: no worker, no state, nothing drawn. */
function emptyDesign(): Design {
  return {
    frame: () => -1,
    deliveries: 0,
    receiveMs: 0,
    stop: async () => ({}),
  };
}

async function messageDesign(mode: 'clone' | 'transfer', count: number, side: SharedArrayBuffer): Promise<Design> {
  const config: Omit<MessageConfig, 'anchor'> = { mode, kind: '3d', count, tickRate: TRANSPORT_TICK_RATE, side, pool: 3 };
  const worker = messageWorker(config);
  const render = renderBuffers(count);
  const T = 1000 / TRANSPORT_TICK_RATE;
  let previous: Received | null = null;
  let current: Received | null = null;
  let deliveries = 0;
  let receiveMs = 0;
  let report: ((r: WorkerReport) => void) | null = null;
  const send = (message: ToWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  worker.onmessage = (event: MessageEvent<TickMessage | WorkerReport>) => {
    const started = performance.now();
    // the first read of event.data deserialises the message: for a clone, allocating and copying the arrays
    const data = event.data;
    if ('type' in data) {
      report?.(data);
      return;
    }
    let received: Received;
    if (data.buffer !== undefined) {
      received = {
        tick: data.tick,
        time: data.time,
        position: new Float32Array(data.buffer, 0, 3 * count),
        rotation: new Float32Array(data.buffer, 12 * count, 4 * count),
        buffer: data.buffer,
      };
    } else {
      received = { tick: data.tick, time: data.time, position: data.position!, rotation: data.rotation!, buffer: null };
    }
    // ping-pong: the state two back is no longer needed; its buffer goes home
    if (previous?.buffer != null) send({ type: 'return', buffer: previous.buffer }, [previous.buffer]);
    previous = current;
    current = received;
    receiveMs += performance.now() - started;
    deliveries++;
  };
  send({ type: 'start' });
  return {
    frame(ts) {
      if (previous === null || current === null) return current?.tick ?? -1;
      // the classic snapshot interpolation: show the world one tick ago, between the last two states
      const span = current.time - previous.time;
      const a = span > 0 ? (ts - T - previous.time) / span : 1;
      const alpha = a < 0 ? 0 : a > 1 ? 1 : a;
      interpolateField('linear', 3, previous.position, current.position, render.position, count, alpha);
      interpolateField('quaternion', 4, previous.rotation, current.rotation, render.rotation, count, alpha);
      return current.tick;
    },
    get deliveries() {
      return deliveries;
    },
    get receiveMs() {
      return receiveMs;
    },
    async stop() {
      const done = new Promise<WorkerReport | null>((resolve) => {
        report = resolve;
        setTimeout(() => resolve(null), 2000);
      });
      send({ type: 'stop' });
      const r = await done;
      worker.terminate();
      return { ticks: r?.ticks ?? null, undelivered: r?.undelivered ?? null };
    },
  };
}

/** Runs one design: a warm-up, then `windows` measured windows of `windowMs` each. */
async function measure(name: DesignName, count: number, windows: number, windowMs: number): Promise<TransportRow> {
  const sideBuffer = createSide();
  const side: SideViews = sideViews(sideBuffer);
  const design =
    name === 'empty'
      ? emptyDesign()
      : name === 'ours' || name === 'ours-gpu'
        ? await oursDesign(count, sideBuffer, name === 'ours-gpu')
        : await messageDesign(name, count, sideBuffer);
  // the frame loop, recording per frame
  let frames = 0;
  let stale = 0;
  let lastDrawn = -1;
  let lastReceiveMs = 0;
  let work: number[] = [];
  let latencies: number[] = [];
  let running = true;
  const onFrame = (ts: number) => {
    if (!running) return;
    requestAnimationFrame(onFrame);
    const started = performance.now();
    const newest = Atomics.load(side.i32, SIDE.NEWEST);
    const drawn = design.frame(ts);
    const ended = performance.now();
    const receive = design.receiveMs - lastReceiveMs;
    lastReceiveMs = design.receiveMs;
    frames++;
    work.push(ended - started + receive);
    if (drawn < newest) stale++;
    if (drawn > lastDrawn) {
      if (drawn > 0) latencies.push(ended - side.end[drawn % SIDE.RING]!);
      lastDrawn = drawn;
    }
  };
  requestAnimationFrame(onFrame);
  await sleep(1000);
  const results: TransportWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const meter = cpuMeter();
    await meter.start();
    frames = 0;
    stale = 0;
    work = [];
    latencies = [];
    const deliveries0 = design.deliveries;
    const receive0 = design.receiveMs;
    const tick0 = Atomics.load(side.i32, SIDE.NEWEST);
    await sleep(windowMs);
    const cpu = await meter.stop();
    const ticks = Atomics.load(side.i32, SIDE.NEWEST) - tick0;
    const deliveries = design.deliveries - deliveries0;
    const lat = percentiles(latencies);
    const workStats = percentiles(work);
    results.push({
      frames,
      fps: (frames * 1000) / cpu.wallMs,
      mainCpuPerFrame: cpu.main / frames,
      workPerFrame: work.reduce((s, x) => s + x, 0) / Math.max(1, work.length),
      workP99: workStats.p99,
      receivePerDelivery: name === 'transfer' || name === 'clone' ? (design.receiveMs - receive0) / Math.max(1, deliveries) : Number.NaN,
      deliveries,
      ticks,
      workerCpuPerTick: cpu.workers / Math.max(1, ticks),
      latencyP50: lat.p50,
      latencyP99: lat.p99,
      staleFrames: stale / Math.max(1, frames),
    });
  }
  running = false;
  const worker = await design.stop();
  const keys = Object.keys(results[0]!) as (keyof TransportWindow)[];
  const summary = Object.fromEntries(keys.map((k) => [k, spread(results.map((r) => r[k]))])) as Record<keyof TransportWindow, Spread>;
  return { design: name, count, windows: results, summary, worker };
}

export async function transport(quick: boolean): Promise<{ tickRate: number; rows: TransportRow[] }> {
  const sizes = quick ? [10_000, 100_000] : [100_000, 1_000_000];
  const windows = quick ? 2 : 4;
  const rows: TransportRow[] = [];
  for (const count of sizes) {
    for (const design of ['empty', 'ours', 'ours-gpu', 'clone', 'transfer'] as const) {
      await collectGarbage();
      const row = await measure(design, count, windows, 1000);
      const s = row.summary;
      log(
        `transport ${design} ${count}: main CPU ${s.mainCpuPerFrame.median.toFixed(3)} ms/frame, work ${s.workPerFrame.median.toFixed(3)} ms, ` +
          `receive ${s.receivePerDelivery.median.toFixed(3)} ms, worker ${s.workerCpuPerTick.median.toFixed(3)} ms/tick, ` +
          `latency ${s.latencyP50.median.toFixed(1)} ms, stale ${(100 * s.staleFrames.median).toFixed(1)}%, ${s.fps.median.toFixed(0)} fps` +
          ('uploads' in row.worker ? `, uploads ${JSON.stringify(row.worker.uploads)}` : ''),
      );
      rows.push(row);
    }
  }
  return { tickRate: TRANSPORT_TICK_RATE, rows };
}
