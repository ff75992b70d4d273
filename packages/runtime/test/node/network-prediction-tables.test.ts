/**
 * The network client predicting an entity of a table (src/net/prediction.ts) over real sockets: the predicted
 * tables fixture on a server runtime on the real clock, and a predicting client behind a shaped relay. Another
 * player joins before the client and leaves while the client's disc moves: the server despawns its disc and moves
 * the client's disc into its place, a new index, which the predicted world has at once and the world drawn a
 * playout delay later. The prediction follows the disc by its handle, so it is drawn where the drawn world holds
 * it, with nothing jumping. Nothing is timed: what a frame shows is read by its ticks.
 */
import { afterEach, expect, it } from 'vitest';
import type { Frame } from 'steadyframe';
import type { NetworkCommands } from 'steadyframe/network';
import { createNodeRuntime, createSnapshotPublisher } from 'steadyframe/node';
import { createShapedRelay } from 'steadyframe/testing/node';
import { encodeInputs } from '../../src/net/wire.ts';
import { STEER } from './fixtures/predict-game.ts';
import { JOIN, LEAVE, PREDICT_TABLES_CAPACITY, predictTablesSchema, ROCKS } from './fixtures/predict-tables.ts';
import { hostOnLoopback } from './support/loopback-host.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The players table's first entity (world index): after the rocks. */
const PLAYERS_BASE = ROCKS;

interface Shown {
  tick: number;
  /** Where the client's own disc (player 0) is in the frame, and where it is drawn. */
  index: number;
  position: [number, number];
}

it("draws its own predicted disc where the drawn world holds it, without a jump, when another player's leave moves it to a new index", async () => {
  const server = await createNodeRuntime({ worker: await nodeFixture('predict-tables'), schema: predictTablesSchema, capacity: PREDICT_TABLES_CAPACITY, input: { payloadWidth: 3 } });
  cleanups.push(() => server.dispose());
  await server.start();
  const publisher = createSnapshotPublisher(server, { every: 3, input: { codes: 3 } });
  const host = await hostOnLoopback(publisher);
  cleanups.push(() => host.close());
  const relay = await createShapedRelay(host.url, { seed: 7, loss: 0.02 });
  cleanups.push(() => relay.close());
  const rt = await createNodeRuntime<typeof predictTablesSchema, NetworkCommands>({
    worker: await nodeFixture('predict-tables-client'),
    schema: predictTablesSchema,
    capacity: PREDICT_TABLES_CAPACITY,
    setup: { url: relay.url },
    input: { payloadWidth: 2 },
  });
  cleanups.push(() => rt.dispose());
  await rt.start();
  let stats = await rt.commands.network();
  // connected, its clock synced and the prediction rebased on a few snapshots: its inputs are stamped and sent
  for (const deadline = performance.now() + 30_000; !(stats.player === 0 && (stats.predicted?.rebases ?? 0) > 5); stats = await rt.commands.network()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for the connection: ${JSON.stringify(stats)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // another player (on the server itself) joins first: its disc is the players table's entity 0
  const other = publisher.connect(() => {}, 1);
  let number = 0;
  const send = (code: number) => other.receive(encodeInputs(publisher.format, [{ time: server.now(), code, payload: [0, 0] }], 2, number++));
  send(JOIN);
  await waitFor('the other player', () => (server.frame()?.count ?? 0) > PLAYERS_BASE, 15_000);
  // then this client: its disc is entity 1 of the table, and it steers it about
  expect(rt.sendInput(JOIN, 0, 0)).toBe(true);
  let turn = 0;
  const keys = setInterval(() => rt.sendInput(STEER, Math.cos(turn), Math.sin((turn += 0.7))), 250);
  cleanups.push(() => clearInterval(keys));
  const shown: Shown[] = [];
  /** The most discs a frame showed as player 0's: drawn at a wrong index, the predicted disc overwrites another. */
  let mostOwn = 0;
  const draw = (f: Frame<typeof predictTablesSchema> | null) => {
    if (f === null) return;
    let own = 0;
    for (let i = PLAYERS_BASE; i < f.count; i++) {
      if (f.fields.player[i] !== 0) continue;
      if (own++ === 0) shown.push({ tick: f.tick, index: i, position: [f.fields.position[2 * i]!, f.fields.position[2 * i + 1]!] });
    }
    mostOwn = Math.max(mostOwn, own);
  };
  const frames = setInterval(() => draw(rt.frame()), 8);
  cleanups.push(() => clearInterval(frames));
  for (const deadline = performance.now() + 30_000; !((stats.predicted?.entities ?? 0) === 1 && stats.predicted!.rebases > 20); stats = await rt.commands.network()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for the prediction: ${JSON.stringify(stats.predicted)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await waitFor('frames of its disc at its first index', () => shown.filter((s) => s.index === PLAYERS_BASE + 1).length > 30, 15_000);
  // the other player leaves: on the server, the client's disc moves into entity 0 of the table
  send(LEAVE);
  await waitFor('frames of its disc at its new index', () => shown.filter((s) => s.index === PLAYERS_BASE).length > 60, 30_000);
  stats = await rt.commands.network();
  // the largest move of the drawn disc in a client tick (a frame's step over the ticks between it and the last):
  // the disc moves at most about 6 units a second, 0.05 a client tick, and a correction fades over ticks; drawn at
  // the wrong index, it would jump to the server's picture of it, a lead and a playout delay (a few hundred ms:
  // more than a unit) behind, and its predicted self would overwrite the other player's disc
  let largest = 0;
  for (let i = 1; i < shown.length; i++) {
    const step = Math.hypot(shown[i]!.position[0] - shown[i - 1]!.position[0], shown[i]!.position[1] - shown[i - 1]!.position[1]);
    largest = Math.max(largest, step / Math.max(1, shown[i]!.tick - shown[i - 1]!.tick));
  }
  console.log(`prediction in a table: ${JSON.stringify(stats.predicted)}; the largest move a client tick: ${largest.toFixed(3)}`);
  expect(shown.some((s) => s.index === PLAYERS_BASE + 1) && shown.some((s) => s.index === PLAYERS_BASE)).toBe(true);
  expect(stats.predicted!.entities).toBe(1);
  expect(stats.predicted!.snaps).toBe(0);
  expect(mostOwn, 'frames that showed two discs of player 0').toBe(1);
  expect(largest).toBeLessThan(Math.max(0.25, stats.predicted!.largestCorrection));
}, 90_000);
