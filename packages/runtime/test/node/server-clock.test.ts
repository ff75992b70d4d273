/**
 * The server clock (src/net/server-clock.ts) over simulated links: seeded delays, jitter, loss and reordering,
 * a client clock that drifts, servers that restart, pages that freeze. Each run is minutes of simulated time
 * read at 60 Hz frames; nothing waits on a wall clock.
 */
import { describe, expect, it } from 'vitest';
import { pingDelay, PING_BURST, PING_BURST_GAP_MS, PING_INTERVAL_MS } from '../../src/net/ping-schedule.ts';
import {
  CLOCK_JUMP_MS,
  CLOCK_SLEW_RATE,
  CLOCK_STAMP_SLACK_MS,
  CLOCK_WINDOW_MS,
  ServerClock,
  type PingSample,
  type ServerClockOptions,
} from '../../src/net/server-clock.ts';
import { createLink, EventQueue, FRAME_MS, percentile, type LinkOptions } from './support/net-link.ts';

const OFFSET = 123_456.7;
/** The client's page started 5 s into true time; its clock runs 100 ppm fast. */
const drifting = (t: number): number => 5000 + t * (1 + 100e-6);
const CLEAN: LinkOptions = { baseMs: 1, jitterMs: 0.2 };
/** 100 ± 30 ms each way, 5% lost, 3% held back 60 ms (overtaken by later packets). */
const JITTERY: LinkOptions = { baseMs: 100, jitterMs: 30, loss: 0.05, reorder: 0.03, reorderMs: 60 };
const UP_FAST: LinkOptions = { ...JITTERY, baseMs: 50 };
const DOWN_SLOW: LinkOptions = { ...JITTERY, baseMs: 150 };

interface Scenario {
  readonly seed: number;
  readonly durationMs: number;
  readonly up: LinkOptions;
  readonly down: LinkOptions;
  /** Server clock minus true time at true time t. */
  readonly serverOffset?: (t: number) => number;
  /** The client's clock at true time t. */
  readonly client?: (t: number) => number;
  /** A frozen page, true ms [from, to): no frames, pongs wait to be read until `to` (pings still go: a timer). */
  readonly frozen?: readonly [number, number];
  /** The frozen page is a machine asleep: no pings go either. */
  readonly asleep?: boolean;
  readonly options?: ServerClockOptions;
}

interface FrameRecord {
  readonly t: number;
  readonly client: number;
  /** serverTime(client) */
  readonly read: number;
  /** The server's clock at t: what `read` should be. */
  readonly truth: number;
  readonly jumps: number;
  readonly estimate: number;
  readonly roundTrip: number;
  /** Server minus client at t. */
  readonly trueOffset: number;
}

interface SampleRecord {
  readonly received: number;
  readonly roundTrip: number;
  readonly used: boolean;
  /** stats().roundTrip right after it. */
  readonly chosen: number;
  /** stats().estimate right after it, minus the true offset then. */
  readonly estimateError: number;
}

function run(scenario: Scenario): { clock: ServerClock; frames: FrameRecord[]; samples: SampleRecord[] } {
  const { seed, durationMs, frozen = [Infinity, Infinity] } = scenario;
  const serverAt = (t: number): number => t + (scenario.serverOffset ?? (() => OFFSET))(t);
  const clientAt = scenario.client ?? drifting;
  const up = createLink(seed, scenario.up);
  const down = createLink(seed + 1, scenario.down);
  const work = createLink(seed + 2, { baseMs: 0.5, jitterMs: 0.45 });
  const isFrozen = (t: number): boolean => t >= frozen[0] && t < frozen[1];
  const clock = new ServerClock(scenario.options);
  const queue = new EventQueue();
  const frames: FrameRecord[] = [];
  const samples: SampleRecord[] = [];
  let sent = 0;
  const ping = (t: number): void => {
    if (scenario.asleep === true && isFrozen(t)) {
      queue.schedule(frozen[1], () => ping(frozen[1])); // the timer fires at the wake
      return;
    }
    const t0 = clientAt(t);
    sent++;
    const next = t + pingDelay(sent);
    queue.schedule(next, () => ping(next));
    const upDelay = up();
    if (upDelay === null) return;
    const atServer = t + upDelay;
    const leaves = atServer + work()!;
    const downDelay = down();
    if (downDelay === null) return;
    const arrives = leaves + downDelay;
    const read = isFrozen(arrives) ? frozen[1] : arrives; // a frozen page reads it when it wakes
    queue.schedule(read, () => {
      const sample: PingSample = { sent: t0, serverReceived: serverAt(atServer), serverSent: serverAt(leaves), received: clientAt(read) };
      const used = clock.addSample(sample);
      const roundTrip = sample.received - sample.sent - (sample.serverSent - sample.serverReceived);
      const { roundTrip: chosen, estimate } = clock.stats();
      samples.push({ received: sample.received, roundTrip, used, chosen, estimateError: estimate - (serverAt(read) - clientAt(read)) });
    });
  };
  queue.schedule(0, () => ping(0));
  for (let t = 0; t <= durationMs; t += FRAME_MS) {
    queue.runUntil(t);
    if (isFrozen(t) || !clock.synced) continue;
    const client = clientAt(t);
    const read = clock.serverTime(client);
    const { jumps, estimate, roundTrip } = clock.stats();
    frames.push({ t, client, read, truth: serverAt(t), jumps, estimate, roundTrip, trueOffset: serverAt(t) - client });
  }
  return { clock, frames, samples };
}

/** Frame pairs in a row where the clock did not jump between them. */
function* steadyPairs(frames: readonly FrameRecord[]): Generator<[FrameRecord, FrameRecord]> {
  for (let i = 1; i < frames.length; i++) if (frames[i]!.jumps === frames[i - 1]!.jumps) yield [frames[i - 1]!, frames[i]!];
}

/** Asserts that server time as read rises at 1 ± slewRate of the client's clock between frames without a jump. */
function expectSlewOnly(frames: readonly FrameRecord[]): number {
  let pairs = 0;
  for (const [a, b] of steadyPairs(frames)) {
    const rate = (b.read - a.read) / (b.client - a.client);
    if (rate < 1 - CLOCK_SLEW_RATE - 1e-9 || rate > 1 + CLOCK_SLEW_RATE + 1e-9) {
      throw new Error(`server time ran at ${rate} of the client clock at t = ${b.t.toFixed(1)} (no jump between)`);
    }
    pairs++;
  }
  return pairs;
}

const maxAbs = (values: readonly number[]): number => values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('ServerClock: the offset from pings (min round trip over a window)', () => {
  it('on a clean link syncs at the first pong, applied at once, within half the round trip', () => {
    const steady = (t: number): number => 5000 + t; // no drift: the error is the link's alone
    const { clock, frames } = run({ seed: 1, durationMs: 20_000, up: CLEAN, down: CLEAN, client: steady });
    const first = frames[0]!;
    expect(first.read - first.client).toBe(first.estimate); // the first estimate applies at once
    for (const f of frames) expect(Math.abs(f.read - f.truth)).toBeLessThanOrEqual(f.roundTrip / 2 + 1e-9);
    expect(maxAbs(frames.map((f) => f.read - f.truth))).toBeLessThan(0.25); // 1 ± 0.2 ms each way
    expect(clock.stats()).toMatchObject({ jumps: 0, steps: 0, rejected: 0, slow: 0 });
  });

  /** The fastest round trip either jittery link allows: (100 − 30) × 2, or (50 − 30) + (150 − 30). */
  const FLOOR = 140;
  // [what, up, down, the error the asymmetry leaves (which no ping can see)]
  const links: Array<[string, LinkOptions, LinkOptions, number]> = [
    ['symmetric 100 ± 30 ms, 5% loss, reordering', JITTERY, JITTERY, 0],
    ['asymmetric 50 / 150 ± 30 ms, 5% loss, reordering', UP_FAST, DOWN_SLOW, -50],
  ];
  for (const [what, up, down, bias] of links) {
    it(`${what}, 100 ppm drift: within half the best round trip, slewed only, over 10 min`, () => {
      const { clock, frames, samples } = run({ seed: 7, durationMs: 600_000, up, down });
      // the guarantee: the true offset lies within half the chosen sample's round trip (plus drift since it)
      for (const f of frames) {
        expect(Math.abs(f.read - f.truth), `t = ${f.t}`).toBeLessThanOrEqual(f.roundTrip / 2 + CLOCK_STAMP_SLACK_MS);
      }
      const used = samples.filter((x) => x.used);
      for (const s of used) {
        // the chosen sample is the fastest of the window (the test's own record of what came)...
        const inWindow = used.filter((x) => x.received <= s.received && x.received >= s.received - CLOCK_WINDOW_MS);
        expect(s.chosen).toBe(Math.max(0, Math.min(...inWindow.map((x) => x.roundTrip))));
        // ...and beyond the route's asymmetry its error is at most half its queueing (drift since: 1 ms)
        expect(Math.abs(s.estimateError - bias)).toBeLessThanOrEqual((s.chosen - FLOOR) / 2 + 1);
      }
      // what that buys, as read every frame: half the error of the newest sample alone (p50 about 9 ms, p95 27)
      const settled = frames.filter((f) => f.t > 10_000).map((f) => Math.abs(f.read - f.truth - bias));
      expect(percentile(settled, 0.5)).toBeLessThan(6);
      expect(percentile(settled, 0.95)).toBeLessThan(18);
      expect(expectSlewOnly(frames)).toBeGreaterThan(35_000); // every frame pair of 10 minutes
      expect(clock.stats()).toMatchObject({ jumps: 0, steps: 0, rejected: 0, slow: 0 });
      expect(clock.stats().samples).toBeGreaterThan(500); // 600 pings less 10% lost
    });
  }

  it('a server restart (its clock 5 s on, then 3 s back) and a client that slept 30 s: one jump each', () => {
    const restartAt = 60_000;
    const backAt = 120_000;
    const sleep: [number, number] = [180_000, 210_000];
    const client = (t: number): number => drifting(t < sleep[0] ? t : t < sleep[1] ? sleep[0] : t - (sleep[1] - sleep[0]));
    const serverOffset = (t: number): number => OFFSET + (t >= restartAt ? 5000 : 0) + (t >= backAt ? -3000 : 0);
    const { clock, frames } = run({ seed: 11, durationMs: 300_000, up: JITTERY, down: JITTERY, serverOffset, client, frozen: sleep, asleep: true });
    expect(clock.stats()).toMatchObject({ jumps: 3, steps: 3 });
    expect(Math.abs(clock.lastJump - 30_000 * (1 + 100e-6))).toBeLessThan(100); // the sleep's: the client's clock stood still
    // each within 2 s of the step: the first pong after it proves the step (its interval excludes the older ones)
    const stepTimes = [restartAt, backAt, sleep[1]];
    const jumpTimes = frames.filter((f, i) => i > 0 && f.jumps !== frames[i - 1]!.jumps).map((f) => f.t);
    expect(jumpTimes.map((t, i) => t - stepTimes[i]!).every((d) => d > 0 && d < 2000)).toBe(true);
    // right after a jump, within half the round trip again; wrong only between a step and the pong that shows it
    const unaware = (t: number): boolean => stepTimes.some((at, i) => t >= at && t < jumpTimes[i]!);
    for (const f of frames.filter((x) => !unaware(x.t))) {
      expect(Math.abs(f.read - f.truth), `t = ${f.t}`).toBeLessThanOrEqual(f.roundTrip / 2 + CLOCK_STAMP_SLACK_MS);
    }
    expectSlewOnly(frames);
  });

  // [what, link, how soon after a step the applied offset is right, ms; how right, ms]
  const stepLinks: Array<[string, LinkOptions, number, number]> = [
    // a clean link's narrow intervals prove a step at the next pong: then slew alone (40 ms at 0.5%: 8 s);
    // right to its round trip and the drift over the window (1 ms)
    ['a clean link', CLEAN, 1000 + 40 / CLOCK_SLEW_RATE, 2],
    // on a jittery one the step hides inside the intervals until the older samples leave the window; right to
    // the wander of its estimate
    ['a jittery link', JITTERY, CLOCK_WINDOW_MS + 1000 + 40 / CLOCK_SLEW_RATE, 25],
  ];
  for (const [what, link, settle, within] of stepLinks) {
    it(`small steps of the server clock (±10 to 40 ms) on ${what} are slewed: monotonic, 1 ± 0.5%, no jump`, () => {
      const steps: Array<[number, number]> = [[30_000, 20], [60_000, -30], [90_000, 15], [120_000, 40], [150_000, -10]];
      const serverOffset = (t: number): number => OFFSET + steps.reduce((sum, [at, by]) => sum + (t >= at ? by : 0), 0);
      const { clock, frames } = run({ seed: 5, durationMs: 180_000, up: link, down: link, serverOffset });
      expect(clock.stats().jumps).toBe(0);
      expect(expectSlewOnly(frames)).toBe(frames.length - 1); // 10,800 frames
      for (let i = 1; i < frames.length; i++) expect(frames[i]!.read).toBeGreaterThan(frames[i - 1]!.read);
      for (const [at] of steps) {
        const after = frames.filter((f) => f.t >= at + settle && f.t < at + 30_000);
        expect(after.length, `frames settled after the step at ${at}`).toBeGreaterThan(0);
        expect(maxAbs(after.map((f) => f.read - f.truth)), `after the step at ${at}`).toBeLessThan(within);
      }
      if (link === CLEAN) expect(clock.stats().steps).toBe(steps.length);
    });
  }

  it('a page frozen 30 s (pongs read late, then a late burst) keeps its estimate: no jump, the slow ones counted', () => {
    // pings go at 400 + 1000k ms; the page wakes 700 ms after one, so that one's pong (read at the wake) is
    // late by ~500 ms but under CLOCK_MAX_ROUND_TRIP_MS: used, and not chosen
    const frozen: [number, number] = [60_100, 90_100];
    const { clock, frames, samples } = run({ seed: 3, durationMs: 150_000, up: UP_FAST, down: DOWN_SLOW, frozen });
    const burst = samples.filter((s) => Math.abs(s.received - drifting(frozen[1])) < 1e-6);
    expect(burst.length).toBeGreaterThanOrEqual(28); // the pongs of the pings the timer sent while frozen
    expect(burst.filter((s) => !s.used).length).toBe(clock.stats().slow);
    expect(burst.some((s) => s.used && s.roundTrip > 400)).toBe(true); // one late pong was taken in...
    expect(Math.max(...burst.map((s) => s.chosen))).toBeLessThan(200); // ...and the fast ones before it stayed chosen
    expect(clock.stats()).toMatchObject({ jumps: 0, steps: 0, rejected: 0 });
    for (const f of frames) expect(Math.abs(f.read - f.truth), `t = ${f.t}`).toBeLessThanOrEqual(f.roundTrip / 2 + CLOCK_STAMP_SLACK_MS);
    const settled = frames.filter((f) => f.t > 10_000).map((f) => Math.abs(f.read - f.truth - -50));
    expect(percentile(settled, 0.95)).toBeLessThan(18); // as on the link never frozen
    expectSlewOnly(frames);
  });

  it('counts bad samples and never throws; NaN until a good one', () => {
    const clock = new ServerClock();
    const good: PingSample = { sent: 1000, serverReceived: 124_506.7, serverSent: 124_507.7, received: 1102 };
    const bad: Array<[string, Partial<PingSample>]> = [
      ['NaN sent', { sent: Number.NaN }],
      ['Infinity serverReceived', { serverReceived: Number.POSITIVE_INFINITY }],
      ['-Infinity serverSent', { serverSent: Number.NEGATIVE_INFINITY }],
      ['NaN received', { received: Number.NaN }],
      ['received before sent', { received: 999 }],
      ['serverSent before serverReceived', { serverSent: 124_500 }],
      ['a round trip of −5 ms (the server took longer than the whole exchange)', { serverSent: 124_506.7 + 107 }],
    ];
    for (const [what, change] of bad) expect(clock.addSample({ ...good, ...change }), what).toBe(false);
    expect(clock.stats()).toMatchObject({ synced: false, rejected: bad.length, samples: 0, slow: 0 });
    expect(clock.serverTime(2000)).toBeNaN();
    expect(clock.synced).toBe(false);
    expect(clock.addSample({ ...good, sent: -500 })).toBe(false); // a round trip of 1.6 s: slow
    expect(clock.stats().slow).toBe(1);
    // 1 ms under zero: a server stamping whole ms, rounding; taken as a round trip of 0
    expect(clock.addSample({ sent: 1000, serverReceived: 124_506, serverSent: 124_508, received: 1001 })).toBe(true);
    expect(clock.stats()).toMatchObject({ synced: true, samples: 1, roundTrip: 0, offset: 123_506.5 });
    expect(clock.serverTime(2000)).toBe(125_506.5);
  });

  it('jumps only past jumpMs, and only when the chosen sample proves the applied offset wrong', () => {
    const clock = new ServerClock({ jumpMs: CLOCK_JUMP_MS });
    const at = (received: number, offset: number, roundTrip = 2): PingSample => ({
      sent: received - roundTrip,
      serverReceived: received - roundTrip / 2 + offset,
      serverSent: received - roundTrip / 2 + offset,
      received,
    });
    clock.addSample(at(0, 1000));
    clock.addSample(at(CLOCK_WINDOW_MS + 1, 1000 + CLOCK_JUMP_MS)); // a step, exactly jumpMs: slewed
    expect(clock.stats()).toMatchObject({ jumps: 0, steps: 1, offset: 1000, estimate: 1000 + CLOCK_JUMP_MS });
    expect(clock.serverTime(CLOCK_WINDOW_MS + 1 + 1000)).toBe(CLOCK_WINDOW_MS + 1 + 1000 + 1000 + 1000 * CLOCK_SLEW_RATE);
    clock.addSample(at(CLOCK_WINDOW_MS + 2000, 1000 + 2 * CLOCK_JUMP_MS)); // about 90 ms from the applied offset
    expect(clock.stats()).toMatchObject({ jumps: 1, steps: 2, offset: 1000 + 2 * CLOCK_JUMP_MS });
    // what a Playout is told: the jump from the offset as slewed (1005 + 999 ms at 0.5%) to the estimate
    expect(clock.jumps).toBe(1);
    expect(clock.lastJump).toBeCloseTo(1000 + 2 * CLOCK_JUMP_MS - (1005 + 999 * CLOCK_SLEW_RATE), 9);
    // 200 ms away, but from a sample of a 600 ms round trip: its interval holds the applied offset, so it slews
    const wide = new ServerClock({ keep: 1 });
    wide.addSample(at(0, 1000, 500));
    wide.addSample(at(2 * CLOCK_WINDOW_MS, 1200, 600)); // alone in the window (the first is past it, keep 1)
    expect(wide.stats()).toMatchObject({ jumps: 0, steps: 0, offset: 1000, estimate: 1200 });
  });

  it('refuses options out of range at set-up, by name', () => {
    expect(() => new ServerClock({ slewRate: -0.1 })).toThrow(/^steadyframe: ServerClock slewRate must be/);
    expect(() => new ServerClock({ keep: 0 })).toThrow(/ServerClock keep/);
    expect(() => new ServerClock({ jumpMs: Number.NaN })).toThrow(/ServerClock jumpMs .*got NaN/);
  });
});

describe('pingDelay: a burst at connect, then one a second', () => {
  it('schedules PING_BURST pings PING_BURST_GAP_MS apart, then PING_INTERVAL_MS', () => {
    const delays = Array.from({ length: 9 }, (_, sent) => pingDelay(sent));
    expect(delays).toEqual([0, 100, 100, 100, 100, 1000, 1000, 1000, 1000]);
    expect([PING_BURST, PING_BURST_GAP_MS, PING_INTERVAL_MS]).toEqual([5, 100, 1000]);
  });
});
