/**
 * A correction drawn without a jump (src/net/prediction.ts), on a hand-driven clock: a server's world (the game's
 * step run by a Predictor of its own) knocks the client's disc with an input the client never sees; the client
 * predicts 100 ms ahead, at 120 client ticks a second against 60 server ticks, and gets a snapshot every third
 * server tick 50 ms (plus a varying part) after it was made. Every client tick's drawn disc may move by its own
 * motion (the prediction's time runs at most a fifth fast) and by what the fading offset gives up, and no more:
 *
 * ```text
 *  |drawn(k) − drawn(k − 1)| ≤ Δ × (v_max × 1.2 + 3 × C / smoothMs)       Δ: the client tick's ms, C: the correction
 * ```
 *
 * The rebase on a client tick that steps no new server tick once drew the blend from the old prediction's tick
 * before to the new prediction's tick: the disc jumped by (1 − alpha) of the correction for a tick, and back (26
 * and 32 units a client tick here, against bounds of 13 and 14). And the correction is measured by the disc's
 * place: its velocity's change (300 units/s) once counted as the largest correction, and against `snapDistance`.
 */
import { expect, it } from 'vitest';
import { defineSchema } from 'steadyframe';
import type { SimulationDefinition } from 'steadyframe/worker';
import { computeLayout, fieldViews, generationView } from '../../src/core/layout.ts';
import { ClientPrediction } from '../../src/net/prediction.ts';
import { Predictor } from '../../src/net/predictor.ts';
import type { KeptSnapshot } from '../../src/net/snapshot-buffer.ts';
import { createWorld } from '../../src/worker/world.ts';

const schema = defineSchema({
  position: { width: 1, kind: 'linear', velocity: 'velocity' },
  velocity: { width: 1, kind: 'linear' },
});
/** The server's own input: the disc's velocity goes up by payload 1 (another player's shot, say). */
const KNOCK = 0;
const TICK_RATE = 60;
const TICK_MS = 1000 / TICK_RATE;
const CLIENT_TICK_MS = 1000 / 120;
const SMOOTH_MS = 150;
const LEAD_MS = 100;

const game: SimulationDefinition<typeof schema> = {
  schema,
  tickRate: TICK_RATE,
  step(world, tick) {
    const p = world.fields.position;
    const v = world.fields.velocity;
    for (let i = 0; i < tick.input.length; i++) if (tick.input.code(i) === KNOCK) v[0] = v[0]! + tick.input.payload(i, 1);
    p[0] = p[0]! + v[0]! * tick.dt;
  },
};

const layout = computeLayout(schema, 1);

/** A snapshot of `world` at `tick` (the server's clock: tick × TICK_MS). */
function snapshotOf(tick: number, position: number, velocity: number): KeptSnapshot {
  const buffer = new ArrayBuffer(layout.blockBytes);
  const views = fieldViews<typeof schema>(buffer, 0, layout);
  views.position[0] = position;
  views.velocity[0] = velocity;
  return { tick, time: tick * TICK_MS, count: 1, snaps: 0, interval: 3 * TICK_MS, arrived: 0, reflected: -1, block: new Float32Array(buffer), generation: generationView(buffer, 0, layout), game: new Float64Array(0) };
}

/** Plays 3 s with knocks of `knock` units/s at server ticks 60, 95 and 130; each snapshot arrives one-way + its own part later. */
function play(oneWay: (tick: number) => number, lead: number) {
  const server = new Predictor({ simulation: game, capacity: 1, payloadWidth: 2 });
  server.rebase(snapshotOf(0, 0, 30), TICK_MS, 0);
  const knocks = new Map([
    [60, 300],
    [95, -200],
    [130, 250],
  ]);
  let number = 0;
  for (const [tick, knock] of knocks) server.input(number++, tick, tick * TICK_MS, KNOCK, [1, knock]);
  const client = new ClientPrediction({ simulation: game, entities: (_world, _player, out) => void out.push(0), smoothMs: SMOOTH_MS }, 1, 2);
  const buffer = new ArrayBuffer(layout.blockBytes);
  const drawn = createWorld<typeof schema>(layout, new Float32Array(buffer), fieldViews(buffer, 0, layout), generationView(buffer, 0, layout), {}).world;
  drawn.count = 1;
  const inFlight: { at: number; snapshot: KeptSnapshot }[] = [];
  let newest: KeptSnapshot | null = null;
  let fastest = 0;
  const positions: number[] = [];
  let lastAt = 0;
  for (let k = 0; k * CLIENT_TICK_MS < 3000; k++) {
    const at = k * CLIENT_TICK_MS;
    // the server's ticks up to now, a snapshot of every third on its way
    while (server.timeOf(server.tick + 1) <= at) {
      server.stepTo(server.tick + 1);
      const { position, velocity } = server.world.fields;
      fastest = Math.max(fastest, Math.abs(velocity[0]!));
      if (server.tick % 3 === 0) inFlight.push({ at: server.timeOf(server.tick) + oneWay(server.tick), snapshot: snapshotOf(server.tick, position[0]!, velocity[0]!) });
    }
    for (let i = inFlight.length - 1; i >= 0; i--) {
      if (inFlight[i]!.at > at) continue;
      const { snapshot } = inFlight.splice(i, 1)[0]!;
      if (newest === null || snapshot.tick > newest.tick) newest = snapshot;
    }
    if (newest === null) continue;
    client.reconcile(newest, 0);
    client.advance(at + lead, at, lead, newest.tick, drawn, 0);
    positions.push(drawn.fields.position[0]!);
    lastAt = at;
  }
  let largest = 0;
  for (let i = 1; i < positions.length; i++) largest = Math.max(largest, Math.abs(positions[i]! - positions[i - 1]!));
  // the server's disc where the client drew it last: at the time it drew, a lead past the server's now
  const drawnAt = lastAt + lead;
  server.stepTo(Math.ceil(drawnAt / TICK_MS));
  return { stats: client.stats, fastest, largest, final: positions.at(-1)!, truth: server.world.fields.position[0]! };
}

it('draws a correction faded out: no client tick moves the disc by more than its motion and the fade allow', () => {
  // snapshots on a steady link, on one that varies by up to a client tick, and on one that varies by more
  for (const [oneWay, lead] of [[() => 50, 100], [(tick: number) => 50 + ((tick * 7) % 9), 103], [(tick: number) => 50 + ((tick * 13) % 31), 110]] as const) {
    const { stats, fastest, largest, final, truth } = play(oneWay, lead);
    const bound = CLIENT_TICK_MS * ((fastest * 1.2) / 1000 + (3 * stats.largestCorrection) / SMOOTH_MS);
    console.log(`corrections ${stats.corrections}, largest ${stats.largestCorrection.toFixed(2)}; fastest ${fastest} units/s; the largest move a client tick ${largest.toFixed(3)} (bound ${bound.toFixed(3)})`);
    expect(stats.corrections).toBeGreaterThan(0);
    // the correction is measured by the disc's place (300 units/s for about 9 ticks), not its velocity's 300
    expect(stats.largestCorrection).toBeGreaterThan(20);
    expect(stats.largestCorrection).toBeLessThan(100);
    expect(largest).toBeLessThanOrEqual(bound);
    // and it ends on the server's path: where the server's disc is at the time drawn, within a tick's motion
    expect(Math.abs(final - truth)).toBeLessThan((fastest * TICK_MS) / 1000);
  }
});
