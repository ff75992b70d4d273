/**
 * End to end: the real game server (src/server.ts: the simulation in a worker thread, the publisher on a `ws`
 * server), the BUILT page served by `vite preview`, and two headless Chromium pages, A and B, each connected
 * through its own shaped relay: 90–110 ms each way, ±20 ms jitter (so messages reorder), 2% of messages lost.
 *
 * The oracle is the server itself (server-truth.ts: its states sampled tick by tick). What is checked:
 * - prediction: A's own ship moves in the frames right after its key, ticks before a round trip could bring it;
 *   B sees it move a link's delay later;
 * - interpolation: every frame both pages draw is the server's world at one time, in order (the orbs);
 * - the wire: deltas against acknowledged states, a fraction of the old wire's bytes;
 * - lag compensation: B's shot at an orb where B's screen showed it hits on the server, where the orb's present
 *   place would have been a miss; the score comes with the shot's frame, on both pages;
 * - correction: B's shot knocks A's ship, which A's prediction could not know: A's drawn ship slides to the
 *   server's path within a bound set by the fade's constants (no jump), and ends where the server has it.
 * Nothing is timed: frames are read by their ticks and times, and every wait is a hang guard.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createShapedRelay, type ShapedRelay } from 'steadyframe/testing/node';
import { SMOOTH_MS } from '../src/prediction.ts';
import { CAPACITY, ORB_RADIUS, ORBS, SHIP_RADIUS, SHIPS, TICK_RATE } from '../src/schema.ts';
import { startGameServer, type GameServer } from '../src/server.ts';
import { ORB_POINTS, RANGE, SHIP_POINTS } from '../src/shots.ts';
import { watchServer, type ServerTruth } from './server-truth.ts';
// @ts-expect-error: plain .mjs helper shared with the other e2e tests; it has no type declarations.
import { buildAndPreview, launchChromium, waitUntil, watchErrors } from '../../../scripts/e2e-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TICK_MS = 1000 / TICK_RATE;
/** The network client's ticks (its default rate): two a server tick. */
const CLIENT_TICK_MS = 1000 / 120;
/** How much faster than its clock the prediction's time may run to catch its target (net/prediction.ts, SLEW: a fifth). */
const SLEW = 0.2;
/**
 * The speeds (units/s) at which an orb shot at crosses the beam: from the frame a page drew to the tick that judges
 * its shot is its playout delay and its lead (about 300 ms here), so at 60 units/s the orb's present place is 18
 * units off the beam (its radius is 10); past 110, the few ms between the frame and the input's stamp (tens, on a
 * loaded machine) come near the radius.
 */
const CROSSING = [60, 110] as const;
/** The most server ticks a frame may show before the frame before it (see the frames' test). */
const BACK_TICKS = 3;
/** Shots at orbs the test fires at most: a frame drawn while the link held a late snapshot shows an orb where it was not at its render time, and that shot misses. */
const ORB_SHOTS = 3;

let server: GameServer;
let truth: ServerTruth;
let relays: ShapedRelay[] = [];
let served: { url: string; close(): Promise<void> };
let browser: Browser;
const pages: Page[] = [];
const errors: string[][] = [];

beforeAll(async () => {
  server = await startGameServer({ port: 0 });
  truth = watchServer(server.runtime);
  relays = await Promise.all([1, 2].map((seed) => createShapedRelay(server.url, { baseMs: [90, 110], jitterMs: 20, loss: 0.02, seed })));
  served = await buildAndPreview(root);
  browser = (await launchChromium()) as Browser;
  for (const relay of relays) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    errors.push(watchErrors(page));
    await page.goto(`${served.url}?server=${encodeURIComponent(relay.url)}`);
    pages.push(page);
    // one at a time: A's ship takes slot 0; each page drawing its own ship, predicted
    await waitUntil(page, 'the page drawing the server and its own ship, predicted', `window.multiplayer?.ready === true && window.multiplayer.network?.predicted?.entities === 1`, 30_000);
  }
  // from here: a page's first moments (its playout finding the link's delay while the other page loads beside it
  // on this machine's cores) are not what the frames are held to
  for (const page of pages) await page.evaluate('window.multiplayer.recording = true');
}, 120_000);

afterAll(async () => {
  truth?.stop();
  await browser?.close();
  await served?.close();
  for (const relay of relays) await relay.close();
  await server?.close();
});

const ordinal = (n: number): string => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** A page's hooks, read. */
const read = <T>(page: Page, expression: string): Promise<T> => page.evaluate<T>(`(() => { const m = window.multiplayer; return ${expression}; })()`);

/** Slot s's ship on the server now: its position, its velocity. */
function shipOnServer(slot: number) {
  const s = truth.newest();
  const e = SHIPS + slot;
  return { x: s.position[2 * e]!, y: s.position[2 * e + 1]!, vx: s.velocity[2 * e]!, vy: s.velocity[2 * e + 1]! };
}

/**
 * Has `page` fire at entity `target` from the first frame where the beam to it is clear (no other entity near it,
 * short of the target or just past it) and it is in range: aimed at its centre as that frame drew it, through the
 * page's own `fire` (what a click calls). `'orb'`: at the clear orb crossing the beam fastest within CROSSING.
 * Resolves to the target, the aim, how fast it crossed, and the frame's time.
 */
async function fireWhenClear(page: Page, target: number | 'orb'): Promise<{ target: number; dx: number; dy: number; time: number; speedAcross: number }> {
  await page.evaluate(`(() => {
    const m = window.multiplayer;
    m.aimed = null;
    m.onFrame = (f) => {
      if (m.slot < 0) return;
      const p = f.fields.position, v = f.fields.velocity, owner = f.fields.owner;
      const me = ${SHIPS} + m.slot;
      const ox = p[2 * me], oy = p[2 * me + 1];
      const radius = (t) => (t < ${ORBS} ? ${ORB_RADIUS} : ${SHIP_RADIUS});
      const live = (t) => t !== me && (t < ${ORBS} || owner[t] !== 0);
      const clear = (t) => {
        const dx = p[2 * t] - ox, dy = p[2 * t + 1] - oy, d = Math.hypot(dx, dy);
        if (d < 60 || d > ${RANGE} - 60) return null;
        const ux = dx / d, uy = dy / d;
        for (let o = 0; o < ${CAPACITY}; o++) {
          if (o === t || !live(o)) continue;
          const rx = p[2 * o] - ox, ry = p[2 * o + 1] - oy, along = rx * ux + ry * uy;
          if (along > 0 && along < d + 40 && Math.abs(rx * uy - ry * ux) < radius(o) + 25) return null;
        }
        // how fast it crosses the beam: what a shot judged against the present world would miss by
        return { dx, dy, speedAcross: Math.abs(v[2 * t] * uy - v[2 * t + 1] * ux) };
      };
      let best = null;
      for (const t of ${target === 'orb' ? `Array.from({ length: ${ORBS} }, (_, i) => i)` : `[${target}]`}) {
        const c = live(t) ? clear(t) : null;
        // an orb: one crossing the beam at ${CROSSING[0]}–${CROSSING[1]} units/s, the fastest (slower says little of the
        // rewind; faster turns a few ms between the frame drawn and the input's stamp into a miss)
        if (c === null || (t < ${ORBS} && (c.speedAcross < ${CROSSING[0]} || c.speedAcross > ${CROSSING[1]}))) continue;
        if (best === null || c.speedAcross > best.speedAcross) best = { target: t, ...c };
      }
      if (best === null) return;
      if (!m.fire(best.dx, best.dy)) return;
      m.aimed = { ...best, time: f.time };
      m.onFrame = null;
    };
  })()`);
  await waitUntil(page, 'a clear shot fired', 'window.multiplayer.aimed !== null', 20_000);
  return read(page, 'm.aimed');
}

it('both pages are cross-origin isolated and draw the shared world from the server, each its own ship predicted', async () => {
  for (const page of pages) {
    expect(await page.evaluate('crossOriginIsolated')).toBe(true);
    expect(await page.evaluate('window.multiplayer.runtime.transport')).toBe('shared');
  }
  expect(await read(pages[0]!, 'm.slot')).toBe(0);
  expect(await read(pages[1]!, 'm.slot')).toBe(1);
});

it("moves A's ship in the frames right after its key, where the server's answer takes a round trip; B sees it a link's delay later", async () => {
  const [a, b] = pages as [Page, Page];
  // A's ship at rest where it started (nothing has moved it)
  const rest = shipOnServer(0);
  expect([rest.vx, rest.vy]).toEqual([0, 0]);
  // down: away from B's row (A's ship starts 250 units left of B's, on its row), with the arena's height to slide in
  const onB = `(() => { const f = window.multiplayer.runtime.sample(); return f.fields.position[2 * ${SHIPS} + 1]; })()`;
  const framesBefore = await read<number>(a, 'm.own.length');
  await a.keyboard.down('ArrowDown');
  await waitUntil(b, "A's ship moving on B as A steers it", `${onB} - ${rest.y} > 40`, 20_000);
  await a.keyboard.up('ArrowDown');
  const [pressedAt] = await read<number[]>(a, 'm.steered.find((s) => s[2] !== 0)');
  const own = (await read<number[][]>(a, 'm.own')).slice(framesBefore).map(([time, previousTick, tick, currentTime, , y, , , drawnAt]) => ({ time: time!, previousTick: previousTick!, tick: tick!, currentTime: currentTime!, y: y!, drawnAt: drawnAt! }));
  // the client tick that took the key, at the latest (the frames say the grid: a tick's state stands for its time)
  const ref = own.find((f) => f.currentTime >= pressedAt!)!;
  const took = ref.tick - Math.floor((ref.currentTime - pressedAt!) / CLIENT_TICK_MS);
  // the key goes into the next server tick predicted (at most two client ticks on), and the client tick that
  // steps it writes it: the first frame blending from a tick past that shows the ship moved
  const answered = took + TICK_MS / CLIENT_TICK_MS + 1;
  const first = own.findIndex((f) => f.previousTick >= answered);
  // moved: off its rest by more than a hundredth of the first tick's 0.25 units (a correction's fading offset, on a
  // loaded machine where an input came late, leaves far less)
  const off = (f: { y: number }): boolean => Math.abs(f.y - rest.y) > 0.0025;
  const moved = own.findIndex(off);
  const link = (await read<{ roundTrip: number; delay: number }>(a, 'm.network'))!;
  // the first frame drawn after the key (by when it was drawn: a late callback draws a frame timed before it)
  const pressFrame = own.findIndex((f) => f.drawnAt >= pressedAt!);
  console.log(
    `A's key at client tick ${took}: its ship drawn moving in the ${ordinal(moved - pressFrame + 1)} frame drawn after the key (client tick ${own[moved]!.tick}); ` +
      `the server's answer would take the round trip and the delay, ${((link.roundTrip + link.delay) / CLIENT_TICK_MS).toFixed(0)} client ticks`,
  );
  expect(own.slice(0, Math.max(0, pressFrame)).some(off), 'a frame drawn before the key shows the ship moving').toBe(false);
  expect(first, 'frames past the key').toBeGreaterThanOrEqual(0);
  expect(moved, 'the ship moved').toBeGreaterThanOrEqual(0);
  expect(moved, 'the first frame past the key and the step that took it shows the ship moved').toBeLessThanOrEqual(first);
  // and that is well before any answer from the server could come
  expect(own[moved]!.tick - took).toBeLessThan((link.roundTrip + link.delay) / CLIENT_TICK_MS / 4);
});

it("draws the server's states in order, whole and true on both pages", async () => {
  await waitUntil(pages[1]!, 'frames recorded', 'window.multiplayer.recorded.length > 200', 30_000);
  for (const [p, page] of pages.entries()) {
    const label = `page ${'AB'[p]}`;
    const frames = await read<number[][]>(page, 'm.recorded');
    let near = Number.NaN;
    const placed = frames.map((f) => {
      const place = truth.placeFrame(f.slice(2), near);
      if (place.error < 0.5) near = place.at;
      return { time: f[0]!, overtaken: f[1] === 1, ...place };
    });
    const sorted = placed.map((f) => f.error).sort((x, y) => x - y);
    const links = await read<{ delay: number; loss: number; late: number }>(page, 'm.network');
    console.log(`${label}: ${frames.length} frames; distance from the server's state (orbs move 60–180 units/s): median ${sorted[frames.length >> 1]!.toFixed(3)}, p99 ${sorted[Math.floor(frames.length * 0.99)]!.toFixed(3)}, max ${sorted.at(-1)!.toFixed(3)}; delay ${links.delay.toFixed(0)} ms`);
    // most frames are the server's world at one time to a hundredth of a unit; the rest carried the newest on
    // through a snapshot the delay did not cover (a loss, or this process busy: it runs the server and relays too)
    expect(sorted[frames.length >> 1]!, label).toBeLessThan(0.05);
    expect(sorted[Math.floor(frames.length * 0.9)]!, label).toBeLessThan(10);
    const good = placed.filter((f) => f.error < 0.5);
    // never back: neither the frame's time nor the server time it shows; save, on a loaded machine, a lone client
    // tick's state a tick or two ahead of the ones either side of it (seen with two CPU burners on this 2-core
    // machine, in about one run of three: client ticks 503, 505, 507 showing server ticks 472.5, 474.9, 473.1, each
    // state exact; never without the load): at most a few such frames a run, each at most BACK_TICKS back
    const back: string[] = [];
    for (let i = 1; i < good.length; i++) {
      expect(good[i]!.time, label).toBeGreaterThanOrEqual(good[i - 1]!.time);
      if (good[i]!.at >= good[i - 1]!.at - 0.05) continue;
      back.push(`${good[i - 1]!.at.toFixed(2)} -> ${good[i]!.at.toFixed(2)}`);
      expect(good[i - 1]!.at - good[i]!.at, label).toBeLessThan(BACK_TICKS);
    }
    if (back.length > 0) console.log(`${label}: frames that showed an earlier server tick than the frame before: ${back.join(', ')}`);
    expect(back.length, label).toBeLessThanOrEqual(Math.ceil(good.length / 100));
  }
});

it("sends each page deltas against the states it acknowledged, at a fraction of the old wire's bytes", async () => {
  // the old wire's snapshot (version 3: a 40-byte head, each entity's values as float32 and its uint32
  // generation, 8 bytes a game field)
  const format = server.publisher.format;
  const v3 = 40 + CAPACITY * (format.valuesPerEntity + 1) * 4 + format.gameValues * 8;
  expect(server.clients, JSON.stringify(server.host.stats)).toHaveLength(2);
  for (const [p, client] of server.clients.entries()) {
    const label = `page ${'AB'[p]}`;
    const { snapshots, bytes, deltas, full } = client.stats;
    console.log(`${label}: ${snapshots} snapshots sent, ${deltas} as deltas, ${full} whole; ${(bytes / snapshots).toFixed(0)} bytes a snapshot (wire version 3: ${v3})`);
    expect(deltas + full, label).toBe(snapshots);
    expect(deltas, label).toBeGreaterThan(snapshots / 2);
    expect(bytes / snapshots, label).toBeLessThan(v3 / 2);
  }
});

it("B's shot at an orb where B's screen shows it hits on the server (rewound to B's frame), and the score comes with the shot on both pages", async () => {
  const [a, b] = pages as [Page, Page];
  let aim: Awaited<ReturnType<typeof fireWhenClear>> | null = null;
  let hit: number[][] = [];
  const missed: number[] = [];
  for (let shot = 0; shot < ORB_SHOTS && aim === null; shot++) {
    const before = await Promise.all(pages.map((page) => read<number>(page, 'm.shots.length')));
    const fired = await fireWhenClear(b, 'orb');
    // the shot, as each page presents it: B's slot (1), the entity hit, B's score in that very frame. A shot the
    // server never judged (a CI run under load saw none presented in 20 s) is logged with what the server said of
    // B's inputs and fired again: this test is about how a judged shot is judged
    const judged = await Promise.all(pages.map((page, p) => waitUntil(page, `the shot on page ${'AB'[p]}`, `window.multiplayer.shots.length > ${before[p]!}`, 10_000).then(() => true, () => false)));
    if (judged.includes(false)) {
      const client = server.clients[1];
      console.log(`B's shot at orb ${fired.target} not presented (pages A, B: ${judged.join(', ')}); the server's count of B's inputs: ${JSON.stringify(client?.stats ?? null)}; the host: ${JSON.stringify(server.host.stats)}; B's network: ${JSON.stringify(await read(b, 'm.network'))}`);
      missed.push(fired.target);
      continue;
    }
    const presented = await Promise.all(pages.map((page, p) => read<number[][]>(page, `m.shots.slice(${before[p]!})`)));
    if (presented[1]![0]![3] === -1) {
      // what B's frame showed when it fired: a server state at one time (its placement's error small), or a
      // picture carried on past the newest snapshot, not the render time the shot is judged at
      const drawn = (await read<number[][]>(b, 'm.recorded')).find((f) => f[0] === fired.time);
      const place = drawn === undefined ? null : truth.placeFrame(drawn.slice(2));
      console.log(`B's shot at orb ${fired.target} missed; B's frame then: ${JSON.stringify(place)}; B's link: ${JSON.stringify(await read(b, 'm.network.ticks'))}`);
      missed.push(fired.target);
      continue;
    }
    aim = fired;
    hit = presented.map((shots) => shots[0]!);
  }
  expect(aim, `every shot missed (at orbs ${missed.join(', ')})`).not.toBeNull();
  for (const [p, shot] of hit.entries()) expect([shot[0], shot[3], shot[4]], `page ${'AB'[p]}: [shooter, hit, score in the frame]`).toEqual([1, aim!.target, ORB_POINTS]);
  for (const page of [a, b]) await waitUntil(page, "B's score on the scoreboard", `document.querySelector('#scores li[data-slot="1"] b')?.textContent === '${ORB_POINTS}'`, 10_000);
  // judged against the present world it would have missed: where the orb was when the server took the shot (the
  // state the judging step started from, or the last one sampled before it, when this process missed ticks)
  const scored = truth.scored(1, ORB_POINTS)!;
  const present = scored.before;
  const ox = present.position[2 * (SHIPS + 1)]!;
  const oy = present.position[2 * (SHIPS + 1) + 1]!;
  const d = Math.hypot(aim!.dx, aim!.dy);
  const rx = present.position[2 * aim!.target]! - ox;
  const ry = present.position[2 * aim!.target + 1]! - oy;
  const offNow = Math.abs((rx * aim!.dy - ry * aim!.dx) / d);
  const stats = (await server.runtime.stats()).worker as { rewinds: number; rewindsClamped: number };
  console.log(
    `B's shot at orb ${aim!.target} (crossing the beam at ${aim!.speedAcross.toFixed(0)} units/s; ${missed.length} missed before it): hit between server ticks ${present.tick} and ${scored.after.tick}; ` +
      `the orb's centre at ${present.tick} was ${offNow.toFixed(1)} units off the beam (radius ${ORB_RADIUS}); rewinds ${stats.rewinds}, clamped ${stats.rewindsClamped}`,
  );
  expect(offNow, 'without the rewind, a miss').toBeGreaterThan(ORB_RADIUS);
  expect(stats.rewindsClamped).toBe(0);
});

it("B's shot knocks A's ship, which A's prediction could not know: A's ship slides onto the server's path without a jump, and ends where the server has it", async () => {
  const [a, b] = pages as [Page, Page];
  const correctionsBefore = (await read<{ corrections: number }>(a, 'm.network.predicted')).corrections;
  const framesFrom = await read<number>(a, 'm.own.length');
  const ticksFrom = truth.newest().tick;
  const scoreBefore = truth.newest().scores[1]!;
  const aim = await fireWhenClear(b, SHIPS + 0);
  await waitUntil(b, "B's hit on A", `window.multiplayer.shots.some((s) => s[3] === ${SHIPS})`, 20_000);
  // A's ship knocked, sliding, then at rest again on the server, and drawn on A where the server has it
  await waitUntil(a, "A's page corrected", `window.multiplayer.network.predicted.corrections > ${correctionsBefore}`, 10_000);
  const settled = (): Promise<boolean> => {
    const ship = shipOnServer(0);
    return read<boolean>(a, `(() => { const o = m.own.at(-1); return ${ship.vx} === 0 && ${ship.vy} === 0 && Math.abs(o[4] - ${ship.x}) < 0.02 && Math.abs(o[5] - ${ship.y}) < 0.02; })()`);
  };
  for (const deadline = Date.now() + 15_000; !(await settled()); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`A's ship never settled where the server has it: ${JSON.stringify(shipOnServer(0))}, drawn ${JSON.stringify(await read(a, 'm.own.at(-1)'))}`);
  }
  const predicted = await read<{ corrections: number; largestCorrection: number; snaps: number }>(a, 'm.network.predicted');
  const own = (await read<number[][]>(a, 'm.own')).slice(framesFrom);
  // the fastest A's ship went on the server meanwhile
  let fastest = 0;
  for (const [tick, state] of truth.states) if (tick >= ticksFrom) fastest = Math.max(fastest, Math.hypot(state.velocity[2 * SHIPS]!, state.velocity[2 * SHIPS + 1]!));
  // the bound on a frame's move, per axis: the ship's own motion (its time runs at most a fifth fast) and a fading
  // correction's share (an offset o fading as e^(−3t / SMOOTH_MS) moves at most 3o / SMOOTH_MS a ms); a correction
  // drawn at once would move the ship by all of it in a frame
  const slope = (fastest * (1 + SLEW)) / 1000 + (3 * predicted.largestCorrection) / SMOOTH_MS;
  let worst = { move: 0, bound: 0, ratio: 0 };
  for (let i = 1; i < own.length; i++) {
    const dt = own[i]![0]! - own[i - 1]![0]!;
    const move = Math.max(Math.abs(own[i]![4]! - own[i - 1]![4]!), Math.abs(own[i]![5]! - own[i - 1]![5]!));
    const bound = dt * slope + 0.05;
    if (move / bound > worst.ratio) worst = { move, bound, ratio: move / bound };
  }
  const score = await read<string>(b, `document.querySelector('#scores li[data-slot="1"] b')?.textContent`);
  console.log(
    `B's shot at A (aimed along ${aim.dx.toFixed(0)}, ${aim.dy.toFixed(0)}): A's page ${JSON.stringify(predicted)}; A's ship at most ${fastest.toFixed(0)} units/s on the server; ` +
      `the largest move of a frame ${worst.move.toFixed(2)} units against its bound ${worst.bound.toFixed(2)}, over ${own.length} frames; B's score ${score}`,
  );
  // a real disagreement: the server moved the ship by more than its own radius from what A predicted
  expect(predicted.largestCorrection).toBeGreaterThan(SHIP_RADIUS);
  expect(predicted.snaps).toBe(0);
  expect(worst.move, 'no frame moved the ship past the bound').toBeLessThanOrEqual(worst.bound);
  expect(worst.move, 'no frame moved the ship by the correction').toBeLessThan(predicted.largestCorrection);
  for (const page of pages) await waitUntil(page, "B's score for the hit", `document.querySelector('#scores li[data-slot="1"] b')?.textContent === '${scoreBefore + SHIP_POINTS}'`, 10_000);
  for (const e of errors) expect(e).toEqual([]);
}, 60_000);
