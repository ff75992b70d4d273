/**
 * End to end: the PixiJS particle-container example ported onto steadyframe (apps/bench/src/maggots/, the
 * bench's pixi-port suite), BUILT and served by `vite preview` with its COOP/COEP headers, in headless Chromium.
 * The suite runs its three scenes (the example as published, the same on a ParticleContainer, the port) at 5k
 * maggots in quick mode; this checks what does not depend on this machine's speed: the page stays clean, every
 * scene draws something and moves every maggot, and the port renders exactly the frames the pacer presents
 * (each drawn frame's update is followed by one render, and nothing renders on a refresh the pacer skips).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { buildAndPreview, launchChromium, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';
import type { PortRow } from '../src/suites/pixi-port.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const COUNT = 5000;
let browser: Browser | undefined;
let page: Page;
let errors: string[] = [];
let close: (() => Promise<void>) | undefined;
let rows: PortRow[] = [];

beforeAll(async () => {
  const served = await buildAndPreview(root);
  close = served.close;
  browser = await launchChromium();
  page = await browser!.newPage();
  errors = watchErrors(page);
  await page.goto(`${served.url}?suite=pixi-port&quick=1&count=${COUNT}`);
  await waitUntil(page, 'the pixi-port suite to finish', 'window.__done === true', 100_000);
  const { error, results } = (await page.evaluate('({ error: window.__error ?? null, results: window.__results ?? null })')) as {
    error: string | null;
    results: { data: { rows: PortRow[] } } | null;
  };
  expect(error).toBeNull();
  rows = results!.data.rows;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await close?.();
});

describe('the PixiJS example ported onto steadyframe (bench suite pixi-port)', () => {
  it('runs every scene with a clean console', () => {
    expect(rows.map((r) => r.design)).toEqual(['original', 'original-particles', 'port']);
    expect(errors).toEqual([]);
  });

  it('draws maggots in every scene, and every maggot moves', () => {
    for (const row of rows) {
      expect(row.count).toBe(COUNT);
      // 5k ellipses of 8×5 px scattered over 800×600 cover a good part of it; a blank canvas has 0
      expect(row.litPixels, row.design).toBeGreaterThan(20_000);
      expect(row.moved, row.design).toBe(COUNT);
      for (const w of row.windows) expect(w.rafPerSecond, row.design).toBeGreaterThan(0);
    }
  });

  it('renders exactly the frames the pacer presents, each after its update', () => {
    const port = rows.find((r) => r.design === 'port')!.port!;
    expect(port.frames).toBeGreaterThan(0);
    expect(port.updates).toBe(port.frames);
    expect(port.renders).toBe(port.frames);
    expect(port.late).toBeLessThanOrEqual(port.frames);
    for (const row of rows) expect(row.port === null, row.design).toBe(row.design !== 'port');
  });
});
