/**
 * Game state (schema fields with `scope: 'game'`) on a manual clock: published in the same slot as the entities,
 * so a frame's game state and its bodies come from the same two ticks, blended by kind (`none` by the discrete
 * rule, `linear`, `angle` the short way); in step with the events the frame presents; put back as it was by
 * restart('last') after a step that threw (which had written it), restore and a recording's replay, which
 * reports a game field that came out otherwise like any field. Both transports, and a render delay (the
 * history's path).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Frame, type Runtime } from 'steadyframe';
import { wrapAngle } from 'steadyframe/adapter';
import { createManualClock, type ManualClock } from 'steadyframe/node';
import { mulberry32 } from 'steadyframe/testing';
import { composeRuntime } from '../../src/compose/runtime.ts';
import { nodePageHost } from '../../src/node/page-host.ts';
import { gameSchema, type GameSetup } from './fixtures/game-schema.ts';
import type { GameCommands } from './fixtures/game-state.worker.ts';
import { advanceAndReceive } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

type GameRuntime = Runtime<typeof gameSchema, GameCommands>;
type GameFrame = Frame<typeof gameSchema>;

const START = 1000;

let runtimes: GameRuntime[] = [];
afterEach(() => {
  for (const rt of runtimes) rt.dispose();
  runtimes = [];
});

async function open(options: { transport: 'shared' | 'message'; renderDelay?: number; setup?: GameSetup; seed?: number }): Promise<{ rt: GameRuntime; clock: ManualClock }> {
  const clock = createManualClock(START);
  const rt = await composeRuntime<typeof gameSchema, GameCommands>(
    nodePageHost(clock),
    {
      worker: await nodeFixture('game-state'),
      schema: gameSchema,
      capacity: 2,
      transport: options.transport,
      pacing: { adaptive: false },
      heartbeatTimeout: false,
      onError: () => {},
      seed: options.seed ?? 1,
      ...(options.setup === undefined ? {} : { setup: options.setup }),
      ...(options.renderDelay === undefined ? {} : { interpolation: { renderDelay: options.renderDelay } }),
    },
    { clock: clock.config },
  );
  runtimes.push(rt);
  return { rt, clock };
}

/** The frame's game state and entity 0 against the fixture's rule for the two ticks it blends. */
function checkFrame(frame: GameFrame): void {
  const { previousTick: a, tick: b, alpha } = frame;
  if (b === 0) return; // tick 0 is init's: no step has written the game state yet
  const shown = alpha > 0 ? b : a;
  expect(frame.state.score, `score at ticks ${a}..${b}, alpha ${alpha}`).toBe(shown);
  // the timer and the body: the same blend of the same two ticks
  expect(frame.state.timer).toBeCloseTo((a + (b - a) * alpha) / 2, 9);
  expect(frame.fields.position[0]).toBeCloseTo(a + (b - a) * alpha, 3);
  // the heading the short way round from tick a's to tick b's
  const ha = wrapAngle(a * 0.3);
  const d = wrapAngle(b * 0.3) - ha;
  expect(frame.state.heading).toBeCloseTo(wrapAngle(ha + wrapAngle(d) * alpha), 9);
  // and the events the frame presents end with the shown tick's, whose payload is the score it shows
  const events = frame.events;
  if (events.length > 0 && events.tick(events.length - 1) === shown) expect(events.payload(events.length - 1, 0)).toBe(frame.state.score);
}

async function frames(rt: GameRuntime, clock: ManualClock, random: () => number, ms: number, check = true): Promise<GameFrame> {
  const until = clock.now() + ms;
  let frame = rt.frameAt(clock.now());
  for (;;) {
    const t = clock.now() + (random() < 0.3 ? 1 + 3 * random() : 10 + 30 * random());
    if (t > until) return frame;
    await advanceAndReceive(rt, clock, t);
    frame = rt.frameAt(t);
    if (check) checkFrame(frame);
  }
}

describe.each(['shared', 'message'] as const)('game state on the %s transport', (transport) => {
  it('comes from the same two ticks as the bodies, blended by kind, in step with the events', async () => {
    const { rt, clock } = await open({ transport });
    await rt.start();
    await frames(rt, clock, mulberry32(1), 5_000);
  });

  it("the 'present' event and runtime.state: each frame's shown tick, game state and events, from frameAt and from pace()", async () => {
    const { rt, clock } = await open({ transport });
    const seen: Array<{ tick: number; score: number; timer: number; events: number }> = [];
    rt.on('present', (p) => seen.push({ tick: p.tick, score: p.state.score, timer: p.state.timer, events: p.events.length }));
    await rt.start();
    const random = mulberry32(8);
    for (let f = 0; f < 300; f++) {
      const t = clock.now() + 5 + 20 * random();
      await advanceAndReceive(rt, clock, t);
      if (f % 2 === 0) {
        const frame = rt.frameAt(t);
        checkFrame(frame);
        const last = seen.at(-1)!;
        expect(last).toEqual({ tick: frame.alpha > 0 ? frame.tick : frame.previousTick, score: frame.state.score, timer: frame.state.timer, events: frame.events.length });
      } else {
        // a GPU renderer's frame: no sample; the game state and events come from the front pair at the frame's time
        expect(rt.pace(t)).toBe(true);
        const sampled = rt.sample(rt.frameTime); // what the renderer would blend now
        const last = seen.at(-1)!;
        if (last.tick > 0) {
          expect(last.tick).toBe(sampled.alpha > 0 ? sampled.tick : sampled.previousTick);
          expect(rt.state.score).toBe(last.score);
          expect(last.score).toBe(last.tick);
          expect(rt.state.timer).toBeCloseTo(sampled.state.timer, 9);
        }
        expect(rt.events.length).toBe(last.events);
      }
    }
    expect(seen.length).toBe(300);
  });

  it('with a render delay (drawn from the kept states), the same', async () => {
    const { rt, clock } = await open({ transport, renderDelay: 1.5 });
    await rt.start();
    await frames(rt, clock, mulberry32(2), 5_000);
  });

  it("restart('last') after a step that threw having written the game state brings back the state published last; restore brings back the snapshot's", async () => {
    const { rt, clock } = await open({ transport });
    const random = mulberry32(3);
    await rt.start();
    await frames(rt, clock, random, 1_000);
    // a step that wrote score, timer and steps, then threw: none of it is shown, and steps go on from the last publish
    const faulted = new Promise<void>((resolve) => rt.on('fault', () => resolve()));
    const failTick = (await rt.stats()).worker.tick + 3;
    await rt.commands.failAt(failTick);
    await frames(rt, clock, random, 500);
    await faulted;
    await rt.restart('last');
    let frame = await frames(rt, clock, random, 1_000);
    // steps count every step since init: one a tick, none lost and none doubled by the fault
    expect(frame.state.steps).toBe(frame.alpha > 0 ? frame.tick : frame.previousTick);
    // a snapshot, then on, then back: the game state is the snapshot's again
    await rt.stop();
    const snapshotTick = (await rt.stats()).worker.tick;
    const snapshot = await rt.snapshot();
    await rt.start();
    await frames(rt, clock, random, 1_000);
    await rt.stop();
    await rt.restore(snapshot);
    const restoredTick = (await rt.stats()).worker.tick; // the snapshot, published as a tick of its own
    await rt.start();
    frame = await frames(rt, clock, random, 1_000, false);
    const shown = frame.alpha > 0 ? frame.tick : frame.previousTick;
    expect(frame.state.steps).toBe(snapshotTick + (shown - restoredTick));
    // restart('scratch'): init's state again, steps from 0
    await rt.stop();
    await rt.restart('scratch');
    const scratchTick = (await rt.stats()).worker.tick;
    await rt.start();
    frame = await frames(rt, clock, random, 500, false);
    expect(frame.state.steps).toBe((frame.alpha > 0 ? frame.tick : frame.previousTick) - scratchTick);
  });
});

describe('game state in recordings', () => {
  async function record(setup: GameSetup): Promise<Uint8Array> {
    const { rt, clock } = await open({ transport: 'shared', setup, seed: 9 });
    await rt.record({ keyframeEvery: 10 });
    await rt.start();
    await frames(rt, clock, mulberry32(4), 2_000, false);
    await rt.stop();
    return await rt.stopRecording();
  }

  it('a replay makes the game state again, tick for tick', async () => {
    const recording = await record({});
    const { rt } = await open({ transport: 'shared', seed: 9 });
    const report = await rt.replay(recording);
    expect(report.matched).toBe(true);
    expect(report.ticks).toBeGreaterThan(100);
  });

  it('a replay reports a game field that came out otherwise, named, like any field', async () => {
    const recording = await record({ chaosTick: 40 });
    const { rt } = await open({ transport: 'shared', seed: 9, setup: { chaosTick: 40 } });
    const report = await rt.replay(recording);
    expect(report.matched).toBe(false);
    expect(report.firstDivergence?.tick).toBe(40);
    expect(report.difference).toMatchObject({ field: 'steps', entity: -1 });
  });
});
