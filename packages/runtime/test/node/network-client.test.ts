/**
 * The multiplayer client end to end over real sockets (ARCHITECTURE.md, "Multiplayer"): a server runtime on the
 * real clock publishing the motion fixture through `hostSnapshots` on a `ws` server, and client runtimes whose
 * simulation worker is `networkClient` (the unchanged `steadyframe/network` module, in a worker thread), each
 * behind a shaped relay: 50–150 ms each way, ±30 ms jitter (so reordered), 5% of messages lost. The page side
 * is `createNodeRuntime` and `frame()`, as any runtime's. Nothing is timed; every wait is a hang guard.
 *
 * The motion fixture's entity 0 is at x = k, y = −2k at tick k and entity 1 at x = k + 1: a drawn x0 is the
 * server tick the client shows, so a frame says which server time it is from, and whether its entities agree.
 */
import { afterEach, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { Frame, Runtime } from 'steadyframe';
import type { NetworkCommands, NetworkStats } from 'steadyframe/network';
import { watchNetwork } from 'steadyframe/network';
import { createNodeRuntime, createSnapshotPublisher } from 'steadyframe/node';
import { createShapedRelay } from 'steadyframe/testing/node';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import { WIRE_VERSION } from '../../src/net/wire.ts';
import { hostOnLoopback } from './support/loopback-host.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

const CAPACITY = 4;
const TICK_RATE = 60;
const TICK_MS = 1000 / TICK_RATE;
const EVERY = 3; // 20 snapshots a second

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server: the motion fixture at TICK_RATE, its states every EVERY ticks to each connection, inputs taken. */
async function server() {
  const rt = await createNodeRuntime<typeof motionSchema, MotionCommands>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: CAPACITY });
  cleanups.push(() => rt.dispose());
  await rt.setTickRate(TICK_RATE);
  await rt.start();
  const publisher = createSnapshotPublisher(rt, { every: EVERY, input: { codes: 4 } });
  const host = await hostOnLoopback(publisher, 64 * 1024);
  cleanups.push(() => host.close());
  return { rt, publisher, clients: host.clients, url: host.url };
}

/** What a client frame showed: its time, the server tick it stands for (x0), and its entities' agreement. */
interface Shown {
  time: number;
  tick: number;
  torn: number;
  serverTick: number;
}

/** A client runtime behind its own shaped relay, drawing a frame every 16 ms. */
async function client(target: string, seed: number, serverTick: () => number, loss = 0.05) {
  const relay = await createShapedRelay(target, { seed, loss });
  cleanups.push(() => relay.close());
  const rt: Runtime<typeof motionSchema, NetworkCommands> = await createNodeRuntime<typeof motionSchema, NetworkCommands>({
    worker: await nodeFixture('network-client'),
    schema: motionSchema,
    capacity: CAPACITY,
    setup: { url: relay.url },
    input: { payloadWidth: 1 },
  });
  cleanups.push(() => rt.dispose());
  await rt.start();
  const shown: Shown[] = [];
  const draw = (f: Frame<typeof motionSchema> | null) => {
    if (f === null || f.count < 2) return;
    const p = f.fields.position;
    // entity 1 is one x ahead of entity 0, and y is −2x: whatever the blend, both hold in a whole state
    const torn = Math.max(Math.abs(p[2]! - p[0]! - 1), Math.abs(p[1]! + 2 * p[0]!));
    shown.push({ time: f.time, tick: p[0]!, torn, serverTick: serverTick() });
  };
  const frames = setInterval(() => draw(rt.frame()), 16);
  cleanups.push(() => clearInterval(frames));
  return { rt, relay, shown, network: () => rt.commands.network() };
}

function expectSmooth(shown: readonly Shown[], label: string): void {
  for (let i = 1; i < shown.length; i++) {
    // frames never go back, in their time or in the server time they show
    expect(shown[i]!.time, label).toBeGreaterThanOrEqual(shown[i - 1]!.time);
    expect(shown[i]!.tick, label).toBeGreaterThanOrEqual(shown[i - 1]!.tick - 1e-3);
  }
  for (const s of shown) {
    // no torn entity: both entities and both components from one server state
    expect(s.torn, label).toBeLessThan(1e-3);
    // never ahead of what the server had published when the frame was drawn
    expect(s.tick, label).toBeLessThanOrEqual(s.serverTick + 1e-3);
  }
}

it("two clients behind lossy, jittery, reordering links draw the server's states smoothly, in order, whole, and one's inputs reach the server", async () => {
  const s = await server();
  const a = await client(s.url, 1, () => s.publisher.stats.lastTick);
  const b = await client(s.url, 2, () => s.publisher.stats.lastTick);
  // a hang guard: both draw a few seconds of frames (the clock syncs and the playout settles first)
  await waitFor('frames on both clients', () => a.shown.length >= 200 && b.shown.length >= 200, 30_000);
  // client A presses key 2 three times; each event goes to the server stamped with A's render time, as player 0
  for (let i = 0; i < 3; i++) expect(a.rt.sendInput(2, 10 + i)).toBe(true);
  let inputs = await s.rt.commands.inputs();
  for (const deadline = performance.now() + 15_000; inputs.filter(([, , code]) => code === 2).length < 3 && performance.now() < deadline; inputs = await s.rt.commands.inputs()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stats: NetworkStats[] = [await a.network(), await b.network()];
  for (const [i, c] of [a, b].entries()) {
    const label = `client ${'AB'[i]}`;
    expectSmooth(c.shown, label);
    const n = stats[i]!;
    console.log(`${label}: ${c.shown.length} frames; ${JSON.stringify(n)}`);
    expect(n).toMatchObject({ connected: true, connects: 1, disconnects: 0, synced: true, refused: 0, restarts: 0 });
    // the clock: both runtimes' shared clocks are this thread's performance.now(), so the true offset is 0, and
    // the fastest exchange's interval (± half its round trip) holds it whatever the route
    expect(Math.abs(n.offset)).toBeLessThanOrEqual(n.roundTrip / 2 + 2);
    // the relay lost and reordered snapshots; the client put them in place and counted the gaps
    expect(n.reordered + n.lost).toBeGreaterThan(0);
    // the delay is behind the server's now by at least the send interval, and the picture is that far behind
    expect(n.delay).toBeGreaterThanOrEqual(EVERY * TICK_MS);
    const lag = c.shown.slice(-50).map((f) => (f.serverTick - f.tick) * TICK_MS);
    expect(Math.min(...lag)).toBeGreaterThan(0);
  }
  // both show the same server ticks within their delays: their last frames' server times are no further apart
  // than the larger delay and a send interval of jitter
  const apart = Math.abs(a.shown.at(-1)!.tick - b.shown.at(-1)!.tick) * TICK_MS;
  expect(apart).toBeLessThan(Math.max(stats[0]!.delay, stats[1]!.delay) + EVERY * TICK_MS * 4);
  // A's inputs reached the server's simulation, each once, as player 0 (its first payload value; the first
  // connection), though the relay loses a message in twenty: each event goes out in three messages
  const mine = inputs.filter(([, , code]) => code === 2);
  expect(mine.map(([, , , player]) => player)).toEqual([0, 0, 0]);
  expect(s.clients[0]!.stats).toMatchObject({ lastRefusal: null, inputs: 3, inputsMissed: 0 });
  expect(s.clients[0]!.stats.inputRepeats).toBeLessThanOrEqual(6);
  expect(stats[0]!.inputsSent).toBe(3);
}, 90_000);

it('sends each input event in three messages, numbered, which the server takes once; a new connection counts anew', async () => {
  const s = await server();
  const c = await client(s.url, 4, () => s.publisher.stats.lastTick, 0); // a link that loses nothing
  await waitFor('frames', () => c.shown.length >= 30, 30_000);
  for (let i = 0; i < 5; i++) expect(c.rt.sendInput(2, i)).toBe(true);
  const first = () => s.clients[0]!.stats;
  // each of the five went out three times: taken once, the two copies let go
  await waitFor('every copy', () => first().inputRepeats >= 10, 15_000);
  expect(first()).toMatchObject({ inputs: 5, inputRepeats: 10, inputsMissed: 0, lastRefusal: null });
  expect((await c.network()).inputsSent).toBe(5);
  // the snapshots after the server's ticks took them say so: the newest, number 4 (0 to 4 on this connection)
  const reflected = async (want: number) => {
    let n = await c.network();
    for (const deadline = performance.now() + 15_000; n.inputsReflected !== want && performance.now() < deadline; n = await c.network()) await new Promise((resolve) => setTimeout(resolve, 20));
    return n.inputsReflected;
  };
  expect(await reflected(4)).toBe(4);
  // a new connection: the events before it are not sent again, and the server starts counting anew
  c.relay.dropConnections();
  await waitFor('the second connection', () => s.clients.length === 2, 20_000);
  for (const deadline = performance.now() + 20_000; !(await c.network()).connected; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (performance.now() > deadline) throw new Error('timed out waiting for the client to reconnect');
  }
  expect(c.rt.sendInput(1, 9)).toBe(true);
  await waitFor('its copies', () => s.clients[1]!.stats.inputRepeats >= 2, 15_000);
  expect(s.clients[1]!.stats).toMatchObject({ inputs: 1, inputRepeats: 2, inputsMissed: 0 });
  expect(first()).toMatchObject({ inputs: 5, inputRepeats: 10 });
  // taken into the server's ring; its step reads it at its next tick (a hang guard, not a timing check)
  let codes = (await s.rt.commands.inputs()).map(([, , code]) => code);
  for (const deadline = performance.now() + 5_000; !codes.includes(1) && performance.now() < deadline; codes = (await s.rt.commands.inputs()).map(([, , code]) => code)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(codes.filter((code) => code === 2)).toHaveLength(5);
  expect(codes.filter((code) => code === 1)).toHaveLength(1);
  // the client numbers its inputs on across connections: the sixth is number 5
  expect(await reflected(5)).toBe(5);
}, 90_000);

it('a lost connection holds the last state, reconnects with backoff, and says so through watchNetwork', async () => {
  const s = await server();
  const c = await client(s.url, 3, () => s.publisher.stats.lastTick);
  const watch = watchNetwork(c.rt, { intervalMs: 20 });
  cleanups.push(() => watch.stop());
  const events: string[] = [];
  watch.on('disconnected', () => events.push('disconnected'));
  watch.on('reconnected', () => events.push('reconnected'));
  await waitFor('frames', () => c.shown.length >= 60, 30_000);
  c.relay.dropConnections();
  await waitFor('the reconnect', () => events.includes('reconnected'), 20_000);
  const drawnBefore = c.shown.length;
  await waitFor('frames after the reconnect', () => c.shown.length >= drawnBefore + 60, 30_000);
  expect(events.slice(0, 2)).toEqual(['disconnected', 'reconnected']);
  const n = await c.network();
  expect(n).toMatchObject({ connected: true, connects: 2, disconnects: 1, restarts: 0 });
  // across the loss and the reconnect: never back, never torn
  expectSmooth(c.shown, 'across a reconnect');
  // and it moves again: the last frames show newer server ticks than the frames before the loss
  expect(c.shown.at(-1)!.tick).toBeGreaterThan(c.shown[drawnBefore - 1]!.tick);
}, 90_000);

it('a server that sends what is not a snapshot of this schema is refused, counted and said, and nothing breaks', async () => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => wss.close());
  await new Promise<void>((resolve) => wss.on('listening', () => resolve()));
  wss.on('connection', (socket) => {
    socket.send(new Uint8Array([1, 2, 3])); // truncated
    socket.send(new Uint8Array(64)); // no magic
    socket.send('a text frame'); // not binary
    const wrong = new Uint8Array(40);
    const view = new DataView(wrong.buffer);
    view.setUint32(0, 0x314e4653, true);
    view.setUint8(4, 1);
    view.setUint8(5, WIRE_VERSION);
    view.setUint32(8, 0xdeadbeef, true); // another schema's hash
    view.setUint32(12, 40, true);
    socket.send(wrong);
  });
  const rt = await createNodeRuntime<typeof motionSchema, NetworkCommands>({
    worker: await nodeFixture('network-client'),
    schema: motionSchema,
    capacity: CAPACITY,
    setup: { url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}` },
  });
  cleanups.push(() => rt.dispose());
  await rt.start();
  let n = await rt.commands.network();
  for (const deadline = performance.now() + 10_000; n.refused < 4 && performance.now() < deadline; n = await rt.commands.network()) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(n).toMatchObject({ connected: true, refused: 4, snapshots: 0, synced: false });
  expect(n.lastRefusal).toMatch(/schema .* both ends must be built with the same schema/);
  // the worker still runs: it answers, and draws nothing rather than garbage
  expect(rt.frame()?.count ?? 0).toBe(0);
  expect((await rt.stats()).worker.error).toBeNull();
}, 30_000);
