/**
 * Lag compensation (src/worker/rewind-history.ts, `tick.rewind`): a server runtime on a manual clock with the
 * rewind fixture (a target moving, turning and spinning; shots that rewind to their made time), its publisher
 * sending every tick to a client end made of the network client's own parts (the snapshot buffer and the
 * resampler). Each shot's made time T is a render time the client drew: the world the server's step sees at T is
 * the client's state at T, bit for bit (every value compared with Object.is, float32 against float32). Then the
 * window's clamp, a replay of a game that rewinds, and the misuses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeLayout, fieldViews, generationView } from '../../src/core/layout.ts';
import { createSnapshotPublisher } from '../../src/net/publisher.ts';
import { Resampler } from '../../src/net/resample.ts';
import { SnapshotBuffer } from '../../src/net/snapshot-buffer.ts';
import { encodeInputs, wireFormat } from '../../src/net/wire.ts';
import { RewindHistory } from '../../src/worker/rewind-history.ts';
import { checkRewind, rewindOf, rewindStates } from '../../src/worker/rewind.ts';
import { createWorld } from '../../src/worker/world.ts';
import { defineTables } from 'steadyframe';
import { createManualClock, createNodeRuntime, replayRecording } from 'steadyframe/node';
import { DEFAULT_REWIND_MS, MAX_REWIND_MS } from 'steadyframe/worker';
import { mulberry32 } from 'steadyframe/testing/node';
import { MISUSE_NAN, REWIND_TICK_RATE, rewindSchema, SEEN_POSE, SEEN_SPIN, SEEN_VIEW, SHOOT } from './fixtures/rewind-game.ts';
import { nodeFixture } from './support/worker-modules.ts';

const CAPACITY = 4;
const TICK_MS = 1000 / REWIND_TICK_RATE;
const layout = computeLayout(rewindSchema, CAPACITY);
const format = wireFormat(layout);

const disposers: (() => void)[] = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

interface Shot {
  /** The made time, and the client's state at it (position x y, heading, spin x y z w, lit). */
  made: number;
  client: number[];
  /** What the server's step saw: the same values, then the view's time, count and clamped. */
  seen: number[];
  view: { time: number; count: number; clamped: number };
}

/** A server on a manual clock and a client end; `shots(k)` says whether the client shoots after tick k, and how far back. */
async function play(ticks: number, backMs: (k: number) => number | null, options: { record?: boolean } = {}) {
  const clock = createManualClock(1000);
  const rt = await createNodeRuntime({ worker: await nodeFixture('rewind-game'), schema: rewindSchema, clock, capacity: CAPACITY, input: { payloadWidth: 3 } });
  disposers.push(() => rt.dispose());
  // the events are the test's to read (the fixture's shots say what they saw)
  const publisher = createSnapshotPublisher(rt, { input: { codes: 1, madeTime: true }, events: false });
  const buffer = new SnapshotBuffer(format, 64);
  const client = publisher.connect((bytes) => buffer.insert(bytes, rt.now()), 0);
  // the client's world: what its step writes at a render time (net/resample.ts), as the network client does
  const memory = new ArrayBuffer(layout.blockBytes);
  const world = createWorld(layout, new Float32Array(memory), fieldViews<typeof rewindSchema>(memory, 0, layout), generationView(memory, 0, layout)).world;
  const resampler = new Resampler(layout, rewindSchema, 0, true);
  const shots: Shot[] = [];
  const pending: Shot[] = [];
  let number = 0;
  let lastMade = Number.NEGATIVE_INFINITY;
  if (options.record === true) await rt.record();
  await rt.start();
  for (let k = 1; k <= ticks; k++) {
    for (let half = 0; half < 2; half++) {
      await clock.advance(TICK_MS / 2);
      publisher.publish();
    }
    rt.takeEvents((e) => {
      const shot = pending[0]!;
      if (e.code === SEEN_POSE) {
        shot.seen.push(e.payload(0), e.payload(1), e.payload(2));
        shot.view.time = e.payload(3);
      } else if (e.code === SEEN_SPIN) shot.seen.push(e.payload(0), e.payload(1), e.payload(2), e.payload(3));
      else if (e.code === SEEN_VIEW) {
        shot.view.count = e.payload(0);
        shot.view.clamped = e.payload(1);
        shot.seen.push(e.payload(2));
        expect(e.payload(3)).toBe(shot.made); // the made time reached the step exactly
        shots.push(pending.shift()!);
      }
    });
    const back = backMs(k);
    const newest = buffer.newest;
    if (back === null || newest === null) continue;
    // a render time the client draws: `back` ms behind the newest snapshot, at an odd fraction of a tick (a
    // client's render time never goes back: its buffer lets go of what lies before the pair it last drew from)
    const made = Math.max(lastMade, newest.time - back);
    lastMade = made;
    const pair = buffer.pairAt(made);
    if (pair === null) continue;
    // every tick was sent: the client's pair is two neighbouring ticks, as the server's history has them
    if (!pair.before && !pair.after) expect(pair.current.tick - pair.previous.tick).toBe(1);
    resampler.write(world, pair, made);
    const f = world.fields;
    const mine = [f.position[0]!, f.position[1]!, f.heading[0]!, ...f.spin.subarray(0, 4), f.lit[0]!];
    pending.push({ made, client: mine, seen: [], view: { time: 0, count: 0, clamped: 0 } });
    client.receive(encodeInputs(format, [{ time: made, code: SHOOT, payload: [0] }], 1, number++));
  }
  await rt.stop();
  const recording = options.record === true ? await rt.stopRecording() : null;
  return { shots, stats: (await rt.stats()).worker, client: client.stats, publisher: publisher.stats, recording, rt };
}

describe('lag compensation', () => {
  it("gives a shot the world the client drew at the shot's made time, bit for bit", async () => {
    const random = mulberry32(7);
    // a shot every few ticks, 20 to 300 ms behind the newest snapshot (a client's playout delay, wandering)
    let back = 150;
    const { shots, stats, client, publisher } = await play(150, (k) => {
      back = Math.min(300, Math.max(20, back + (random() - 0.5) * 40));
      return k > 30 && k % 2 === 0 ? back : null;
    });
    expect(client.lastRefusal).toBeNull();
    expect(publisher.sent).toBeGreaterThanOrEqual(149);
    expect(shots.length).toBeGreaterThan(50);
    for (const shot of shots) {
      expect(shot.view).toEqual({ time: shot.made, count: 2, clamped: 0 });
      // Object.is: the same float32 values (the events carry them as float64, exactly)
      shot.client.forEach((v, i) => expect(Object.is(v, shot.seen[i]), `shot at ${shot.made}, value ${i}: client ${v}, server ${shot.seen[i]}`).toBe(true));
    }
    expect(stats.rewinds).toBe(shots.length);
    expect(stats.rewindsClamped).toBe(0);
  }, 30_000);

  it('clamps a made time older than the window to its oldest state, and counts it', async () => {
    // the fixture keeps 500 ms; a shot 800 ms back, and one within it
    const { shots, stats } = await play(100, (k) => (k === 80 ? 800 : k === 90 ? 100 : null));
    expect(shots).toHaveLength(2);
    const [old, recent] = shots;
    expect(old!.view.clamped).toBe(1);
    // the oldest state kept: at or before the window's start (500 ms before the newest the step started from), not older than a tick past it
    expect(old!.view.time).toBeGreaterThan(old!.made);
    expect(old!.view.time).toBeLessThanOrEqual(old!.made + 800 - 500 + TICK_MS);
    expect(recent!.view.clamped).toBe(0);
    expect(stats.rewinds).toBe(2);
    expect(stats.rewindsClamped).toBe(1);
  }, 20_000);

  it('replays a game that rewinds bit for bit: the replay makes the history again from its own states', async () => {
    const random = mulberry32(11);
    const { shots, recording } = await play(90, (k) => (k > 20 && k % 3 === 0 ? 30 + random() * 200 : null), { record: true });
    expect(shots.length).toBeGreaterThan(18);
    const report = await replayRecording(recording!, { worker: await nodeFixture('rewind-game') });
    // every tick's state and every shot's events (what the rewound view showed) came out the same
    expect(report).toMatchObject({ complete: true, matched: true, mismatches: 0, difference: null });
    expect(report.ticks).toBeGreaterThanOrEqual(90);
  }, 20_000);

  it("faults a step that rewinds to a time that is not a number, naming tick.rewind", async () => {
    const clock = createManualClock(1000);
    const rt = await createNodeRuntime({ worker: await nodeFixture('rewind-game'), schema: rewindSchema, clock, capacity: CAPACITY, input: { payloadWidth: 3 } });
    disposers.push(() => rt.dispose());
    const publisher = createSnapshotPublisher(rt, { input: { codes: 1, madeTime: true }, events: false });
    const client = publisher.connect(() => {}, 0);
    await rt.start();
    await clock.advance(5 * TICK_MS);
    publisher.publish();
    client.receive(encodeInputs(format, [{ time: rt.now() - 50, code: SHOOT, payload: [MISUSE_NAN] }], 1, 0));
    await clock.advance(2 * TICK_MS);
    const stats = await rt.remote.stats();
    expect(stats.status).toBe('faulted');
    expect(stats.error?.message).toMatch(/tick\.rewind\(time\) takes a finite shared-clock time.*got NaN/);
  }, 20_000);
});

describe('the rewind history', () => {
  const block = new Float32Array(layout.blockBytes / 4);
  const history = () => new RewindHistory<typeof rewindSchema>(layout, 100, rewindStates(100, 60), block);

  it('refuses a rewind outside a step, and a time that is not a finite number', () => {
    const h = history();
    expect(() => h.rewind(0)).toThrow(/tick\.rewind\(\) is for a step/);
    h.begin(0, 0);
    expect(() => h.rewind(Number.NaN)).toThrow(/finite shared-clock time/);
    expect(() => h.rewind(Number.POSITIVE_INFINITY)).toThrow(/finite shared-clock time/);
    expect(() => h.rewind('5' as unknown as number)).toThrow(/finite shared-clock time/);
    expect(h.rewind(0).clamped).toBe(false);
    h.end();
    expect(() => h.rewind(0)).toThrow(/is for a step/);
    expect(() => rewindOf(null)(0)).toThrow(/set rewind: true/);
  });

  it('keeps a bounded window, its memory made once: pushing a thousand states keeps the same few', () => {
    const h = history();
    expect(h.states).toBe(8); // ceil(100 ms × 60 Hz) + 2
    const position = fieldViews<typeof rewindSchema>(block.buffer, 0, layout).position;
    for (let k = 0; k < 1000; k++) {
      position[0] = k;
      h.begin(k * TICK_MS, 1);
      h.end();
    }
    expect(h.size).toBeLessThanOrEqual(h.states);
    h.begin(1000 * TICK_MS, 1);
    // 100 ms back: between ticks 994 and 995; a time before the window: its oldest, clamped
    const view = h.rewind(1000 * TICK_MS - 100);
    expect([view.clamped, view.fields.position[0]]).toEqual([false, 994 + (1000 * TICK_MS - 100 - 994 * TICK_MS) / TICK_MS]);
    const old = h.rewind(0);
    expect(old.clamped).toBe(true);
    expect(old.time).toBeGreaterThanOrEqual(1000 * TICK_MS - 100 - TICK_MS);
    expect([h.rewinds, h.rewindsClamped]).toEqual([2, 1]);
    // a time before the newest starts the history again (a clock stepped back)
    h.end();
    h.begin(5, 1);
    expect(h.size).toBe(1);
  });

  it('checks the window and refuses what it cannot keep', () => {
    expect(checkRewind(undefined)).toBeNull();
    expect(checkRewind(true)).toBe(DEFAULT_REWIND_MS);
    expect(checkRewind({ rewindMs: 250 })).toBe(250);
    expect(() => checkRewind({ rewindMs: MAX_REWIND_MS + 1 })).toThrow(/rewind\.rewindMs must be a number of ms above 0 and at most 2000/);
    expect(() => checkRewind({ rewindMs: 0 })).toThrow(/above 0/);
    expect(() => checkRewind(5)).toThrow(/rewind is true or \{ rewindMs \}/);
    const tables = defineTables({ ships: { capacity: 4, fields: { position: { width: 2, kind: 'linear' } } } });
    const tablesLayout = computeLayout(tables, 4);
    expect(() => new RewindHistory(tablesLayout, 100, 8, new Float32Array(tablesLayout.blockBytes / 4))).toThrow(/plain schema/);
    const big = computeLayout(rewindSchema, 1_000_000);
    expect(() => new RewindHistory(big, 2000, rewindStates(2000, 60), new Float32Array(0))).toThrow(/MiB\), past 256 MiB/);
  });
});
