// Opens a page in headless Chromium and saves a screenshot: `node scripts/screenshot.mjs URL OUT.png [waitMs]`.
// Prints the page's console errors, if any, and exits non-zero when there were some.
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from './chromium.mjs';

const [url = 'http://127.0.0.1:5173/', out = 'screenshot.png', wait = '2000'] = process.argv.slice(2);
const executablePath = findChromium();
if (executablePath === null) {
  console.error(MISSING_CHROMIUM_MESSAGE);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
const errors = [];
page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
page.on('pageerror', (error) => errors.push(error.message));
await page.goto(url);
await page.waitForTimeout(Number(wait));
await page.screenshot({ path: out });
await browser.close();
console.log(`saved ${out}`);
for (const error of errors) console.error(`console error: ${error}`);
process.exit(errors.length > 0 ? 1 : 0);
