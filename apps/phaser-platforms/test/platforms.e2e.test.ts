/**
 * End to end: the BUILT Phaser platforms example, served by `vite preview` with its COOP/COEP headers, in
 * headless Chromium. Rapier's deterministic 2D build runs in the worker through @steadyframe/rapier/2d; the page
 * sees the bodies (three tables: blocks, crates, balls) fall and come to rest on the platforms (Rapier puts every
 * one to sleep and the published poses stop changing), their impacts arrive as contact events per pair of
 * tables, every entity is drawn by a member of its table's group, with its table's picture, at its size and
 * pose, after the swap-removes of bodies that fell off, a click drops bodies, and the console stays clean. A
 * session of drops and resets recorded there replays in Node bit for bit. Read through `window.platforms`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { buildAndPreview, countPixels, keepScreenshot, launchChromium, RECORD_SECONDS, untilSimulated as waitSimulated, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';
import { replayRecording } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { DROP, TICK_RATE } from '../src/schema.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BODIES = 120;
/** The run's seed: the same bodies dropped on every run (with 120 bodies, asleep in Node after SETTLED_AT). */
const SEED = 3;
let page: Page;
let browser: Browser;
let errors: string[] = [];
let served: { url: string; close(): Promise<void> } | undefined;

const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(page, what, expression, timeout);
const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
/** Waits until `condition` holds, bounded in simulated seconds after tick `fromTick` (a hang guard in real time). */
const untilSimulated = (what: string, condition: string, fromTick: number, seconds: number): Promise<void> =>
  waitSimulated(page, what, condition, {
    tick: 'window.platforms.state.tick',
    status: '`${window.platforms.state.sleeping} of ${window.platforms.state.bodies} bodies asleep`',
    fromTick,
    seconds,
    tickRate: TICK_RATE,
  });

/** Seconds of drops and resets recorded and replayed: 10 unless STEADYFRAME_RECORD_SECONDS says. */
const SECONDS = Number(process.env.STEADYFRAME_RECORD_SECONDS) > 0 ? RECORD_SECONDS : 10;

/** The newest published state of the dynamic bodies (the crates' and the balls' tables): y, by table and index. */
const NEWEST = `(() => { const f = window.platforms.runtime.sample(Infinity); const y = [];
  for (const t of [f.tables.crates, f.tables.balls]) for (let i = 0; i < t.count; i++) y.push(t.fields.position[2 * i + 1]); return y; })()`;

beforeAll(async () => {
  served = await buildAndPreview(root);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
  errors = watchErrors(page);
  await page.goto(`${served!.url}?bodies=${BODIES}&seed=${SEED}`);
  await until('the first frames and state', 'window.platforms?.frames > 5 && window.platforms.state?.bodies > 0', 60_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('the Phaser platforms example (Rapier 2D in the worker), built and served by vite preview', () => {
  it('runs cross-origin isolated on the shared transport', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.platforms.runtime.transport')).toBe('shared');
  });

  it('sees the bodies fall, knock (contact events), and come to rest; some fall off the ends and are removed', async () => {
    // from scratch, held until read: a new Rapier world and the page's seed make every run the same
    await page.evaluate(`(async () => { const r = window.platforms.runtime; await r.stop(); await r.restart('scratch'); })()`);
    const start = await read<number[]>(NEWEST);
    expect(start.length).toBe(BODIES);
    // the worker's tick now, asked of it: the page's \`state\` is polled every 250 ms, so it can lag the recording's
    // start by 15 ticks, and a run once recorded 597 ticks where this loop waited for 600 past a stale start
    const from = await read<number>('window.platforms.runtime.commands.state().then((s) => s.tick)');
    const impacts = await read<number>('window.platforms.impacts');
    await page.evaluate('window.platforms.runtime.start()');
    await untilSimulated('every body asleep', 'window.platforms.state.sleeping === window.platforms.state.bodies && window.platforms.state.bodies > 0', from, 40);
    const settled = await read<{ tick: number; fallen: number; bodies: number }>('window.platforms.state');
    console.log(`platforms: every body asleep ${((settled.tick - from) / TICK_RATE).toFixed(1)} simulated seconds after the restart, ${settled.fallen} fell off`);
    expect(settled.fallen).toBeGreaterThan(0); // swap-removes happened (the next test's point)
    expect(settled.bodies + settled.fallen).toBe(BODIES);
    // the landings reached the page as contact events, with the frames that drew them
    expect(await read<number>('window.platforms.impacts')).toBeGreaterThan(impacts + 20);
    const a = await read<number[]>(NEWEST);
    await until('some ticks later', `window.platforms.state.tick > ${settled.tick + 10}`);
    const b = await read<number[]>(NEWEST);
    expect(b).toEqual(a); // at rest: not one published value moved
    // resting above the ground's top (y 570), all of them: y grows downwards
    expect(Math.max(...b)).toBeLessThan(570);
    expect(Math.min(...b)).toBeGreaterThan(0);
  }, 900_000); // a hang guard only: the wait above is bounded in simulated time

  it('draws each table\'s entities with members of that table\'s picture, each at its own entity\'s size and pose, after the swap-removes', async () => {
    const rendered = await read<number>('window.platforms.loop.rendered');
    await until('more frames', `window.platforms.loop.rendered > ${rendered + 3}`);
    // at rest, so the drawn frame and the newest state agree; read in one turn of the page (no frame between)
    const seen = await read<{ count: number; shown: number; wrong: string[] }>(`(() => {
      const f = window.platforms.runtime.sample(Infinity);
      const looks = { blocks: 0, crates: 1, balls: 2 };
      const wrong = [];
      let count = 0;
      for (const [name, look] of Object.entries(looks)) {
        const t = f.tables[name];
        count += t.count;
        for (let i = 0; i < t.count; i++) {
          const m = window.platforms.things[name].get(t.handle(i));
          if (m === undefined) { wrong.push(name + ' ' + i + ': no member'); continue; }
          const w = t.fields.size[2 * i], h = t.fields.size[2 * i + 1];
          const x = t.fields.position[2 * i], y = t.fields.position[2 * i + 1], a = t.fields.angle[i];
          if (Number(m.frame.name) !== look) wrong.push(name + ' ' + i + ': frame ' + m.frame.name);
          if (Math.abs(m.displayWidth - w) > 1e-3 || Math.abs(m.displayHeight - h) > 1e-3) wrong.push(name + ' ' + i + ': size');
          if (Math.abs(m.x - x) > 1e-3 || Math.abs(m.y - y) > 1e-3 || Math.abs(Math.sin(m.rotation - a)) > 1e-4) wrong.push(name + ' ' + i + ': pose');
          if (!m.visible) wrong.push(name + ' ' + i + ': hidden');
        }
      }
      const members = window.platforms.game.scene.getScene('platforms').children.list.filter((c) => c.texture?.key === 'things');
      return { count, shown: members.filter((m) => m.visible).length, wrong };
    })()`);
    expect(seen.wrong).toEqual([]);
    expect(seen.shown).toBe(seen.count);
    // the pictures on the screen: crates (amber), balls (blue), the blocks' grass (green)
    const png = await page.screenshot();
    keepScreenshot('phaser-platforms', png);
    const colours = await countPixels(page, png, `(r, g, b) =>
      r > 200 && g > 140 && g < 180 && b < 90 ? 'crate' : b > 220 && r < 90 && g > 140 ? 'ball' : g > 170 && r < 110 && b < 100 ? 'grass' : null`);
    expect(Object.keys(colours).filter((k) => colours[k]! > 200).sort()).toEqual(['ball', 'crate', 'grass']);
  });

  it('drops bodies where the game is clicked: an input event the worker reads', async () => {
    const before = await read<number>('window.platforms.state.dropped');
    const box = (await page.locator('canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 4);
    await until(`${DROP} more bodies`, `window.platforms.state.dropped === ${before + DROP}`);
  });

  it(`records ${SECONDS} s of drops and resets in Chromium on Rapier's deterministic 2D build, and Node replays every tick bit for bit`, async () => {
    await page.evaluate('window.platforms.runtime.record({ keyframeEvery: 600 })');
    // the worker's tick now, asked of it: the page's \`state\` is polled every 250 ms, so it can lag the recording's
    // start by 15 ticks, and a run once recorded 597 ticks where this loop waited for 600 past a stale start
    const from = await read<number>('window.platforms.runtime.commands.state().then((s) => s.tick)');
    const random = mulberry32(29);
    const box = (await page.locator('canvas').boundingBox())!;
    let events = 0;
    // a player: a click somewhere above the platforms, or now and then R, every 0.5 to 1.5 simulated seconds
    for (let tick = from; tick < from + SECONDS * TICK_RATE; ) {
      if (random() < 0.85) await page.mouse.click(box.x + box.width * (0.1 + 0.8 * random()), box.y + box.height * (0.05 + 0.3 * random()));
      else await page.keyboard.press('r');
      events++;
      const next = Math.min(from + SECONDS * TICK_RATE, tick + Math.round((0.5 + random()) * TICK_RATE));
      await untilSimulated(`tick ${next}`, `window.platforms.state.tick >= ${next}`, tick, 4);
      tick = next;
    }
    const recording = new Uint8Array(await read<number[]>('window.platforms.runtime.stopRecording().then((r) => Array.from(r))'));
    const report = await replayRecording(recording, { worker: await buildWorkerModule(join(root, 'src/sim.worker.ts')) });
    console.log(`platforms: ${report.ticks} ticks recorded in Chromium (${events} drops and resets, ${recording.byteLength} bytes) replayed in Node in ${report.ms.toFixed(0)} ms`);
    expect(report.difference).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThanOrEqual(SECONDS * TICK_RATE);
    expect(events).toBeGreaterThan(4);
  }, SECONDS * 1000 + 240_000);

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});
