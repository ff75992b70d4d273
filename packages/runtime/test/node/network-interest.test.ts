/**
 * Interest management over real sockets (ARCHITECTURE.md, "Multiplayer": interest): a server runtime on the real
 * clock with four entities of the motion fixture (entity i at x = k + i, y = −2k at tick k), published with
 * `radiusInterest` (a radius of 1.5 around the client's player's entity), to a client whose `networkClient` worker
 * (in a worker thread, behind a shaped relay that delays, reorders and loses) has room for two entities. The client's
 * world is its view: entities 0 and 1, whole and in order, as deltas against what it acknowledged.
 */
import { afterEach, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import type { NetworkCommands } from 'steadyframe/network';
import { createNodeRuntime, createSnapshotPublisher, radiusInterest } from 'steadyframe/node';
import { createShapedRelay } from 'steadyframe/testing/node';
import type { MotionCommands, MotionSetup } from '../browser/fixtures/motion.worker.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import { hostOnLoopback } from './support/loopback-host.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('a client sees the entities within the radius of its own, as a world of its own, over a lossy link', async () => {
  const server = await createNodeRuntime<typeof motionSchema, MotionCommands, MotionSetup>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: 4, setup: { count: 4, label: 'interest' } });
  cleanups.push(() => server.dispose());
  await server.setTickRate(60);
  await server.start();
  const interest = radiusInterest({ radius: 1.5, focus: (client) => client.player, limit: 2 });
  const publisher = createSnapshotPublisher(server, { every: 3, interest });
  const host = await hostOnLoopback(publisher);
  cleanups.push(() => host.close());
  const relay = await createShapedRelay(host.url, { seed: 9, loss: 0.05 });
  cleanups.push(() => relay.close());
  const client: Runtime<typeof motionSchema, NetworkCommands> = await createNodeRuntime<typeof motionSchema, NetworkCommands>({
    worker: await nodeFixture('network-client'),
    schema: motionSchema,
    capacity: 2,
    setup: { url: relay.url },
    input: { payloadWidth: 1 },
  });
  cleanups.push(() => client.dispose());
  await client.start();
  const seen: { count: number; x0: number; x1: number; y0: number }[] = [];
  const frames = setInterval(() => {
    const f = client.frame();
    if (f === null || f.count === 0) return;
    const p = f.fields.position;
    seen.push({ count: f.count, x0: p[0]!, x1: p[2]!, y0: p[1]! });
  }, 16);
  cleanups.push(() => clearInterval(frames));
  await waitFor('frames of the view', () => seen.length >= 100, 30_000);
  const network = await client.commands.network();
  // entity 0 (the focus) and entity 1 (1 away); 2 and 3 are 2 and 3 away
  for (const s of seen) {
    expect(s.count).toBe(2);
    expect(Math.abs(s.x1 - s.x0 - 1)).toBeLessThan(1e-3);
    expect(Math.abs(s.y0 + 2 * s.x0)).toBeLessThan(1e-3);
  }
  expect(host.clients[0]!.stats).toMatchObject({ visible: 2, entered: 2, left: 0 });
  expect(host.clients[0]!.stats.deltas).toBeGreaterThan(host.clients[0]!.stats.full);
  expect(network.deltas).toBeGreaterThan(network.full);
  expect(network.refused).toBe(0);
}, 60_000);
