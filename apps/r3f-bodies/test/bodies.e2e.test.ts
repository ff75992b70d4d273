/**
 * End to end: the BUILT React Three Fiber example (Vite with @vitejs/plugin-react, as the react-ts template
 * builds), served by `vite preview` with its COOP/COEP headers, in headless Chromium: cross-origin isolated on the
 * shared transport, under StrictMode one runtime left running, boxes drawn that move, a click on the floor drops
 * a heap in the worker, at 420 px wide nothing wider than the screen, and a clean console (no errors, no three.js
 * deprecation warnings).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { keepScreenshot, openBuiltApp, screenshotsOfMotion, waitUntil } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let app: { page: Page; errors: string[]; warnings: string[]; url: string; close(): Promise<void> };
const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(app.page, what, expression, timeout);
const read = <T>(expression: string): Promise<T> => app.page.evaluate(expression) as Promise<T>;

/** Fewer boxes than the example's thousand: headless Chromium draws in software, a few frames a second. */
const BODIES = 400;

beforeAll(async () => {
  app = await openBuiltApp(root, { width: 1200, height: 800 });
  await app.page.goto(`${app.url}?bodies=${BODIES}`);
  await until('the runtime and 30 drawn frames', 'window.bodies?.runtime != null && window.bodies.frames > 30', 60_000);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('the React Three Fiber example, built and served by vite preview', () => {
  it('runs cross-origin isolated on the shared transport, the simulation started', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.bodies.runtime.transport')).toBe('shared');
    await until('ticks', 'window.bodies.runtime.stats().then((s) => s.worker.tick > 30)');
  });

  it('draws boxes that move (viewport screenshots, 1200 px wide)', async () => {
    const [first, second] = await screenshotsOfMotion(app.page, 30_000);
    keepScreenshot('r3f-bodies-desktop', second);
    expect(first.length).toBeGreaterThan(30_000); // boxes, floor and light, not a blank canvas
    expect(Buffer.compare(first, second)).not.toBe(0);
  });

  it('drops a heap where the floor is clicked: a command the worker runs', async () => {
    await until('the first count', `window.bodies.bodies >= ${BODIES}`);
    const before = await read<number>('window.bodies.bodies');
    // the floor's middle, below the heap: the ray from the camera hits the plane there
    await app.page.mouse.click(600, 620);
    await until('200 more boxes', `window.bodies.bodies >= ${before + 200}`);
  });

  it('at 420 px wide: nothing wider than the screen, and it draws on', async () => {
    await app.page.setViewportSize({ width: 420, height: 860 });
    const frames = await read<number>('window.bodies.frames');
    await until('frames at the new size', `window.bodies.frames > ${frames + 10}`);
    expect(await read('document.documentElement.scrollWidth - innerWidth')).toBe(0);
    keepScreenshot('r3f-bodies-phone', await app.page.screenshot());
  });

  it('logged no console errors', () => {
    expect(app.errors).toEqual([]);
  });

  it("logged no three.js warnings: no deprecation (r3f's THREE.Clock, the shadow map type) on a user's console", () => {
    expect(app.warnings.filter((warning) => warning.startsWith('THREE.'))).toEqual([]);
  });
});
