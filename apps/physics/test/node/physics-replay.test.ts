/**
 * The physics example's worker, unchanged (Rapier's deterministic build, @steadyframe/rapier), recorded and
 * replayed in Node on a manual clock: a session of heaps and resets sent as input events, recorded from
 * mid-session (its head carries the Rapier world, `takeSnapshot`), replays with every tick's hash the same;
 * a snapshot restored into a runtime of another seed steps on to the same world. The browser half (recorded
 * in Chromium, replayed here) is in physics.e2e.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Runtime } from 'steadyframe';
import { createManualClock, createNodeRuntime, replayRecording, type ManualClock } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { CAPACITY, HALF_FLOOR, INPUT, SHAPES, TICK_RATE, schema, type PhysicsSchema } from '../../src/schema.ts';
import type { Commands, Setup } from '../../src/sim.worker.ts';

const module = () => buildWorkerModule(fileURLToPath(new URL('../../src/sim.worker.ts', import.meta.url)));
const STEP_MS = 50;
const runtimes: Runtime<PhysicsSchema, Commands>[] = [];
afterEach(() => {
  for (const rt of runtimes.splice(0)) rt.dispose();
});

async function pile(seed: number, bodies = 300): Promise<{ rt: Runtime<PhysicsSchema, Commands>; clock: ManualClock }> {
  const clock = createManualClock(0);
  const rt = await createNodeRuntime<PhysicsSchema, Commands, Setup>({ worker: await module(), schema, capacity: CAPACITY, clock, seed, setup: { bodies } });
  runtimes.push(rt);
  await rt.start();
  return { rt, clock };
}

/** `ms` of a player dropping heaps (and now and then resetting) at random moments. */
async function play(rt: Runtime<PhysicsSchema, Commands>, clock: ManualClock, ms: number, random: () => number): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) {
    const r = random();
    if (r < 0.04) {
      await clock.advance(random() * STEP_MS * 0.9);
      rt.sendInput(INPUT.drop, 60, (random() - 0.5) * HALF_FLOOR, (random() - 0.5) * HALF_FLOOR, Math.floor(random() * 3));
    } else if (r < 0.045) {
      rt.sendInput(INPUT.reset, 200);
    }
    await clock.advanceTo(Math.ceil((clock.now() + 1) / STEP_MS) * STEP_MS);
    rt.frame();
  }
}

describe('the physics example, recorded and replayed in Node (Rapier deterministic build)', () => {
  it('a session recorded mid-way replays bit for bit: the Rapier world comes from the recording', async () => {
    const { rt, clock } = await pile(5);
    const random = mulberry32(77);
    await play(rt, clock, 2000, random); // bodies falling, some asleep, contacts warm
    await rt.record({ keyframeEvery: 120 });
    await play(rt, clock, 8000, random);
    await rt.stop();
    const recording = await rt.stopRecording();
    const report = await replayRecording(recording, { worker: await module() });
    expect(report.difference).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0 });
    expect(report.ticks).toBeGreaterThanOrEqual(8 * TICK_RATE);
  }, 120_000);

  it('a snapshot restored into a runtime of another seed steps on to the same world', async () => {
    const { rt, clock } = await pile(5);
    await play(rt, clock, 1500, mulberry32(3));
    rt.sendInput(INPUT.drop, 100, 2, -3, SHAPES.boxes);
    await play(rt, clock, 500, () => 1); // the drop read, no more inputs
    await rt.stop();
    const snapshot = await rt.snapshot();
    const other = await pile(9, 50);
    await other.rt.stop();
    await other.rt.restore(snapshot);
    await other.rt.stop();
    for (const r of [rt, other.rt]) for (let n = 0; n < 2 * TICK_RATE; n++) await r.stepOnce();
    const newest = (r: Runtime<PhysicsSchema, Commands>) => {
      const f = r.sample(Number.POSITIVE_INFINITY);
      return { count: f.count, position: f.fields.position.slice(0, 3 * f.count), rotation: f.fields.rotation.slice(0, 4 * f.count) };
    };
    expect(newest(other.rt)).toEqual(newest(rt));
    expect(await other.rt.commands.state()).toMatchObject({ bodies: (await rt.commands.state()).bodies, fallen: (await rt.commands.state()).fallen });
  }, 120_000);
});
