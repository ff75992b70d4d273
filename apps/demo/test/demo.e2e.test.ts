/**
 * End to end: the BUILT demo, served by `vite preview` with its COOP/COEP headers, in headless Chromium (Debian's,
 * through playwright; never a downloaded browser). The page is isolated, draws frames that change, every control
 * does what it says (checked through `window.demo` and the runtime's stats, not pixels), and the console stays
 * clean.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the scripts; it has no type declarations.
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from '../../../scripts/chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = mkdtempSync(join(tmpdir(), 'steadyframe-demo-'));
let server: PreviewServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

/** Polls a page expression until it is truthy (a hang guard: never an assertion on time). */
async function until(what: string, expression: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction(expression, undefined, { timeout, polling: 50 }).catch((error: unknown) => {
    throw new Error(`timed out waiting for ${what}: ${String(error)}`);
  });
}

const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

beforeAll(async () => {
  const executablePath = findChromium() as string | null;
  if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  await build({ root, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  server = await preview({ root, logLevel: 'error', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('vite preview did not say where it listens');
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await until('the first frame', 'window.demo?.ready === true && window.demo.stats !== null');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(outDir, { recursive: true, force: true });
});

describe('the demo, built and served by vite preview', () => {
  it('is cross-origin isolated and runs on the shared transport', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.demo.runtime.transport')).toBe('shared');
    expect(await read('window.demo.runtime.info.crossOriginIsolated')).toBe(true);
    expect(await read('window.demo.problem')).toBeNull();
  });

  it('draws frames that are not blank and change over time', async () => {
    const panel = page.locator('#right');
    const first = await panel.screenshot();
    await until('more frames', 'window.demo.metrics.frames > 30');
    const frames = await read<number>('window.demo.metrics.frames');
    await until('ten more frames', `window.demo.metrics.frames > ${frames + 10}`);
    const second = await panel.screenshot();
    // thousands of bodies do not compress like an empty canvas does
    expect(first.length).toBeGreaterThan(20_000);
    expect(Buffer.compare(first, second)).not.toBe(0);
  });

  it('changes the tick rate, body count and time scale', async () => {
    await page.locator('#tickRate').fill('30');
    await until('tick rate 30', 'window.demo.stats.worker.tickRate === 30');
    await page.locator('#count').selectOption('1000');
    await until('1,000 bodies', 'window.demo.metrics.count === 1000');
    await page.locator('#timeScale').selectOption('2');
    await until('time scale 2', 'window.demo.stats.worker.timeScale === 2');
  });

  it('pauses, steps one tick, and resumes', async () => {
    await page.locator('#pause').click();
    await until('paused', "window.demo.stats.worker.status === 'paused'");
    await page.waitForTimeout(100); // let the last state published before the pause reach the page
    const held = await read<number>('window.demo.metrics.newestTick');
    await page.locator('#step').click();
    await until('one more tick', `window.demo.metrics.newestTick === ${held + 1}`);
    await page.locator('#pause').click();
    await until('running', `window.demo.stats.worker.status === 'running' && window.demo.metrics.newestTick > ${held + 1}`);
  });

  it('switches the right panel between latest, interpolate, extrapolate and delayed', async () => {
    for (const [mode, expected] of [
      ['latest', 'latest'],
      ['extrapolate', 'extrapolate'],
      ['interpolate', 'interpolate'],
    ] as const) {
      await page.locator(`#mode input[value="${mode}"]`).check({ force: true });
      await until(`mode ${mode}`, `window.demo.metrics.rightMode === '${expected}'`);
    }
    await page.locator('#mode input[value="delay"]').check({ force: true });
    await page.locator('#delay').fill('2');
    await until('a two-tick delay', "window.demo.metrics.rightMode === 'interpolate' && window.demo.metrics.rightDelay === 2");
    await page.locator('#whenLate').selectOption('extrapolate');
    await until('extrapolate when late', "window.demo.metrics.whenLate === 'extrapolate'");
  });

  it('loads the worker and injects jank', async () => {
    await page.locator('#load').fill('8');
    await until('8 ms steps', 'window.demo.settings.loadMs === 8 && window.demo.stats.worker.lastStepMs >= 7');
    expect(await read<number>('window.demo.metrics.maxStepMs')).toBeLessThan(100); // no long step so far
    await page.locator('#jank').selectOption('150');
    await until('a 150 ms step', 'window.demo.settings.jankMs === 150 && window.demo.metrics.maxStepMs >= 140', 30_000);
    await page.locator('#load').fill('0');
    await page.locator('#jank').selectOption('0');
  });

  it('turns the adaptive render interval off and on (a new runtime each time)', async () => {
    const made = await read<number>('window.demo.recreations');
    await page.locator('#adaptive').uncheck();
    await until('a runtime without adaptive pacing', `window.demo.recreations > ${made} && window.demo.stats?.pacing.adaptive === false`);
    await page.locator('#adaptive').check();
    await until('adaptive again', 'window.demo.stats?.pacing.adaptive === true');
  });

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});
