// Opens a page in headless Chromium and saves a screenshot:
//   node scripts/screenshot.mjs URL OUT.png [waitMs] [WIDTHxHEIGHT[:touch]] [full|view] [CLICK-SELECTOR [afterMs]]
// (viewport 1280x800 unless given; `:touch` makes it a phone: touch screen, mobile viewport, device pixel ratio 2,
// saved at the CSS size; `full` saves the whole page, not only the viewport). With a selector, it
// clicks that element after waitMs and shoots afterMs later (default 1500): the demo's slow frame, say:
//   node scripts/screenshot.mjs http://127.0.0.1:4173/ docs/demo.png 3000 1280x800 full '#slowFrame'
// Prints the page's console errors, if any, and exits non-zero when there were some.
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from './engines.mjs';

const [url = 'http://127.0.0.1:5173/', out = 'screenshot.png', wait = '2000', size = '1280x800', full, click, after = '1500'] = process.argv.slice(2);
const [dimensions, device] = size.split(':');
const [width, height] = dimensions.split('x').map(Number);
const touch = device === 'touch';
const executablePath = findChromium();
if (executablePath === null) {
  console.error(MISSING_CHROMIUM_MESSAGE);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage({ viewport: { width, height }, ...(touch ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}) });
const errors = [];
page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
page.on('pageerror', (error) => errors.push(error.message));
await page.goto(url);
await page.waitForTimeout(Number(wait));
if (click !== undefined) {
  await page.locator(click).click();
  await page.waitForTimeout(Number(after));
}
await page.screenshot({ path: out, fullPage: full === 'full', scale: 'css' });
await browser.close();
console.log(`saved ${out}`);
for (const error of errors) console.error(`console error: ${error}`);
process.exit(errors.length > 0 ? 1 : 0);
