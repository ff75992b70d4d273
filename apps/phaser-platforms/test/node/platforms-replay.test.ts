/**
 * The platforms example's worker, unchanged (Rapier's deterministic 2D build, @steadyframe/rapier/2d, three
 * tables in one Rapier world), recorded and replayed in Node on a manual clock: a session of drops and resets
 * sent as input events, recorded from mid-session (its head carries the Rapier world, `takeSnapshot`, and which
 * body each table's entity is), replays with every tick's hash the same; a snapshot restored into a runtime of
 * another seed steps on to the same tables, handles and all. The browser half (recorded in
 * Chromium, replayed here) is in platforms.e2e.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Runtime } from 'steadyframe';
import { createManualClock, createNodeRuntime, replayRecording, type ManualClock } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { CAPACITY, EVENT_CAPACITY, INPUT, TICK_RATE, WORLD, schema, type PlatformsSchema } from '../../src/schema.ts';
import type { Commands, Setup } from '../../src/sim.worker.ts';

const module = () => buildWorkerModule(fileURLToPath(new URL('../../src/sim.worker.ts', import.meta.url)));
const STEP_MS = 50;
const runtimes: Runtime<PlatformsSchema, Commands>[] = [];
afterEach(() => {
  for (const rt of runtimes.splice(0)) rt.dispose();
});

async function scene(seed: number, bodies = 120): Promise<{ rt: Runtime<PlatformsSchema, Commands>; clock: ManualClock }> {
  const clock = createManualClock(0);
  const rt = await createNodeRuntime<PlatformsSchema, Commands, Setup>({ worker: await module(), schema, capacity: CAPACITY, clock, seed, setup: { bodies }, events: { capacity: EVENT_CAPACITY, payloadWidth: 4 } });
  runtimes.push(rt);
  await rt.start();
  return { rt, clock };
}

/** `ms` of a player dropping bodies (and now and then starting over) at random moments. */
async function play(rt: Runtime<PlatformsSchema, Commands>, clock: ManualClock, ms: number, random: () => number): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) {
    const r = random();
    if (r < 0.06) {
      await clock.advance(random() * STEP_MS * 0.9);
      rt.sendInput(INPUT.drop, random() * WORLD.width, random() * WORLD.height * 0.4);
    } else if (r < 0.065) {
      rt.sendInput(INPUT.reset);
    }
    await clock.advanceTo(Math.ceil((clock.now() + 1) / STEP_MS) * STEP_MS);
    rt.frame();
  }
}

describe('the platforms example, recorded and replayed in Node (Rapier deterministic 2D build)', () => {
  it('a session recorded mid-way replays bit for bit: the Rapier world comes from the recording', async () => {
    const { rt, clock } = await scene(5);
    const random = mulberry32(77);
    await play(rt, clock, 2000, random); // bodies falling, knocking, some asleep
    await rt.record({ keyframeEvery: 120 });
    await play(rt, clock, 8000, random);
    await rt.stop();
    const state = await rt.commands.state();
    expect(state.fallen).toBeGreaterThan(0); // swap-removes during the session
    const recording = await rt.stopRecording();
    const report = await replayRecording(recording, { worker: await module() });
    expect(report.difference).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThanOrEqual(8 * TICK_RATE);
  }, 120_000);

  it('a snapshot restored into a runtime of another seed steps on to the same world', async () => {
    const { rt, clock } = await scene(5);
    await play(rt, clock, 1500, mulberry32(3));
    rt.sendInput(INPUT.drop, 400, 100);
    await play(rt, clock, 300, () => 1); // the drop read, no more inputs: bodies in the air
    await rt.stop();
    const snapshot = await rt.snapshot();
    const other = await scene(9, 40);
    await other.rt.stop();
    await other.rt.restore(snapshot);
    await other.rt.stop();
    for (const r of [rt, other.rt]) for (let n = 0; n < 2 * TICK_RATE; n++) await r.stepOnce();
    const newest = (r: Runtime<PlatformsSchema, Commands>) => {
      const f = r.sample(Number.POSITIVE_INFINITY);
      return (['blocks', 'crates', 'balls'] as const).map((name) => {
        const t = f.tables[name];
        const handles = Array.from({ length: t.count }, (_, i) => t.handle(i));
        return { name, count: t.count, handles, position: t.fields.position.slice(0, 2 * t.count), angle: t.fields.angle.slice(0, t.count), size: t.fields.size.slice(0, 2 * t.count) };
      });
    };
    const mine = newest(rt);
    expect(newest(other.rt)).toEqual(mine);
    for (const table of mine) expect(table.count, table.name).toBeGreaterThan(0); // blocks, crates and balls
    // the same counts; tick numbers go on from each runtime's own (restore's rule), so they are left out
    const { tick: _mine, ...counts } = await rt.commands.state();
    expect(await other.rt.commands.state()).toMatchObject(counts);
  }, 120_000);
});
