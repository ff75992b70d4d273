/**
 * SteadyframePlugin installed as a scene plugin in a real game: the runtime lives and dies with its scene
 * (paused with it, disposed at its shutdown), a runtime that comes after the scene shut down is disposed, and
 * the restarted scene takes a new one.
 */
import { afterEach, expect, it } from 'vitest';
import { Scene, type Game } from 'phaser';
import { SteadyframePlugin } from '@steadyframe/phaser';
import { makeGame, motionRuntime, refresh, type MotionRuntime } from './helpers.ts';

class World extends Scene {
  declare steadyframe: SteadyframePlugin;
  constructor() {
    super('world');
  }
}

let game: Game | undefined;
const runtimes: MotionRuntime[] = [];
afterEach(() => {
  game?.destroy(true);
  for (const r of runtimes.splice(0)) r.dispose();
  game = undefined;
});

const PERIOD = 1000 / 60;
const plugins = { scene: [{ key: 'SteadyframePlugin', plugin: SteadyframePlugin, mapping: 'steadyframe' }] };

/** A runtime whose dispose() calls are counted. */
async function counted(): Promise<{ runtime: MotionRuntime; disposed: () => number }> {
  const runtime = await motionRuntime();
  runtimes.push(runtime);
  let disposed = 0;
  const dispose = runtime.dispose.bind(runtime);
  runtime.dispose = () => {
    disposed++;
    dispose();
  };
  return { runtime, disposed: () => disposed };
}

async function worldGame(): Promise<{ g: Game; scene: World }> {
  game = await makeGame(World, { plugins });
  const scene = game.scene.getScene('world') as World;
  expect(scene.steadyframe).toBeInstanceOf(SteadyframePlugin);
  return { g: game, scene };
}

it('paces the runtime from the game loop, pauses it with the scene, and disposes it when the scene restarts', async () => {
  const { g, scene } = await worldGame();
  const { runtime, disposed } = await counted();
  const made = await scene.steadyframe.create(() => runtime);
  expect(made).toBe(runtime);
  let drawn = 0;
  const original = g.loop.callback;
  const loop = scene.steadyframe.attach(runtime, () => drawn++);
  expect(scene.steadyframe.loop).toBe(loop);
  await runtime.start();
  const start = performance.now() + 1000;
  for (let i = 0; i < 3; i++) await refresh(g, start + i * PERIOD);
  expect(drawn).toBe(3);
  expect(loop.rendered).toBe(3);

  // the scene's own calls are queued: Phaser runs them at its next step
  let t = start + 3 * PERIOD;
  const status = async (op: () => unknown) => {
    op();
    await refresh(g, (t += PERIOD));
    return (await runtime.stats()).worker.status;
  };
  expect(await status(() => scene.scene.pause())).toBe('paused');
  expect(await status(() => scene.scene.resume())).toBe('running');
  expect(await status(() => scene.scene.sleep())).toBe('paused');
  expect(await status(() => scene.scene.wake())).toBe('running');

  scene.scene.restart();
  await refresh(g, (t += PERIOD));
  expect(disposed()).toBe(1);
  expect(scene.steadyframe.loop).toBeNull();
  expect(g.loop.callback).toBe(original);
  // the restarted scene takes a new runtime
  const second = await counted();
  expect(await scene.steadyframe.create(() => Promise.resolve(second.runtime))).toBe(second.runtime);
  scene.steadyframe.attach(second.runtime, () => drawn++);
  const before = drawn;
  await refresh(g, (t += PERIOD));
  expect(drawn).toBe(before + 1);
  g.destroy(true);
  game = undefined;
  expect(second.disposed()).toBe(1); // and the game's end ends it
});

it('disposes a runtime that comes after its scene shut down, and keeps one attached with dispose: false', async () => {
  const { g, scene } = await worldGame();
  const late = await counted();
  let resolve!: (r: MotionRuntime) => void;
  const making = scene.steadyframe.create(() => new Promise<MotionRuntime>((r) => (resolve = r)));
  scene.scene.stop();
  await refresh(g, performance.now());
  resolve(late.runtime);
  expect(await making).toBeNull();
  expect(late.disposed()).toBe(1);

  scene.scene.start();
  await refresh(g, performance.now());
  const kept = await counted();
  scene.steadyframe.attach(kept.runtime, () => {}, { dispose: false, pauseWithScene: false });
  await kept.runtime.start();
  scene.scene.pause();
  await refresh(g, performance.now());
  expect(scene.scene.isPaused()).toBe(true);
  expect((await kept.runtime.stats()).worker.status).not.toBe('paused');
  scene.scene.resume();
  await refresh(g, performance.now());
  // attaching another ends the first (kept: not disposed) and the second is the scene's now
  const next = await counted();
  scene.steadyframe.attach(next.runtime, () => {});
  expect(kept.disposed()).toBe(0);
  scene.steadyframe.detach();
  expect(next.disposed()).toBe(1);
  expect(scene.steadyframe.loop).toBeNull();
  await expect(scene.steadyframe.create(null as never)).rejects.toThrow(/takes a function/);
});
