/**
 * Phaser's "group world bounds event" example, scaled up, two ways (./scenes.ts):
 *
 * - default: the balls bounce in a worker at 60 Hz, drawn by Phaser through @steadyframe/phaser;
 * - `?draw=gpu`: the same, every ball drawn by one Extern that blends them on the GPU;
 * - `?mode=arcade`: the example as published, on Phaser's Arcade physics on the main thread.
 *
 * `?balls=N` sets how many balls start. A click or tap throws in a burst of balls from that point. The
 * `window.balls` hooks are for the e2e test.
 */
import { createBallsGame, type BallsHooks } from './scenes.ts';
import { CAPACITY, START_BALLS } from './schema.ts';

declare global {
  interface Window {
    balls?: BallsHooks;
  }
}

const params = new URLSearchParams(location.search);
const asked = Number(params.get('balls') ?? START_BALLS);
window.balls = createBallsGame({
  mode: params.get('mode') === 'arcade' ? 'arcade' : params.get('draw') === 'gpu' ? 'steadyframe-gpu' : 'steadyframe',
  balls: Number.isInteger(asked) ? Math.max(0, Math.min(CAPACITY, asked)) : START_BALLS,
  parent: 'game',
});
