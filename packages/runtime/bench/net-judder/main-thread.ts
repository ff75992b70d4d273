/**
 * What each way of drawing a server's world costs the thread that draws (net-judder.measure.ts), at 1,000 and
 * 10,000 entities, in wall-clock ms a frame. Every baseline is measured in the same run, on the same machine.
 *
 * - **ours**: a real network runtime: a server runtime simulating the orbits (fixtures/orbits.worker.ts) with
 *   its publisher on a `ws` server, and a client runtime (`createNodeRuntime` running
 *   fixtures/orbits-client.worker.ts: `networkClient`, unchanged) connected to it over loopback. The main
 *   thread's part is `runtime.frame()`: the blend of two resampled ticks out of the shared buffer. Decoding,
 *   the jitter buffer and the resampling are the client's worker's.
 * - **geckos**: on the main thread, where its vault lives: each arriving message's `JSON.parse` and
 *   `SI.snapshot.add`, and each frame's `SI.calcInterpolation('x y')` with its result copied into a
 *   Float32Array (what a game then hands its sprites).
 * - **latest**: each arriving binary snapshot decoded (`decodeSnapshot`), each frame its positions copied.
 *
 * geckos and latest run in simulated time (a snapshot every third frame), timed by the wall clock: their cost
 * does not depend on when things arrive, only on what.
 */
import { SnapshotInterpolation } from '@geckos.io/snapshot-interpolation';
import { WebSocketServer } from 'ws';
import type { Runtime } from 'steadyframe';
import type { NetworkCommands } from 'steadyframe/network';
import { createNodeRuntime, createSnapshotPublisher, hostSnapshots } from 'steadyframe/node';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { decodeSnapshot, encodeSnapshot, wireFormat } from '../../src/net/wire.ts';
import { makeOrbits, ORBIT_SEND_EVERY, orbitSchema, writeOrbit, type OrbitSetup } from './orbits.ts';
import { FRAME_MS, SEND_INTERVAL_MS } from './replay.ts';
import { benchWorker } from './trace.ts';

/** Per-frame wall-clock ms: on a 60 Hz grid with the thread idle between frames (as a game's frames are), and back to back. */
export interface FrameCosts {
  readonly cadenced: Float64Array;
  readonly backToBack: Float64Array;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ours: `frames` calls of `runtime.frame()` on a client runtime drawing a live server's `count` entities, about 60 a second. */
export async function oursMainThread(count: number, frames: number): Promise<FrameCosts> {
  const server = await createNodeRuntime<typeof orbitSchema, object, OrbitSetup>({ worker: await benchWorker('orbits'), schema: orbitSchema, capacity: count, setup: { count, seed: 3 } });
  const sockets = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024 });
  const listening = new Promise<void>((resolve) => sockets.on('listening', () => resolve()));
  const publisher = createSnapshotPublisher(server, { every: ORBIT_SEND_EVERY });
  const publishing = setInterval(() => publisher.publish(), 2);
  let client: Runtime<typeof orbitSchema, NetworkCommands> | null = null;
  try {
    await server.start();
    await listening;
    hostSnapshots(publisher, sockets, { maxBufferedBytes: 64 * 1024 * 1024 });
    const url = `ws://127.0.0.1:${(sockets.address() as { port: number }).port}`;
    client = await createNodeRuntime<typeof orbitSchema, NetworkCommands, { url: string }>({ worker: await benchWorker('orbits-client'), schema: orbitSchema, capacity: count, setup: { url } });
    await client.start();
    for (const deadline = performance.now() + 20_000; ; await sleep(50)) {
      const stats = await client.commands.network();
      if (stats.ticks.interpolated > 120) break;
      if (performance.now() > deadline) throw new Error(`the client did not draw in 20 s: ${JSON.stringify(stats)}`);
    }
    // frames on a 60 Hz grid, each given its vsync's time as rAF would: the worker is told when the next is due
    const rt = client;
    const cadenced = await onVsyncs(frames, (vsync) => {
      const frame = rt.frame(vsync);
      if (frame !== null && frame.count !== count) throw new Error(`a frame drew ${frame.count} entities of ${count}`);
    });
    // back to back: frameAt (unpaced: frame() would skip refreshes a microsecond apart), each a microsecond on
    const backToBack = new Float64Array(frames);
    const base = performance.now();
    for (let f = 0; f < frames; f++) {
      const start = performance.now();
      const frame = rt.frameAt(base + f / 1000);
      backToBack[f] = performance.now() - start;
      if (frame.count !== count) throw new Error(`a frame drew ${frame.count} entities of ${count}`);
    }
    return { cadenced, backToBack };
  } finally {
    clearInterval(publishing);
    client?.dispose();
    sockets.close();
    server.dispose();
  }
}

/** Distinct states the main-thread baselines cycle through (what they cost does not depend on the values). */
const DISTINCT = 8;

/** `count` orbits at 20 Hz for `snapshots` sends: each send's positions (float32, as the wire carries them). */
function positions(count: number, snapshots: number): Float32Array[] {
  const orbits = makeOrbits(count, 3);
  return Array.from({ length: snapshots }, (_, k) => {
    const p = new Float32Array(2 * count);
    for (let i = 0; i < count; i++) writeOrbit(orbits[i]!, k * SEND_INTERVAL_MS, p, i);
    return p;
  });
}

/** Calls `frame(vsync)` on a 60 Hz grid of wall-clock vsyncs (the next one, if a frame overran), timing each. */
async function onVsyncs(frames: number, frame: (vsync: number) => void): Promise<Float64Array> {
  const costs = new Float64Array(frames);
  let vsync = performance.now() + FRAME_MS;
  for (let f = 0; f < frames; f++) {
    await sleep(Math.max(0, vsync - performance.now()));
    const start = performance.now();
    frame(vsync);
    const end = performance.now();
    costs[f] = end - start;
    while (vsync <= end) vsync += FRAME_MS;
  }
  return costs;
}

/**
 * A main-thread pipeline's frames: each frame first takes the snapshots due by its time (one every 50 ms),
 * then draws; both timed as the frame's cost. On vsyncs (the snapshots due by the wall clock since the first),
 * then back to back in simulated time (a snapshot every third frame). `setNow` gives the pipeline its clock.
 */
async function mainThreadFrames(frames: number, warmUp: number, arrive: (k: number) => void, draw: () => void, setNow: (ms: number) => void): Promise<FrameCosts> {
  let next = 0;
  const frame = (now: number) => {
    setNow(now);
    while (next * SEND_INTERVAL_MS <= now) arrive(next++);
    draw();
  };
  for (let f = 0; f < warmUp; f++) frame(f * FRAME_MS);
  const offset = warmUp * FRAME_MS;
  const origin = performance.now();
  const cadenced = await onVsyncs(frames, (vsync) => frame(offset + vsync - origin));
  const backToBack = new Float64Array(frames);
  const from = next * SEND_INTERVAL_MS;
  for (let f = 0; f < frames; f++) {
    const start = performance.now();
    frame(from + f * FRAME_MS);
    backToBack[f] = performance.now() - start;
  }
  return { cadenced, backToBack };
}

/** geckos: parse and add each message as it arrives, interpolate every frame (its render time 150 ms back). */
export async function geckosMainThread(count: number, frames: number, warmUp: number): Promise<FrameCosts & { readonly bytesPerEntity: number }> {
  const now = SnapshotInterpolation.Now;
  let clock = 0;
  try {
    // the states of DISTINCT sends as JSON; send k carries state k mod DISTINCT, its own id and time (the
    // message a geckos server's SI.snapshot.create(state) makes, put together as it arrives)
    const states = positions(count, DISTINCT).map((p) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: `e${i}`, x: p[2 * i]!, y: p[2 * i + 1]! }))));
    const message = (k: number) => `{"id":"${k.toString(36)}","time":${k * SEND_INTERVAL_MS},"state":${states[k % DISTINCT]!}}`;
    SnapshotInterpolation.Now = () => Math.floor(clock);
    const SI = new SnapshotInterpolation(1000 / SEND_INTERVAL_MS);
    const render = new Float32Array(2 * count);
    const costs = await mainThreadFrames(
      frames,
      warmUp,
      (k) => SI.snapshot.add(JSON.parse(message(k))),
      () => {
        const result = SI.calcInterpolation('x y');
        if (result === undefined) return;
        const state = result.state as unknown as Array<{ x: number; y: number }>;
        for (let i = 0; i < count; i++) {
          render[2 * i] = state[i]!.x;
          render[2 * i + 1] = state[i]!.y;
        }
      },
      (ms) => (clock = ms),
    );
    return { ...costs, bytesPerEntity: message(1000).length / count };
  } finally {
    SnapshotInterpolation.Now = now;
  }
}

/** Latest: decode each binary snapshot as it arrives, copy the newest positions every frame. */
export async function latestMainThread(count: number, frames: number, warmUp: number): Promise<FrameCosts & { readonly bytesPerEntity: number }> {
  const layout = computeLayout(orbitSchema, count);
  const format = wireFormat(layout);
  const source = new ArrayBuffer(layout.blockBytes);
  const sourceBlock = new Float32Array(source);
  const start = layout.fields.find((f) => f.name === 'position')!.offset / 4;
  const messages = positions(count, DISTINCT).map((p, k) => {
    sourceBlock.set(p, start);
    return encodeSnapshot(format, { tick: k * ORBIT_SEND_EVERY, time: k * SEND_INTERVAL_MS, count, snaps: 0, interval: SEND_INTERVAL_MS }, sourceBlock, generationView(source, 0, layout));
  });
  const memory = new ArrayBuffer(layout.blockBytes);
  const block = new Float32Array(memory);
  const generation = generationView(memory, 0, layout);
  const render = new Float32Array(2 * count);
  const costs = await mainThreadFrames(
    frames,
    warmUp,
    (k) => decodeSnapshot(format, messages[k % DISTINCT]!, block, generation),
    () => render.set(block.subarray(start, start + 2 * count)),
    () => {},
  );
  return { ...costs, bytesPerEntity: messages[0]!.byteLength / count };
}
