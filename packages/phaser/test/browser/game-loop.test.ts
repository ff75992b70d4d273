/**
 * attachToGame on a real Phaser game (WebGL): frames are sampled at the loop's own timestamp, the game renders
 * on the refreshes the pacer presents and on no other, and the scenes update on every refresh. The loop is
 * stepped by hand (`game.loop.step(ts)` runs the step as a rAF would), so the refreshes are exact and nothing
 * depends on this machine's timing except the one deliberately slow frame.
 */
import { afterEach, expect, it } from 'vitest';
import type { Game } from 'phaser';
import { attachToGame, type LoopGame } from '@steadyframe/phaser';
import { countRenders, makeGame, motionRuntime, refresh, type MotionRuntime } from './helpers.ts';

let runtime: MotionRuntime | undefined;
let game: Game | undefined;
afterEach(() => {
  game?.destroy(true);
  runtime?.dispose();
  game = undefined;
  runtime = undefined;
});

const PERIOD = 1000 / 60;

/** A game whose one scene counts its updates and the times they were given. */
async function setUp(adaptive: boolean) {
  const updates: number[] = [];
  runtime = await motionRuntime(8, adaptive);
  game = await makeGame({ update: (time: number) => updates.push(time) });
  return { runtime, game, updates, renders: countRenders(game) };
}

it('samples each frame at the loop timestamp, draws before the scenes update, and renders once per drawn frame', async () => {
  const { runtime: rt, game: g, updates, renders } = await setUp(false);
  const times: number[] = [];
  const frameTimes: number[] = [];
  const order: string[] = [];
  g.events.on('prestep', () => order.push('prestep'));
  const loop = attachToGame(g, rt, (frame, time) => {
    order.push('draw');
    times.push(time);
    frameTimes.push(frame.time);
  });
  const start = performance.now() + 1000; // later than any performance.now() read below: a stale read would show
  const ts = Array.from({ length: 10 }, (_, i) => start + i * PERIOD);
  for (const t of ts) await refresh(g, t);
  expect(times).toEqual(ts);
  expect(frameTimes).toEqual(ts); // the world at the rAF timestamp, not at a fresh clock read
  expect(updates).toEqual(ts); // the scene's update got the same time
  expect(order.slice(0, 4)).toEqual(['draw', 'prestep', 'draw', 'prestep']);
  expect(renders()).toBe(10);
  expect(loop.rendered).toBe(10);
  expect(loop.skipped).toBe(0);
});

it('runs Phaser headless step on the refreshes the pacer skips, and detach gives the game its step back', async () => {
  const { runtime: rt, game: g, updates, renders } = await setUp(true);
  const original = g.loop.callback;
  let drawn = 0;
  const loop = attachToGame(g, rt, () => {
    drawn++;
    if (drawn === 1) {
      // one slow frame: 30 ms grows the render interval to n = 3 (30 * 1.2 / 16.7 = 2.2), or more on a loaded
      // machine (the frame's cost is wall time): the counts below follow the n it grew to
      const until = performance.now() + 30;
      while (performance.now() < until);
    }
  });
  const start = performance.now();
  for (let i = 0; i < 12; i++) await refresh(g, start + i * PERIOD);
  const stats = await rt.stats();
  expect(stats.pacing.multiple).toBeGreaterThanOrEqual(3);
  const drawnFrames = drawn;
  expect(drawnFrames).toBeGreaterThanOrEqual(2);
  expect(drawnFrames).toBeLessThan(12); // some refreshes were skipped
  expect(loop.rendered).toBe(drawnFrames);
  expect(loop.skipped).toBe(12 - drawnFrames);
  expect(renders()).toBe(drawnFrames); // no redraw of the unchanged scene on a skipped refresh
  expect(updates).toHaveLength(12); // but the scene updated on every refresh
  expect(stats.pacing.skippedVsyncs).toBe(12 - drawnFrames);
  expect(stats.pacing.renderedFrames).toBe(drawnFrames);

  loop.detach();
  expect(g.loop.callback).toBe(original);
  loop.detach(); // twice is harmless
  const before = renders();
  for (let i = 12; i < 15; i++) await refresh(g, start + i * PERIOD);
  expect(drawn).toBe(drawnFrames);
  expect(renders() - before).toBe(3); // Phaser's own step again, every refresh
  expect(updates).toHaveLength(15);
  // and the game can take a loop again
  attachToGame(g, rt, () => {}).detach();
});

it('leaves a paused game alone: nothing sampled, nothing drawn', async () => {
  const { runtime: rt, game: g, updates, renders } = await setUp(false);
  let drawn = 0;
  attachToGame(g, rt, () => drawn++);
  const start = performance.now() + 1000;
  await refresh(g, start);
  g.pause();
  for (let i = 1; i < 4; i++) await refresh(g, start + i * PERIOD);
  expect(drawn).toBe(1);
  expect(renders()).toBe(1);
  expect(updates).toHaveLength(1);
  expect((await rt.stats()).frames).toBe(1);
  g.resume();
  await refresh(g, start + 4 * PERIOD);
  expect(drawn).toBe(2);
});

it('attached before the loop starts (a scene create run at boot), it wraps the loop at its first prestep', async () => {
  runtime = await motionRuntime();
  const rt = runtime;
  const times: number[] = [];
  let attachedWhileRunning: boolean | null = null;
  game = await makeGame({
    create(this: { game: Game }) {
      attachedWhileRunning = this.game.isRunning;
      attachToGame(this.game, rt, (_frame, time) => times.push(time));
    },
  });
  expect(attachedWhileRunning).toBe(false);
  const renders = countRenders(game);
  const start = performance.now() + 1000;
  for (let i = 0; i < 3; i++) await refresh(game, start + i * PERIOD);
  // the loop's first step (at start-up, before the hand-stepped ones) drew too, at its own timestamp
  expect(times.slice(-3)).toEqual([start, start + PERIOD, start + 2 * PERIOD]);
  expect(renders()).toBe(3);
});

it('refuses a second runtime on one game, and what is not a game or a draw function', async () => {
  const { runtime: rt, game: g } = await setUp(false);
  const loop = attachToGame(g, rt, () => {});
  expect(() => attachToGame(g, rt, () => {})).toThrow(/already has a runtime attached; detach\(\) it first/);
  loop.detach();
  expect(() => attachToGame({} as LoopGame, rt, () => {})).toThrow(/needs a Phaser.Game/);
  expect(() => attachToGame(g, rt, { draw() {} } as never)).toThrow(/draws with a function \(frame, time\) => void or objects with update\(time\)/);
});
