/**
 * `npm run bench:net -- colyseus` (or all of `npm run bench:net`): ours against Colyseus 0.18 on the same small
 * game (vs-colyseus/game.ts) over the same shaped links (issue #41, item 5). Writes docs/net-vs-colyseus.md.
 */
import { expect, it } from 'vitest';
import { startColyseus } from './vs-colyseus/colyseus-process.ts';
import { colyseusDuel, oursDuel } from './vs-colyseus/duels.ts';
import { measureMainThread } from './vs-colyseus/main-thread.ts';
import { corrections, latency, percentile, shots } from './vs-colyseus/metrics.ts';

const QUICK = process.env.STEADYFRAME_VS_QUICK === '1';

it('measures ours against Colyseus 0.18', async () => {
  const colyseus = await startColyseus();
  try {
    const options = QUICK ? { presses: 6, collisionMs: 4000, shots: 20, seed: 1 } : { presses: 20, collisionMs: 15_000, shots: 150, seed: 1 };
    if (process.env.STEADYFRAME_VS_ONLY === 'main-thread') {
      const m = await measureMainThread(colyseus, 300);
      const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
      for (const [name, c] of Object.entries({ ours: m.ours, colyseus: m.colyseus })) console.log(name, 'draw', mean(c.drawMs).toFixed(3), 'msg/frame', (c.messageMs / c.frames).toFixed(3), c.messages, 'task/frame', (c.taskMs / c.frames).toFixed(3), 'script/frame', (c.scriptMs / c.frames).toFixed(3), 'span', c.spanMs.toFixed(0));
      return;
    }
    for (const oneWayMs of QUICK ? [100] : [50, 100]) {
      const shape = { oneWayMs, jitterMs: 20, loss: 0.02, seed: oneWayMs };
      for (const [name, run] of [
        ['ours', () => oursDuel(shape, options)],
        ['colyseus', () => colyseusDuel(colyseus, shape, options)],
      ] as const) {
        const r = await run();
        const l = latency(r.record);
        const c = corrections(r.record, r.truth);
        const s = shots(r.record, r.verdicts);
        console.log(name, oneWayMs, JSON.stringify({ latency: { p50: percentile(l.samples, 0.5), p99: percentile(l.samples, 0.99), frames: l.frames, missed: l.missed }, c, s, link: r.link, notes: r.notes, clamped: r.clamped, late: [r.record.lateFrames, r.record.allFrames] }));
      }
    }
  } finally {
    await colyseus.stop();
  }
  expect(true).toBe(true);
}, 1_800_000);
