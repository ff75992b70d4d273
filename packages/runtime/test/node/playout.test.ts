/**
 * The playout delay (src/net/playout.ts) over simulated links: a server sending a snapshot every 50 ms, a
 * seeded link (jitter, loss, reordering), a client drawing at 60 Hz, its server time read from a perfect clock
 * or from a ServerClock fed by pings. Everything runs on simulated time; the late fractions are counted from
 * the simulation's own record of what arrived when.
 */
import { describe, expect, it } from 'vitest';
import { pingDelay } from '../../src/net/ping-schedule.ts';
import {
  Playout,
  PLAYOUT_MARGIN_MS,
  PLAYOUT_MAX_RATE_CHANGE,
  PLAYOUT_SKIP_MS,
  PLAYOUT_WINDOW_MS,
  type PlayoutOptions,
} from '../../src/net/playout.ts';
import { CLOCK_SLEW_RATE, ServerClock } from '../../src/net/server-clock.ts';
import { createLink, EventQueue, FRAME_MS, percentile, type LinkOptions } from './support/net-link.ts';

const OFFSET = 123_456.7;
const INTERVAL = 50; // 20 snapshots a second
const R = PLAYOUT_MAX_RATE_CHANGE;
/** 100 ± 30 ms, 5% lost, 3% held back 60 ms (overtaken by the next one or two). */
const JITTERY: LinkOptions = { baseMs: 100, jitterMs: 30, loss: 0.05, reorder: 0.03, reorderMs: 60 };
/** Its 95th percentile: 97% uniform on [70, 130] and 3% on [130, 190], so P(L > x) = 0.05 at x = 130 − 60 × 0.02 / 0.97. */
const JITTERY_P95 = 130 - (60 * 0.02) / 0.97;

interface Scenario {
  readonly seed: number;
  readonly frames: number;
  readonly link: LinkOptions;
  readonly options?: Partial<PlayoutOptions>;
  /** The link's options from a true time on (a link that changes). */
  readonly linkFrom?: ReadonlyArray<readonly [number, LinkOptions]>;
  /** The error of the server time the client reads, ms, until the jumps below correct it. */
  readonly clockError?: number;
  /** Jumps of the clock the client reads: [true time, ms]; reported to the playout if `report`. */
  readonly jumps?: ReadonlyArray<readonly [number, number]>;
  readonly report?: boolean;
  /** Read server time through a ServerClock over pings on these links, the client's clock drifting 100 ppm. */
  readonly pings?: { readonly up: LinkOptions; readonly down: LinkOptions };
  /** No frames in [from, to): a hidden tab (snapshots still read as they come) or, if `frozen`, a frozen page. */
  readonly away?: readonly [number, number];
  readonly frozen?: boolean;
}

interface FrameRecord {
  readonly t: number;
  readonly now: number;
  readonly render: number;
  readonly delay: number;
  readonly target: number;
  readonly skips: number;
  readonly holds: number;
  /** The snapshot after the render time (the first not lost) had not arrived: the frame holds or extrapolates. */
  readonly starved: boolean;
}

interface Run {
  readonly playout: Playout;
  readonly frames: FrameRecord[];
  /** Per snapshot read, in the order read: whether it came after a frame needed it... */
  readonly late: boolean[];
  /** ...and when it was read, true ms. */
  readonly reads: number[];
  readonly clock: ServerClock | null;
}

function run(scenario: Scenario): Run {
  const { seed, link, away = [Infinity, Infinity] } = scenario;
  const playout = new Playout({ sendInterval: INTERVAL, ...scenario.options });
  const duration = scenario.frames * FRAME_MS;
  const client = (t: number): number => 5000 + t * (1 + 100e-6);
  const serverAt = (t: number): number => t + OFFSET;
  // server time as the client reads it at true time t
  let clock: ServerClock | null = null;
  const jumps = scenario.jumps ?? [];
  let read = (t: number): number => serverAt(t) + (scenario.clockError ?? 0) + jumps.reduce((sum, [at, by]) => sum + (t >= at ? by : 0), 0);
  let jumped = 0;
  /** The clock's jumps up to t, told to the playout as a network worker would (before what it reads after them). */
  const jumpsUntil = (t: number): void => {
    for (; jumped < jumps.length && jumps[jumped]![0] <= t; jumped++) if (scenario.report === true) playout.clockJumped(jumps[jumped]![1]);
  };
  const queue = new EventQueue();
  if (scenario.pings !== undefined) {
    const theClock = new ServerClock();
    clock = theClock;
    read = (t) => theClock.serverTime(client(t));
    let seen = 0;
    const up = createLink(seed + 10, scenario.pings.up);
    const down = createLink(seed + 11, scenario.pings.down);
    let sent = 0;
    const ping = (t: number): void => {
      const next = t + pingDelay(++sent);
      queue.schedule(next, () => ping(next));
      const u = up();
      const d = down();
      if (u === null || d === null) return;
      queue.schedule(t + u + 0.5 + d, () => {
        theClock.addSample({ sent: client(t), serverReceived: serverAt(t + u), serverSent: serverAt(t + u + 0.5), received: client(t + u + 0.5 + d) });
        if (theClock.jumps !== seen) playout.clockJumped(theClock.lastJump); // as a network worker does
        seen = theClock.jumps;
      });
    };
    queue.schedule(0, () => ping(0));
  }
  // every snapshot's fate, drawn up front: when it arrives (Infinity if lost), and when the client reads it
  const links = [[0, link] as const, ...(scenario.linkFrom ?? [])].map(([from, options], i) => [from, createLink(seed + i, options)] as const);
  const count = Math.ceil(duration / INTERVAL) + 1;
  const arrival = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const delay = links.findLast(([from]) => k * INTERVAL >= from)![1]();
    arrival[k] = delay === null ? Infinity : k * INTERVAL + delay;
  }
  const readAt = (k: number): number => (scenario.frozen === true && arrival[k]! >= away[0] && arrival[k]! < away[1] ? away[1] : arrival[k]!);
  const order = Array.from({ length: count }, (_, k) => k).filter((k) => arrival[k]! < Infinity).sort((a, b) => readAt(a) - readAt(b));
  const frames: FrameRecord[] = [];
  const late: boolean[] = [];
  const reads: number[] = [];
  let next = 0;
  let lastRender = Number.NaN;
  let lastT = Number.NaN;
  /** Snapshots read since the last frame drawn: [true time read, time made]. */
  const pending: Array<[number, number]> = [];
  for (let f = 0; f < scenario.frames; f++) {
    const t = f * FRAME_MS;
    queue.runUntil(t);
    for (; next < order.length && readAt(order[next]!) <= t; next++) {
      const k = order[next]!;
      jumpsUntil(readAt(k));
      const time = serverAt(k * INTERVAL);
      pending.push([readAt(k), time]);
      playout.addSnapshot(time, read(readAt(k)));
    }
    jumpsUntil(t);
    if (t < 500 || (t >= away[0] && t < away[1]) || (clock !== null && !clock.synced)) continue;
    const now = read(t);
    const render = playout.renderTime(now);
    // the simulation's own count: the render time when it was read (between the frames around it) had passed
    // the time a frame needs it from, `time − sendInterval`
    for (const [at, time] of pending.splice(0)) {
      const renderThen = lastRender + ((at - lastT) / (t - lastT)) * (render - lastRender);
      late.push(renderThen > time - INTERVAL);
      reads.push(at);
    }
    lastRender = render;
    lastT = t;
    let after = Math.max(0, Math.ceil((render - OFFSET) / INTERVAL));
    while (after < count && arrival[after] === Infinity) after++;
    const { delay, target, skips, holds } = playout.stats();
    frames.push({ t, now, render, delay, target, skips, holds, starved: !(readAt(after) <= t) });
  }
  return { playout, frames, late, reads, clock };
}

/**
 * Asserts the render time never goes back, and advances at 1 ± r of the server time elapsed past its highest
 * yet (a frame partly held counts only its part past it), except on skips; returns the frame pairs checked.
 */
function expectPlayback(frames: readonly FrameRecord[], r = R): number {
  let checked = 0;
  let high = frames[0]!.now;
  for (let i = 1; i < frames.length; i++) {
    const a = frames[i - 1]!;
    const b = frames[i]!;
    if (b.render < a.render) throw new Error(`render time went back at t = ${b.t}: ${a.render} -> ${b.render}`);
    const elapsed = b.now - high;
    high = Math.max(high, b.now);
    if (b.skips !== a.skips || elapsed <= 0) continue;
    const rate = (b.render - a.render) / elapsed;
    if (rate < 1 - r - 1e-9 || rate > 1 + r + 1e-9) throw new Error(`playback rate ${rate} at t = ${b.t}`);
    checked++;
  }
  return checked;
}

const share = (flags: readonly boolean[]): number => flags.filter(Boolean).length / flags.length;

describe('Playout: the target delay from lateness', () => {
  it('is the percentile of lateness + sendInterval + margin, never below sendInterval; the window is by arrival', () => {
    const playout = new Playout({ sendInterval: INTERVAL });
    expect(playout.target).toBe(INTERVAL + PLAYOUT_MARGIN_MS); // before any sample
    for (let i = 1; i <= 20; i++) playout.addSnapshot(1000 + i * INTERVAL, 1000 + i * INTERVAL + i); // lateness 1..20
    // nearest rank: the 19th of 20 at p95, the 10th at p50
    expect(playout.stats()).toMatchObject({ lateness: 19, jitter: 9, samples: 20, target: 19 + INTERVAL + PLAYOUT_MARGIN_MS });
    playout.addSnapshot(5000, 5000 + 3); // 3 s after the 20th arrived (2020): the 19 before it leave the window
    expect(playout.stats()).toMatchObject({ samples: 2, lateness: 20 });
    playout.addSnapshot(9000, 9000 - 200); // arrived "before" it was made: a clock 200 ms off. A sample like any
    playout.addSnapshot(9100, 9100 - 200);
    expect(playout.stats()).toMatchObject({ samples: 2, lateness: -200, target: INTERVAL }); // the floor
  });

  it('takes snapshots in any order, duplicates as samples; refuses what is not finite without throwing', () => {
    const playout = new Playout({ sendInterval: INTERVAL });
    expect(playout.addSnapshot(1100, 1180)).toBe(true);
    expect(playout.addSnapshot(1000, 1190)).toBe(true); // overtaken: late by 190
    expect(playout.addSnapshot(1100, 1195)).toBe(true); // a duplicate: its lateness again
    expect(playout.addSnapshot(Number.NaN, 1200)).toBe(false);
    expect(playout.addSnapshot(1200, Number.NaN)).toBe(false); // an unsynced clock's arrival
    expect(playout.renderTime(Number.NaN)).toBeNaN(); // nothing placed yet, nothing changed
    expect(playout.stats()).toMatchObject({ samples: 3, sampled: 3, rejected: 2, lateness: 190, target: 190 + INTERVAL + PLAYOUT_MARGIN_MS });
  });
});

describe('Playout: the render time', () => {
  it('starts at now − target, eases toward it at error / settleMs (capped at r), holds, skips', () => {
    const playout = new Playout({ sendInterval: INTERVAL });
    expect(playout.renderTime(1000)).toBe(1000 - 60); // target 50 + 10 before any sample
    playout.addSnapshot(900, 1000); // lateness 100: target 160, the delay (60) 100 short
    expect(playout.renderTime(1016)).toBeCloseTo(940 + 16 - 16 * R, 9); // error −100 ms: the cap, 5% slow
    playout.addSnapshot(900, 1000 - 50); // lateness 50 (p95 of 2 is still 100)
    const before = playout.renderTime(1032);
    expect(playout.renderTime(1020)).toBe(before); // server time went back: hold
    expect(playout.renderTime(1032)).toBe(before); // and up to its highest: still hold
    expect(playout.stats().holds).toBe(2);
    expect(playout.renderTime(1042)).toBeCloseTo(before + 10 - 10 * R, 9); // still 98 ms short: the cap
    expect(playout.renderTime(1042 + PLAYOUT_SKIP_MS + 1)).toBe(1042 + PLAYOUT_SKIP_MS + 1 - 160); // a leap: skip
    expect(playout.stats()).toMatchObject({ skips: 1, holds: 2, delay: 160 });
    playout.reset();
    expect(playout.renderTime(10)).toBe(10 - 60); // a new session: the one way back
    expect(playout.stats()).toMatchObject({ skips: 1, holds: 2, samples: 0 }); // counters stay
    // within 50 ms of the target the rate is proportional: 30 ms short is 3% of 1 s / 1000 ms, 0.03% slow... per ms
    const near = new Playout({ sendInterval: INTERVAL });
    near.renderTime(1000); // 940
    near.addSnapshot(970, 1000); // lateness 30: target 90, the delay 60: −30 ms
    expect(near.renderTime(1010)).toBeCloseTo(940 + 10 - (30 * 10) / 1000, 9);
  });

  it('on a jittery link (100 ± 30 ms, 5% loss, reordering): 100k frames, never back, 1 ± 5%, ~p95 late', () => {
    const { playout, frames, late } = run({ seed: 21, frames: 100_000, link: JITTERY });
    expect(expectPlayback(frames)).toBe(frames.length - 1); // no skip, no hold: every pair within the rate
    const settled = frames.filter((f) => f.t > 10_000);
    // the target is the link's 95th percentile + one interval + the margin, and the delay sits on it: from 5 s
    // after the start, and ever after (the target moves when a few of the 3% held back share a window)
    const expected = JITTERY_P95 + INTERVAL + PLAYOUT_MARGIN_MS;
    expect(Math.abs(percentile(frames.filter((f) => f.t > 5500 && f.t < 10_000).map((f) => f.delay), 0.5) - expected)).toBeLessThan(5);
    expect(Math.abs(percentile(settled.map((f) => f.target), 0.5) - expected)).toBeLessThan(3);
    expect(Math.abs(percentile(settled.map((f) => f.delay), 0.5) - expected)).toBeLessThan(3);
    expect(percentile(settled.map((f) => Math.abs(f.delay - f.target)), 0.5)).toBeLessThan(3);
    expect(percentile(settled.map((f) => Math.abs(f.delay - f.target)), 0.95)).toBeLessThan(20);
    // about 1 − p95 of the snapshots come after a frame needed them (less, by the margin), counted alike
    const steady = late.slice(Math.floor(late.length / 100));
    expect(share(steady)).toBeGreaterThan(0.01);
    expect(share(steady)).toBeLessThan(0.06);
    // and the playout's own count (the render time carried on from the frame before) says much the same
    expect(Math.abs(playout.stats().late - late.filter(Boolean).length)).toBeLessThan(late.length * 0.002);
    expect(share(settled.map((f) => f.starved))).toBeLessThan(0.06);
  });

  // [percentile, the late share it must stay under: about 1 − p]
  const shares: Array<[number, number]> = [[0.9, 0.12], [0.95, 0.06], [0.99, 0.012]];
  for (const [p, most] of shares) {
    it(`at p${p * 100} about ${Math.round((1 - p) * 100)}% or fewer come late`, () => {
      const { frames, late } = run({ seed: 5, frames: 30_000, link: JITTERY, options: { percentile: p } });
      expect(share(late.slice(200))).toBeLessThan(most);
      expect(share(late.slice(200))).toBeGreaterThan(most / 10); // and the delay is not oversized for it
      expectPlayback(frames);
    });
  }

  it('through a ServerClock on an asymmetric link, the client 100 ppm fast: the clock error cancels out', () => {
    const up: LinkOptions = { ...JITTERY, baseMs: 50 };
    const down: LinkOptions = { ...JITTERY, baseMs: 150 };
    const { frames, late, clock } = run({ seed: 9, frames: 60_000, link: down, pings: { up, down } });
    expect(clock!.stats().jumps).toBe(0);
    expectPlayback(frames);
    // against the client's own clock the two rates multiply
    for (let i = 1; i < frames.length; i++) {
      const rate = (frames[i]!.render - frames[i - 1]!.render) / (FRAME_MS * (1 + 100e-6));
      expect(rate).toBeGreaterThanOrEqual((1 - R) * (1 - CLOCK_SLEW_RATE) - 1e-9);
      expect(rate).toBeLessThanOrEqual((1 + R) * (1 + CLOCK_SLEW_RATE) + 1e-9);
    }
    expect(share(late.slice(200))).toBeLessThan(0.06);
    expect(share(frames.filter((f) => f.t > 10_000).map((f) => f.starved))).toBeLessThan(0.06);
  });

  it('follows a link that worsens and recovers at no more than 5%, within seconds', () => {
    const calm: LinkOptions = { baseMs: 80, jitterMs: 10 };
    const rough: LinkOptions = { baseMs: 80, jitterMs: 80, loss: 0.05 };
    const { frames } = run({ seed: 4, frames: 12_000, link: calm, linkFrom: [[60_000, rough], [120_000, calm]] });
    expect(expectPlayback(frames)).toBe(frames.length - 1);
    const at = (t0: number, t1: number): FrameRecord[] => frames.filter((f) => f.t >= t0 && f.t < t1);
    // the p95 rises by ~75 ms then falls back: followed at 5% (1.5 s) and eased in (1/e a second), within 4 s
    // of the worsening and 5 s of the recovery (whose samples take the window's 3 s to leave)
    for (const [from, to] of [[6000, 60_000], [64_000, 120_000], [125_000, 200_000]] as const) {
      expect(Math.max(...at(from, to).map((f) => Math.abs(f.delay - f.target))), `from ${from}`).toBeLessThan(15);
    }
    expect(percentile(at(100_000, 120_000).map((f) => f.delay), 0.5)).toBeGreaterThan(percentile(at(30_000, 60_000).map((f) => f.delay), 0.5) + 60);
  });

  // [what, the clock's error, then its jump]
  const corrections: Array<[string, number, number]> = [
    ['a clock 300 ms behind corrected (+300 ms: a first pong that was slow)', -300, 300],
    ['a clock 80 ms ahead corrected (−80 ms)', 80, -80],
  ];
  for (const [what, error, by] of corrections) {
    it(`takes ${what}, reported, into the delay: no skip, no hold, the picture unmoved`, () => {
      const { frames, late, playout } = run({ seed: 6, frames: 9000, link: JITTERY, clockError: error, jumps: [[60_000, by]], report: true });
      expect(playout.stats()).toMatchObject({ skips: 0, holds: 0, shifts: 1 });
      const at = frames.findIndex((f) => f.t >= 60_000);
      // the jump's frame advances by its own time alone; every other frame within 1 ± r of server time
      const shifted = frames.map((f, i) => (i >= at ? { ...f, now: f.now - by } : f));
      expect(expectPlayback(shifted)).toBe(frames.length - 1);
      // the target and the delay move together, except that a clock so far behind that snapshots read as made
      // after they came (lateness below 0) has the target on its floor, sendInterval: the delay is longer than
      // needed (by 161 ms here), and after the correction comes down to the target at 5%, in about 4 s
      const settled = frames.filter((f) => f.t > 10_000 && (error > 0 || f.t < 60_000 || f.t > 66_000));
      expect(percentile(settled.map((f) => Math.abs(f.delay - f.target)), 0.95)).toBeLessThan(20);
      if (error < 0) expect(percentile(frames.filter((f) => f.t > 10_000 && f.t < 60_000).map((f) => f.target), 0.5)).toBe(INTERVAL);
      // the samples move at the jump, not over the window after it: the target is where it will stay at once
      const [before, jumped] = [frames[at - 1]!, frames[at]!];
      if (error > 0) expect(jumped.target - before.target).toBeCloseTo(by, 6);
      else expect(jumped.target).toBeGreaterThan(JITTERY_P95 + INTERVAL);
      expect(share(late.slice(200))).toBeLessThan(0.06);
    });
  }

  it('without the report, server time going back holds the picture, and a 5 s leap skips (then starves)', () => {
    const { frames, playout } = run({ seed: 6, frames: 12_000, link: JITTERY, jumps: [[60_000, -80], [120_000, 5000]] });
    expect(expectPlayback(frames)).toBe(frames.length - 1 - 1 - playout.stats().holds);
    expect(playout.stats()).toMatchObject({ skips: 1, shifts: 0 });
    expect(playout.stats().holds).toBeGreaterThanOrEqual(Math.floor(80 / FRAME_MS)); // 80 ms of frames at or below the highest
    expect(playout.stats().holds).toBeLessThanOrEqual(Math.ceil(80 / FRAME_MS));
    const leap = frames.findIndex((f) => f.skips === 1);
    expect(frames[leap]!.t).toBeGreaterThanOrEqual(120_000);
    expect(frames[leap]!.t).toBeLessThan(120_000 + FRAME_MS);
    expect(frames[leap]!.delay).toBeCloseTo(frames[leap - 1]!.target, 9); // at the target it had before the leap
    // taken as time that passed, the jump puts the render time 5 s past the snapshots: why the caller reports it
    expect(share(frames.filter((f) => f.t > 125_000 && f.t < 135_000).map((f) => f.starved))).toBe(1);
  });

  // [what, frozen]
  const aways: Array<[string, boolean]> = [
    ['a hidden tab (30 s of no frames; its worker still reads snapshots)', false],
    ['a frozen page (30 s; then the socket hands it 30 s of snapshots at once)', true],
  ];
  for (const [what, frozen] of aways) {
    it(`${what}: one skip to the target it had, and back on it within seconds`, () => {
      const away = [60_000, 90_000] as const;
      const { frames, late, reads, playout } = run({ seed: 8, frames: 9000, link: JITTERY, away, frozen });
      expectPlayback(frames);
      const wake = frames.findIndex((f) => f.t >= away[1]);
      expect(frames[wake]!.skips).toBe(1);
      expect(frames.at(-1)!.skips).toBe(1);
      expect(frames[wake]!.delay).toBeCloseTo(frames[wake - 1]!.target, 9);
      const next = frames.filter((f) => f.t >= away[1] && f.t < away[1] + 20_000);
      // a frozen page's queued snapshots raise the target for a window: the delay rises by at most 3 s × 5%
      expect(Math.max(...next.map((f) => f.delay))).toBeLessThan(frames[wake]!.delay + (frozen ? PLAYOUT_WINDOW_MS * R + 10 : 20));
      expect(Math.abs(next.at(-1)!.delay - next.at(-1)!.target)).toBeLessThan(5);
      // a frozen page reads 30 s of snapshots at its wake, every one after its time; the rest as on any run
      const atWake = late.filter((_, i) => reads[i] === away[1]);
      expect(atWake.length).toBe(frozen ? late.length - late.filter((_, i) => reads[i]! < away[0] || reads[i]! > away[1]).length : 0);
      expect(atWake.every(Boolean)).toBe(true);
      expect(share(late.filter((_, i) => reads[i] !== away[1]))).toBeLessThan(0.06);
      expect(Math.abs(playout.stats().late - late.filter(Boolean).length)).toBeLessThan(late.length * 0.002);
    });
  }

  it('refuses options out of range at set-up, by name', () => {
    expect(() => new Playout({ sendInterval: 0 })).toThrow(/^steadyframe: Playout sendInterval must be/);
    expect(() => new Playout({ sendInterval: 50, percentile: 1.5 })).toThrow(/Playout percentile/);
    expect(() => new Playout({ sendInterval: 50, skipMs: 2000 })).toThrow(/Playout skipMs .* settleMs/);
    expect(() => new Playout({ sendInterval: 50, maxRateChange: Number.NaN })).toThrow(/maxRateChange .*got NaN/);
  });
});
