/**
 * Main-thread ms a frame at 50 players and 1,000 entities, each stack's client in a page of its own in headless
 * Chromium (Debian's, through playwright, as every browser benchmark here), served by Vite (pages/): ours
 * (pages/ours.ts: `runtime.frame()`, the network client and its prediction in a worker) and Colyseus's
 * (pages/colyseus.ts: the SDK, its decoding, `Predict` and the reconciler on the page's thread). Each page's
 * server holds 1,000 entities: its player, 49 players the server steers, the target and 949 orbs, all moving.
 *
 * Two readings over the same frames: the page's own timing of its frame callback (and, for Colyseus, of its
 * WebSocket message handlers), and Chromium's count of the main thread's busy time (the DevTools protocol's
 * `Performance.getMetrics` TaskDuration: every task, garbage collection and the browser's own work included).
 * The links are loopback: what a frame costs the thread does not depend on how late the data came.
 */
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession, type Page } from 'playwright';
import { createServer } from 'vite';
import { crossOriginIsolation } from 'steadyframe/vite';
// @ts-expect-error: a plain .mjs helper shared with the scripts; it has no type declarations.
import { CHROMIUM_ARGS, findChromium, MISSING_CHROMIUM_MESSAGE } from '../../../../scripts/engines.mjs';
import type { ColyseusProcess } from './colyseus-process.ts';
import { startOurs } from './ours-server.ts';
import type { PageResult } from './pages/measure.ts';

export const CROWD = { players: 50, entities: 1000 } as const;

export interface PageCost extends PageResult {
  /** Chromium's busy ms of the page's main thread over the measured frames (TaskDuration), and of script in it. */
  readonly taskMs: number;
  readonly scriptMs: number;
  readonly frames: number;
}

async function metrics(session: CDPSession) {
  const { metrics: list } = (await session.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  const of = (name: string) => 1000 * (list.find((m) => m.name === name)?.value ?? Number.NaN);
  return { task: of('TaskDuration'), script: of('ScriptDuration') };
}

async function measurePage(page: Page, url: string, frames: number): Promise<PageCost> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.bench?.ready === true, undefined, { timeout: 90_000, polling: 200 });
  } catch (e) {
    throw new Error(`steadyframe bench: ${url} did not draw ${CROWD.entities} entities in 90 s (${errors.join('; ')}): ${String(e)}`);
  }
  // settled: a few seconds of frames before the measured ones
  await page.waitForTimeout(3000);
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const before = await metrics(session);
  const result = await page.evaluate((n) => window.bench.measure(n), frames);
  const after = await metrics(session);
  return { ...result, frames, taskMs: after.task - before.task, scriptMs: after.script - before.script };
}

export interface MainThread {
  /** The same loop with nothing to draw: the browser's own floor. */
  readonly idle: PageCost;
  readonly ours: PageCost;
  readonly colyseus: PageCost;
  readonly browser: string;
}

export async function measureMainThread(colyseus: ColyseusProcess, frames: number): Promise<MainThread> {
  const executablePath = findChromium() as string | null;
  if (executablePath === null) throw new Error(MISSING_CHROMIUM_MESSAGE as string);
  const ours = await startOurs({ players: CROWD.players, bots: 1, orbs: CROWD.entities - CROWD.players - 1 });
  const vite = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('./pages/', import.meta.url)),
    logLevel: 'warn',
    plugins: [crossOriginIsolation()],
    server: { host: '127.0.0.1', port: 0 },
    worker: { format: 'es' },
  });
  await vite.listen();
  const base = vite.resolvedUrls!.local[0]!;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  try {
    const page0 = await browser.newPage();
    const idle = await measurePage(page0, `${base}idle.html`, frames);
    await page0.close();
    const page = await browser.newPage();
    const oursCost = await measurePage(page, `${base}ours.html?server=${encodeURIComponent(ours.url.replace(/^http/, 'ws'))}&capacity=${CROWD.entities}`, frames);
    await page.close();
    // our server stops before Colyseus's page runs: the two never share the cores
    await ours.close();
    const page2 = await browser.newPage();
    const colyseusCost = await measurePage(page2, `${base}colyseus.html?server=${encodeURIComponent(colyseus.url)}&capacity=${CROWD.entities}`, frames);
    await page2.close();
    return { idle, ours: oursCost, colyseus: colyseusCost, browser: browser.version() };
  } finally {
    await browser.close();
    await vite.close();
    await ours.close();
  }
}
