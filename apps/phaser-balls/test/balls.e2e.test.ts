/**
 * End to end: the BUILT Phaser example, served by `vite preview` with its COOP/COEP headers, in headless
 * Chromium: cross-origin isolated on the shared transport, the balls drawn and moving, a click throws a burst in
 * through the input ring, the balls' frames change as they bounce (a `none` field), at 420 px wide the game fits,
 * the GPU path draws the same, the Arcade mode runs the same scene, and a clean console.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { countPixels, keepScreenshot, openBuiltApp, screenshotsOfMotion, waitUntil } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let app: { page: Page; errors: string[]; url: string; close(): Promise<void> };
const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(app.page, what, expression, timeout);
const read = <T>(expression: string): Promise<T> => app.page.evaluate(expression) as Promise<T>;

const BALLS = 1000;

beforeAll(async () => {
  app = await openBuiltApp(root, { width: 1200, height: 800 });
  await app.page.goto(`${app.url}?balls=${BALLS}`);
  await until('the runtime and 30 drawn frames', 'window.balls?.runtime != null && window.balls.loop?.rendered > 30', 60_000);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('the Phaser example, built and served by vite preview', () => {
  it('runs cross-origin isolated on the shared transport, the simulation started', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.balls.runtime.transport')).toBe('shared');
    await until('ticks', 'window.balls.runtime.stats().then((s) => s.worker.tick > 30)');
    expect(await read('window.balls.balls')).toBe(BALLS);
  });

  it('draws balls that move, and their frames change as they bounce', async () => {
    const [first, second] = await screenshotsOfMotion(app.page, 20_000);
    keepScreenshot('phaser-balls-desktop', second);
    expect(Buffer.compare(first, second)).not.toBe(0);
    // the group's members show the frame the worker gave each ball: read the newest frame's field and the sprites
    const frames = async () =>
      read<number[]>(`(() => {
        const members = window.balls.game.scene.getScene('balls').children.list.filter((c) => c.texture?.key === 'ball');
        return members.map((m) => Number(m.frame.name));
      })()`);
    const before = await frames();
    expect(before).toHaveLength(BALLS);
    expect(new Set(before).size).toBe(5);
    await until('frames that changed', `(() => {
      const members = window.balls.game.scene.getScene('balls').children.list.filter((c) => c.texture?.key === 'ball');
      const before = ${JSON.stringify(before)};
      return members.filter((m, i) => Number(m.frame.name) !== before[i]).length > ${BALLS / 10};
    })()`);
  });

  it('throws a burst of balls in where the game is clicked: an input event the worker reads', async () => {
    await app.page.mouse.click(600, 400);
    await until('250 more balls', `window.balls.balls >= ${BALLS + 250}`);
    expect(await read('window.balls.runtime.commands.count()')).toBe(BALLS + 250);
  });

  it('at 420 px wide: the game fits the screen and draws on', async () => {
    await app.page.setViewportSize({ width: 420, height: 860 });
    const rendered = await read<number>('window.balls.loop.rendered');
    await until('frames at the new size', `window.balls.loop.rendered > ${rendered + 10}`);
    expect(await read('document.documentElement.scrollWidth - innerWidth')).toBe(0);
    const box = await read<{ width: number }>('window.balls.game.canvas.getBoundingClientRect().toJSON()');
    expect(box.width).toBeLessThanOrEqual(420);
    keepScreenshot('phaser-balls-phone', await app.page.screenshot());
  });

  it('?draw=gpu draws the same balls with one Extern on the GPU: moving, five frames, a burst on a click', async () => {
    await app.page.setViewportSize({ width: 1200, height: 800 });
    await app.page.goto(`${app.url}?balls=${BALLS}&draw=gpu`);
    await until('drawn frames', `window.balls?.loop?.rendered > 30 && window.balls.balls === ${BALLS}`, 60_000);
    expect(await read('window.balls.mode')).toBe('steadyframe-gpu');
    // no Images for the balls: the Extern draws them
    expect(await read("window.balls.game.scene.getScene('balls').children.list.filter((c) => c.texture?.key === 'ball').length")).toBe(0);
    const [first, second] = await screenshotsOfMotion(app.page, 20_000);
    keepScreenshot('phaser-balls-gpu', second);
    expect(Buffer.compare(first, second)).not.toBe(0);
    // the five colours of the sheet are on the screen (a frame per ball, from its field): the screenshot's pixels
    const colours = await countPixels(app.page, second, `(r, g, b) =>
      // the balls' saturated mid-tones: red, amber, green, blue, violet
      r > 200 && g < 120 && b < 120 ? 'red'
      : r > 200 && g > 140 && b < 60 ? 'amber'
      : g > 160 && r < 100 && b < 140 ? 'green'
      : b > 200 && r < 80 && g > 120 ? 'blue'
      : r > 150 && b > 200 && g < 120 ? 'violet'
      : null`);
    expect(Object.keys(colours).length).toBe(5);
    await app.page.mouse.click(600, 400);
    await until('250 more balls', `window.balls.balls >= ${BALLS + 250}`);
  });

  it('?mode=arcade runs the same scene on Phaser Arcade physics on the main thread', async () => {
    await app.page.setViewportSize({ width: 1200, height: 800 });
    await app.page.goto(`${app.url}?balls=${BALLS}&mode=arcade`);
    await until('Arcade steps', `window.balls?.mode === 'arcade' && window.balls.stepMs.length > 30 && window.balls.balls === ${BALLS}`, 60_000);
    expect(await read('window.balls.runtime')).toBeNull();
    const [first, second] = await screenshotsOfMotion(app.page, 20_000);
    keepScreenshot('phaser-balls-arcade', second);
    expect(Buffer.compare(first, second)).not.toBe(0);
  });

  it('logged no console errors', () => {
    expect(app.errors).toEqual([]);
  });
});
