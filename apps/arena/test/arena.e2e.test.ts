/**
 * End to end: the BUILT arena, served by `vite preview` with its COOP/COEP headers, in headless Chromium (Debian's,
 * through playwright; never a downloaded browser). The page is isolated, draws frames, the keyboard reaches the
 * worker's step through the input ring (the ship moves the right way, a tap inside one tick still fires), bullets
 * spawn, and the console stays clean. Everything is read through `window.arena`; every wait is a poll.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { openBuiltApp, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let page: Page;
let errors: string[] = [];
let close: (() => Promise<void>) | undefined;

/** Polls a page expression until it is truthy (a hang guard: never an assertion on time). */
const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(page, what, expression, timeout);

const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

/** Live bullets in the runtime's newest state (kind 2), counted on the page. */
const BULLETS = `(() => { const f = window.arena.runtime.sample(Infinity); let n = 0;
  for (let i = 0; i < f.count; i++) if (f.fields.kind[i] === 2) n++; return n; })()`;

beforeAll(async () => {
  const opened = await openBuiltApp(root);
  ({ page, errors, close } = opened);
  await until('the first frame and game state', 'window.arena?.ready === true && window.arena.game !== null');
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('the arena, built and served by vite preview', () => {
  it('is cross-origin isolated and runs on the shared transport', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.arena.runtime.transport')).toBe('shared');
    await until('the overlay', "document.querySelector('#transport')?.textContent === 'shared'");
  });

  it('simulates a few thousand bodies and draws frames that are not blank', async () => {
    expect(await read<number>('window.arena.game.rocks')).toBeGreaterThan(2000);
    const frames = await read<number>('window.arena.frames');
    await until('more frames', `window.arena.frames > ${frames + 5}`);
    await until('ticks', 'window.arena.game.tick > 10');
    const shot = await page.locator('#view').screenshot();
    expect(shot.length).toBeGreaterThan(20_000); // thousands of rocks do not compress like an empty canvas
    expect(await read<number>('window.arena.interval')).toBeGreaterThan(0);
  });

  it('moves the ship right while ArrowRight is held, and left with A', async () => {
    const x0 = await read<number>('window.arena.ship.x');
    const inputs = await read<number>('window.arena.game.inputs');
    // the newest tick when the page handles the key, and how many tick lengths the newest state then stood
    // behind the clock (a loaded machine runs the worker late); the worker says which tick read the press
    await page.evaluate(`addEventListener('keydown', () => {
      if (window.pressedAt !== undefined) return;
      const newest = window.arena.runtime.sample(Infinity);
      window.pressedAt = newest.tick;
      const tickMs = newest.currentTime - newest.previousTime;
      window.behindTicks = tickMs > 0 ? Math.max(0, Math.floor((performance.now() - newest.currentTime) / tickMs)) : 0;
    })`);
    await page.keyboard.down('ArrowRight');
    try {
      await until('the ship to move right', `window.arena.ship.x > ${x0 + 2}`);
    } finally {
      await page.keyboard.up('ArrowRight');
    }
    await until('the worker to read both events', `window.arena.game.inputs >= ${inputs + 2} && window.arena.game.presses[1] >= 1`);
    // in ticks, not wall time: the event lands in the tick it falls in, or the next if that one was made already
    // (plus the ticks the worker was behind the clock when the key came)
    const [pressedAt, readAt, behindTicks] = await read<[number, number, number]>('[window.pressedAt, window.arena.game.pressTicks[1], window.behindTicks]');
    expect(readAt - pressedAt).toBeGreaterThanOrEqual(0);
    expect(readAt - pressedAt, `${behindTicks} ticks behind`).toBeLessThanOrEqual(3 + behindTicks);
    const x1 = await read<number>('window.arena.ship.x');
    await page.keyboard.down('a');
    try {
      await until('the ship to move left', `window.arena.ship.x < ${x1 - 2}`);
    } finally {
      await page.keyboard.up('a');
    }
  });

  it('fires on a tap (press and release inside one tick) and spawns bullets while space is held', async () => {
    const shots = await read<number>('window.arena.game.shots');
    await page.keyboard.press('Space'); // down and up back to back: almost always inside one tick
    await until('a shot from the tap', `window.arena.game.shots >= ${shots + 1}`);
    await page.keyboard.down('Space');
    try {
      await until('live bullets in the world', `${BULLETS} >= 2`);
      await until('bullets drawn', 'window.arena.maxBullets >= 1');
      await until('several shots', `window.arena.game.shots >= ${shots + 4}`);
    } finally {
      await page.keyboard.up('Space');
    }
    await until('bullets to despawn (hits or old age)', `${BULLETS} === 0`);
  });

  it('keeps the help line below the field, never over the rocks', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 420, height: 800 }]) {
      await page.setViewportSize(viewport);
      const field = (await page.locator('#view').boundingBox())!;
      const help = (await page.locator('#help').boundingBox())!;
      expect(help.y).toBeGreaterThanOrEqual(field.y + field.height);
      expect(help.y + help.height).toBeLessThanOrEqual(viewport.height); // and still on screen
    }
    await page.setViewportSize({ width: 1200, height: 820 });
  });

  it('runs with the render worker (?draw=worker): frames from the worker, keys still reach the game', async () => {
    const other = await page.context().browser()!.newPage({ viewport: { width: 1200, height: 820 } });
    const otherErrors: string[] = watchErrors(other);
    try {
      await other.goto(`${new URL(page.url()).origin}/?draw=worker`);
      await waitUntil(other, 'the render worker drawing', "window.arena?.ready === true && window.arena.drawnIn === 'worker' && window.arena.game !== null");
      expect(await other.evaluate('window.arena.runtime')).toBeNull(); // the page reads no frames
      expect(await other.evaluate('window.arena.renderFallback')).toBeNull();
      const frames = (await other.evaluate('window.arena.frames')) as number;
      await waitUntil(other, 'more frames from the render worker', `window.arena.frames > ${frames + 10}`);
      const shot = await other.locator('#view').screenshot();
      expect(shot.length).toBeGreaterThan(20_000);
      // both widths: the view's new CSS size reaches the render worker, which draws on at it
      const backingFits = "window.arena.render.canvas.width === Math.round(document.querySelector('#view').clientWidth * Math.min(devicePixelRatio, 2))";
      for (const viewport of [{ width: 420, height: 800 }, { width: 1200, height: 820 }]) {
        await other.setViewportSize(viewport);
        await waitUntil(other, `the render worker's canvas at ${viewport.width} px`, backingFits);
        const at = (await other.evaluate('window.arena.frames')) as number;
        await waitUntil(other, `frames at ${viewport.width} px`, `window.arena.frames > ${at + 10}`);
      }
      expect(await other.evaluate('window.arena.render.errors')).toBe(0);
      expect(await other.evaluate('window.arena.render.unresponsive')).toBe(false);
      // keys go from the page straight into the input ring: the game's step reads the press
      const presses = (await other.evaluate('window.arena.game.presses[1]')) as number;
      await other.keyboard.down('ArrowRight');
      await waitUntil(other, 'the press read by a step', `window.arena.game.presses[1] > ${presses}`);
      await other.keyboard.up('ArrowRight');
      expect(otherErrors, otherErrors.join('\n')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});
