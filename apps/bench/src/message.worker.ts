/**
 * The designs users would otherwise pick: the same 3D simulation as sim.worker.ts, delivered by postMessage.
 *
 * - `clone`: every tick posts its position and rotation arrays; structured clone copies them (serialised here,
 *   deserialised on the page when it first reads `event.data`).
 * - `transfer`: ping-pong of transferable ArrayBuffers (use-cannon's way): a tick is copied into a pooled
 *   buffer and transferred; the page sends each buffer back once it no longer needs it. With no buffer in the
 *   pool the tick is stepped but not delivered (counted).
 *
 * The loop is the usual fixed-step timer: tick k stands for t0 + k * T and is made when that time comes
 * (setTimeout, corrected each tick; late ticks are caught up, at most 8 at once).
 */
import { BenchWorld, pageClock, sideViews, stamp, type SideViews } from './shared/sims.ts';
import type { MessageConfig, TickMessage, ToWorker, WorkerReport } from './shared/messages.ts';

let config: MessageConfig;
let world: BenchWorld;
let position: Float32Array;
let rotation: Float32Array;
let side: SideViews | null = null;
let now: () => number;
const pool: ArrayBuffer[] = [];
let running = false;
let t0 = 0;
let tick = 0;
let undelivered = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function tickLength(): number {
  return 1000 / config.tickRate;
}

function deliver(k: number, time: number): void {
  if (config.mode === 'clone') {
    const message: TickMessage = { tick: k, time, position, rotation };
    self.postMessage(message); // structured clone: both arrays copied
    return;
  }
  const buffer = pool.pop();
  if (buffer === undefined) {
    undelivered++;
    return;
  }
  const n = config.count;
  new Float32Array(buffer, 0, 3 * n).set(position);
  new Float32Array(buffer, 12 * n, 4 * n).set(rotation);
  const message: TickMessage = { tick: k, time, buffer };
  self.postMessage(message, [buffer]);
}

function loop(): void {
  if (!running) return;
  const T = tickLength();
  for (let i = 0; i < 8 && now() >= t0 + (tick + 1) * T; i++) {
    const k = ++tick;
    const start = now();
    world.step(position, rotation, config.count, 1 / config.tickRate);
    if (side !== null) stamp(side, k, start, now(), t0 + (k - 1) * T);
    deliver(k, t0 + k * T);
  }
  timer = setTimeout(loop, Math.max(0, t0 + (tick + 1) * T - now()));
}

self.addEventListener('message', (event: MessageEvent<MessageConfig | ToWorker>) => {
  const data = event.data;
  if (!('type' in data)) {
    config = data;
    now = pageClock(config.anchor);
    world = new BenchWorld('3d', config.count);
    position = new Float32Array(3 * config.count);
    rotation = new Float32Array(4 * config.count);
    world.init(position, rotation, config.count);
    if (config.side !== undefined) side = sideViews(config.side);
    if (config.mode === 'transfer') {
      for (let i = 0; i < (config.pool ?? 3); i++) pool.push(new ArrayBuffer(28 * config.count));
    }
    return;
  }
  if (data.type === 'start') {
    running = true;
    t0 = now();
    deliver(0, t0);
    loop();
  } else if (data.type === 'return') {
    pool.push(data.buffer);
  } else {
    running = false;
    clearTimeout(timer);
    const report: WorkerReport = { type: 'report', ticks: tick, undelivered };
    self.postMessage(report);
  }
});
