// The site's screenshots (docs/site-*.png), and its search tried: serves the built site (`npm run docs:build`
// first) with `vitepress preview`, opens the Start page, a guide and an API page in headless Chromium at desktop
// (1280) and phone (390, touch) widths, then types "pace" into the search box and prints what it finds.
//   flock /tmp/steadyframe-browser.lock node site/scripts/screenshots.mjs
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from '../../scripts/engines.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = 4179;
const base = `http://127.0.0.1:${PORT}`;
const PAGES = [
  ['start', '/start'],
  ['concepts', '/concepts'],
  ['guide', '/guides/three'],
  ['api', '/api/steadyframe/functions/createRuntime'],
];
const SIZES = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }],
];

const executablePath = findChromium();
if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE);
const server = spawn(join(ROOT, 'node_modules', '.bin', 'vitepress'), ['preview', join(ROOT, 'site'), '--port', String(PORT), '--host', '127.0.0.1'], { stdio: 'ignore' });
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/start`)).ok) break;
    } catch {}
    if (i > 100) throw new Error('steadyframe docs: vitepress preview did not answer');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  for (const [size, options] of SIZES) {
    const page = await browser.newPage(options);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const [name, path] of PAGES) {
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const out = join(ROOT, 'docs', `site-${name}-${size}.png`);
      await page.screenshot({ path: out, scale: 'css' });
      console.log(`saved ${out}`);
    }
    if (errors.length > 0) console.error(`page errors at ${size}:\n${errors.join('\n')}`);
    await page.close();
  }
  // the search box (VitePress's local search): "pace"
  const page = await browser.newPage(SIZES[0][1]);
  await page.goto(`${base}/start`, { waitUntil: 'networkidle' });
  await page.locator('.DocSearch-Button, .VPNavBarSearchButton, button[aria-label="Search"]').first().click();
  await page.locator('#localsearch-input').pressSequentially('pace', { delay: 50 });
  // the index loads on the first search: wait for the answers (a hang guard, not a timing check)
  await page.locator('#localsearch-list li').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const results = await page.locator('#localsearch-list li').allInnerTexts();
  await page.screenshot({ path: join(ROOT, 'docs', 'site-search-desktop.png'), scale: 'css' });
  console.log(`search "pace": ${results.length} results\n${results.slice(0, 8).map((text) => `  ${text.replace(/\s+/g, ' ')}`).join('\n')}`);
  await browser.close();
} finally {
  server.kill();
}
