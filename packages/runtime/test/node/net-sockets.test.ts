/**
 * The multiplayer parts together over real sockets (ARCHITECTURE.md, "Multiplayer"): a server runtime on the
 * real clock publishing through `hostSnapshots` on a `ws` server, and two clients in this process, each behind a
 * network shaper (50–150 ms each way, so reordered; 5% of messages lost), each keeping its server clock from
 * pings, its jitter buffer and its playout delay, as the network worker will. What is asserted holds on a loaded
 * machine: nothing is timed; every wait is a hang guard.
 */
import { afterEach, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { Runtime } from 'steadyframe';
import { createNodeRuntime } from 'steadyframe/node';
import { mulberry32 } from 'steadyframe/testing';
import { computeLayout } from '../../src/core/layout.ts';
import { pingDelay } from '../../src/net/ping-schedule.ts';
import { Playout } from '../../src/net/playout.ts';
import { createSnapshotPublisher, type PublisherClient } from '../../src/net/publisher.ts';
import { ServerClock } from '../../src/net/server-clock.ts';
import { SnapshotBuffer } from '../../src/net/snapshot-buffer.ts';
import { hostSnapshots } from '../../src/net/socket-host.ts';
import { decodePong, encodeInputs, encodePing, messageType, MESSAGE, wireFormat } from '../../src/net/wire.ts';
import type { MotionCommands } from '../browser/fixtures/motion.worker.ts';
import { motionSchema } from '../browser/fixtures/schemas.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

const CAPACITY = 4;
const TICK_RATE = 60;
const EVERY = 3; // 20 snapshots a second
const SEND_MS = (1000 * EVERY) / TICK_RATE;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A client behind a shaper: its clock, buffer and playout, and what it drew. */
function client(port: number, seed: number) {
  const format = wireFormat(computeLayout(motionSchema, CAPACITY));
  const random = mulberry32(seed);
  const socket = new WebSocket(`ws://127.0.0.1:${port}`);
  socket.binaryType = 'arraybuffer';
  const timers = new Set<ReturnType<typeof setTimeout>>();
  /** 50–150 ms later, or never (5%, unless `lossless`): messages overtake each other. */
  const shaped = (deliver: () => void, lossless = false) => {
    if (!lossless && random() < 0.05) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      deliver();
    }, 50 + random() * 100);
    timers.add(timer);
  };
  const clock = new ServerClock();
  const buffer = new SnapshotBuffer(format);
  const playout = new Playout({ sendInterval: SEND_MS });
  const drawn: Array<{ render: number; previousTick: number; currentTick: number; alpha: number; x: number }> = [];
  let unsynced = 0;
  let jumps = 0;
  socket.on('message', (data: ArrayBuffer) => {
    const bytes = new Uint8Array(data);
    shaped(() => {
      const now = performance.now();
      if (messageType(format, bytes) === MESSAGE.PONG) {
        const pong = decodePong(format, bytes);
        clock.addSample({ sent: pong.clientSent, serverReceived: pong.serverReceived, serverSent: pong.serverSent, received: now });
        // a clock jump moves the playout's samples with it (net/playout.ts)
        if (clock.jumps !== jumps) {
          jumps = clock.jumps;
          playout.clockJumped(clock.lastJump);
        }
        return;
      }
      if (!clock.synced) {
        unsynced++;
        return;
      }
      const arrival = clock.serverTime(now);
      if (buffer.insert(bytes, arrival) === 'stored') playout.addSnapshot(buffer.lastStored!.time, arrival);
    });
  });
  let pings = 0;
  const ping = () => {
    // stamped when the client sends it: the shaper's delay is the network's, on the round trip
    const message = encodePing(format, { sequence: pings, clientSent: performance.now() });
    shaped(() => socket.readyState === WebSocket.OPEN && socket.send(message));
    pings++;
    const timer = setTimeout(ping, pingDelay(pings));
    timers.add(timer);
  };
  /** A frame: the render time, and the pair around it. */
  const frame = () => {
    if (!clock.synced) return;
    const render = playout.renderTime(clock.serverTime(performance.now()));
    const pair = buffer.pairAt(render);
    if (pair === null || pair.before || pair.after) return;
    const x = pair.previous.block[0]! + pair.alpha * (pair.current.block[0]! - pair.previous.block[0]!);
    drawn.push({ render, previousTick: pair.previous.tick, currentTick: pair.current.tick, alpha: pair.alpha, x });
  };
  const frames = setInterval(frame, 16);
  cleanups.push(() => {
    clearInterval(frames);
    for (const timer of timers) clearTimeout(timer);
    socket.close();
  });
  const opened = new Promise<void>((resolve) => socket.on('open', () => resolve()));
  return { format, socket, clock, buffer, playout, drawn, opened, ping, unsynced: () => unsynced, sendInputs: (bytes: Uint8Array) => shaped(() => socket.send(bytes), true) };
}

it('two clients behind a lossy, reordering link draw the server\'s states in order, on its clock, and one\'s inputs reach the server', async () => {
  const rt: Runtime<typeof motionSchema, MotionCommands> = await createNodeRuntime<typeof motionSchema, MotionCommands>({ worker: await nodeFixture('motion'), schema: motionSchema, capacity: CAPACITY });
  cleanups.push(() => rt.dispose());
  await rt.setTickRate(TICK_RATE);
  await rt.start();
  // the server's clock is this thread's performance.now(): a client here has a true offset of 0
  const before = performance.now();
  const serverNow = rt.now();
  expect(serverNow - before).toBeGreaterThanOrEqual(0);
  expect(serverNow - performance.now()).toBeLessThanOrEqual(0);
  const publisher = createSnapshotPublisher(rt, { every: EVERY, input: { codes: 4 } });
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 64 * 1024 });
  const clients: PublisherClient[] = [];
  const host = hostSnapshots(publisher, server, { onClient: (c) => clients.push(c) });
  const publishing = setInterval(() => publisher.publish(), 4);
  cleanups.push(() => {
    clearInterval(publishing);
    host.close();
    server.close();
  });
  await new Promise<void>((resolve) => server.on('listening', () => resolve()));
  const port = (server.address() as { port: number }).port;
  const a = client(port, 1);
  const b = client(port, 2);
  await Promise.all([a.opened, b.opened]);
  a.ping();
  b.ping();
  // a hang guard: each client draws a few seconds' worth of frames from pairs of snapshots
  await waitFor('frames on both clients', () => a.drawn.length >= 150 && b.drawn.length >= 150, 30_000);
  // client A presses a key at its render time (a playout delay behind the server), three times; delayed like
  // everything else, never lost (a game on a lossy transport sends its inputs more than once)
  for (let i = 0; i < 3; i++) a.sendInputs(encodeInputs(a.format, [{ time: a.drawn.at(-1)!.render, code: 2, payload: [i] }], 1));
  await waitFor("A's inputs at the server", () => clients[0]!.stats.inputs + clients[0]!.stats.refused.when + clients[0]!.stats.refused.code >= 3, 10_000);
  let inputs = await rt.commands.inputs();
  // a hang guard: the ticks after the events take them
  for (const deadline = performance.now() + 10_000; inputs.length < 3 && performance.now() < deadline; inputs = await rt.commands.inputs()) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  for (const c of [a, b]) {
    // the clock: this process is both ends, so the true offset is 0 (the runtime's clock is this thread's); the
    // estimate is the fastest exchange's, whose interval holds the truth whatever the route
    const clock = c.clock.stats();
    expect(Math.abs(clock.estimate)).toBeLessThanOrEqual(clock.roundTrip / 2 + 1);
    // frames never go back; each from a pair of snapshots (every EVERY ticks apart, or a loss bridged), in order
    for (let i = 1; i < c.drawn.length; i++) {
      expect(c.drawn[i]!.render).toBeGreaterThanOrEqual(c.drawn[i - 1]!.render);
      expect(c.drawn[i]!.previousTick).toBeGreaterThanOrEqual(c.drawn[i - 1]!.previousTick);
    }
    for (const d of c.drawn) {
      expect((d.currentTick - d.previousTick) % EVERY).toBe(0);
      expect(d.currentTick).toBeGreaterThan(d.previousTick);
      // the motion fixture's x is the tick number: the blend is the tick at the render time
      expect(d.x).toBeCloseTo(d.previousTick + d.alpha * (d.currentTick - d.previousTick), 3);
    }
    // the shaper lost and reordered messages: the buffer put them in place and bridged the gaps
    expect(c.buffer.stats.reordered).toBeGreaterThan(0);
    console.log(
      `client: ${c.drawn.length} frames; clock estimate ${clock.estimate.toFixed(2)} ms, applied ${clock.offset.toFixed(2)} (round trip ${clock.roundTrip.toFixed(1)}); ` +
        `playout delay ${c.playout.stats().delay.toFixed(1)} ms (target ${c.playout.target.toFixed(1)}); buffer ${JSON.stringify(c.buffer.stats)}`,
    );
  }
  // both clients drew the same server ticks' states: their frames' pairs come from one stream
  const ticksA = new Set(a.drawn.map((d) => d.previousTick));
  expect(b.drawn.some((d) => ticksA.has(d.previousTick))).toBe(true);
  // A's inputs reached the server's simulation, as player 0 (the first connection), once each
  expect(clients[0]!.stats).toMatchObject({ inputs: 3, lastRefusal: null });
  expect(inputs.filter(([, , code, player]) => code === 2 && player === 0)).toHaveLength(3);
  expect(host.skipped).toBe(0);
}, 60_000);
