/**
 * Record and replay (core/recording.ts, worker/recorder.ts, worker/replay.ts): sessions of the seeded fixture on a
 * manual clock, recorded and replayed headless in another runtime (`replayRecording`, made from the recording
 * alone). A session with random input events, a change of tick rate and of time scale, a restart from scratch, a
 * step that throws and a restart from the last state replays with every tick's hash the same; so does one
 * recorded from mid-session. A step that reads `Math.random()` at one tick for one entity is caught: the tick,
 * the entity, the field and both values, and the call counted. Damaged recordings and the wrong runtime are
 * refused with the reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { replayRecording } from 'steadyframe/node';
import { mulberry32 } from 'steadyframe/testing';
import type { SeededSetup } from './fixtures/seeded.worker.ts';
import { disposeRuntimes, onManualClock, START } from './support/manual-runtime.ts';
import { nodeFixture } from './support/worker-modules.ts';

const FRAME = 1000 / 60;
/** The seeded fixture's input codes (its module runs exposeSimulation when imported: only its types come in). */
const PUSH = 0;
const FAIL = 1;

/** Records `frames` 60 Hz frames of the seeded fixture; `at(f)` runs before frame f's time passes. */
async function record(options: {
  seed: number;
  setup: SeededSetup;
  frames: number;
  recordAt?: number;
  transport?: 'message';
  at?: (f: number, rt: Awaited<ReturnType<typeof onManualClock>>['rt']) => Promise<void>;
}) {
  const transport = options.transport === undefined ? {} : { transport: options.transport };
  const { rt, clock } = await onManualClock({ fixture: 'seeded', capacity: 16, seed: options.seed, setup: options.setup, ...transport });
  const random = mulberry32(options.seed);
  await rt.start();
  for (let f = 0; f < options.frames; f++) {
    if (f === (options.recordAt ?? 0)) await rt.record({ keyframeEvery: 10 });
    await options.at?.(f, rt);
    // up to three pushes at random moments within the frame
    for (let n = Math.floor(random() * 4); n > 0; n--) {
      await clock.advance(random() * 5);
      rt.sendInput(PUSH, 2 * random() - 1, 2 * random() - 1);
    }
    await clock.advanceTo(START + (f + 1) * FRAME);
  }
  await rt.stop();
  const recording = await rt.stopRecording();
  return { recording, worker: (await rt.stats()).worker };
}

describe('record and replay', () => {
  afterEach(disposeRuntimes);

  it('replays a session with inputs, rate and scale changes, both restarts and a fault: every tick the same', async () => {
    const { recording, worker } = await record({
      seed: 31,
      setup: { count: 8 },
      frames: 300,
      at: async (f, rt) => {
        if (f === 60) await rt.setTickRate(90);
        if (f === 120) await rt.setTimeScale(0.5);
        if (f === 160) await rt.restart('scratch');
        if (f === 220) rt.sendInput(FAIL);
        if (f === 222) await rt.restart('last');
      },
    });
    expect(worker.restarts).toBe(2);
    expect(worker.inputs).toBeGreaterThan(200);
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0, firstDivergence: null, difference: null, faults: { recorded: 1, replayed: 1, unexpected: null } });
    // every tick the session made (its tick count went up once more for the restart from scratch's publish)
    expect(report.ticks).toBe(worker.tick - 1);
    expect(Object.values(report.nondeterminism).every((trap) => trap.calls === 0)).toBe(true);
  });

  it('replays a recording started mid-session, from the state it started at', async () => {
    const { recording, worker } = await record({ seed: 8, setup: { count: 5 }, frames: 120, recordAt: 40 });
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThan(70);
    expect(report.ticks).toBeLessThan(worker.tick);
  });

  it('records on the message transport too (the world laid out alike)', async () => {
    const { recording, worker } = await record({ seed: 21, setup: { count: 7 }, frames: 90, transport: 'message' });
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0 });
    expect(report.ticks).toBe(worker.tick);
  });

  it('catches a step that reads Math.random(): the first tick, the entity, the field and both values', async () => {
    const { recording } = await record({ seed: 12, setup: { count: 6, chaos: { tick: 50, entity: 3 } }, frames: 90 });
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report.matched).toBe(false);
    expect(report.firstDivergence?.tick).toBe(50);
    expect(report.firstDivergence?.recordedHash).not.toBe(report.firstDivergence?.replayedHash);
    // keyframes every 10 ticks: tick 50 has one
    expect(report.difference).toMatchObject({ tick: 50, entity: 3, field: 'position', component: 0 });
    expect(report.difference!.recorded).not.toBe(report.difference!.replayed);
    expect(report.nondeterminism['Math.random']).toEqual({ calls: 1, firstTick: 50 });
    // the divergence runs on: every tick after it differs too
    expect(report.mismatches).toBe(report.ticks - 49);
  });

  it("catches an init that reads Math.random() into a private field, naming the field", async () => {
    const { recording } = await record({ seed: 4, setup: { count: 6, chaosInit: 4 }, frames: 10 });
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report.matched).toBe(false);
    expect(report.difference).toMatchObject({ tick: 0, entity: 4, field: 'private.kick', component: 1 });
    expect(report.nondeterminism['Math.random']).toEqual({ calls: 1, firstTick: 0 });
    // the world is loaded as recorded after init: the ticks that follow match
    expect(report.mismatches).toBe(0);
  });

  it('refuses a truncated recording, a runtime of another capacity, and a running one, saying why', async () => {
    const { recording } = await record({ seed: 3, setup: { count: 4 }, frames: 30 });
    const worker = await nodeFixture('seeded');
    await expect(replayRecording(recording.subarray(0, recording.byteLength - 5), { worker })).rejects.toThrow(/truncated/);
    await expect(replayRecording(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { worker })).rejects.toThrow(/not a steadyframe recording/);
    const { rt } = await onManualClock({ fixture: 'seeded', capacity: 32, setup: { count: 4 } });
    await expect(rt.replay(recording)).rejects.toThrow(/capacity 16.*32/);
    const running = await onManualClock({ fixture: 'seeded', capacity: 16, setup: { count: 4 } });
    await running.rt.start();
    await expect(running.rt.replay(recording)).rejects.toThrow(/held simulation/);
  });
});
