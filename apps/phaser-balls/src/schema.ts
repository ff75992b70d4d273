// shared by the worker and the page; imports only the worker entry (no page code in the worker's bundle)
import { defineSchema } from 'steadyframe/worker';

/**
 * Each ball's centre (blended between ticks) and which of the five ball frames it shows (`none`: drawn as the
 * newest tick has it; it changes at each bounce off the world's edge, as in Phaser's example). Its velocity is
 * a private field of the worker (never published).
 */
export const schema = defineSchema({
  position: { width: 2, kind: 'linear' },
  frame: { width: 1, kind: 'none' },
});
export type BallsSchema = typeof schema;

/** Phaser's example: an 800 × 600 world, gravity 200 px/s² down, balls of 17 px bouncing off every edge. */
export const WORLD = { width: 800, height: 600 } as const;
export const GRAVITY = 200;
export const BALL = 17;
/** The five frames of the ball sheet. */
export const FRAMES = 5;
export const TICK_RATE = 60;
export const CAPACITY = 50_000;
/** Balls the scene starts with (`?balls=N` overrides it). */
export const START_BALLS = 2000;
/** Balls one click or tap throws in. */
export const BURST = 250;
/** Input code of a burst: payload x, y in world pixels. */
export const INPUT_BURST = 1;
