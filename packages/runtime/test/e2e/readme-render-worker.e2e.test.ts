/**
 * The render-worker guide's example (site/guides/render-worker.md), run: its scene.ts, render.worker.ts and main.ts,
 * with the three.js guide's ships.worker.ts and the Start page's vite.config.ts, built by Vite in a scratch app inside the workspace (so
 * the packages resolve as source; the packed-tarball apps in packed.e2e.test.ts cover the install path), served
 * by `vite preview` with the Start page's headers, and opened in headless Chromium. The frames must be drawn in the
 * render worker (no fallback) and move.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers shared with the other e2e tests; no type declarations.
import { buildAndPreview, launchChromium, watchErrors, waitUntil } from '../../../../scripts/e2e-support.mjs';
// @ts-expect-error: plain .mjs helper shared with other tests; no type declarations.
import { siteExamples } from '../../../../scripts/readme-examples.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const scratch = join(root, '.readme-render-check'); // not .readme-check: readme.test.ts clears that one, maybe meanwhile
/** The site's examples, page ('start', 'guides/three') -> file name -> source. */
const examples = siteExamples as () => Map<string, Map<string, string>>;

let browser: Browser;
let page: Page;
let errors: string[] = [];
let served: { url: string; close(): Promise<void> } | undefined;

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(join(scratch, 'src'), { recursive: true });
  writeFileSync(join(scratch, 'vite.config.ts'), examples().get('start')!.get('vite.config.ts')!);
  writeFileSync(join(scratch, 'src', 'ships.worker.ts'), examples().get('guides/three')!.get('ships.worker.ts')!);
  for (const [name, source] of examples().get('guides/render-worker')!) {
    // the page's runtime, for the test to read
    const text = name === 'main.ts' ? `${source}\n(globalThis as unknown as { runtime: unknown }).runtime = runtime;\n` : source;
    writeFileSync(join(scratch, 'src', name), text);
  }
  // the template's page, as the guide's main.ts finds it: it makes and sizes its own canvas
  writeFileSync(
    join(scratch, 'index.html'),
    '<!doctype html><html><head><link rel="icon" href="data:,"></head><body>' +
      '<div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>',
  );
  served = await buildAndPreview(scratch);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  errors = watchErrors(page);
  await page.goto(served!.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  rmSync(scratch, { recursive: true, force: true });
});

it("draws the render-worker guide's example in the render worker, moving, with a clean console", async () => {
  await waitUntil(page, 'the runtime', 'globalThis.runtime !== undefined', 30_000);
  expect(await page.evaluate('crossOriginIsolated')).toBe(true);
  expect(await page.evaluate('runtime.renderer')).toBe('worker');
  expect(await page.evaluate('runtime.renderFallback')).toBeNull();
  const drawn = (): Promise<number> => page.evaluate('runtime.stats().then((s) => s.render.drawn)') as Promise<number>;
  await waitUntil(page, 'frames from the render worker', 'runtime.stats().then((s) => s.render.drawn > 5)');
  const canvas = page.locator('canvas');
  // frames drawn before the first states arrive show an empty scene: on a loaded machine the first screenshot
  // may come that early, so look again (for 20 s at most) until the boxes are there
  let first = await canvas.screenshot();
  for (const until = Date.now() + 20_000; first.length <= 5_000 && Date.now() < until; ) {
    await page.waitForTimeout(250);
    first = await canvas.screenshot();
  }
  const before = await drawn();
  const tick = (await page.evaluate('runtime.stats().then((s) => s.worker.tick)')) as number;
  // a promise, awaited by waitUntil at each poll (Playwright's waitForFunction would take it as true at once)
  await waitUntil(page, 'ten more frames and two more ticks', `runtime.stats().then((s) => s.render.drawn > ${before + 10} && s.worker.tick > ${tick + 2})`);
  expect(await drawn()).toBeGreaterThan(before + 10); // the wait waited (it once returned at once, and this flaked)
  const second = await canvas.screenshot();
  expect(first.length).toBeGreaterThan(5_000); // a thousand shaded boxes, not a blank canvas
  expect(Buffer.compare(first, second)).not.toBe(0);
  // drawn at the canvas's CSS size, the whole window (an unsized canvas would be 300 x 150)
  expect(await page.evaluate('runtime.stats().then((s) => [s.render.canvas.width, s.render.canvas.height])')).toEqual([640, 480]);
  expect(await page.evaluate('runtime.stats().then((s) => s.render.thread)')).toBe('worker');
  expect(errors).toEqual([]);
});
