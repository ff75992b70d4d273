/**
 * End to end on Colyseus: the game as `npm run multiplayer` runs it (scripts/colyseus-processes.mjs: a redis-server
 * of its own and two Colyseus processes of src/colyseus-server.ts on Node 22, sharing it), the BUILT page in two
 * headless Chromium pages, A asking the first process and B the second. What is checked:
 * - matchmaking by name across processes: both pages are seated in one room (each draws both ships, its own
 *   predicted), although they asked different processes;
 * - each page sees the other's ship move when the other steers it;
 * - B's shot at an orb, judged in the room (`tick.rewind` of the made time the room's publisher passes on),
 *   scores: the hit in the shot's frame and on the scoreboard of both pages;
 * - a seat freed (A's page closed, its reconnection window passed) sends A's LEAVE: B sees A's slot empty.
 * Nothing is timed; every wait is a hang guard. The shaped links, the oracle and the rewind's own evidence are
 * multiplayer.e2e.test.ts's (the same game on the bare server).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleGameWorker } from '../src/game-module.ts';
import { MAX_PLAYERS, ORB_RADIUS, ORBS, SHIPS } from '../src/schema.ts';
import { ORB_POINTS, RANGE } from '../src/shots.ts';
// @ts-expect-error: plain .mjs helpers (the dev task's, and the e2e tests'); they have no type declarations.
import { startColyseus } from '../scripts/colyseus-processes.mjs';
// @ts-expect-error: as above.
import { buildAndPreview, launchChromium, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Shots B may fire at orbs: one fired from a frame held past a late snapshot can miss (multiplayer.e2e.test.ts). */
const ORB_SHOTS = 4;

let colyseus: { urls: string[]; redis: string | null; why: string; stop(): Promise<void> } | null = null;
let served: { url: string; close(): Promise<void> };
let browser: Browser;
const pages: Page[] = [];
const errors: string[][] = [];

beforeAll(async () => {
  colyseus = await startColyseus({ gameWorker: await bundleGameWorker(), processes: 2, install: false });
  if (colyseus === null) throw new Error('steadyframe: no Node 22 for the Colyseus processes: `npm test` installs it (node scripts/services.mjs), or set STEADYFRAME_NODE22');
  if (colyseus.redis === null) throw new Error(`steadyframe: this test needs two processes on a Redis; it got ${colyseus.why}`);
  served = await buildAndPreview(root);
  browser = (await launchChromium()) as Browser;
  for (const url of colyseus.urls) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    errors.push(watchErrors(page));
    await page.goto(`${served.url}?server=${encodeURIComponent(url)}`);
    pages.push(page);
    // one at a time: A's ship takes the room's first slot
    await waitUntil(page, 'the page drawing the room and its own ship, predicted', `window.multiplayer?.ready === true && window.multiplayer.network?.predicted?.entities === 1`, 30_000);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await colyseus?.stop();
});

/** A page's hooks, read. */
const read = <T>(page: Page, expression: string): Promise<T> => page.evaluate<T>(`(() => { const m = window.multiplayer; return ${expression}; })()`);

/** The ships a page draws now: [slot, id] of each owned slot. */
const ships = (page: Page): Promise<number[][]> =>
  read(page, `(() => { const f = m.runtime.sample(); const out = []; for (let s = 0; s < ${MAX_PLAYERS}; s++) if (f.fields.owner[${SHIPS} + s] !== 0) out.push([s, f.fields.id[${SHIPS} + s]]); return out; })()`);

/** Slot s's ship's y as `page` draws it now. */
const shipY = (slot: number) => `window.multiplayer.runtime.sample().fields.position[2 * (${SHIPS} + ${slot}) + 1]`;

it('two pages that asked different processes are matchmade into one room: each draws both ships', async () => {
  const [a, b] = pages as [Page, Page];
  const ids = await Promise.all(pages.map((page) => read<number>(page, 'm.id')));
  const slots = await Promise.all(pages.map((page) => read<number>(page, 'm.slot')));
  expect(slots).toEqual([0, 1]);
  // A was seated first: its page draws B's ship once a snapshot with it has crossed the link (a CI run's loaded A
  // read too soon drew its own alone)
  const both = JSON.stringify([[0, ids[0]], [1, ids[1]]]);
  for (const page of [a, b]) {
    for (const deadline = Date.now() + 15_000; JSON.stringify(await ships(page)) !== both && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ships(page)).toEqual([[0, ids[0]], [1, ids[1]]]);
  }
  for (const page of pages) expect(await page.evaluate('crossOriginIsolated')).toBe(true);
});

it("each page sees the other's ship move as the other steers it", async () => {
  const [a, b] = pages as [Page, Page];
  for (const [mover, watcher, slot, key, sign] of [[a, b, 0, 'ArrowDown', 1], [b, a, 1, 'ArrowUp', -1]] as const) {
    const rest = await watcher.evaluate<number>(shipY(slot));
    await mover.keyboard.down(key);
    await waitUntil(watcher, `slot ${slot}'s ship moving on the other page`, `${sign} * (${shipY(slot)} - ${rest}) > 40`, 20_000);
    await mover.keyboard.up(key);
  }
});

it("B's shot at an orb where B's screen shows it scores, in the shot's frame and on both scoreboards", async () => {
  const [, b] = pages as [Page, Page];
  let hit: number[] | null = null;
  for (let shot = 0; shot < ORB_SHOTS && hit === null; shot++) {
    const before = await read<number>(b, 'm.shots.length');
    // from the next frame where an orb is in range with nothing else near the beam: aimed at it as that frame drew it
    await b.evaluate(`(() => {
      const m = window.multiplayer;
      m.aimed = null;
      m.onFrame = (f) => {
        const p = f.fields.position, owner = f.fields.owner, me = ${SHIPS} + m.slot;
        const ox = p[2 * me], oy = p[2 * me + 1];
        for (let t = 0; t < ${ORBS}; t++) {
          const dx = p[2 * t] - ox, dy = p[2 * t + 1] - oy, d = Math.hypot(dx, dy);
          if (d < 60 || d > ${RANGE} - 60) continue;
          let clear = true;
          for (let o = 0; o < ${SHIPS + MAX_PLAYERS} && clear; o++) {
            if (o === t || o === me || (o >= ${SHIPS} && owner[o] === 0)) continue;
            const rx = p[2 * o] - ox, ry = p[2 * o + 1] - oy, along = (rx * dx + ry * dy) / d;
            if (along > 0 && along < d + 40 && Math.abs(rx * dy - ry * dx) / d < ${ORB_RADIUS} + 40) clear = false;
          }
          if (clear && m.fire(dx, dy)) { m.aimed = t; m.onFrame = null; return; }
        }
      };
    })()`);
    await waitUntil(b, 'a clear shot fired', 'window.multiplayer.aimed !== null', 20_000);
    await waitUntil(b, 'the shot judged', `window.multiplayer.shots.length > ${before}`, 20_000);
    const presented = await read<number[]>(b, `m.shots[${before}]`);
    if (presented[3] !== -1) hit = presented;
  }
  expect(hit, `none of ${ORB_SHOTS} shots hit`).not.toBeNull();
  // [shooter's slot, x, y, entity hit, its score in that frame]
  expect([hit![0], hit![3]! < ORBS, hit![4]]).toEqual([1, true, ORB_POINTS]);
  for (const page of pages) {
    await waitUntil(page, "B's point on the scoreboard", `document.querySelector('#scores li[data-slot="1"] b')?.textContent === '${ORB_POINTS}'`, 10_000);
  }
});

it("A's page closed: its seat freed after the reconnection window, the room sends A's LEAVE, and B sees A's slot empty", async () => {
  const [a, b] = pages as [Page, Page];
  await a.close();
  await waitUntil(b, "A's ship gone", `window.multiplayer.runtime.sample().fields.owner[${SHIPS}] === 0`, 20_000);
  expect((await ships(b)).map(([slot]) => slot)).toEqual([1]);
  for (const e of errors) expect(e).toEqual([]);
});
