// The README's screenshots of the multiplayer game: with `npm run multiplayer` serving (http://127.0.0.1:5177/),
//   node apps/multiplayer/scripts/screenshots.mjs [url] [folder]
// opens three players in headless Chromium (Debian's, as every script here launches it): two steered and firing
// by this script through the page's own hooks, one at 1280x800 steering with its keys and shooting at orbs; then
// a fourth as a phone (390 px wide, touch, so its thumb controls show). Saves multiplayer.png and
// multiplayer-phone.png in the folder (default docs/); prints the pages' console errors and exits non-zero on any.
import { join } from 'node:path';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from '../../../scripts/engines.mjs';

const [url = 'http://127.0.0.1:5177/', folder = 'docs'] = process.argv.slice(2);
const executablePath = findChromium();
if (executablePath === null) {
  console.error(MISSING_CHROMIUM_MESSAGE);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const errors = [];
async function player(options) {
  const page = await browser.newPage(options);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(url);
  await page.waitForFunction('window.multiplayer?.ready === true', null, { timeout: 30_000 });
  return page;
}
/** Has `page` fire at orb `orb` from the next frame it draws, aimed where that frame shows it. */
const shootAt = (page, orb) =>
  page.evaluate(`(() => {
    const m = window.multiplayer;
    m.onFrame = (f) => {
      const me = 12 + m.slot, p = f.fields.position;
      m.fire(p[2 * ${orb}] - p[2 * me], p[2 * ${orb} + 1] - p[2 * me + 1]);
      m.onFrame = null;
    };
  })()`);
/** Steers `page` round `turns` (a key held each 400 ms, in turn) and fires at orbs as it goes. */
const wander = (page, turns) =>
  page.evaluate(`(() => {
    const turns = ${JSON.stringify(turns)};
    let k = 0;
    setInterval(() => {
      const m = window.multiplayer, [dx, dy] = turns[k++ % turns.length];
      m.runtime.sendInput(0, dx, dy);
      m.fire(Math.cos(k * 1.3), Math.sin(k * 1.3));
    }, 400);
  })()`);

const desk = await player({ viewport: { width: 1280, height: 800 } });
await wander(await player({ viewport: { width: 800, height: 600 } }), [[1, 0], [0, 1], [-1, 0], [0, -1]]);
await wander(await player({ viewport: { width: 800, height: 600 } }), [[1, 1], [-1, 0], [1, -1]]);
await desk.keyboard.down('ArrowRight');
await desk.waitForTimeout(600);
await desk.keyboard.down('ArrowDown');
await desk.waitForTimeout(400);
await desk.keyboard.up('ArrowRight');
for (let orb = 0; orb < 6; orb++) {
  await shootAt(desk, orb);
  await desk.waitForTimeout(350);
}
await desk.keyboard.up('ArrowDown');
await desk.waitForTimeout(2500);
await shootAt(desk, 3);
await desk.waitForTimeout(60);
await desk.screenshot({ path: join(folder, 'multiplayer.png'), scale: 'css' });
const phone = await player({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
await phone.waitForTimeout(3000);
await shootAt(phone, 5);
await phone.waitForTimeout(60);
await phone.screenshot({ path: join(folder, 'multiplayer-phone.png'), scale: 'css' });
await browser.close();
console.log(`saved ${join(folder, 'multiplayer.png')} and ${join(folder, 'multiplayer-phone.png')}`);
for (const error of errors) console.error(`console error: ${error}`);
process.exit(errors.length > 0 ? 1 : 0);
