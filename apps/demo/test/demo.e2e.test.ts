/**
 * End to end: the BUILT demo, served by `vite preview` with its COOP/COEP headers, in headless Chromium (Debian's,
 * through playwright; never a downloaded browser). The page is isolated, draws frames that change, every control
 * does what it says (checked through `window.demo` and the runtime's stats, not pixels), and the console stays
 * clean.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_FRAME_MS } from '../src/controls.ts';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { buildAndPreview, openBuiltApp, watchErrors, waitUntil } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let page: Page;
let errors: string[] = [];
let close: (() => Promise<void>) | undefined;

/** Polls a page expression until it is truthy (a hang guard: never an assertion on time). */
const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(page, what, expression, timeout);

const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

beforeAll(async () => {
  const opened = await openBuiltApp(root);
  ({ page, errors, close } = opened);
  await until('the first frame', 'window.demo?.ready === true && window.demo.stats !== null');
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('the demo, built and served by vite preview', () => {
  it('is cross-origin isolated and runs on the shared transport', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.demo.runtime.transport')).toBe('shared');
    expect(await read('window.demo.runtime.info.crossOriginIsolated')).toBe(true);
    expect(await read('window.demo.problem')).toBeNull();
  });

  it('draws frames that are not blank and change over time', async () => {
    const panel = page.locator('#right');
    const first = await panel.screenshot();
    await until('more frames', 'window.demo.metrics.frames > 30');
    const frames = await read<number>('window.demo.metrics.frames');
    await until('ten more frames', `window.demo.metrics.frames > ${frames + 10}`);
    const second = await panel.screenshot();
    // thousands of bodies do not compress like an empty canvas does
    expect(first.length).toBeGreaterThan(20_000);
    expect(Buffer.compare(first, second)).not.toBe(0);
  });

  it('changes the tick rate, body count and time scale', async () => {
    await page.locator('#tickRate').fill('30');
    await until('tick rate 30', 'window.demo.stats.worker.tickRate === 30');
    // ticks now 1/30 s apart on the shared clock (a property of the published states, not a wall-clock timing)
    await until('ticks 1/30 s apart', 'Math.abs(window.demo.runtime.sample().currentTime - window.demo.runtime.sample().previousTime - 1000 / 30) < 1e-6');
    await page.locator('#count').selectOption('100000');
    await until('100,000 bodies', 'window.demo.metrics.count === 100000');
    await page.locator('#count').selectOption('1000');
    await until('1,000 bodies', 'window.demo.metrics.count === 1000');
    await page.locator('#timeScale').selectOption('2');
    await until('time scale 2', 'window.demo.stats.worker.timeScale === 2');
  });

  it('pauses, steps one tick, and resumes', async () => {
    await page.locator('#pause').click();
    await until('paused', "window.demo.stats.worker.status === 'paused'");
    // the last state published before the pause reaches the page's frames (stats read after the pause know it)
    await until('the paused tick drawn', 'window.demo.metrics.newestTick === window.demo.stats.worker.tick');
    const held = await read<number>('window.demo.metrics.newestTick');
    await page.locator('#step').click();
    await until('one more tick', `window.demo.metrics.newestTick === ${held + 1}`);
    await page.locator('#pause').click();
    await until('running', `window.demo.stats.worker.status === 'running' && window.demo.metrics.newestTick > ${held + 1}`);
  });

  it('switches the right panel between latest, interpolate, extrapolate and delayed', async () => {
    // [mode, the runtime's mode, delay enabled, when-late enabled]: a control is live only where the mode reads it
    for (const [mode, expected, delay, whenLate] of [
      ['latest', 'latest', false, false],
      ['extrapolate', 'extrapolate', false, false],
      ['interpolate', 'interpolate', false, true],
      ['delay', 'interpolate', true, true],
    ] as const) {
      await page.locator(`#mode input[value="${mode}"]`).check({ force: true });
      await until(`mode ${mode}`, `window.demo.metrics.rightMode === '${expected}'`);
      expect(await read('[!document.querySelector("#delay").disabled, !document.querySelector("#whenLate").disabled]'), mode).toEqual([delay, whenLate]);
    }
    await page.locator('#mode input[value="delay"]').check({ force: true });
    await page.locator('#delay').fill('2');
    await until('a two-tick delay', "window.demo.metrics.rightMode === 'interpolate' && window.demo.metrics.rightDelay === 2");
    await page.locator('#whenLate').selectOption('extrapolate');
    await until('extrapolate when late', "window.demo.metrics.whenLate === 'extrapolate'");
  });

  it('loads the worker and injects jank', async () => {
    await page.locator('#load').fill('8');
    await until('8 ms steps', 'window.demo.settings.loadMs === 8 && window.demo.stats.worker.lastStepMs >= 7');
    expect(await read<number>('window.demo.settings.jankMs')).toBe(0); // no jank asked for yet (step times are wall-clock: not asserted)
    await page.locator('#jank').selectOption('150');
    await until('a 150 ms step', 'window.demo.settings.jankMs === 150 && window.demo.metrics.maxStepMs >= 140', 30_000);
    await page.locator('#load').fill('0');
    await page.locator('#jank').selectOption('0');
  });

  it('turns the adaptive render interval off and on (a new runtime each time)', async () => {
    const made = await read<number>('window.demo.recreations');
    await page.locator('#adaptive').uncheck();
    await until('a runtime without adaptive pacing', `window.demo.recreations > ${made} && window.demo.stats?.pacing.adaptive === false`);
    await page.locator('#adaptive').check();
    await until('adaptive again', 'window.demo.stats?.pacing.adaptive === true');
  });

  it("plots the recovery from one slow frame: a band, n grown at it, every change the pacer made, and back to every refresh", async () => {
    await page.locator('#count').selectOption('1000'); // cheap frames
    await until('1,000 bodies', 'window.demo.metrics.count === 1000');
    // the pacer's own record of what it decided, to hold the plot to
    await page.evaluate("window.pacerChanges = []; window.demo.runtime.on('interval', (c) => window.pacerChanges.push(c))");
    type Change = { reason: string; fromMultiple: number; toMultiple: number; at: number };
    // One run, held to what the demo promises whatever the machine does: its plot shows exactly what the pacer
    // did. How long the recovery takes is the pacer's, proven through the runtime on a manual clock
    // (packages/runtime/test/node/pacing.test.ts: a quarter second plus at most two intervals); on a loaded
    // machine frames can overrun by themselves after the slow one, and each such overrun rightly holds n up
    // longer (and may back off the next shrink), so it is not asserted here.
    // from every refresh (a loaded machine can hold n up by itself: then the slow frame would have nothing to move).
    // The premise is n = 1 when the slow frame comes, read from the plot's frames: a loaded machine's own overrun
    // between the check and the click once had n at its cap (4) already, so the slow frame grew nothing (a clean-
    // clone CI run). Then the slow frame is made again, from every refresh again (at most five times).
    let plot: { times: number[]; values: number[] }[] = [];
    let all: Change[] = [];
    let bandBefore = Number.NEGATIVE_INFINITY;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await until('every refresh before the slow frame', "window.demo.plotData('interval')[1].values.at(-1) === 1", 60_000);
      bandBefore = await read<number>("window.demo.plotData('interval')[0].times.at(-1) ?? -Infinity");
      await page.evaluate('window.pacerChanges = []');
      const slow = await read<number>('window.demo.metrics.slowFrames');
      await page.locator('#slowFrame').click();
      await until('the slow frame', `window.demo.metrics.slowFrames === ${slow + 1}`);
      // (a hang guard: back-offs after self-made overruns can take seconds)
      await until('every refresh again', '!Number.isNaN(window.demo.metrics.slowFrameRecoveryMs)', 60_000);
      const frames = await read<number>('window.demo.metrics.frames');
      await until('twenty more frames', `window.demo.metrics.frames > ${frames + 20}`);
      // what the render interval plot draws now (its 5 s window), and what the pacer decided, read together
      ({ plot, changes: all } = await read<{ plot: { times: number[]; values: number[] }[]; changes: Change[] }>(
        "({ plot: window.demo.plotData('interval'), changes: window.pacerChanges })",
      ));
      const band = plot[0]!.times.find((t) => t > bandBefore);
      const nAt = plot[1]!.values.findLast((_, i) => plot[1]!.times[i]! < (band ?? Number.POSITIVE_INFINITY));
      if (band === undefined || nAt === undefined || nAt === 1) break;
      console.log(`slow frame: n was ${nAt} when it came (the machine's own overruns): again`);
    }
    const [spans, n] = plot;
    // the slow frame's band: one, as long as the frame took
    const bands = spans!.times.filter((t) => t > bandBefore);
    expect(bands.length).toBeLessThanOrEqual(1);
    if (bands.length === 0) {
      // a recovery longer than the plot's window (a loaded machine's own overruns held n up) scrolled it out:
      // what is left on the plot is still only what the pacer chose, and it ends at every refresh
      const chosen = new Set([1, ...all.map((c) => c.toMultiple)]);
      expect(n!.values.filter((v) => !chosen.has(v))).toEqual([]);
      expect(n!.values.at(-1)).toBe(1);
      console.log(`slow frame: the recovery outlasted the plot's window; changes ${JSON.stringify(all.map((c) => [c.reason, c.toMultiple]))}`);
    } else {
      const at = bands[0]!;
      expect(spans!.values[spans!.times.indexOf(at)]).toBeGreaterThanOrEqual(SLOW_FRAME_MS);
      // the changes of n from the slow frame on: the first is that frame's own overrun, at its timestamp
      const changes = all.filter((c) => c.at >= at && c.fromMultiple !== c.toMultiple);
      expect(changes[0]).toMatchObject({ reason: 'overrun', at });
      expect(changes[0]!.toMultiple).toBeGreaterThan(changes[0]!.fromMultiple);
      const back = changes.findIndex((c) => c.toMultiple === 1);
      expect(back).toBeGreaterThan(0); // and n came back to every refresh
      // the plot's n at every rendered frame after the slow one, runs of equal values squeezed, is exactly the
      // sequence the pacer went through: no step it did not take, none it took left out (on a quiet machine that
      // is [4, 1]; under load, overruns of the frames' own can add steps, and the plot must show those too)
      const after = n!.values.filter((_, i) => n!.times[i]! > at);
      const runs = after.filter((v, i) => i === 0 || v !== after[i - 1]);
      expect(runs).toEqual(changes.map((c) => c.toMultiple).filter((v, i, a) => i === 0 || v !== a[i - 1]));
      // refreshes spent at the reduced rate until then, counted from the frames (each at n covers n refreshes)
      const until1 = after.findIndex((v, i) => v === 1 && i > 0);
      const reduced = after.slice(0, until1).reduce((sum, v) => sum + v, 0);
      expect(reduced).toBeGreaterThan(0);
      console.log(`slow frame: ${reduced} refreshes reduced, changes ${JSON.stringify(changes.map((c) => [c.reason, c.toMultiple]))}`);
    }
    expect(await page.locator('[data-card=interval] .legend').textContent()).toMatch(/every refresh again \d+\.\d\d s after it/);
  }, 300_000); // its hang guards

  it('draws the blue panel in the render worker, on through page jank, and back on the page', async () => {
    await page.locator('#pageJank').selectOption('30');
    const made = await read<number>('window.demo.recreations');
    await page.locator('#drawIn').selectOption('worker');
    await until('the render worker drawing', `window.demo.recreations > ${made} && window.demo.drawnIn === 'worker' && window.demo.stats?.render?.thread === 'worker'`);
    expect(await read('window.demo.runtime')).toBeNull(); // the page reads nothing: the render worker is the one reader
    expect(await page.locator('#slowFrame').isDisabled()).toBe(true); // a slow frame is a page frame: there are none
    expect(await read('window.demo.renderFallback')).toBeNull();
    expect(await read('window.demo.stats.render.crossOriginIsolated')).toBe(true);
    // the new canvas is blank until the render worker's first frames land on it
    await until('frames from the render worker', 'window.demo.stats.render.drawn > 2');
    const drawn = await read<number>('window.demo.stats.render.drawn');
    const panel = page.locator('#right');
    const first = await panel.screenshot();
    await until('thirty more frames from the render worker', `window.demo.stats.render.drawn > ${drawn + 30}`);
    const second = await panel.screenshot();
    expect(first.length).toBeGreaterThan(20_000);
    expect(Buffer.compare(first, second)).not.toBe(0);
    expect(await page.locator('#status').textContent()).toContain('drawn in the render worker');
    // both widths: the panel's new CSS size reaches the render worker (its canvas's backing size follows) and it
    // draws on
    const backingFits = "window.demo.stats.render.canvas.width === Math.round(document.querySelector('#right').clientWidth * devicePixelRatio)";
    for (const viewport of [{ width: 420, height: 900 }, { width: 1200, height: 820 }]) {
      await page.setViewportSize(viewport);
      await until(`the render worker's canvas at ${viewport.width} px`, backingFits);
      const at = await read<number>('window.demo.stats.render.drawn');
      await until(`frames at ${viewport.width} px`, `window.demo.stats.render.drawn > ${at + 10}`);
    }
    expect(await read('window.demo.stats.render.errors')).toBe(0);
    expect(await read('window.demo.stats.render.unresponsive')).toBe(false);
    expect(await read('window.demo.stats.render.kernels')).toBe('wasm-simd');
    await page.locator('#pageJank').selectOption('0');
    await page.locator('#drawIn').selectOption('main');
    await until('the page drawing again', "window.demo.drawnIn === 'main' && window.demo.runtime !== null");
    const frames = await read<number>('window.demo.metrics.frames');
    await until('frames on the page', `window.demo.metrics.frames > ${frames + 10}`);
  });

  it('says it is cross-origin isolated in words above the fold, and the captions sit above the panels', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const line = page.locator('#isolation');
    expect(await line.textContent()).toMatch(/^Cross-origin isolated/);
    const box = (await line.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    for (const figure of ['#left', '#right']) {
      const canvas = (await page.locator(figure).boundingBox())!;
      const caption = (await page.locator(`figure:has(${figure}) figcaption`).boundingBox())!;
      expect(caption.y + caption.height).toBeLessThanOrEqual(canvas.y); // not drawn over the bodies
    }
    // the state runs ahead of the clock on purpose: a reading that says so, not a bare negative number
    await until('a state-age reading', "/ahead by|late/.test(document.querySelector('[data-card=age] .value').textContent)");
    expect(await page.locator('[data-card=age] .value').textContent()).not.toContain('-');
  });

  it('at 420 px wide: stacked panels, no left/right in the text, no value cut or page wider than the screen', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      await until('a few stats readings at this width', 'window.demo.metrics.frames > 10');
      await page.waitForTimeout(600); // two stats polls: readings written at this width
      const [left, right] = [(await page.locator('#left').boundingBox())!, (await page.locator('#right').boundingBox())!];
      expect(right.y).toBeGreaterThan(left.y + left.height - 1); // stacked
      const words = await read<string>("[...document.querySelectorAll('header, legend, figcaption')].map((e) => e.textContent).join(' ')");
      expect(words).not.toMatch(/\b(left|right)\b/i);
      const cut = await read<string[]>(`[...document.querySelectorAll('.card-head .value, output, figcaption, #isolation, #status')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth).map((e) => e.textContent)`);
      expect(cut).toEqual([]);
      expect(await read<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(420);
    } finally {
      await page.setViewportSize({ width: 1200, height: 820 });
    }
  });

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });

  it('served without COOP/COEP: says so, names both headers, and runs on the message transport', async () => {
    const served = await buildAndPreview(root, false); // no config file: no headers
    const other = await page.context().browser()!.newPage({ viewport: { width: 1200, height: 820 } });
    const otherErrors: string[] = watchErrors(other);
    try {
      await other.goto(served.url);
      await other.waitForFunction('window.demo?.ready === true && window.demo.metrics.frames > 5', undefined, { timeout: 20_000 });
      expect(await other.evaluate('crossOriginIsolated')).toBe(false);
      expect(await other.evaluate('window.demo.runtime.transport')).toBe('message');
      expect(await other.isVisible('#problem')).toBe(true);
      const notice = await other.locator('#problem').textContent();
      expect(notice).toContain('Cross-Origin-Opener-Policy: same-origin');
      expect(notice).toContain('Cross-Origin-Embedder-Policy: require-corp');
      expect(await other.locator('#isolation').textContent()).toMatch(/^Not cross-origin isolated: the server did not send the COOP\/COEP headers/);
      const tick = await other.evaluate<number>('window.demo.metrics.newestTick');
      await other.waitForFunction(`window.demo.metrics.newestTick > ${tick + 2}`, undefined, { timeout: 10_000 });
      expect(otherErrors).toEqual([]);
    } finally {
      await other.close();
      await served.close();
    }
  });
});
