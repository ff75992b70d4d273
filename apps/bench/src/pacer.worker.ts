/**
 * Baseline tick pacers for the timing suite, doing the same per-tick work as sim.worker.ts. Tick k is due at
 * t0 + k * T; each stamps its start in the side buffer next to its due time.
 *
 * - `timeout`: setTimeout to the next due time (the usual browser game loop in a worker).
 * - `wait-async`: Atomics.waitAsync with a timeout, no spin: the primitive steadyframe sleeps on.
 * - `wait-spin`: Atomics.wait (a worker may block) until `spinMs` before the due time, then spin on the clock.
 *
 * The page stops a pacer by setting PACER_STOP in the side buffer's Int32 words and notifying it.
 */
import { BenchWorld, pageClock, sideViews, stamp, type SimConfig } from './shared/sims.ts';
import { PACER_STOP, PACER_WAIT, type PacerConfig } from './shared/pacer.ts';

self.addEventListener(
  'message',
  (event: MessageEvent<PacerConfig & SimConfig>) => {
    const config = event.data;
    const now = pageClock(config.anchor);
    const side = sideViews(config.side!);
    const world = new BenchWorld('3d', config.count);
    const position = new Float32Array(3 * config.count);
    const rotation = new Float32Array(4 * config.count);
    world.init(position, rotation, config.count);
    const T = 1000 / config.tickRate;
    const t0 = now() + 5;
    let k = 0;
    const stopped = () => Atomics.load(side.i32, PACER_STOP) !== 0;
    const tick = () => {
      k++;
      const start = now();
      world.step(position, rotation, config.count, T / 1000);
      stamp(side, k, start, now(), t0 + k * T);
    };
    const due = () => t0 + (k + 1) * T;
    if (config.mode === 'wait-spin') {
      while (!stopped()) {
        const sleep = due() - config.spinMs - now();
        // blocks this thread only; the page wakes it with PACER_WAIT's notify when it stops the run
        if (sleep > 0) Atomics.wait(side.i32, PACER_WAIT, 0, sleep);
        while (now() < due() && !stopped());
        if (!stopped()) tick();
      }
      return;
    }
    if (config.mode === 'wait-async') {
      const next = (): void => {
        if (stopped()) return;
        const result = Atomics.waitAsync(side.i32, PACER_WAIT, 0, Math.max(0, due() - now()));
        void (result.async ? result.value : Promise.resolve()).then(() => {
          if (stopped()) return;
          if (now() >= due()) tick();
          next();
        });
      };
      next();
      return;
    }
    const next = (): void => {
      if (stopped()) return;
      if (now() >= due()) tick();
      setTimeout(next, Math.max(0, due() - now()));
    };
    next();
  },
  { once: true },
);
