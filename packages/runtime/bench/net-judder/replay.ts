/**
 * The network benchmark's replays: one recorded trace (trace.ts) delivered over one simulated link to each way
 * of drawing a server's world, in simulated time, so every pipeline sees the very same arrivals and nothing
 * depends on how busy the machine is. Each replay returns what it drew at each 60 Hz frame.
 *
 * ```text
 *  true time t ─────────────────────────────────────────────────────────────────────▶
 *  server clock   s = t + serverOffset        (the trace's first send at t = LEAD)
 *  client clock   c = t + CLIENT_OFFSET       (the shared clock of our client; geckos reads Date.now: whole ms)
 *  snapshot k     arrives at arrivals[k], or never
 *  frames         t = FRAME_PHASE + f × 1000/60
 * ```
 *
 * - **ours**: the network client (`networkClient`, unchanged) driven as its worker would drive it: `init`, then a
 *   `step` per 120 Hz tick one tick ahead of its time (`maxLeadTicks` 1), its socket a simulated one (pings
 *   answered by a simulated server over links of the condition's shape), its timers on the simulated time; each
 *   frame blends the two ticks around it as the page does (linear fields: a lerp; a changed generation: the newer).
 *   The server's side of the wire is the publisher's own (net/publisher.ts): at each traced send the state is
 *   pushed into a `DeltaEncoder` (quantised as the schema says) and the client is sent `messageFor` the newest
 *   tick it acknowledged; the client's acks (one per snapshot decoded) cross an up-link of the condition's shape
 *   and reach a `ClientBaseline`. So a lost snapshot or a lost ack costs what it costs a real client: a delta
 *   against an older baseline, or a full snapshot.
 *
 * ```text
 *  send k (traced time) ── encoder.push(state k) ── messageFor(acked) ── down-link ──▶ client ── decode, draw
 *                                     ▲                                                 │
 *                     baseline.ack(tick) ◀── ack link (its own draws) ◀── ack(tick) ───┘
 * ```
 * - **geckos**: @geckos.io/snapshot-interpolation 1.1.1 as its README uses it: the server's
 *   `SI.snapshot.create(state)` (its time stamped the tick's time: its best case), sent as JSON; the client's
 *   `JSON.parse` and `SI.snapshot.add`, and `SI.calcInterpolation('x y')` each frame (undefined: the last
 *   drawn stays). Its clock, `SnapshotInterpolation.Now`, reads the simulated time.
 * - **latest**: the newest snapshot that arrived, as it is.
 */
import { SnapshotInterpolation } from '@geckos.io/snapshot-interpolation';
import { computeLayout, fieldViews, generationView } from '../../src/core/layout.ts';
import { SeededRandom } from '../../src/core/random.ts';
import type { SocketLike } from '../../src/net/connection.ts';
import { ClientBaseline, DeltaEncoder } from '../../src/net/delta-stream.ts';
import { networkClient } from '../../src/net/network-client.ts';
import { decodeAck, decodePing, encodePong, messageType, MESSAGE, wireFormat } from '../../src/net/wire.ts';
import { TickInputBuffer } from '../../src/worker/tick-input.ts';
import { createWorld } from '../../src/worker/world.ts';
import { createLink, EventQueue } from '../../test/node/support/net-link.ts';
import { ORBIT_SEND_EVERY, ORBIT_TICK_RATE, type OrbitSchema } from './orbits.ts';
import type { Condition, Trace } from './trace.ts';

/** True ms of the trace's first send: after the client's socket has opened (a round trip). */
export const LEAD = 1000;
export const FRAME_MS = 1000 / 60;
/** Frames fall between the client's ticks, not on them. */
const FRAME_PHASE = 3.1;
const CLIENT_OFFSET = 7000.25;
/** Date.now() epochs of geckos's server and client (any: it measures the offset itself). */
const SERVER_EPOCH = 1.75e12;
const CLIENT_EPOCH = 1.75e12 + 123_456;
/** The server's send interval, ms. */
export const SEND_INTERVAL_MS = (1000 * ORBIT_SEND_EVERY) / ORBIT_TICK_RATE;

/** What a pipeline drew: per frame, whether it drew anything yet and each entity's position. */
export interface Drawn {
  /** True ms of each frame. */
  readonly times: Float64Array;
  /** The same frames on the server's clock (true time + serverOffset). */
  readonly serverTimes: Float64Array;
  readonly drawn: Uint8Array;
  /** frames × entities × 2 */
  readonly position: Float32Array;
}

export interface ReplaySetup {
  readonly trace: Trace;
  readonly condition: Condition;
  /** arrivals(trace, condition, LEAD) */
  readonly arrivals: ReadonlyArray<number | null>;
}

function frames(setup: ReplaySetup): { times: Float64Array; serverTimes: Float64Array; serverOffset: number } {
  const { snapshots } = setup.trace;
  const serverOffset = snapshots[0]!.sent - LEAD;
  const end = LEAD + snapshots.at(-1)!.sent - snapshots[0]!.sent;
  const count = Math.floor((end - FRAME_PHASE) / FRAME_MS);
  const times = Float64Array.from({ length: count }, (_, f) => FRAME_PHASE + f * FRAME_MS);
  return { times, serverTimes: times.map((t) => t + serverOffset), serverOffset };
}

function drawnOf(setup: ReplaySetup) {
  const { times, serverTimes, serverOffset } = frames(setup);
  const n = setup.trace.orbits.length;
  const out: Drawn = { times, serverTimes, drawn: new Uint8Array(times.length), position: new Float32Array(times.length * 2 * n) };
  return { out, serverOffset, n };
}

/** What the server sent the client in one replay of ours. */
export interface WireCounts {
  /** Snapshots sent (lost ones too), and their bytes. */
  snapshots: number;
  bytes: number;
  /** Of them: deltas against an acknowledged state, and full snapshots. */
  deltas: number;
  full: number;
  /** Acks that reached the server. */
  acks: number;
}

/** Ours' options: Hermite on or off, and the schema both ends use (its `quantize` is the wire's). */
export interface OursOptions {
  readonly hermite: boolean;
  readonly schema: OrbitSchema;
}

/** Ours: the network client's step at 120 Hz, the page's blend at each frame; the server's side the wire's encoder. */
export function replayOurs(setup: ReplaySetup, options: OursOptions): Drawn & { readonly wire: WireCounts } {
  const { trace, condition } = setup;
  const { out, serverOffset, n } = drawnOf(setup);
  const wire: WireCounts = { snapshots: 0, bytes: 0, deltas: 0, full: 0, acks: 0 };
  const time = new EventQueue();
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  // the connection's ping and reconnect timers, on the simulated time
  globalThis.setTimeout = ((run: () => void, ms = 0) => time.schedule(time.now + ms, run)) as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((id: unknown) => time.cancel(id)) as typeof clearTimeout;
  try {
    const up = createLink(condition.seed + 1, condition);
    const down = createLink(condition.seed + 2, condition);
    // acks have a link of their own: the pings' draws stay those of the runs before acks existed
    const ackLink = createLink(condition.seed + 3, condition);
    const layout = computeLayout(options.schema, n);
    const format = wireFormat(layout);
    // the publisher's side of the wire, for this one client
    const encoder = new DeltaEncoder(format);
    const baseline = new ClientBaseline();
    const socket: SocketLike = {
      binaryType: 'blob',
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      send(bytes) {
        const type = messageType(format, bytes);
        if (type === MESSAGE.ACK) {
          const ack = decodeAck(format, bytes);
          const there = ackLink();
          if (there !== null) {
            time.schedule(time.now + there, () => {
              wire.acks++;
              if (ack.tick >= 0) baseline.ack(encoder, ack.tick);
            });
          }
          return;
        }
        if (type !== MESSAGE.PING) return;
        const ping = decodePing(format, bytes);
        const there = up();
        if (there === null) return;
        time.schedule(time.now + there, () => {
          const s = time.now + serverOffset;
          const pong = encodePong(format, { ...ping, serverReceived: s, serverSent: s });
          const back = down();
          if (back !== null) time.schedule(time.now + back, () => socket.onmessage?.({ data: pong.buffer }));
        });
      },
      close() {},
    };
    time.schedule(2 * condition.baseMs, () => socket.onopen?.({}));
    // each traced send, at its own time: encoded for the newest state the client acknowledged by then
    const first = trace.snapshots[0]!.sent;
    setup.arrivals.forEach((at, k) => {
      const sent = trace.snapshots[k]!;
      time.schedule(LEAD + sent.sent - first, () => {
        encoder.push(sent.head, sent.block, sent.generation);
        const bytes = encoder.messageFor(baseline.acked);
        if (encoder.isDelta(baseline.acked)) wire.deltas++;
        else wire.full++;
        wire.snapshots++;
        wire.bytes += bytes.byteLength;
        if (at !== null) time.schedule(at, () => socket.onmessage?.({ data: bytes.slice().buffer }));
      });
    });
    const client = networkClient({ schema: options.schema, url: 'bench://server', socket: () => socket, hermite: options.hermite, reconnect: false });
    const memory = new ArrayBuffer(layout.blockBytes);
    const { world } = createWorld(layout, new Float32Array(memory), fieldViews<OrbitSchema>(memory, 0, layout), generationView(memory, 0, layout));
    const random = new SeededRandom(1).next; // the client never draws; a worker would hand it its generator
    client.init!(world, undefined, { clock: () => time.now + CLIENT_OFFSET, random });

    const tickMs = 1000 / client.tickRate;
    // the ticks' states, newest last: [count, positions, generations] of the last four
    const kept: Array<{ at: number; count: number; position: Float32Array; generation: Uint32Array }> = [];
    // the client's step emits no events here (the bench measures motion only)
    const tick = { tick: 0, dt: tickMs / 1000, time: 0, at: 0, previousAt: 0, input: new TickInputBuffer(null), random, emit: () => false, emitPayload: () => false, rewind: (): never => { throw new Error('the judder replay keeps no rewind history'); } };
    const tickAt = (k: number) => k * tickMs; // client ms
    // the first tick: the one that ends at or after the first frame
    let next = Math.floor((out.times[0]! + CLIENT_OFFSET) / tickMs);
    for (let f = 0; f < out.times.length; f++) {
      const c = out.times[f]! + CLIENT_OFFSET;
      // every tick up to one past the frame's time, each made one tick before its own time
      while (tickAt(next - 1) <= c) {
        time.runUntil(tickAt(next) - tickMs - CLIENT_OFFSET);
        tick.tick = next;
        tick.time = next * tick.dt;
        tick.previousAt = tickAt(next - 1);
        tick.at = tickAt(next);
        client.step(world, tick);
        kept.push({ at: tick.at, count: world.count, position: world.fields.position.slice(0, 2 * n), generation: generationView(memory, 0, layout).slice(0, n) });
        if (kept.length > 4) kept.shift();
        next++;
      }
      time.runUntil(out.times[f]!);
      const k = kept.findIndex((s) => s.at > c);
      const cur = kept[k]!;
      const prev = kept[k - 1];
      if (prev === undefined || cur.count < n) continue; // nothing drawn yet
      const alpha = (c - prev.at) / (cur.at - prev.at);
      out.drawn[f] = 1;
      const o = f * 2 * n;
      for (let i = 0; i < n; i++) {
        const snap = prev.count <= i || prev.generation[i] !== cur.generation[i];
        for (let j = 2 * i; j < 2 * i + 2; j++) out.position[o + j] = snap ? cur.position[j]! : prev.position[j]! + (cur.position[j]! - prev.position[j]!) * alpha;
      }
    }
    // a client that refused what the encoder sent (a delta it could not decode) drew something else: stop the run
    const link = client.commands.network();
    if (link.refused > 0) throw new Error(`the replay's client refused ${link.refused} messages (${link.lastRefusal ?? ''})`);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  }
  return { ...out, wire };
}

/** Each snapshot as geckos's server sends it: `SI.snapshot.create(state)` at the tick's time, as JSON. */
export function geckosMessages(trace: Trace): string[] {
  const now = SnapshotInterpolation.Now;
  try {
    return trace.snapshots.map((s) => {
      SnapshotInterpolation.Now = () => SERVER_EPOCH + s.time;
      const state = Array.from({ length: trace.orbits.length }, (_, i) => ({ id: `e${i}`, x: s.position[2 * i]!, y: s.position[2 * i + 1]! }));
      return JSON.stringify(SnapshotInterpolation.CreateSnapshot(state));
    });
  } finally {
    SnapshotInterpolation.Now = now;
  }
}

/** geckos, with its default buffer for a 20 Hz server (3 intervals: 150 ms) or `bufferMs`. */
export function replayGeckos(setup: ReplaySetup, messages: readonly string[], bufferMs?: number): Drawn {
  const { out, n } = drawnOf(setup);
  const time = new EventQueue();
  const now = SnapshotInterpolation.Now;
  SnapshotInterpolation.Now = () => Math.floor(CLIENT_EPOCH + time.now);
  try {
    const SI = new SnapshotInterpolation(1000 / SEND_INTERVAL_MS);
    if (bufferMs !== undefined) SI.interpolationBuffer.set(bufferMs);
    setup.arrivals.forEach((at, k) => {
      if (at !== null) time.schedule(at, () => SI.snapshot.add(JSON.parse(messages[k]!)));
    });
    let drawn = false;
    for (let f = 0; f < out.times.length; f++) {
      time.runUntil(out.times[f]!);
      const o = f * 2 * n;
      const result = SI.calcInterpolation('x y');
      if (result !== undefined) {
        drawn = true;
        const state = result.state as unknown as Array<{ x: number; y: number }>;
        for (let i = 0; i < n; i++) {
          out.position[o + 2 * i] = state[i]!.x;
          out.position[o + 2 * i + 1] = state[i]!.y;
        }
      } else if (drawn) {
        out.position.copyWithin(o, o - 2 * n, o); // nothing new: the game's sprites stay where they were
      }
      out.drawn[f] = drawn ? 1 : 0;
    }
  } finally {
    SnapshotInterpolation.Now = now;
  }
  return out;
}

/** The newest snapshot that arrived, as it is. */
export function replayLatest(setup: ReplaySetup): Drawn {
  const { out, n } = drawnOf(setup);
  const time = new EventQueue();
  let newest = -1;
  setup.arrivals.forEach((at, k) => {
    if (at !== null) time.schedule(at, () => (newest = Math.max(newest, k)));
  });
  for (let f = 0; f < out.times.length; f++) {
    time.runUntil(out.times[f]!);
    if (newest < 0) continue;
    out.drawn[f] = 1;
    out.position.set(setup.trace.snapshots[newest]!.position, f * 2 * n);
  }
  return out;
}
