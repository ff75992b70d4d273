/**
 * Shared by the Phaser adapter's browser tests: a real Phaser game (WebGL) whose loop is stepped by hand, and
 * a real worker on the PixiJS adapter's motion fixture (a 2D pose in every form the bindings read).
 */
import { expect } from 'vitest';
import { Game, WEBGL, type Types } from 'phaser';
import { createRuntime, type Frame, type Runtime } from 'steadyframe';
import { motionSchema } from '../../../pixi/test/browser/fixtures/schema.ts';
import type { MotionCommands } from '../../../pixi/test/browser/fixtures/motion.worker.ts';

export { motionAt, motionSchema, TICK_RATE } from '../../../pixi/test/browser/fixtures/schema.ts';
export type MotionRuntime = Runtime<typeof motionSchema, MotionCommands>;
export type MotionFrame = Frame<typeof motionSchema>;

/** A runtime on the motion fixture, attached (tick 0 published) and not started: tests step it by hand. */
export async function motionRuntime(capacity = 8, adaptive = false): Promise<MotionRuntime> {
  return createRuntime<typeof motionSchema, MotionCommands>({
    worker: new Worker(new URL('../../../pixi/test/browser/fixtures/motion.worker.ts', import.meta.url), { type: 'module', name: 'motion' }),
    schema: motionSchema,
    capacity,
    pacing: { adaptive },
  });
}

/** Runs `n` ticks while the simulation is held. */
export async function steps(runtime: MotionRuntime, n: number): Promise<void> {
  for (let k = 0; k < n; k++) await runtime.stepOnce();
}

/** The shared-clock time at `alpha` between the newest pair's two states. */
export function timeAt(runtime: MotionRuntime, alpha: number): number {
  const f = runtime.sample(Number.POSITIVE_INFINITY);
  return f.previousTime + alpha * (f.currentTime - f.previousTime);
}

/**
 * A 64×64 WebGL game, booted and running, its rAF loop put to sleep: `refresh(game, ts)` steps it as a rAF
 * would. `scene` is the game's scene config (a Scene class or `{ create, update }`).
 */
export async function makeGame(scene?: Types.Scenes.SceneType | Types.Scenes.SceneType[], extra: Partial<Types.Core.GameConfig> = {}): Promise<Game> {
  const parent = document.createElement('div');
  document.body.append(parent);
  const game = new Game({
    type: WEBGL,
    width: 64,
    height: 64,
    parent,
    banner: false,
    audio: { noAudio: true },
    backgroundColor: '#000000',
    render: { preserveDrawingBuffer: true, antialias: false },
    ...(scene === undefined ? {} : { scene }),
    ...extra,
  });
  await new Promise<void>((resolve) => game.events.once('ready', () => resolve()));
  await Promise.resolve(); // Game.start runs right after its 'ready' listeners
  if (!game.isRunning) throw new Error('the Phaser game did not start');
  game.loop.sleep();
  const destroy = game.destroy.bind(game);
  game.destroy = (removeCanvas = true, noReturn?: boolean) => {
    destroy(removeCanvas, noReturn);
    // Phaser destroys at its next step: run it, since the loop sleeps
    game.loop.step(performance.now());
    parent.remove();
  };
  return game;
}

/** One refresh at `ts`, as Phaser's rAF would run it; then lets the frame's task end (its cost is measured then). */
export async function refresh(game: Game, ts: number): Promise<void> {
  game.loop.step(ts);
  await Promise.resolve();
}

/** Counts the game's renders (Phaser's `postrender` game event with a renderer; a headless step passes null). */
export function countRenders(game: Game): () => number {
  let renders = 0;
  game.events.on('postrender', (renderer: unknown) => {
    if (renderer !== null) renders++;
  });
  return () => renders;
}

/** The bounds of a set of pixels, inclusive. */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The bounds of the canvas's pixels that `match` (read through a 2D canvas: needs preserveDrawingBuffer), or null. */
export function canvasBounds(game: Game, match: (r: number, g: number, b: number) => boolean): Box | null {
  const copy = document.createElement('canvas');
  copy.width = game.canvas.width;
  copy.height = game.canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(game.canvas, 0, 0);
  const { data, width, height } = ctx.getImageData(0, 0, copy.width, copy.height);
  let box: Box | null = null;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      if (!match(data[i]!, data[i + 1]!, data[i + 2]!)) continue;
      if (box === null) box = { left: x, right: x, top: y, bottom: y };
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return box;
}
export const white = (r: number, g: number, b: number) => r > 200 && g > 200 && b > 200;
export const red = (r: number, g: number, b: number) => r > 200 && g < 60 && b < 60;
export const blue = (r: number, g: number, b: number) => b > 200 && r < 60 && g < 60;

/**
 * A 4-unit sprite centred on world (x, y), drawn 8 px to the unit on the 64 px canvas: its pixels are
 * [8 (x - 2), 8 (x + 2)) across and [8 (y - 2), 8 (y + 2)) down, clipped to the canvas (within a pixel and a half).
 */
export function expectBoxAt(box: Box | null, x: number, y: number, what: string): void {
  expect(box, what).not.toBeNull();
  expect(box!.left, what).toBeCloseTo(Math.max(0, 8 * (x - 2)), -0.5);
  expect(box!.right + 1, what).toBeCloseTo(Math.min(64, 8 * (x + 2)), -0.5);
  expect(box!.top, what).toBeCloseTo(Math.max(0, 8 * (y - 2)), -0.5);
  expect(box!.bottom + 1, what).toBeCloseTo(Math.min(64, 8 * (y + 2)), -0.5);
}
