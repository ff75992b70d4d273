/**
 * The arena's simulation module, unchanged, recorded and replayed in Node (steadyframe/node, a manual clock):
 * a recording started mid-game (its head a snapshot: the world, and the game's own state through its
 * save/load) replays bit for bit headless, and plays back live on a runtime of another seed, tick for tick, to
 * the same final world and game state; a snapshot restored into a fresh runtime puts back the world and the
 * game alike. The browser half (recorded in Chromium, replayed here) is in arena.e2e.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Runtime } from 'steadyframe';
import { createManualClock, createNodeRuntime, replayRecording, type ManualClock } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { BUTTONS, CAPACITY, INPUT, schema, TICK_RATE, type ArenaSchema } from '../../src/schema.ts';
import type { Commands } from '../../src/sim.worker.ts';

const module = () => buildWorkerModule(fileURLToPath(new URL('../../src/sim.worker.ts', import.meta.url)));
const STEP_MS = 50;

const runtimes: Runtime<ArenaSchema, Commands>[] = [];
afterEach(() => {
  for (const rt of runtimes.splice(0)) rt.dispose();
});

async function arena(seed: number): Promise<{ rt: Runtime<ArenaSchema, Commands>; clock: ManualClock }> {
  const clock = createManualClock(0);
  const rt = await createNodeRuntime<ArenaSchema, Commands>({ worker: await module(), schema, capacity: CAPACITY, clock, seed });
  runtimes.push(rt);
  await rt.start();
  return { rt, clock };
}

/** `ms` of play: now and then a key goes down or up at a random moment, as a player's would. */
async function play(rt: Runtime<ArenaSchema, Commands>, clock: ManualClock, ms: number, random: () => number, held: boolean[]): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) {
    if (random() < 0.4) {
      await clock.advance(random() * STEP_MS * 0.9);
      const button = Math.floor(random() * BUTTONS);
      rt.sendInput(held[button] ? INPUT.up : INPUT.down, button);
      held[button] = !held[button];
    }
    await clock.advanceTo(Math.ceil((clock.now() + 1) / STEP_MS) * STEP_MS);
    rt.frame();
  }
}

/** The newest published world, copied: each table's live entities (their handles, where they are, how turned). */
function world(rt: Runtime<ArenaSchema, Commands>) {
  const frame = rt.sample(Number.POSITIVE_INFINITY);
  const { ships, bullets, rocks } = frame.tables;
  const handles = (t: { count: number; handle(i: number): number }) => Array.from({ length: t.count }, (_, i) => t.handle(i));
  return {
    count: frame.count,
    ships: { handles: handles(ships), position: ships.fields.position.slice(0, 2 * ships.count), heading: ships.fields.heading.slice(0, ships.count) },
    bullets: { handles: handles(bullets), position: bullets.fields.position.slice(0, 2 * bullets.count), life: bullets.fields.life.slice(0, bullets.count) },
    rocks: { handles: handles(rocks), position: rocks.fields.position.slice(0, 2 * rocks.count), rotation: rocks.fields.rotation.slice(0, 4 * rocks.count), tier: rocks.fields.tier.slice(0, rocks.count) },
  };
}

describe('the arena, recorded and replayed in Node', () => {
  it('a recording started mid-game replays bit for bit, and plays back live on another runtime to the same world', async () => {
    const { rt, clock } = await arena(7);
    const random = mulberry32(26);
    const held = new Array<boolean>(BUTTONS).fill(false);
    await play(rt, clock, 3000, random, held); // into the game: bullets, hits, held keys, a cooldown running
    await rt.record({ keyframeEvery: 30 });
    await play(rt, clock, 20_000, random, held);
    await rt.stop();
    const recording = await rt.stopRecording();
    const recorded = { world: world(rt), game: await rt.commands.state() };
    expect(recorded.game.shots).toBeGreaterThan(0);
    expect(recorded.game.inputs).toBeGreaterThan(100);

    const report = await replayRecording(recording, { worker: await module() });
    expect(report.difference).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report).toMatchObject({ matched: true, complete: true, mismatches: 0 });
    expect(report.ticks).toBe(20 * TICK_RATE);
    expect(report.nondeterminism['Math.random'].calls).toBe(0);

    // watched on a runtime of another seed, in another place: every recorded tick, then paused on the last
    const other = await arena(99);
    await play(other.rt, other.clock, 1000, mulberry32(5), new Array<boolean>(BUTTONS).fill(false));
    let watched: Awaited<ReturnType<typeof other.rt.play>> | null = null;
    const playing = other.rt.play(recording).then((r) => (watched = r));
    for (let n = 0; watched === null && n < 2000; n++) {
      await other.clock.advance(STEP_MS);
      other.rt.frame();
      await Promise.resolve();
    }
    await playing;
    expect(watched).toMatchObject({ matched: true, complete: true, mismatches: 0, ticks: 20 * TICK_RATE });
    expect((await other.rt.stats()).worker.status).toBe('paused');
    expect(world(other.rt)).toEqual(recorded.world);
    expect(await other.rt.commands.state()).toEqual(recorded.game);
  }, 60_000);

  it('a snapshot restored into a fresh runtime puts back the world and the game, and both go on alike', async () => {
    const { rt, clock } = await arena(3);
    await play(rt, clock, 4000, mulberry32(8), new Array<boolean>(BUTTONS).fill(false));
    await play(rt, clock, 500, () => 1, []); // no new keys: every one sent has been read by a step
    await rt.stop();
    const snapshot = await rt.snapshot();
    const at = { world: world(rt), game: await rt.commands.state() };

    const fresh = await arena(11);
    await fresh.rt.stop();
    await fresh.rt.restore(snapshot);
    expect(world(fresh.rt).count).toBe(at.world.count);
    expect(await fresh.rt.commands.state()).toEqual(at.game);
    const live = at.world.ships.handles.length + at.world.bullets.handles.length + at.world.rocks.handles.length;
    expect(fresh.rt.sample(Number.POSITIVE_INFINITY).snapped).toBe(live); // every live entity of every table snapped to it
    expect(fresh.rt.sample(Number.POSITIVE_INFINITY).simSeconds).toBe(rt.sample(Number.POSITIVE_INFINITY).simSeconds);

    // three seconds more, tick by tick, keys still held as they were, no new ones: the world, the generator and
    // the game came back bit for bit, so both make the same world (compared blended alike: a snapped entity is
    // drawn unblended; tick numbers differ: a restore's ticks go on from the runtime's own)
    await fresh.rt.stop(); // restore() went on running, as the runtime had been started
    for (const r of [rt, fresh.rt]) for (let n = 0; n < 3 * TICK_RATE; n++) await r.stepOnce();
    expect(fresh.rt.sample(Number.POSITIVE_INFINITY).simSeconds).toBe(rt.sample(Number.POSITIVE_INFINITY).simSeconds);
    expect(world(fresh.rt)).toEqual(world(rt));
    const [a, b] = [await rt.commands.state(), await fresh.rt.commands.state()];
    expect({ ...b, tick: 0, pressTicks: [] }).toEqual({ ...a, tick: 0, pressTicks: [] });
  }, 60_000);
});
