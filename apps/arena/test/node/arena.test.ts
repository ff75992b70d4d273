/**
 * The arena's simulation module, unchanged (the one its page runs in a browser worker), in a Node
 * `worker_threads` Worker through steadyframe/node: ten simulated minutes on a manual clock, played by seeded
 * random key presses, then a look at the world, its game fields and the events its frames presented; and a few
 * real seconds that must keep the tick rate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { FrameEvents, Runtime } from 'steadyframe';
import { createManualClock, createNodeRuntime } from 'steadyframe/node';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import type { GameState } from '../../src/game.ts';
import { BUTTON, BUTTONS, CAPACITY, EVENT, HALF_H, HALF_W, INPUT, ROCK_TARGET, schema, TICK_RATE, type ArenaSchema } from '../../src/schema.ts';
import type { Commands } from '../../src/sim.worker.ts';

const module = () => buildWorkerModule(fileURLToPath(new URL('../../src/sim.worker.ts', import.meta.url)));

let runtime: Runtime<ArenaSchema, Commands> | undefined;
afterEach(() => {
  runtime?.dispose();
  runtime = undefined;
});

/**
 * Every table holds what the worker counts (one ship, its rocks, its bullets), each live entity where the game
 * keeps things (finite, inside the wrapped arena), rocks turned by unit quaternions, of a tier and a size (no
 * entity hidden by a size of 0), bullets with life left; every handle maps back to its index.
 */
function checkWorld(rt: Runtime<ArenaSchema, Commands>, game: GameState): void {
  const frame = rt.sample(Number.POSITIVE_INFINITY);
  const { ships, bullets, rocks } = frame.tables;
  expect([ships.count, rocks.count, bullets.count]).toEqual([1, game.rocks, game.bullets]);
  for (const [name, table] of Object.entries(frame.tables)) {
    const { position } = table.fields;
    for (let i = 0; i < table.count; i++) {
      const x = position[2 * i]!;
      const y = position[2 * i + 1]!;
      if (!(Math.abs(x) <= HALF_W + 1e-3 && Math.abs(y) <= HALF_H + 1e-3)) throw new Error(`${name}[${i}] at (${x}, ${y}), outside the arena`);
      if (table.indexOf(table.handle(i)) !== i) throw new Error(`${name}[${i}]: its handle ${table.handle(i)} maps to ${table.indexOf(table.handle(i))}`);
    }
  }
  const { rotation, size, tier } = rocks.fields;
  for (let i = 0; i < rocks.count; i++) {
    const q = Math.hypot(rotation[4 * i]!, rotation[4 * i + 1]!, rotation[4 * i + 2]!, rotation[4 * i + 3]!);
    if (!(Math.abs(q - 1) < 1e-3)) throw new Error(`rock ${i}'s rotation is not a unit quaternion (${q})`);
    if (![0, 1, 2].includes(tier[i]!)) throw new Error(`rock ${i} of tier ${tier[i]}`);
    if (!(Math.min(size[3 * i]!, size[3 * i + 1]!, size[3 * i + 2]!) > 0.4)) throw new Error(`rock ${i} of size ${size.subarray(3 * i, 3 * i + 3).join(', ')}`);
  }
  for (let i = 0; i < bullets.count; i++) {
    const life = bullets.fields.life[i]!;
    if (!(life > 0 && life <= 1.1 + 1e-6)) throw new Error(`bullet ${i} with ${life} s left`);
  }
}

const NO_EVENTS = { length: 0 } as Pick<FrameEvents, 'length'> as FrameEvents;

/** The frame's game fields say what the worker's own record says (the page's HUD reads the former). */
function checkGameFields(rt: Runtime<ArenaSchema, Commands>, game: GameState): void {
  const { state, tick } = rt.sample(Number.POSITIVE_INFINITY);
  expect(tick).toBe(game.tick);
  const { score, best, lives, rocks, bullets, shots, hits, crashes } = game;
  // the game's own fields (the `$` ones are the runtime's: the tables' words, checked through the tables)
  const own = Object.fromEntries(Object.entries(state).filter(([name]) => !name.startsWith('$')));
  expect({ ...own, shield: 0 }).toEqual({ score, best, lives, rocks, bullets, shots, hits, crashes, shield: 0 });
  expect(state.shield).toBeGreaterThanOrEqual(0);
}

describe('the arena in Node', () => {
  it('ten simulated minutes on a manual clock, played by seeded random keys: every tick run, every key read, the world whole', async () => {
    const clock = createManualClock(0);
    const rt = (runtime = await createNodeRuntime<ArenaSchema, Commands>({ worker: await module(), schema, capacity: CAPACITY, clock }));
    await rt.start();
    const random = mulberry32(2026);
    const held = new Array<boolean>(BUTTONS).fill(false);
    let sent = 0;
    // what the frames presented: every shot and burst once, each burst with the score its step counted
    const presented = { shots: 0, bursts: 0, badBursts: 0, lastSequence: -1, gaps: 0 };
    const STEP_MS = 100; // a 10 Hz server loop: three ticks a step
    const MINUTES = 10;
    const started = performance.now();
    for (let step = 1; step <= (MINUTES * 60_000) / STEP_MS; step++) {
      // now and then a key goes down or up, as a player's would
      if (random() < 0.3) {
        const button = Math.floor(random() * BUTTONS);
        const code = held[button] ? INPUT.up : INPUT.down;
        held[button] = !held[button];
        expect(rt.sendInput(code, button)).toBe(true);
        sent++;
      }
      await clock.advance(STEP_MS);
      const events = rt.frame()?.events ?? NO_EVENTS; // a frame the pacer skips (null) leaves its events to the next
      for (let i = 0; i < events.length; i++) {
        if (events.sequence(i) !== presented.lastSequence + 1) presented.gaps++;
        presented.lastSequence = events.sequence(i);
        if (events.code(i) === EVENT.shot) presented.shots++;
        else if (events.code(i) === EVENT.burst) {
          presented.bursts++;
          const [x, y, tier, score] = [0, 1, 2, 3].map((j) => events.payload(i, j)) as [number, number, number, number];
          if (!(Math.abs(x) <= HALF_W + 1 && Math.abs(y) <= HALF_H + 1 && [0, 1, 2].includes(tier) && score >= 0)) presented.badBursts++;
        }
      }
      if (step % 600 === 0) {
        // once a simulated minute: what the worker has is what the page draws, and it is a whole world
        const state = await rt.commands.state();
        expect(rt.sample(Number.POSITIVE_INFINITY).tick).toBe(state.tick);
        checkWorld(rt, state);
        checkGameFields(rt, state);
      }
    }
    const { worker, frameClock } = await rt.stats();
    const state = await rt.commands.state();
    console.log(
      `arena, ${MINUTES} simulated minutes in ${((performance.now() - started) / 1000).toFixed(1)} s: tick ${worker.tick}, score ${state.score}, ` +
        `${state.shots} shots, ${state.hits} hits, ${state.crashes} crashes, ${state.rocks} rocks, ${state.inputs} key events; ` +
        `${frameClock.waits} frames waited for the worker`,
    );
    // every tick of the ten minutes ran (30 Hz), none dropped; a frame's announcement may have run one or two ahead
    expect(worker.overloads).toBe(0);
    expect(worker.droppedMs).toBe(0);
    expect(worker.tick).toBeGreaterThanOrEqual(MINUTES * 60 * TICK_RATE);
    expect(worker.tick).toBeLessThanOrEqual(MINUTES * 60 * TICK_RATE + 2);
    expect(worker.simSeconds).toBeCloseTo(worker.tick / TICK_RATE, 6);
    expect(worker.nonFiniteValues).toBe(0);
    // every key event sent was read by a step, in order, none refused
    expect(state.inputs).toBe(sent);
    expect(worker.inputs).toBe(sent);
    expect((await rt.stats()).inputRejected).toBe(0);
    expect(state.presses[BUTTON.fire]).toBeGreaterThan(0);
    expect(state.shots).toBeGreaterThan(0);
    // the game keeps its rocks coming, and the world is whole
    expect(state.rocks).toBeGreaterThan(ROCK_TARGET / 2);
    checkWorld(rt, state);
    checkGameFields(rt, state);
    // one shot event per shot, a burst per rock hit or wrecking the ship (and per small rock rammed), none lost
    expect(presented.gaps).toBe(0);
    expect(presented.shots).toBe(state.shots);
    expect(presented.bursts).toBeGreaterThanOrEqual(state.hits + state.crashes);
    expect(presented.badBursts).toBe(0);
    expect((await rt.stats()).events.lost).toBe(0);
  }, 120_000);

  it('a few real seconds keep the tick rate: every ms simulated or counted as dropped (jitter reported)', async () => {
    const rt = (runtime = await createNodeRuntime<ArenaSchema, Commands>({ worker: await module(), schema, capacity: CAPACITY }));
    await rt.start();
    const from = (await rt.stats()).worker;
    const started = rt.now();
    await new Promise<void>((resolve) => {
      const loop = setInterval(() => {
        rt.frame();
        if (rt.now() - started > 2000) {
          clearInterval(loop);
          resolve();
        }
      }, 50);
    });
    const { worker } = await rt.stats();
    const elapsed = rt.now() - started;
    const simulated = (worker.simSeconds - from.simSeconds) * 1000;
    const dropped = worker.droppedMs - from.droppedMs;
    console.log(
      `arena in real time for ${elapsed.toFixed(0)} ms: ${worker.tick - from.tick} ticks at ${TICK_RATE} Hz (${simulated.toFixed(1)} ms simulated, ` +
        `${dropped.toFixed(1)} dropped); last step ${worker.lastStepMs.toFixed(2)} ms, the longest ${worker.maxStepMs.toFixed(2)} ms; ` +
        `timed wakes more than 1 ms late: ${worker.lateWakes}, the latest ${worker.maxWakeLateMs.toFixed(2)} ms`,
    );
    // the newest state stands at most the lead ahead of now and behind it by at most the backlog kept (250 ms)
    // plus a tick; the rest was dropped and counted: no time lost silently, whatever the machine's load
    const tick = 1000 / TICK_RATE;
    expect(simulated + dropped).toBeGreaterThan(elapsed - 250 - 2 * tick);
    expect(simulated + dropped).toBeLessThan(elapsed + 3 * tick);
  }, 30_000);
});
