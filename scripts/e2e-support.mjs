// Shared by the end-to-end tests: build an app with Vite, serve it with `vite preview`, open it in Debian's
// headless Chromium through playwright (never a downloaded browser), and collect the page's console errors.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, enginesToRun, findChromium, launchFirefoxPage, launchWebKit, MISSING_CHROMIUM_MESSAGE } from './engines.mjs';

/**
 * How many seconds of play the end-to-end recordings (the arena's, the physics pile's) record before Node replays
 * them: 6 in `npm test`, to keep a CI run within its 25 minutes (the arena's 20 s took 40 s of a loaded run and
 * was cut to 10, then 6: a CI run of 10 s had 21 key events, and the replay's check is the same for each tick);
 * `STEADYFRAME_RECORD_SECONDS=60` for a longer session.
 */
export const RECORD_SECONDS = Number(process.env.STEADYFRAME_RECORD_SECONDS) > 0 ? Number(process.env.STEADYFRAME_RECORD_SECONDS) : 6;

/**
 * Headless Chromium, or a clear message saying how to provide one. `{ args }`: other launch arguments than
 * CHROMIUM_ARGS, such as engines.mjs's WEBGPU_PRESENT_CHROMIUM_ARGS (a Chromium whose WebGPU canvases present,
 * and which has no WebGL 2: docs/webgpu.md).
 */
export async function launchChromium({ args = CHROMIUM_ARGS } = {}) {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
  return chromium.launch({ executablePath, args, headless: true });
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

/** Collects the page's console warnings into the returned array (a library's deprecation notices among them). */
export function watchWarnings(page) {
  const warnings = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  return warnings;
}

/** Builds and serves `root`, opens it in a new headless Chromium page; returns the page, its errors and warnings, its URL, a closer. */
export async function openBuiltApp(root, viewport = { width: 1200, height: 820 }) {
  const served = await buildAndPreview(root);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  const warnings = watchWarnings(page);
  await page.goto(served.url);
  return {
    page,
    errors,
    warnings,
    url: served.url,
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
 * Two screenshots of `page` (a playwright page, or `openEnginePage`'s): the first once it is no longer blank
 * (a PNG over `minBytes`: an empty canvas
 * compresses to very little), the second once it differs from the first. Polls, up to `timeout` ms each (a hang
 * guard: a loaded machine may take seconds to load an app and its WebAssembly); the caller asserts on what came
 * back.
 */
export async function screenshotsOfMotion(page, minBytes, timeout = 20_000) {
  const shot = async () => Buffer.from(await page.screenshot());
  const later = () => new Promise((resolve) => setTimeout(resolve, 100));
  let first = await shot();
  for (const deadline = Date.now() + timeout; first.length <= minBytes && Date.now() < deadline; ) {
    await later();
    first = await shot();
  }
  let second = first;
  for (const deadline = Date.now() + timeout; Buffer.compare(first, second) === 0 && Date.now() < deadline; ) {
    await later();
    second = await shot();
  }
  return [first, second];
}

/** Keeps a screenshot as `<name>.png` in STEADYFRAME_SCREENSHOTS, when that names a folder (to look at). */
export function keepScreenshot(name, png) {
  const folder = process.env.STEADYFRAME_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name}.png`), png);
}

/**
 * A page in any of the three engines, for the end-to-end tests that run beyond Chromium, with one small API
 * over playwright (Chromium), puppeteer-core (Firefox) and webdriverio (WebKit):
 *   goto(url), evaluate(expression) (a JavaScript expression as a string; a promise is awaited),
 *   screenshot() (a PNG of the viewport as a Buffer: WebKit's element screenshots of a canvas come back
 *   half black, so crop from the viewport), errors (console errors and uncaught exceptions; WebKit's WebDriver
 *   classic reports neither, so it stays empty there), close().
 * `engine`: 'chromium', 'firefox', 'webkit' (as it ships) or 'webkit+sab' (as Safari runs an isolated page).
 */
export async function openEnginePage(engine, viewport = { width: 1200, height: 820 }) {
  if (engine === 'chromium') {
    const browser = await launchChromium();
    const page = await browser.newPage({ viewport });
    const errors = watchErrors(page);
    return {
      engine,
      errors,
      goto: (url) => page.goto(url).then(() => undefined),
      evaluate: (expression) => page.evaluate(expression),
      screenshot: () => page.screenshot(),
      close: () => browser.close(),
    };
  }
  if (engine === 'firefox') {
    const { browser, page } = await launchFirefoxPage();
    await page.setViewport(viewport);
    const errors = watchErrors(page); // puppeteer's page has playwright's console and pageerror events
    return {
      engine,
      errors,
      goto: (url) => page.goto(url).then(() => undefined),
      evaluate: (expression) => page.evaluate(expression),
      screenshot: async () => Buffer.from(await page.screenshot()),
      close: () => browser.close(),
    };
  }
  if (engine === 'webkit' || engine === 'webkit+sab') {
    const browser = await launchWebKit({ sharedArrayBuffer: engine === 'webkit+sab' });
    await setWebKitViewport(browser, viewport);
    return {
      engine,
      errors: [],
      goto: (url) => browser.url(url).then(() => undefined),
      // WebDriver's execute runs a function body and awaits a promise it returns
      evaluate: (expression) => browser.execute(`return (${expression});`),
      screenshot: async () => Buffer.from(await browser.takeScreenshot(), 'base64'),
      close: () => browser.close(),
    };
  }
  throw new Error(`steadyframe: no engine ${engine}; the engines are chromium, firefox, webkit, webkit+sab`);
}

/** The engines beside Chromium that are here, as `openEnginePage` names them: WebKit twice (as it ships, as Safari runs). */
export function otherEngines() {
  return enginesToRun().flatMap((engine) => (engine === 'firefox' ? ['firefox'] : engine === 'webkit' ? ['webkit', 'webkit+sab'] : []));
}

/** MiniBrowser's window is the viewport plus its frame: sized until innerWidth x innerHeight match. */
async function setWebKitViewport(browser, { width, height }) {
  await browser.setWindowSize(width, height);
  for (let tries = 0; tries < 3; tries++) {
    const [innerWidth, innerHeight] = await browser.execute('return [innerWidth, innerHeight];');
    if (innerWidth === width && innerHeight === height) return;
    const rect = await browser.getWindowRect();
    await browser.setWindowSize(rect.width + width - innerWidth, rect.height + height - innerHeight);
  }
}

/** Polls `expression` in an engine page until it is truthy (a hang guard, never an assertion on time). */
export async function waitInPage(page, what, expression, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(expression).catch((error) => {
      // reloaded under it; or WebKitWebDriver's occasional 'Could not parse script result' mid-update: again
      if (/context|navigat|detached|unload|Could not parse script result/i.test(String(error))) return undefined;
      throw new Error(`waiting for ${what} in ${page.engine}, the expression threw: ${String(error)}`);
    });
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out waiting for ${what} in ${page.engine} (${timeout} ms): ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until `condition` (a page expression) holds, measured in simulated time, not wall time: fails if it does
 * not within `seconds` simulated seconds after tick `fromTick` (an outcome of the simulation itself: fixed steps
 * make it the same on any machine), or if no tick runs for `stallMs` of real time (a hang). A loaded machine,
 * whose worker drops time it cannot keep up with, only makes the wait longer. `tick` is a page expression for
 * the current tick, `status` one whose value the failure message shows.
 */
export async function untilSimulated(page, what, condition, { tick, status = "''", fromTick, seconds, tickRate, stallMs = 30_000 }) {
  let last = fromTick;
  let movedAt = performance.now();
  for (;;) {
    const now = await page.evaluate(`({ done: Boolean(${condition}), tick: ${tick}, status: String(${status}) })`);
    if (now.done) return;
    const state = `at tick ${now.tick}${now.status === '' ? '' : `, ${now.status}`}`;
    if (now.tick - fromTick > seconds * tickRate) throw new Error(`not ${what} within ${seconds} simulated seconds (${state})`);
    if (now.tick !== last) {
      last = now.tick;
      movedAt = performance.now();
    } else if (performance.now() - movedAt > stallMs) {
      throw new Error(`no tick for ${stallMs / 1000} s while waiting for ${what} (${state})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Counts the pixels of a screenshot (`png`, a Buffer) by class, decoded in `page` (a canvas, as the browser
 * decodes it; the WebGL canvas itself is cleared once its frame is shown). `classify` is the source of a
 * function `(r, g, b) => name or null`, run in the page. Returns { name: pixels }.
 */
export async function countPixels(page, png, classify) {
  return page.evaluate(`(async () => {
    const img = new Image();
    img.src = 'data:image/png;base64,${png.toString('base64')}';
    await img.decode();
    const copy = document.createElement('canvas');
    copy.width = img.width;
    copy.height = img.height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
    const classify = ${classify};
    const counts = {};
    for (let i = 0; i < data.length; i += 4) {
      const name = classify(data[i], data[i + 1], data[i + 2]);
      if (name !== null) counts[name] = (counts[name] ?? 0) + 1;
    }
    return counts;
  })()`);
}
