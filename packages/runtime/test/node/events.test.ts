/**
 * Events from the step, presented with the frame that shows their tick (ARCHITECTURE.md, "Events and the frame
 * that shows them"), on a manual clock: frames at chosen times, each checked against the rule. A frame shows its
 * pair's current tick once it has left the previous one (alpha above 0), the previous tick at alpha 0 ('latest':
 * the current tick); it presents every event of a tick up to the one it shows that no frame presented before.
 * So, for each event: never in a frame that shows an earlier tick (early), never after a frame that showed its
 * tick (late), exactly once, in order (the worker's sequence numbers run on without a gap), and every tick's
 * events whole (the fixture's count for that tick, which the test works out from the tick alone). Over a million
 * events with random frame gaps (several frames a tick, several ticks a frame), hidden-tab spells, a step that
 * throws after it emitted (its events never arrive), restart('last'), restart('scratch'), restore and pace(),
 * on both transports; then 100,000 events a second for 10 s at the capacity the docs give for that rate, and a
 * burst past the capacity, reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS_LOST, manualVisibility, type Frame, type FrameEvents, type Runtime } from 'steadyframe';
import { createManualClock, replayRecording, type ManualClock } from 'steadyframe/node';
import { mulberry32 } from 'steadyframe/testing';
import { composeRuntime } from '../../src/compose/runtime.ts';
import { nodePageHost } from '../../src/node/page-host.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import type { EventsCommands, EventsSetup } from './fixtures/events.worker.ts';
import { BURST, EVENT, eventsAt } from './fixtures/events-rule.ts';
import { advanceAndReceive } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

type EventsRuntime = Runtime<typeof motionSchema, EventsCommands>;

const START = 1000;
const TICK_MS = 1000 / 60;

const runtimes: EventsRuntime[] = [];
afterEach(() => {
  for (const rt of runtimes.splice(0)) rt.dispose();
});

interface Options {
  readonly transport: 'shared' | 'message';
  readonly most: number;
  readonly capacity: number;
  readonly latest?: boolean;
  readonly payloadWidth?: number;
}

async function open(options: Options & { setup?: EventsSetup }): Promise<{ rt: EventsRuntime; clock: ManualClock; visibility: ReturnType<typeof manualVisibility> }> {
  const clock = createManualClock(START);
  const visibility = manualVisibility(false);
  const setup: EventsSetup = options.setup ?? { most: options.most };
  const rt = await composeRuntime<typeof motionSchema, EventsCommands>(
    nodePageHost(clock),
    {
      worker: await nodeFixture('events'),
      schema: motionSchema,
      capacity: 4,
      setup,
      visibility,
      transport: options.transport,
      events: { capacity: options.capacity, payloadWidth: options.payloadWidth ?? 4 },
      pacing: { adaptive: false },
      heartbeatTimeout: false,
      onError: () => {}, // the fault the test causes is awaited through rt.on('fault')
      ...(options.latest === true ? { interpolation: { mode: 'latest' as const } } : {}),
    },
    { clock: clock.config },
  );
  runtimes.push(rt);
  expect(rt.transport).toBe(options.transport);
  return { rt, clock, visibility };
}

/** What the page has been presented so far, checked event by event against the rule. */
class Presentation {
  /** The tick the last frame showed. */
  shown = Number.NEGATIVE_INFINITY;
  nextSequence = 0;
  delivered = 0;
  frames = 0;
  /** Frames that presented events of more than one tick (pacing skipped ticks, or a frame after a spell). */
  multiTick = 0;
  /** Ticks published without a step (a restart('scratch'), a restore): they emit nothing. */
  readonly unstepped = new Set<number>();
  readonly lost: Array<{ tick: number; count: number }> = [];
  bursts = 0;
  #tick = 0;
  #k = 0;

  constructor(readonly most: number) {}

  /** A frame's events: `shown` is the tick it shows. */
  frame(shown: number, events: FrameEvents): void {
    this.frames++;
    const before = this.shown;
    let ticks = 0;
    let lastTick = Number.NaN;
    for (let i = 0; i < events.length; i++) {
      const tick = events.tick(i);
      // never early: not before the frame shows its tick; never late: no earlier frame showed it (a report of
      // lost events comes when the ring has room again, stamped with the tick the loss began at)
      if (tick > shown || (tick <= before && events.code(i) !== EVENTS_LOST)) {
        expect.fail(`frame ${this.frames} showing tick ${shown} (the last showed ${before}) presented event ${events.sequence(i)} of tick ${tick}, code ${events.code(i)}`);
      }
      if (tick !== lastTick) ticks++;
      lastTick = tick;
      this.#event(tick, events.code(i), events.sequence(i), events.payload(i, 0), events.payload(i, 1), events.payload(i, 2));
    }
    if (ticks > 1) this.multiTick++;
    if (shown > this.shown) this.shown = shown;
  }

  /** Events taken at once (`takeEvents`): in order and whole, whatever the frames showed. */
  take(rt: EventsRuntime): number {
    return rt.takeEvents((e) => this.#event(e.tick, e.code, e.sequence, e.payload(0), e.payload(1), e.payload(2)));
  }

  /** The events of the ticks before `tick` are all in: each tick stepped since the last one had its count. */
  #closeTicks(upTo: number): void {
    if (this.#tick > 0 && this.#k !== eventsAt(this.#tick, this.most)) expect.fail(`tick ${this.#tick}: ${this.#k} events of ${eventsAt(this.#tick, this.most)}`);
    for (let t = this.#tick + 1; t < upTo; t++) {
      if (!this.unstepped.has(t) && eventsAt(t, this.most) !== 0) expect.fail(`tick ${t} emitted ${eventsAt(t, this.most)} events that never came (next: tick ${upTo})`);
    }
  }

  #event(tick: number, code: number, sequence: number, p0: number, p1: number, p2: number): void {
    if (sequence !== this.nextSequence) expect.fail(`event ${sequence} where ${this.nextSequence} was next`);
    this.nextSequence++;
    this.delivered++;
    if (code === EVENTS_LOST) {
      this.lost.push({ tick, count: p0 });
      return;
    }
    if (code === BURST) {
      if (p0 !== tick) expect.fail(`burst event ${sequence} says tick ${p0}, stamped ${tick}`);
      this.bursts++;
      return;
    }
    if (code !== EVENT) expect.fail(`event ${sequence} has code ${code}`);
    if (tick !== this.#tick) {
      if (tick < this.#tick) expect.fail(`event ${sequence} of tick ${tick} after one of tick ${this.#tick}`);
      this.#closeTicks(tick);
      this.#tick = tick;
      this.#k = 0;
    }
    if (p0 !== tick || p1 !== this.#k || p2 !== tick * 1000 + this.#k) expect.fail(`event ${sequence} of tick ${tick}: [${p0}, ${p1}, ${p2}], event ${this.#k} of its tick`);
    this.#k++;
  }
}

/** The tick a frame shows, by the rule. */
function shownTick(frame: Frame<typeof motionSchema>, latest = false): number {
  return frame.alpha > 0 || latest ? frame.tick : frame.previousTick;
}

/** Frames at random gaps (a fifth of them under a tick apart, a fifth several ticks apart) until `until`, checked. */
async function frames(rt: EventsRuntime, clock: ManualClock, seen: Presentation, random: () => number, until: number, latest = false): Promise<void> {
  for (;;) {
    const r = random();
    const gap = r < 0.2 ? 0.5 + 4 * random() : r < 0.8 ? 16.67 : 20 + 40 * random();
    const t = clock.now() + gap;
    if (t > until) return;
    await advanceAndReceive(rt, clock, t);
    const frame = rt.frameAt(t);
    seen.frame(shownTick(frame, latest), frame.events);
  }
}

async function hiddenSpell(rt: EventsRuntime, clock: ManualClock, visibility: ReturnType<typeof manualVisibility>, ms: number): Promise<void> {
  visibility.set(true);
  await clock.advance(ms);
  visibility.set(false);
  await clock.advance(0);
}

describe.each(['shared', 'message'] as const)('events on the %s transport', (transport) => {
  it('a million events: each in the first frame that shows its tick, once, in order, whole, through skips, hidden spells, a fault, both restarts and a restore', async () => {
    const most = 400; // about 200 a tick: a million in about 5,000 ticks
    const { rt, clock, visibility } = await open({ transport, most, capacity: 8192 });
    const seen = new Presentation(most);
    const random = mulberry32(transport === 'shared' ? 37 : 38);
    await rt.start();
    let at = clock.now();
    const phase = async (ms: number): Promise<void> => {
      at += ms;
      await frames(rt, clock, seen, random, at);
      at = clock.now();
    };
    await phase(10_000);
    // hidden spells: the worker sleeps (whenHidden 'pause'), nothing is lost or doubled across them
    for (const ms of [300, 2_000]) {
      await hiddenSpell(rt, clock, visibility, ms);
      at = clock.now();
      await phase(5_000);
    }
    // a step that throws after it emitted: its tick never happened, its events never come; restart('last') makes
    // it again, with its events once
    const faulted = new Promise<void>((resolve) => rt.on('fault', () => resolve()));
    const failTick = (await rt.stats()).worker.tick + 5;
    await rt.commands.failAt(failTick);
    await phase(500);
    await faulted;
    await rt.restart('last');
    at = clock.now();
    await phase(10_000);
    // restart('scratch'): tick numbers go on; the old run's events not yet shown come with the first frames after
    // (stopped first, so that the worker publishes the fresh world as a tick without a step and runs no further
    // before the test has read which tick that was)
    await rt.stop();
    await rt.restart('scratch');
    seen.unstepped.add((await rt.stats()).worker.tick);
    await rt.start();
    at = clock.now();
    await phase(10_000);
    // a snapshot, and back to it: ticks go on from the restored state (published as a tick of its own)
    const snapshot = await rt.snapshot();
    await phase(5_000);
    await rt.stop();
    await rt.restore(snapshot);
    seen.unstepped.add((await rt.stats()).worker.tick);
    await rt.start();
    at = clock.now();
    await phase(40_000);
    // what no frame has shown yet, taken at once: the sequence runs on
    seen.take(rt);
    const stats = await rt.stats();
    expect(stats.events.lost).toBe(0);
    expect(seen.lost).toEqual([]);
    expect(stats.events.delivered).toBe(seen.delivered);
    expect(seen.delivered).toBeGreaterThan(1_000_000);
    // the run had frames that took several ticks' events at once, and frames between ticks
    expect(seen.multiTick).toBeGreaterThan(100);
    expect(seen.frames).toBeGreaterThan(4_000);
  }, 120_000);

  it("pace() presents the same events a sampled frame would: the tick the front pair shows at the frame's time", async () => {
    const most = 20;
    const { rt, clock } = await open({ transport, most, capacity: 1024 });
    const seen = new Presentation(most);
    const random = mulberry32(5);
    await rt.start();
    for (let f = 0; f < 1_500; f++) {
      const t = clock.now() + (random() < 0.3 ? 2 : 16.67 + 30 * random());
      await advanceAndReceive(rt, clock, t);
      expect(rt.pace(t)).toBe(true);
      // the pair a GPU renderer would read now, sampled at the frame's time: the tick it shows
      seen.frame(shownTick(rt.sample(rt.frameTime)), rt.events);
    }
    expect(seen.delivered).toBeGreaterThan(5_000);
  }, 60_000);

  it("mode 'latest' presents each tick's events with the frame that first draws it", async () => {
    const most = 20;
    const { rt, clock } = await open({ transport, most, capacity: 1024, latest: true });
    const seen = new Presentation(most);
    await rt.start();
    await frames(rt, clock, seen, mulberry32(6), clock.now() + 10_000, true);
    expect(seen.delivered).toBeGreaterThan(2_000);
  }, 60_000);

  it('100,000 events a second for 10 s reach the page at 60 frames a second with none lost, in a ring of 16,384 (the documented capacity for that rate)', async () => {
    const most = 3_333; // 1,667 a tick on average at 60 ticks a second
    const { rt, clock } = await open({ transport, most, capacity: 16_384 });
    const seen = new Presentation(most);
    await rt.start();
    const start = clock.now();
    for (let t = start + TICK_MS; t <= start + 10_000; t += TICK_MS) {
      await advanceAndReceive(rt, clock, t);
      const frame = rt.frameAt(t);
      seen.frame(shownTick(frame), frame.events);
    }
    const stats = await rt.stats();
    expect(stats.events.lost).toBe(0);
    expect(seen.lost).toEqual([]);
    expect(seen.delivered).toBeGreaterThan(950_000);
  }, 60_000);

  it('a burst past the capacity: the events that fit arrive, the rest are counted and reported where they were lost, and the sequence runs on', async () => {
    const most = 0; // the burst's events only: every one either arrives or is reported lost
    const { rt, clock } = await open({ transport, most, capacity: 1024 });
    const seen = new Presentation(most);
    const random = mulberry32(7);
    await rt.start();
    await frames(rt, clock, seen, random, clock.now() + 1_000);
    const burstTick = (await rt.stats()).worker.tick + 4;
    await rt.commands.burstAt(burstTick, 3_000);
    await frames(rt, clock, seen, random, clock.now() + 2_000);
    const stats = await rt.stats();
    const lost = seen.lost.reduce((sum, l) => sum + l.count, 0);
    expect(lost).toBeGreaterThan(1_000);
    expect(stats.events.lost).toBe(lost);
    // reported at the tick of the first event lost: the burst's
    expect(seen.lost[0]!.tick).toBe(burstTick);
    expect(seen.bursts + lost).toBe(3_000);
  }, 60_000);
});

describe('events in recordings', () => {
  async function record(setup: EventsSetup, payloadWidth = 4): Promise<Uint8Array> {
    const { rt, clock } = await open({ transport: 'shared', most: setup.most ?? 8, capacity: 4096, setup, payloadWidth });
    await rt.record({ keyframeEvery: 30 });
    await rt.start();
    await frames(rt, clock, new Presentation(setup.most ?? 8), mulberry32(11), clock.now() + 3_000);
    await rt.stop();
    return await rt.stopRecording();
  }

  it("play() delivers every recorded event to the page, each in the first frame that shows its (live) tick", async () => {
    const most = 12;
    const recording = await record({ most });
    const { rt, clock } = await open({ transport: 'shared', most, capacity: 4096 });
    // what the page is shown: each event's payload names the recorded tick it was emitted at
    const perRecordedTick = new Map<number, number>();
    let shownBefore = Number.NEGATIVE_INFINITY;
    let nextSequence = -1;
    const played = rt.play(recording);
    for (let f = 0; f < 400; f++) {
      const t = clock.now() + 10;
      await advanceAndReceive(rt, clock, t);
      const frame = rt.frameAt(t);
      const shown = shownTick(frame);
      for (let i = 0; i < frame.events.length; i++) {
        const tick = frame.events.tick(i);
        if (tick > shown || tick <= shownBefore) expect.fail(`a played event of tick ${tick} in a frame showing ${shown} (the last showed ${shownBefore})`);
        if (nextSequence >= 0) expect(frame.events.sequence(i)).toBe(nextSequence);
        nextSequence = frame.events.sequence(i) + 1;
        const recorded = frame.events.payload(i, 0);
        perRecordedTick.set(recorded, (perRecordedTick.get(recorded) ?? 0) + 1);
      }
      if (shown > shownBefore) shownBefore = shown;
    }
    const report = await played;
    expect(report.matched).toBe(true);
    expect(report.complete).toBe(true);
    // every recorded tick's events, as many as its step emitted when it was recorded
    const ticks = [...perRecordedTick.keys()].sort((a, b) => a - b);
    expect(ticks.length).toBeGreaterThan(50);
    for (let t = ticks[0]!; t <= ticks.at(-1)!; t++) expect(perRecordedTick.get(t) ?? 0, `recorded tick ${t}`).toBe(eventsAt(t, most));
  }, 60_000);

  it('a replay reports a step whose events come out otherwise, as it reports a field', async () => {
    const recording = await record({ most: 4, chaosTick: 60 });
    const { rt } = await open({ transport: 'shared', most: 4, capacity: 4096, setup: { most: 4, chaosTick: 60 } });
    const report = await rt.replay(recording);
    expect(report.matched).toBe(false);
    expect(report.firstDivergence?.tick).toBe(60);
    expect(report.difference).toMatchObject({ tick: 60, field: 'events', entity: -1, recorded: eventsAt(60, 4) + 1, replayed: eventsAt(60, 4) + 1 });
    // and the same recording, made without chaos, replays clean: events and all
    const clean = await record({ most: 4 });
    const again = await open({ transport: 'shared', most: 4, capacity: 4096, setup: { most: 4 } });
    expect((await again.rt.replay(clean)).matched).toBe(true);
  }, 60_000);

  it('a recording made with an event ring of any width replays headless (no ring there): the digest is of the events emitted', async () => {
    for (const width of [3, 6]) {
      const report = await replayRecording(await record({ most: 4 }, width), { worker: await nodeFixture('events') });
      expect(report, `ring width ${width}`).toMatchObject({ matched: true, complete: true, mismatches: 0, difference: null });
    }
  }, 60_000);
});
