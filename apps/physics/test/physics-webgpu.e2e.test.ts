/**
 * End to end: the BUILT physics example on three.js's WebGPURenderer (`?renderer=webgpu`: `@steadyframe/three/webgpu`'s
 * TSL blend), served by `vite preview`. Its canvas presents, so it runs in the Chromium whose WebGPU canvases do
 * (engines.mjs's WEBGPU_PRESENT_CHROMIUM_ARGS: Dawn's SwiftShader adapter, ANGLE on Vulkan; that Chromium has no
 * WebGL 2, docs/webgpu.md), not in the e2e project's usual one. The HUD names WebGPU and its adapter, the bodies are
 * drawn and move, the page fits 390 px, the device lives, the console stays clean. Then the usual Chromium (no
 * adapter) opened the same way: WebGL draws, and the HUD says why. The WebGL path's own e2e is physics.e2e.test.ts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { buildAndPreview, countPixels, keepScreenshot, launchChromium, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';
// @ts-expect-error: plain .mjs module shared with the test set-up; it has no type declarations.
import { WEBGPU_PRESENT_CHROMIUM_ARGS } from '../../../scripts/engines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let served: { url: string; close(): Promise<void> } | undefined;
let browser: Browser | undefined;
let page: Page;
let errors: string[] = [];

const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(page, what, expression, timeout);
const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
/** The spheres' lit blue (0x5fb3e6), which neither the dark background nor the orange floor and boxes have. */
const BLUE = `(r, g, b) => (b > 120 && b > r + 50 && b > g + 10 ? 'sphere' : null)`;

/** Hides the HUD and the help line, whose readings change every 250 ms: a screenshot that differs is then the canvas. */
const canvasOnly = (): Promise<unknown> => page.addStyleTag({ content: '#hud, #help { visibility: hidden; }' });

beforeAll(async () => {
  served = await buildAndPreview(root);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('?renderer=webgpu, in a Chromium whose WebGPU canvases present', () => {
  beforeAll(async () => {
    browser = await launchChromium({ args: WEBGPU_PRESENT_CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    errors = watchErrors(page);
    await page.goto(`${served!.url}?renderer=webgpu&seed=2`);
    await until('the first frame and pile state', 'window.pile?.ready === true', 60_000);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });

  it('draws with WebGPURenderer, and the HUD names it and its adapter', async () => {
    expect(await read('window.pile.gpu.api')).toBe('WebGPU');
    expect(await read('window.pile.gpu.fellBack')).toBeNull();
    await until('the HUD', "document.querySelector('#renderer') !== null");
    const [row, label, device, software, name] = await read<[string, string, string, string | null, string]>(
      "[document.querySelector('#renderer').textContent, document.querySelector('#gl').previousElementSibling.textContent, document.querySelector('#gl').textContent, window.pile.gl.software, window.pile.gl.name]",
    );
    console.log(`physics on WebGPU: adapter ${name} (${software ?? 'a GPU'})`);
    expect(row).toBe('WebGPU');
    expect(label).toBe('WebGPU');
    // here Dawn's SwiftShader: a fallback adapter, so software, and the rain (scenes.ts), as on a software GL
    expect(device).toBe(software === null ? 'GPU' : `software (${software})`);
    if (software !== null) expect(await read('window.pile.scene.name')).toBe('rain');
    // the help line offers the other renderer
    expect(await read("document.querySelector('#renderer-switch').textContent")).toBe('WebGL');
    expect(await read("new URL(document.querySelector('#renderer-switch').href).searchParams.get('renderer')")).toBe('webgl');
  });

  it('draws the bodies, and the picture moves (1280 px wide)', async () => {
    // two screenshots two drawn frames apart: a WebGPU page's screenshot takes 3 to 4 s in this software Chromium
    // (a WebGL page's about 1.3), so no polling for a change
    await canvasOnly();
    const first = Buffer.from(await page.screenshot());
    const frames = await read<number>('window.pile.frames');
    await until('two more frames', `window.pile.frames > ${frames + 1}`, 30_000);
    const second = Buffer.from(await page.screenshot());
    keepScreenshot('physics-webgpu-desktop', second);
    expect(Buffer.compare(first, second)).not.toBe(0);
    // the rain's spheres (about half of 300 and more bodies), blended into place by the TSL node
    const colours = await countPixels(page, second, BLUE);
    expect(colours.sphere ?? 0).toBeGreaterThan(2_000);
  }, 60_000);

  it('lays out at 390 px wide (a phone held upright): no wider than the screen, the renderer switch on it, frames drawn', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const frames = await read<number>('window.pile.frames');
    await until('two frames at the new size', `window.pile.frames > ${frames + 1}`, 30_000);
    expect(await read('document.documentElement.scrollWidth - innerWidth')).toBe(0);
    const link = (await page.locator('#renderer-switch').boundingBox())!;
    expect(link.x + link.width).toBeLessThanOrEqual(390);
    // the canvas at the new size (devicePixelRatio 1 here)
    expect(await read('[document.querySelector("#view").width, document.querySelector("#view").height]')).toEqual([390, 844]);
  }, 60_000);

  it('kept its device and logged no console errors', async () => {
    expect(await read('window.pile.gpu.lost')).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('?renderer=webgpu, in a Chromium without a WebGPU adapter', () => {
  it('draws with WebGL instead, and the HUD says why', async () => {
    browser = await launchChromium(); // the usual e2e flags: no --enable-unsafe-webgpu, so no adapter
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    errors = watchErrors(page);
    await page.goto(`${served!.url}?renderer=webgpu&seed=2`);
    await until('the first frame and pile state', 'window.pile?.ready === true', 60_000);
    expect(await read('window.pile.gpu')).toEqual({ api: 'WebGL', fellBack: 'no WebGPU adapter', lost: null });
    await until('the HUD', "document.querySelector('#renderer') !== null");
    expect(await read("document.querySelector('#renderer').textContent")).toBe('WebGL (no WebGPU adapter)');
    expect(await read("document.querySelector('#gl').previousElementSibling.textContent")).toBe('GL');
    expect(await read("document.querySelector('#renderer-switch').textContent")).toBe('WebGPU');
    const frames = await read<number>('window.pile.frames');
    await until('more frames drawn', `window.pile.frames > ${frames + 1}`, 30_000);
    expect(errors).toEqual([]);
  }, 90_000);
});
