/**
 * End to end: the BUILT arena, served by `vite preview` with its COOP/COEP headers, in headless Chromium (Debian's,
 * through playwright; never a downloaded browser). The page is isolated, draws frames, the keyboard reaches the
 * worker's step through the input ring (the ship moves the right way, a tap inside one tick still fires), bullets
 * spawn, and the console stays clean. On a phone (Chromium's touch emulation, 420 px wide) the touch controls
 * show and play: a tap on fire fires, a thumb held on the pad moves the ship and slid across turns it. A burst
 * is answered in the frame that shows it: that frame's HUD shows the score that counts it, and its sound and
 * flash start then, never in a frame that shows an earlier tick; and the page calls the worker for no game state.
 * Everything is read through `window.arena`; every wait is a poll.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { openBuiltApp, RECORD_SECONDS, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';
import { replayRecording } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { TICK_RATE } from '../src/schema.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let page: Page;
let errors: string[] = [];
let close: (() => Promise<void>) | undefined;

/** Polls a page expression until it is truthy (a hang guard: never an assertion on time). */
const until = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(page, what, expression, timeout);

const read = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

/** Live bullets in the runtime's newest state: its bullets table's count, on the page. */
const BULLETS = 'window.arena.runtime.sample(Infinity).tables.bullets.count';

beforeAll(async () => {
  const opened = await openBuiltApp(root);
  ({ page, errors, close } = opened);
  await until('the first frame and game state', 'window.arena?.ready === true && window.arena.game !== null');
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('the arena, built and served by vite preview', () => {
  it('is cross-origin isolated and runs on the shared transport', async () => {
    expect(await read('crossOriginIsolated')).toBe(true);
    expect(await read('window.arena.runtime.transport')).toBe('shared');
    await until('the overlay', "document.querySelector('#transport')?.textContent === 'shared'");
  });

  it('names the GL renderer in the HUD, and on a software one folds in what its fps means', async () => {
    await until('the GL row', "document.querySelector('#gl') !== null");
    const row = await read<string>("document.querySelector('#gl').textContent");
    if (row === 'GPU') {
      expect(await read('document.querySelector("#hud .note") === null')).toBe(true);
    } else {
      expect(row).toMatch(/^software \(.+\)$/); // headless Chromium's SwiftShader, llvmpipe on a Linux box
      expect(await read('document.querySelector("#hud .note p").textContent')).toMatch(/^The CPU draws every pixel .*fps counts those/);
    }
  });

  it('simulates a few thousand bodies and draws frames that are not blank', async () => {
    expect(await read<number>('window.arena.game.rocks')).toBeGreaterThan(2000);
    const frames = await read<number>('window.arena.frames');
    await until('more frames', `window.arena.frames > ${frames + 5}`);
    await until('ticks', 'window.arena.game.tick > 10');
    const shot = await page.locator('#view').screenshot();
    expect(shot.length).toBeGreaterThan(20_000); // thousands of rocks do not compress like an empty canvas
    expect(await read<number>('window.arena.interval')).toBeGreaterThan(0);
  });

  it('moves the ship right while ArrowRight is held, and left with A', async () => {
    const x0 = await read<number>('window.arena.ship.x');
    const inputs = await read<number>('window.arena.worker().then((g) => g.inputs)');
    // the newest tick when the page handles the key, and how many tick lengths the newest state then stood
    // behind the clock (a loaded machine runs the worker late); the worker says which tick read the press
    await page.evaluate(`addEventListener('keydown', () => {
      if (window.pressedAt !== undefined) return;
      const newest = window.arena.runtime.sample(Infinity);
      window.pressedAt = newest.tick;
      const tickMs = newest.currentTime - newest.previousTime;
      window.behindTicks = tickMs > 0 ? Math.max(0, Math.floor((performance.now() - newest.currentTime) / tickMs)) : 0;
    })`);
    await page.keyboard.down('ArrowRight');
    try {
      await until('the ship to move right', `window.arena.ship.x > ${x0 + 2}`);
    } finally {
      await page.keyboard.up('ArrowRight');
    }
    await until('the worker to read both events', `window.arena.worker().then((g) => g.inputs >= ${inputs + 2} && g.presses[1] >= 1)`);
    // in ticks, not wall time: the event lands in the tick it falls in, or the next if that one was made already
    // (plus the ticks the worker was behind the clock when the key came)
    const [pressedAt, readAt, behindTicks] = await read<[number, number, number]>('window.arena.worker().then((g) => [window.pressedAt, g.pressTicks[1], window.behindTicks])');
    expect(readAt - pressedAt).toBeGreaterThanOrEqual(0);
    expect(readAt - pressedAt, `${behindTicks} ticks behind`).toBeLessThanOrEqual(3 + behindTicks);
    const x1 = await read<number>('window.arena.ship.x');
    await page.keyboard.down('a');
    try {
      await until('the ship to move left', `window.arena.ship.x < ${x1 - 2}`);
    } finally {
      await page.keyboard.up('a');
    }
  });

  it('fires on a tap (press and release inside one tick) and spawns bullets while space is held', async () => {
    const shots = await read<number>('window.arena.game.shots');
    await page.keyboard.press('Space'); // down and up back to back: almost always inside one tick
    await until('a shot from the tap', `window.arena.game.shots >= ${shots + 1}`);
    await page.keyboard.down('Space');
    try {
      await until('live bullets in the world', `${BULLETS} >= 2`);
      await until('bullets drawn', 'window.arena.maxBullets >= 1');
      await until('several shots', `window.arena.game.shots >= ${shots + 4}`);
    } finally {
      await page.keyboard.up('Space');
    }
    await until('bullets to despawn (hits or old age)', `${BULLETS} === 0`);
  });

  it('answers each burst in the frame that shows it: the HUD shows its score, its sound and flash start; no worker call for game state', async () => {
    // every comlink call to the worker's `state` command, counted where it leaves the page; shown to count by one
    await page.evaluate(`(() => {
      window.stateCalls = 0;
      for (const proto of [Worker.prototype, MessagePort.prototype]) {
        const post = proto.postMessage;
        proto.postMessage = function (message, ...rest) {
          if (Array.isArray(message?.path) && message.path.join('.') === 'commands.state') window.stateCalls++;
          return post.call(this, message, ...rest);
        };
      }
    })()`);
    await read('window.arena.worker()');
    expect(await read<number>('window.stateCalls'), 'the counter sees a call').toBe(1);
    await page.evaluate('window.stateCalls = 0');
    await page.keyboard.press('Shift'); // a user's gesture: the autoplay policy lets the page's audio start
    await until('sound (the key resumed the AudioContext)', "window.arena.audio.state === 'running'");
    // fire into the field (thousands of rocks: most shots hit) until several frames have answered bursts
    await page.evaluate('window.arena.log = []');
    await page.keyboard.down('Space');
    try {
      // two frames and four bursts: a loaded machine's slow frames bring many at once
      const bursts = 'window.arena.log.reduce((n, f) => n + f.bursts.length / 3, 0)';
      await until('frames that answer bursts', `window.arena.log.filter((f) => f.bursts.length > 0).length >= 2 && ${bursts} >= 4`);
    } finally {
      await page.keyboard.up('Space');
    }
    type Logged = { index: number; tick: number; hudTick: number; score: number; best: number; state: number; bursts: number[]; shots: number; voices: number; flashes: number };
    const log = await read<Logged[]>('(() => { const log = window.arena.log; window.arena.log = null; return log; })()');
    expect(await read<number>('window.stateCalls'), 'comlink calls for game state while the HUD ran').toBe(0);
    const sequences = new Set<number>();
    let answered = 0;
    let rises = 0;
    for (const [n, frame] of log.entries()) {
      const where = `frame ${frame.index} (tick ${frame.tick})`;
      if (n > 0) expect(frame.index, 'every presented frame logged').toBe(log[n - 1]!.index + 1);
      // the HUD shows the game state of the tick this frame shows, as its text reads
      expect(frame.hudTick, where).toBe(frame.tick);
      expect(frame.score, where).toBe(frame.state);
      const before = n > 0 ? log[n - 1]! : null;
      if (before !== null && frame.score > before.score) {
        rises++;
        expect(frame.bursts.length, `${where}: the score rose with no burst answered`).toBeGreaterThan(0);
      }
      if (frame.bursts.length === 0) continue;
      let most = 0;
      for (let b = 0; b < frame.bursts.length; b += 3) {
        const [tick, sequence, score] = frame.bursts.slice(b, b + 3) as [number, number, number];
        expect(tick, `${where}: a burst of a later tick (early)`).toBeLessThanOrEqual(frame.tick);
        if (before !== null) expect(tick, `${where}: a burst an earlier frame already showed (late)`).toBeGreaterThan(before.tick);
        expect(sequences.has(sequence), `${where}: burst ${sequence} answered twice`).toBe(false);
        sequences.add(sequence);
        most = Math.max(most, score);
        answered++;
      }
      // the score that counts the burst is on the HUD in this frame (best: a reset in the same tick keeps it)
      expect(frame.best, `${where}: HUD's best behind a burst's score`).toBeGreaterThanOrEqual(most);
      expect(frame.voices, `${where}: no sound started`).toBeGreaterThanOrEqual(1);
      expect(frame.voices).toBeLessThanOrEqual(2);
      expect(frame.flashes, `${where}: a flash per burst`).toBe(frame.bursts.length / 3);
    }
    console.log(`arena: ${log.length} frames logged, ${answered} bursts answered, the score rose in ${rises} of them`);
    expect(answered).toBeGreaterThanOrEqual(4);
    expect(rises).toBeGreaterThanOrEqual(1);
  });

  it('keeps the help line below the field, never over the rocks', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 420, height: 800 }]) {
      await page.setViewportSize(viewport);
      const field = (await page.locator('#view').boundingBox())!;
      const help = (await page.locator('#help').boundingBox())!;
      expect(help.y).toBeGreaterThanOrEqual(field.y + field.height);
      expect(help.y + help.height).toBeLessThanOrEqual(viewport.height); // and still on screen
    }
    await page.setViewportSize({ width: 1200, height: 820 });
  });

  it('runs with the render worker (?draw=worker): frames from the worker, keys still reach the game', async () => {
    const other = await page.context().browser()!.newPage({ viewport: { width: 1200, height: 820 } });
    const otherErrors: string[] = watchErrors(other);
    try {
      await other.goto(`${new URL(page.url()).origin}/?draw=worker`);
      await waitUntil(other, 'the render worker drawing', "window.arena?.ready === true && window.arena.drawnIn === 'worker'");
      expect(await other.evaluate('window.arena.runtime')).toBeNull(); // the page reads no frames
      expect(await other.evaluate('window.arena.renderFallback')).toBeNull();
      const frames = (await other.evaluate('window.arena.frames')) as number;
      await waitUntil(other, 'more frames from the render worker', `window.arena.frames > ${frames + 10}`);
      const shot = await other.locator('#view').screenshot();
      expect(shot.length).toBeGreaterThan(20_000);
      // both widths: the view's new CSS size reaches the render worker, which draws on at it
      const backingFits = "window.arena.render.canvas.width === Math.round(document.querySelector('#view').clientWidth * Math.min(devicePixelRatio, 2))";
      for (const viewport of [{ width: 420, height: 800 }, { width: 1200, height: 820 }]) {
        await other.setViewportSize(viewport);
        await waitUntil(other, `the render worker's canvas at ${viewport.width} px`, backingFits);
        const at = (await other.evaluate('window.arena.frames')) as number;
        await waitUntil(other, `frames at ${viewport.width} px`, `window.arena.frames > ${at + 10}`);
      }
      expect(await other.evaluate('window.arena.render.errors')).toBe(0);
      expect(await other.evaluate('window.arena.render.unresponsive')).toBe(false);
      // the render worker's frames report their shown tick, game state and events: the HUD shows the game state of
      // the frame the render worker drew (the page's 'present' listeners hear of it), tick by tick
      await waitUntil(other, "the render worker's present reports", 'window.arena.game !== null && window.arena.game.tick > 0');
      const hudTick = (await other.evaluate('window.arena.game.tick')) as number;
      await waitUntil(other, 'later reports', `window.arena.game.tick > ${hudTick + 5}`);
      expect(await other.evaluate("document.querySelector('#hud').textContent.length > 0")).toBe(true);
      // keys go from the page straight into the input ring: the game's step reads the press
      const presses = (await other.evaluate('window.arena.worker().then((g) => g.presses[1])')) as number;
      await other.keyboard.down('ArrowRight');
      await waitUntil(other, 'the press read by a step', `window.arena.worker().then((g) => g.presses[1] > ${presses})`);
      await other.keyboard.up('ArrowRight');
      expect(otherErrors, otherErrors.join('\n')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it(`records ${RECORD_SECONDS} s of play with random keys in Chromium, and Node replays every tick bit for bit`, async () => {
    await page.locator('#tape button', { hasText: 'rec' }).click();
    await until('recording', "window.arena.tape.state === 'recording'");
    const from = await read<number>('window.arena.game.tick');
    const inputs = await read<number>('window.arena.worker().then((g) => g.inputs)');
    // a player: keys go down and up at random moments (seeded), mid-game, for RECORD_SECONDS of ticks and at
    // least two key events a second of them (a loaded CI run once pressed 6 in 6 s of ticks: a stalled test
    // process, its waits each a second long, while the worker's clock ran on)
    const random = mulberry32(60);
    const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Space'];
    const held = new Set<string>();
    let events = 0;
    while ((await read<number>('window.arena.game.tick')) < from + RECORD_SECONDS * TICK_RATE || events < 2 * RECORD_SECONDS) {
      const key = keys[Math.floor(random() * keys.length)]!;
      if (held.has(key)) await page.keyboard.up(key);
      else await page.keyboard.down(key);
      if (!held.delete(key)) held.add(key);
      events++;
      await page.waitForTimeout(40 + random() * 300);
    }
    for (const key of held) await page.keyboard.up(key);
    await page.locator('#tape button', { hasText: 'stop' }).click();
    await until('the recording', "window.arena.tape.state === 'idle' && window.arena.tape.recording !== null");
    const recording = new Uint8Array(await read<number[]>('Array.from(window.arena.tape.recording)'));
    expect(await read<string>("document.querySelector('#tape .status').textContent")).toMatch(/^recorded \d+\.\d s, \d+ KB$/);

    const report = await replayRecording(recording, { worker: await buildWorkerModule(join(root, 'src/sim.worker.ts')) });
    console.log(`arena: ${report.ticks} ticks recorded in Chromium (${events} key events, ${recording.byteLength} bytes) replayed in Node in ${report.ms.toFixed(0)} ms`);
    expect(report.difference).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThanOrEqual(RECORD_SECONDS * TICK_RATE);
    expect(report.nondeterminism['Math.random'].calls).toBe(0);
    // the key events reached the recorded steps (the worker counts the input events its steps read)
    expect(await read<number>('window.arena.worker().then((g) => g.inputs)')).toBeGreaterThanOrEqual(inputs + events);
  }, RECORD_SECONDS * 1000 + 120_000);

  it('loads a recording from a file and watches it: every tick as recorded, then live again', async () => {
    // a short one, made here: five seconds with the ship turning and firing
    await page.locator('#tape button', { hasText: 'rec' }).click();
    await until('recording', "window.arena.tape.state === 'recording'");
    const from = await read<number>('window.arena.game.tick');
    await page.keyboard.down('ArrowUp');
    await page.keyboard.down('Space');
    await until('five seconds of ticks', `window.arena.game.tick >= ${from + 5 * TICK_RATE}`);
    await page.keyboard.up('Space');
    await page.keyboard.up('ArrowUp');
    await page.locator('#tape button', { hasText: 'stop' }).click();
    await until('the recording', "window.arena.tape.state === 'idle' && window.arena.tape.recording !== null");
    const bytes = Buffer.from(await read<number[]>('Array.from(window.arena.tape.recording)'));
    // loaded as a player would: the file input behind "load"
    await page.locator('#tape input[type=file]').setInputFiles({ name: 'five.sfr', mimeType: 'application/octet-stream', buffer: bytes });
    await until('the playback', "window.arena.tape.state === 'playing'");
    const frames = await read<number>('window.arena.frames');
    await until('the end of the playback', "window.arena.tape.state === 'watched'", 30_000);
    // drawn while it played: frames, not a frame rate (a full CI run's load drew 29 in the 5 s of playback once)
    expect(await read<number>('window.arena.frames')).toBeGreaterThan(frames + 10);
    const report = await read<{ matched: boolean; complete: boolean; ticks: number }>('window.arena.tape.report');
    expect(report).toMatchObject({ matched: true, complete: true });
    expect(report.ticks).toBeGreaterThanOrEqual(5 * TICK_RATE);
    expect(await read<string>("document.querySelector('#tape .status').textContent")).toMatch(/every one as recorded ✓$/);
    expect((await read<{ worker: { status: string } }>('window.arena.runtime.stats()')).worker.status).toBe('paused');
    // a file that is not a recording is refused in words, and the game is as it was
    await page.locator('#tape input[type=file]').setInputFiles({ name: 'not.sfr', mimeType: 'application/octet-stream', buffer: Buffer.from('hello') });
    await until('the refusal', "window.arena.tape.error !== null && window.arena.tape.state === 'watched'");
    expect(await read<string>("document.querySelector('#tape .status').textContent")).toMatch(/not a steadyframe recording/);
    expect(await read<number>('window.arena.tape.recording.byteLength')).toBe(bytes.byteLength); // the last one kept
    // live again: a new game, running
    await page.locator('#tape button', { hasText: 'live' }).click();
    await until('a new game', "window.arena.tape.state === 'idle' && window.arena.game.score === 0");
    await until('running', 'window.arena.runtime.stats().then((s) => s.worker.status === "running")');
    const tick = await read<number>('window.arena.game.tick');
    await until('ticks again', `window.arena.game.tick > ${tick + 10}`);
  }, 90_000);

  it('shows no touch controls to a mouse and keyboard, and the keys in the help line', async () => {
    expect(await page.locator('#pad').isVisible()).toBe(false);
    expect(await page.locator('#fire').isVisible()).toBe(false);
    expect(await page.locator('#help .keys').isVisible()).toBe(true);
  });

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('the arena on a phone: touch controls', () => {
  let phone: Page;
  let phoneErrors: string[] = [];
  const phoneUntil = (what: string, expression: string, timeout?: number): Promise<void> => waitUntil(phone, what, expression, timeout);
  const phoneRead = <T>(expression: string): Promise<T> => phone.evaluate(expression) as Promise<T>;

  beforeAll(async () => {
    const browser: Browser = page.context().browser()!;
    const origin = new URL(page.url()).origin;
    // the desktop page's tests are done: closed, so its thousands of rocks are not drawn on the CPU beside the phone's
    await page.close();
    const context = await browser.newContext({ viewport: { width: 420, height: 800 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    phone = await context.newPage();
    phoneErrors = watchErrors(phone);
    await phone.goto(origin);
    await phoneUntil('the first frame and game state', 'window.arena?.ready === true && window.arena.game !== null');
  }, 60_000);

  afterAll(async () => {
    await phone?.context().close();
  });

  /** Where a point of the pad is, in CSS pixels: (fx, fy) in [-1, 1] from its centre, 0.8 of the way out. */
  const padPoint = async (fx: number, fy: number): Promise<{ x: number; y: number }> => {
    const box = (await phone.locator('#pad').boundingBox())!;
    return { x: box.x + box.width / 2 + 0.8 * fx * (box.width / 2), y: box.y + box.height / 2 + 0.8 * fy * (box.height / 2) };
  };

  it('shows the pad and the fire button on screen, clear of the HUD and the help line, which names them', async () => {
    const viewport = phone.viewportSize()!;
    const hud = (await phone.locator('#hud').boundingBox())!;
    const help = (await phone.locator('#help').boundingBox())!;
    for (const selector of ['#pad', '#fire']) {
      const box = (await phone.locator(selector).boundingBox())!;
      expect(await phone.locator(selector).isVisible(), selector).toBe(true);
      expect(box.x, selector).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, selector).toBeLessThanOrEqual(viewport.width);
      expect(box.y, selector).toBeGreaterThanOrEqual(hud.y + hud.height); // below the HUD
      expect(box.y + box.height, selector).toBeLessThanOrEqual(help.y); // above the help line
      expect(Math.min(box.width, box.height), `${selector}: a thumb's size`).toBeGreaterThanOrEqual(64);
    }
    expect(await phone.locator('#help .thumbs').isVisible()).toBe(true);
    expect(await phone.locator('#help .keys').isVisible()).toBe(false);
  });

  it('fires on a tap of the fire button', async () => {
    const shots = await phoneRead<number>('window.arena.game.shots');
    await phone.locator('#fire').tap(); // touch start and end back to back: the worker still fires that tick
    await phoneUntil('a shot from the tap', `window.arena.game.shots >= ${shots + 1}`);
  });

  it('moves the ship right while a thumb holds the pad\'s right, and left once it slides across', async () => {
    // a held touch (playwright's touchscreen only taps): Chromium's own touch input, as a phone's would arrive
    const cdp = await phone.context().newCDPSession(phone);
    const inputs = await phoneRead<number>('window.arena.worker().then((g) => g.inputs)');
    const x0 = await phoneRead<number>('window.arena.ship.x');
    const right = await padPoint(1, 0);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [right] });
    try {
      await phoneUntil('the ship to move right', `window.arena.ship.x > ${x0 + 2}`);
      expect(await phoneRead('document.querySelector("#pad .right").classList.contains("held")')).toBe(true);
      const x1 = await phoneRead<number>('window.arena.ship.x');
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [await padPoint(-1, 0)] });
      await phoneUntil('the ship to turn left', `window.arena.ship.x < ${x1 - 2}`);
    } finally {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    }
    // right down; right up and left down (the slide); left up: what the keyboard would have sent
    await phoneUntil('the worker to read the four events', `window.arena.worker().then((g) => g.inputs >= ${inputs + 4})`);
    expect(await phoneRead('document.querySelectorAll("#pad .held").length')).toBe(0);
    await cdp.detach();
  });

  it('logged no console errors', () => {
    expect(phoneErrors).toEqual([]);
  });
});
