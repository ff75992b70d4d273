/**
 * A server's events and game state on its clients (ARCHITECTURE.md, "Multiplayer": events and game state), end
 * to end over real sockets: the networked game fixture's server (net-game.worker.ts: bodies, `clock` = the tick,
 * `score`, an event to all every 4th tick and one to a single player every 6th) publishing through
 * `hostSnapshots`, and two client runtimes behind shaped relays (50–150 ms each way, ±30 ms jitter, so
 * reordered; 8% of messages lost each way, acks and events included). Nothing is timed; every wait is a hang
 * guard.
 *
 * What is checked, per client, of the frames it drew every 16 ms:
 * - exactly once, in order: the events to all form an unbroken run of the server's (every 4th tick from the
 *   first after the client connected), each presented once; the events to one player reach only that player,
 *   also an unbroken run;
 * - none lost: every event of a tick at or before the last frame's `clock` has been presented;
 * - at the playout time: the client's step re-emits an event of server tick T at its first tick k whose state
 *   reaches T's time: clock(k − 1) < T <= clock(k), where clock(k) is the server tick of the state client tick k
 *   wrote (exact: a float64 game field; the fixture logs it); the event is stamped with k, and the frame that
 *   presents it shows tick k or later; every frame before it shows a clock below T (none showed T's state
 *   without its event). How far the presenting frame's clock is from T is measured;
 * - game state: each frame's `clock` is the server tick its bodies show (x0), and its `score` the server's score
 *   of a tick at or just after it;
 * - across a reconnect (a new connection numbers its events from 0): nothing presented twice, still in order.
 */
import { afterEach, expect, it } from 'vitest';
import type { Runtime } from 'steadyframe';
import { createNodeRuntime, createSnapshotPublisher } from 'steadyframe/node';
import { createShapedRelay } from 'steadyframe/testing/node';
import type { NetGameClientCommands } from './fixtures/net-game-client.worker.ts';
import { ALL, ALL_EVERY, netGameSchema, scoreAt, WHISPER, WHISPER_EVERY } from './fixtures/net-game-schema.ts';
import { percentile } from './support/net-link.ts';
import { hostOnLoopback } from './support/loopback-host.ts';
import { nodeFixture, waitFor } from './support/worker-modules.ts';

const EVERY = 3; // 20 snapshots a second
const LOSS = 0.08;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server() {
  const rt = await createNodeRuntime({ worker: await nodeFixture('net-game'), schema: netGameSchema, capacity: 2 });
  cleanups.push(() => rt.dispose());
  await rt.start();
  // WHISPER's third payload value is the player it is for
  const publisher = createSnapshotPublisher(rt, { every: EVERY, events: { target: (e) => (e.code === WHISPER ? e.payload(2) : 'all') } });
  const host = await hostOnLoopback(publisher);
  cleanups.push(() => host.close());
  return { rt, publisher, clients: host.clients, url: host.url };
}

/** An event as a client frame presented it. */
interface Presented {
  readonly code: number;
  readonly serverTick: number;
  readonly n: number;
  readonly player: number;
  /** The client tick it was re-emitted at. */
  readonly tick: number;
  /** The frame that presented it (an index into `frames`). */
  readonly frame: number;
}

interface Drawn {
  readonly clock: number;
  readonly x0: number;
  readonly score: number;
  /** The client tick the frame shows (its pair's current tick once alpha is above 0). */
  readonly shows: number;
}

async function client(target: string, seed: number) {
  const relay = await createShapedRelay(target, { seed, loss: LOSS });
  cleanups.push(() => relay.close());
  const rt: Runtime<typeof netGameSchema, NetGameClientCommands> = await createNodeRuntime<typeof netGameSchema, NetGameClientCommands>({
    worker: await nodeFixture('net-game-client'),
    schema: netGameSchema,
    capacity: 2,
    setup: { url: relay.url },
  });
  cleanups.push(() => rt.dispose());
  await rt.start();
  const frames: Drawn[] = [];
  const events: Presented[] = [];
  const frames$ = setInterval(() => {
    const f = rt.frame();
    if (f === null) return;
    for (let i = 0; i < f.events.length; i++) {
      events.push({ code: f.events.code(i), serverTick: f.events.payload(i, 0), n: f.events.payload(i, 1), player: f.events.payload(i, 2), tick: f.events.tick(i), frame: frames.length });
    }
    frames.push({ clock: f.state.clock, x0: f.count === 2 ? f.fields.position[0]! : Number.NaN, score: f.state.score, shows: f.alpha > 0 ? f.tick : f.previousTick });
  }, 16);
  cleanups.push(() => clearInterval(frames$));
  return { rt, relay, frames, events };
}

it("every server event reaches its clients exactly once, in order, at the playout time, over lossy links; game state arrives with the bodies", async () => {
  const s = await server();
  const a = await client(s.url, 11);
  const b = await client(s.url, 12);
  const count = (c: { events: Presented[] }, code: number) => c.events.filter((e) => e.code === code).length;
  await waitFor('events on both clients', () => [a, b].every((c) => count(c, ALL) >= 60 && count(c, WHISPER) >= 15), 60_000);
  const players = new Set<number>();
  const below: number[] = [];
  for (const [i, c] of [a, b].entries()) {
    const label = `client ${'AB'[i]}`;
    const n = await c.rt.commands.network();
    const clockAt = new Map(await c.rt.commands.clocks());
    // all events, and whispers: each an unbroken run of the server's numbers, each once, in order
    const all = c.events.filter((e) => e.code === ALL);
    expect(all.map((e) => e.n), label).toEqual(all.map((_, j) => all[0]!.n + j));
    for (const e of all) expect(e.serverTick, label).toBe(e.n * ALL_EVERY);
    const whispers = c.events.filter((e) => e.code === WHISPER);
    const player = whispers[0]!.player;
    players.add(player);
    // only this player's: every other number of the server's, unbroken
    expect(whispers.map((e) => [e.n, e.player]), label).toEqual(whispers.map((_, j) => [whispers[0]!.n + 2 * j, player]));
    expect(c.events.every((e) => e.code === ALL || e.code === WHISPER), `${label}: no other code (no losses reported)`).toBe(true);
    // none lost: every event of a tick at or before the last frame's clock has been presented
    const last = c.frames.at(-1)!.clock;
    expect(all.at(-1)!.serverTick + ALL_EVERY, label).toBeGreaterThan(last);
    // at the playout time: re-emitted at the first client tick whose state reached T, and presented with it
    for (const e of c.events) {
      const at = `${label}: event ${e.code}/${e.n} of server tick ${e.serverTick}, at client tick ${e.tick}`;
      expect(clockAt.get(e.tick)!, at).toBeGreaterThanOrEqual(e.serverTick);
      expect(clockAt.get(e.tick - 1) ?? 0, at).toBeLessThan(e.serverTick);
      expect(c.frames[e.frame]!.shows, at).toBeGreaterThanOrEqual(e.tick);
      if (e.frame > 0) expect(c.frames[e.frame - 1]!.shows, at).toBeLessThan(e.tick);
      const before = c.frames.slice(Math.max(0, e.frame - 30), e.frame);
      for (const f of before) expect(f.clock, `${label}: a frame before event ${e.code}/${e.n}`).toBeLessThan(e.serverTick);
      // the first frames' events are those of ticks before the first state drawn (the picture starts behind)
      if (Number.isFinite(c.frames[e.frame - 2]?.x0 ?? Number.NaN)) below.push(e.serverTick - c.frames[e.frame]!.clock);
    }
    // game state: the bodies' server tick, and the score of a tick at or just after it
    // (from the second frame with bodies: the first blends the game fields from the zeros before the first
    // state, where the bodies, spawned, snap)
    for (const [j, f] of c.frames.entries()) {
      if (!Number.isFinite(f.x0) || !Number.isFinite(c.frames[j - 1]?.x0 ?? Number.NaN)) continue;
      expect(Math.abs(f.clock - f.x0), label).toBeLessThan(1e-3 * Math.max(1, f.x0));
      expect(f.score, label).toBeGreaterThanOrEqual(scoreAt(Math.floor(f.clock)));
      expect(f.score, label).toBeLessThanOrEqual(scoreAt(Math.ceil(f.clock) + 4 * EVERY));
    }
    console.log(`${label}: ${c.frames.length} frames, ${all.length} events to all, ${whispers.length} to player ${player}; ${JSON.stringify(n)}`);
    expect(n).toMatchObject({ eventsLost: 0, refused: 0 });
    expect(n.eventRepeats).toBeGreaterThan(0); // the same events came again until the acks got through
  }
  // the two players are different players
  expect([...players].sort()).toEqual([0, 1]);
  for (const p of s.clients) expect(p.stats).toMatchObject({ eventsLost: 0, lastRefusal: null });
  // measured: how far, in server ticks, the presenting frame's blend is short of T (positive: it blends toward
  // T's state from before it; a frame is 16 ms, a client tick 8.3 ms, a server tick 16.7 ms)
  // a reconnect: a new connection, a new player, numbers from 0 again; what came before is not presented twice, and
  // events go on in order (those of the gap are not sent: the server cannot tell it is the same client)
  const allBefore = count(a, ALL);
  a.relay.dropConnections();
  await waitFor('the reconnect', () => s.clients.length === 3, 20_000);
  await waitFor('events after the reconnect', () => count(a, ALL) >= allBefore + 15, 30_000);
  const numbers = a.events.filter((e) => e.code === ALL).map((e) => e.n);
  for (let j = 1; j < numbers.length; j++) expect(numbers[j]!, 'after the reconnect').toBeGreaterThan(numbers[j - 1]!);
  expect((await a.rt.commands.network()).connects).toBe(2);
  console.log(`server tick − presenting frame's clock, ${below.length} events: p50 ${percentile(below, 0.5).toFixed(3)}, p90 ${percentile(below, 0.9).toFixed(3)}, p99 ${percentile(below, 0.99).toFixed(3)}, max ${Math.max(...below).toFixed(3)}, min ${Math.min(...below).toFixed(3)}`);
}, 90_000);
