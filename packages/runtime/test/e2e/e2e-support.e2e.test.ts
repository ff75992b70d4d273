/**
 * The e2e tests' own wait (scripts/e2e-support.mjs `waitUntil`), on a blank page in headless Chromium: an
 * expression that returns a promise is awaited, poll by poll, until its value is truthy. Playwright's
 * `waitForFunction` takes the promise itself as truthy and returns at once; a helper built on it made
 * readme-render-worker.e2e.test.ts's "ten more frames" wait for nothing (3 failures in 11 standalone runs).
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helpers shared with the other e2e tests; no type declarations.
import { launchChromium, waitUntil } from '../../../../scripts/e2e-support.mjs';

const wait = waitUntil as (page: Page, what: string, expression: string, timeout?: number) => Promise<void>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  // a counter that the page moves on by itself, as a runtime's frame count does
  await page.evaluate('window.n = 0; setInterval(() => window.n++, 5)');
});

afterAll(async () => {
  await browser?.close();
});

it('awaits an expression that returns a promise, until its value is truthy', async () => {
  const from = (await page.evaluate('window.n')) as number;
  await wait(page, 'twenty more counts', `Promise.resolve(window.n > ${from + 20})`);
  expect(await page.evaluate('window.n')).toBeGreaterThan(from + 20);
  await wait(page, 'twenty more, after a turn', `new Promise((resolve) => setTimeout(() => resolve(window.n > ${from + 40}), 1))`);
  expect(await page.evaluate('window.n')).toBeGreaterThan(from + 40);
});

it('waits on a plain expression as before', async () => {
  const from = (await page.evaluate('window.n')) as number;
  await wait(page, 'twenty more counts', `window.n > ${from + 20}`);
  expect(await page.evaluate('window.n')).toBeGreaterThan(from + 20);
});

it('fails naming what it waited for when the value never comes, even from a promise', async () => {
  await expect(wait(page, 'a promise of false', 'Promise.resolve(false)', 300)).rejects.toThrow(/timed out waiting for a promise of false/);
  // a promise that never settles does not outlast the timeout either
  await expect(wait(page, 'a promise never settled', 'new Promise(() => {})', 300)).rejects.toThrow(/a promise never settled/);
});

it('throws at once what the expression throws (a typo is not a timeout)', async () => {
  await expect(wait(page, 'a typo', 'window.nothere.field > 1', 60_000)).rejects.toThrow(/waiting for a typo, the expression threw: .*Cannot read/);
});
