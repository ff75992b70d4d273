/**
 * End to end: the BUILT Babylon example, served by `vite preview` with its COOP/COEP headers, in headless
 * Chromium: cross-origin isolated on the shared transport, 5,000 thin instances drawn and moving, blended at the
 * alpha of the frame's time (the runtime's own), a tap throws a burst in through the input ring, at 420 px wide
 * the scene fits, `?engine=webgpu` falls back to WebGL 2 where there is no adapter, and a clean console.
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

// the app's 20,000 draw at 1.5 frames a second in this software GL (1.6 at 1200 px, 1.5 at 420, alone on the
// machine): under a CI run's load the phone-width test's 10 frames took longer than its 15 s. 5,000 draw at 7 to 9
// a second. What the e2e checks (the blend, the input, the fit) does not need more; the bench measures capacity
const INSTANCES = 5_000;

beforeAll(async () => {
  app = await openBuiltApp(root, { width: 1200, height: 800 });
  await app.page.goto(`${app.url}?instances=${INSTANCES}`);
  await until('the runtime and 30 drawn frames', 'window.swarm?.runtime != null && window.swarm.rendered > 30', 60_000);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('the Babylon example, built and served by vite preview', () => {
  it('runs cross-origin isolated on the shared transport, on WebGL 2, the simulation started', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.swarm.runtime.transport')).toBe('shared');
    expect(await read('window.swarm.engineName')).toBe('WebGL2');
    await until('ticks', 'window.swarm.runtime.stats().then((s) => s.worker.tick > 30)');
    expect(await read('window.swarm.blended.count')).toBe(INSTANCES);
    expect(await read('window.swarm.scene.getMeshByName("bodies").thinInstanceCount')).toBe(INSTANCES);
  });

  it('draws thin instances that move, lit in their colour', async () => {
    const [first, second] = await screenshotsOfMotion(app.page, 30_000);
    keepScreenshot('babylon-desktop', second);
    expect(Buffer.compare(first, second)).not.toBe(0);
    // the bodies' lit orange against the dark background: thousands of pixels of it
    const colours = await countPixels(app.page, second, `(r, g, b) => (r > 120 && g > 50 && g < r && b < g ? 'body' : null)`);
    expect(colours.body ?? 0).toBeGreaterThan(5_000);
  });

  it('blends at the alpha of the frame time, as runtime.sample places it; at most one upload per publish', async () => {
    // a few frames' times between the newest pair's states, each given to the GPU path and to the sampler
    // measured again where the worker published while it was measured (a CI run's publish between the newest
    // pair's sample and the GPU path's read gave the two different pairs: 0.45 against 0.1)
    const pairs = await read<Array<[number, number]>>(`(() => {
      const { runtime, blended } = window.swarm;
      for (let attempt = 0; ; attempt++) {
        const published = runtime.reader.publishCount();
        const now = runtime.sample(Number.POSITIVE_INFINITY);
        const pairs = [0.1, 0.45, 0.9].map((a) => {
          const t = now.previousTime + a * (now.currentTime - now.previousTime);
          blended.update(t);
          return [blended.alpha, runtime.sample(t).alpha];
        });
        if (runtime.reader.publishCount() === published || attempt === 50) return pairs;
      }
    })()`);
    for (const [gpu, sampled] of pairs) expect(gpu).toBeCloseTo(sampled, 6);
    // uploads (both states, or the current one after a swap) never outnumber the publishes: a frame uploads only
    // what was published since the last (software GL draws a few frames a second here: mostly both states)
    const [uploads, ticks] = await read<[number, number]>(`window.swarm.runtime.stats().then((s) => {
      const { fullUploads, swaps } = window.swarm.blended.stats;
      return [fullUploads + swaps, s.worker.tick];
    })`);
    expect(uploads).toBeGreaterThan(0);
    expect(uploads).toBeLessThanOrEqual(ticks + 1);
  });

  it('throws a burst of bodies in where the scene is tapped: an input event the worker reads', async () => {
    await app.page.mouse.click(600, 400);
    await until('2,000 more bodies', `window.swarm.blended.count >= ${INSTANCES + 2000}`);
    expect(await read('window.swarm.runtime.commands.count()')).toBeGreaterThanOrEqual(INSTANCES + 2000);
  });

  it('at 420 px wide: the scene fits the screen and draws on', async () => {
    await app.page.setViewportSize({ width: 420, height: 860 });
    const rendered = await read<number>('window.swarm.rendered');
    await until('frames at the new size', `window.swarm.rendered > ${rendered + 10}`);
    expect(await read('document.documentElement.scrollWidth - innerWidth')).toBe(0);
    const [, shot] = await screenshotsOfMotion(app.page, 20_000);
    keepScreenshot('babylon-phone', shot);
    const colours = await countPixels(app.page, shot, `(r, g, b) => (r > 120 && g > 50 && g < r && b < g ? 'body' : null)`);
    expect(colours.body ?? 0).toBeGreaterThan(2_000);
  });

  it('?engine=webgpu falls back to WebGL 2 in a browser without a WebGPU adapter, and draws the same', async () => {
    await app.page.setViewportSize({ width: 1200, height: 800 });
    await app.page.goto(`${app.url}?instances=2000&engine=webgpu`);
    await until('drawn frames', 'window.swarm?.rendered > 10', 60_000);
    // the e2e Chromium runs without --enable-unsafe-webgpu: no adapter (docs/webgpu.md)
    expect(await read('window.swarm.engineName')).toBe('WebGL2');
    const [first, second] = await screenshotsOfMotion(app.page, 10_000);
    expect(Buffer.compare(first, second)).not.toBe(0);
  }, 120_000);

  it('logged no console errors', () => {
    expect(app.errors).toEqual([]);
  });
});
