/**
 * Record and replay (core/recording.ts, worker/recorder.ts, worker/replay.ts): sessions of the seeded fixture on a
 * manual clock, recorded and replayed headless in another runtime (`replayRecording`, made from the recording
 * alone). A session with random input events, a change of tick rate and of time scale, a restart from scratch, a
 * step that throws and a restart from the last state replays with every tick's hash the same; so does one
 * recorded from mid-session. A step that reads `Math.random()` at one tick for one entity is caught: the tick,
 * the entity, the field and both values, and the call counted. Damaged recordings and the wrong runtime are
 * refused with the reason. The eventful session also plays back live (`play`), tick for tick, paused at its end
 * and cut short by a restart; snapshots of another capacity are refused. The `steadyframe replay` command says
 * what it found and exits 0, 1 or 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/replay-command.ts';
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
  /** record's `ticks`: a recording of that many ticks. */
  ticks?: number;
  transport?: 'message';
  at?: (f: number, rt: Awaited<ReturnType<typeof onManualClock>>['rt']) => Promise<void>;
}) {
  const transport = options.transport === undefined ? {} : { transport: options.transport };
  const { rt, clock } = await onManualClock({ fixture: 'seeded', capacity: 16, seed: options.seed, setup: options.setup, ...transport });
  const random = mulberry32(options.seed);
  await rt.start();
  for (let f = 0; f < options.frames; f++) {
    if (f === (options.recordAt ?? 0)) await rt.record({ keyframeEvery: 10, ...(options.ticks === undefined ? {} : { ticks: options.ticks }) });
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

  /** A session with inputs, a rate and a scale change, both restarts and a fault. */
  const eventful = () =>
    record({
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

  it('replays a session with inputs, rate and scale changes, both restarts and a fault: every tick the same', async () => {
    const { recording, worker } = await eventful();
    expect(worker.restarts).toBe(2);
    expect(worker.inputs).toBeGreaterThan(200);
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0, firstDivergence: null, difference: null, faults: { recorded: 1, replayed: 1, unexpected: null } });
    // every tick the session made (its tick count went up once more for the restart from scratch's publish)
    expect(report.ticks).toBe(worker.tick - 1);
    expect(Object.values(report.nondeterminism).every((trap) => trap.calls === 0)).toBe(true);
  });

  it('plays the same session back live: each tick the recording\'s, published, paced by its rate and scale, paused at its end', async () => {
    const { recording, worker } = await eventful();
    const { rt, clock } = await onManualClock({ fixture: 'seeded', capacity: 16, seed: 99, setup: { count: 3 } });
    await rt.start();
    await clock.advance(500);
    let report: Awaited<ReturnType<typeof rt.play>> | null = null;
    const playing = rt.play(recording).then((r) => (report = r));
    const seen = new Set<number>();
    for (let f = 0; report === null && f < 2000; f++) {
      await clock.advance(FRAME);
      const frame = rt.frame();
      if (frame !== null) seen.add(frame.tick);
      await Promise.resolve();
    }
    await playing;
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0, faults: { recorded: 1, replayed: 1, unexpected: null } });
    expect(report!.ticks).toBe(worker.tick - 1);
    expect((await rt.stats()).worker.status).toBe('paused');
    expect(seen.size).toBeGreaterThan(100); // drawn as it played
    // the page's own input meanwhile is left alone, and record() is refused while a recording plays
    const again = rt.play(recording);
    await expect(rt.record()).rejects.toThrow(/while a recording plays/);
    await rt.restart('scratch'); // cuts it short
    expect(await again).toMatchObject({ complete: false });
  });

  it('snapshot() and restore(): a snapshot of another schema or capacity is refused, saying why', async () => {
    const { rt } = await onManualClock({ fixture: 'seeded', capacity: 16, seed: 1, setup: { count: 5 } });
    const snapshot = await rt.snapshot();
    const other = await onManualClock({ fixture: 'seeded', capacity: 32, seed: 1, setup: { count: 5 } });
    await expect(other.rt.restore(snapshot)).rejects.toThrow(/made at capacity 16, this runtime has 32/);
    await expect(other.rt.restore(new Uint8Array(8))).rejects.toThrow(/not a steadyframe recording/);
    // a snapshot replays as a recording of no ticks
    expect(await replayRecording(snapshot, { worker: await nodeFixture('seeded') })).toMatchObject({ ticks: 0, matched: true, complete: true });
  });

  it('replays a recording started mid-session, from the state it started at', async () => {
    const { recording, worker } = await record({ seed: 8, setup: { count: 5 }, frames: 120, recordAt: 40 });
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThan(70);
    expect(report.ticks).toBeLessThan(worker.tick);
  });

  it('records exactly `ticks` ticks when asked, however late the stop: the rate change and restart after them are not in it', async () => {
    const { recording, worker } = await record({
      seed: 8,
      setup: { count: 5 },
      frames: 120,
      recordAt: 40,
      ticks: 25,
      at: async (f, rt) => {
        if (f === 80) await rt.setTickRate(90);
        if (f === 100) await rt.restart('scratch');
      },
    });
    expect(worker.tick).toBeGreaterThan(70);
    const report = await replayRecording(recording, { worker: await nodeFixture('seeded') });
    expect(report).toMatchObject({ matched: true, mismatches: 0, ticks: 25 });
    const { rt } = await onManualClock({ fixture: 'seeded', capacity: 16, setup: { count: 4 } });
    await expect(rt.record({ ticks: 0 })).rejects.toThrow(/ticks is a whole number of ticks, at least 1; got 0/);
    await expect(rt.record({ ticks: 2.5 })).rejects.toThrow(/got 2.5/);
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

describe('steadyframe replay (the command line)', () => {
  afterEach(disposeRuntimes);
  const run = async (args: string[]) => {
    const lines: string[] = [];
    const code = await runCli(args, { log: (line) => lines.push(line), error: (line) => lines.push(line) });
    return { code, text: lines.join('\n') };
  };
  const saved = (recording: Uint8Array): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'steadyframe-cli-')), 'session.sfr');
    writeFileSync(file, recording);
    return file;
  };

  it('says every tick matched (exit 0), or where it diverged and what read Math.random (exit 1)', async () => {
    const worker = await nodeFixture('seeded');
    const good = saved((await record({ seed: 5, setup: { count: 4 }, frames: 60 })).recording);
    const ok = await run(['replay', good, '--worker', worker]);
    expect(ok.code).toBe(0);
    expect(ok.text).toMatch(/session\.sfr: \d+ ticks replayed in \d+ ms, every one as recorded$/);
    const json = await run(['replay', good, `--worker=${worker}`, '--json']);
    expect(JSON.parse(json.text)).toMatchObject({ matched: true, complete: true });

    const bad = saved((await record({ seed: 12, setup: { count: 6, chaos: { tick: 50, entity: 3 } }, frames: 90 })).recording);
    const diverged = await run(['replay', bad, '--worker', worker]);
    expect(diverged.code).toBe(1);
    expect(diverged.text).toContain('DIVERGED');
    expect(diverged.text).toMatch(/first at tick 50: state hash [0-9a-f]{16}, recorded [0-9a-f]{16}/);
    expect(diverged.text).toMatch(/at the keyframe after tick 50: entity 3, position\[0\] is/);
    expect(diverged.text).toContain('Math.random called 1 times, first at tick 50');
  });

  it('refuses a misuse with the usage (exit 2): no worker, no file, an unreadable file, an unknown command or option', async () => {
    const worker = await nodeFixture('seeded');
    expect((await run([])).code).toBe(2);
    expect(await run(['replay', 'x.sfr'])).toMatchObject({ code: 2, text: expect.stringMatching(/needs the worker module \(--worker <file>\)[\s\S]*usage: steadyframe replay/) });
    expect(await run(['replay', '--worker', worker])).toMatchObject({ code: 2, text: expect.stringContaining('needs a recording file') });
    expect(await run(['replay', '/no/such.sfr', '--worker', worker])).toMatchObject({ code: 2, text: expect.stringContaining('cannot read the recording "/no/such.sfr"') });
    expect(await run(['play', 'x.sfr'])).toMatchObject({ code: 2, text: expect.stringContaining('unknown command "play"') });
    expect(await run(['replay', 'x.sfr', '--fast'])).toMatchObject({ code: 2, text: expect.stringContaining('unknown option "--fast"') });
    expect(await run(['replay', saved(new Uint8Array(10)), '--worker', worker])).toMatchObject({ code: 2, text: expect.stringContaining('not a steadyframe recording') });
    expect((await run(['--help'])).code).toBe(0);
  });
});
