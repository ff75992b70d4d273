// Shared by the end-to-end tests: build an app with Vite, serve it with `vite preview`, open it in Debian's
// headless Chromium through playwright (never a downloaded browser), and collect the page's console errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from './chromium.mjs';

/** Headless Chromium, or a clear message saying how to provide one. */
export async function launchChromium() {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** Collects the page's console errors and uncaught exceptions into the returned array. */
export function watchErrors(page) {
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Builds `root` (with `configFile`, default its own) into a temp folder and serves it; returns its URL and a closer. */
export async function buildAndPreview(root, configFile = undefined) {
  const outDir = mkdtempSync(join(tmpdir(), 'steadyframe-build-'));
  const options = { root, logLevel: 'error', build: { outDir, emptyOutDir: true }, ...(configFile === undefined ? {} : { configFile }) };
  await build(options);
  const server = await preview({ ...options, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('vite preview did not say where it listens');
  return {
    url,
    async close() {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Builds and serves `root`, opens it in a new headless Chromium page; returns the page, its errors, a closer. */
export async function openBuiltApp(root, viewport = { width: 1200, height: 820 }) {
  const served = await buildAndPreview(root);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.goto(served.url);
  return {
    page,
    errors,
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

/**
 * Polls a page expression until it is truthy (a hang guard, never an assertion on time); fails naming `what`.
 * The expression may return a promise (`runtime.stats().then((s) => s.render.drawn > 5)`): each poll awaits it.
 * Not Playwright's `waitForFunction`, which takes the promise itself, an object, as truthy and returns at once:
 * a wait for "ten more frames" then waits for nothing. A poll that throws fails at once (a typo, a missing
 * global), except one cut short by a navigation, which is polled again.
 */
export async function waitUntil(page, what, expression, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let timer;
  const expired = new Promise((resolve) => (timer = setTimeout(resolve, timeout, TIMED_OUT)));
  try {
    for (;;) {
      const poll = page.evaluate(expression).catch((error) => {
        if (/Execution context was destroyed|navigat/i.test(String(error))) return RETRY; // reloaded under it: again
        throw new Error(`waiting for ${what}, the expression threw: ${String(error)}`);
      });
      const value = await Promise.race([poll, expired]);
      if (value === TIMED_OUT) break;
      if (value !== RETRY && value) return;
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`timed out waiting for ${what} (${timeout} ms): ${expression}`);
}

const TIMED_OUT = Symbol('timed out');
const RETRY = Symbol('retry');

/**
 * Two screenshots of `page`: the first once it is no longer blank (a PNG over `minBytes`: an empty canvas
 * compresses to very little), the second once it differs from the first. Polls, up to `timeout` ms each (a hang
 * guard: a loaded machine may take seconds to load an app and its WebAssembly); the caller asserts on what came
 * back.
 */
export async function screenshotsOfMotion(page, minBytes, timeout = 20_000) {
  let first = await page.screenshot();
  for (const deadline = Date.now() + timeout; first.length <= minBytes && Date.now() < deadline; ) {
    await page.waitForTimeout(100);
    first = await page.screenshot();
  }
  let second = first;
  for (const deadline = Date.now() + timeout; Buffer.compare(first, second) === 0 && Date.now() < deadline; ) {
    await page.waitForTimeout(100);
    second = await page.screenshot();
  }
  return [first, second];
}
