/**
 * The network benchmark's recorded trace: what a real server sent. A Node runtime simulates the orbits at 60
 * ticks a second (fixtures/orbits.worker.ts); the snapshot publisher, polled every millisecond as a host's loop
 * would, sends every third tick to one client that records each message and the server's clock when it went out.
 * Every snapshot is then checked against the orbits' truth at its time, so a trace that does not hold what the
 * benchmark thinks it holds stops the run instead of skewing it.
 *
 * The trace keeps the server's states exactly: its runtime is given the schema with quantisation off (the same
 * layout as the worker's: `quantize` lives on the wire only), so the publisher sends every value as its float32
 * bits, and the recording client never acknowledges, so every message is a full snapshot. What each client is
 * sent depends on its link (a delta against the newest state it acknowledged: net/delta-stream.ts), so the
 * replays (replay.ts) encode these states again, per link, with the wire's own encoder and the quantisation
 * under test.
 *
 * The links: one seeded draw per message of a one-way delay (base plus uniform jitter) or a loss, the same
 * draws for every pipeline replayed over a condition.
 */
import { fileURLToPath } from 'node:url';
import { createNodeRuntime, createSnapshotPublisher } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import { computeLayout, generationView } from '../../src/core/layout.ts';
import { decodeSnapshot, wireFormat, type SnapshotHead } from '../../src/net/wire.ts';
import { createLink } from '../../test/node/support/net-link.ts';
import { makeOrbits, ORBIT_SEND_EVERY, orbitSchemaWith, writeOrbit, type Orbit, type OrbitSetup } from './orbits.ts';

export interface TracedSnapshot {
  /** Its head as the server sent it: tick, time (the server time the state stands for, its tick's, ms), count... */
  readonly head: SnapshotHead;
  readonly tick: number;
  readonly time: number;
  /** The server's clock when the publisher sent it, ms. */
  readonly sent: number;
  /** The state, exactly: a block of the orbits' layout (`computeLayout(schema, count)`) and its generations. */
  readonly block: Float32Array;
  readonly generation: Uint32Array;
  /** Its entities' positions (2 floats an entity). */
  readonly position: Float32Array;
}

export interface Trace {
  readonly orbits: readonly Orbit[];
  readonly snapshots: readonly TracedSnapshot[];
  /** The largest distance between a decoded position and the truth at its snapshot's time (float32 rounding). */
  readonly worstMismatch: number;
  /** Sends the server missed (its loop stalled past a whole send interval): in the trace as they happened. */
  readonly serverGaps: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const built = new Map<string, Promise<string>>();
/** A fixture worker of the benchmark's (bench/fixtures/<name>.worker.ts), bundled for Node once a run. */
export function benchWorker(name: 'orbits' | 'orbits-client'): Promise<string> {
  let module = built.get(name);
  if (module === undefined) built.set(name, (module = buildWorkerModule(fileURLToPath(new URL(`../fixtures/${name}.worker.ts`, import.meta.url)))));
  return module;
}

/** Records `seconds` of snapshots of `count` orbits (the first second after start is left out: the loop settling). */
export async function recordTrace(count: number, seconds: number, seed: number): Promise<Trace> {
  const worker = await benchWorker('orbits');
  const exact = orbitSchemaWith(null);
  const rt = await createNodeRuntime<typeof exact, object, OrbitSetup>({ worker, schema: exact, capacity: count, setup: { count, seed } });
  const recorded: Array<{ bytes: Uint8Array; sent: number }> = [];
  try {
    await rt.start();
    const publisher = createSnapshotPublisher(rt, { every: ORBIT_SEND_EVERY });
    await sleep(1000);
    publisher.connect((bytes) => recorded.push({ bytes: bytes.slice(), sent: rt.now() }));
    const loop = setInterval(() => publisher.publish(), 1);
    await sleep(seconds * 1000);
    clearInterval(loop);
  } finally {
    rt.dispose();
  }
  const layout = computeLayout(exact, count);
  const format = wireFormat(layout);
  const orbits = makeOrbits(count, seed);
  const truth = new Float64Array(2 * count);
  const start = layout.fields.find((f) => f.name === 'position')!.offset / 4;
  let worstMismatch = 0;
  const snapshots = recorded.map(({ bytes, sent }): TracedSnapshot => {
    const memory = new ArrayBuffer(layout.blockBytes);
    const block = new Float32Array(memory);
    const generation = generationView(memory, 0, layout);
    const head = decodeSnapshot(format, bytes, block, generation);
    if (head.count !== count) throw new Error(`the trace's snapshot of tick ${head.tick} has ${head.count} entities, not ${count}`);
    if (head.baseline !== -1) throw new Error(`the trace's snapshot of tick ${head.tick} is a delta: the recording client acknowledged nothing`);
    const position = block.slice(start, start + 2 * count);
    for (let i = 0; i < count; i++) {
      writeOrbit(orbits[i]!, head.time, truth, i);
      worstMismatch = Math.max(worstMismatch, Math.hypot(position[2 * i]! - truth[2 * i]!, position[2 * i + 1]! - truth[2 * i + 1]!));
    }
    return { head, tick: head.tick, time: head.time, sent, block, generation, position };
  });
  // float32 positions within ±62 units: rounding is under 1e-5; anything more is a state of another time
  if (worstMismatch > 1e-4) throw new Error(`the trace's states are not the orbits at their snapshots' times (off by up to ${worstMismatch} units)`);
  let serverGaps = 0;
  for (let k = 1; k < snapshots.length; k++) serverGaps += Math.round((snapshots[k]!.tick - snapshots[k - 1]!.tick) / ORBIT_SEND_EVERY) - 1;
  return { orbits, snapshots, worstMismatch, serverGaps };
}

/** One link condition: every message's one-way delay, ms, from a mean `baseMs`. */
export interface Condition {
  readonly baseMs: number;
  readonly jitterMs: number;
  readonly loss: number;
  readonly seed: number;
}

/** When each snapshot arrives (true ms after the server's first send, which is at `lead` true ms), or null: lost. */
export function arrivals(trace: Trace, condition: Condition, lead: number): Array<number | null> {
  const link = createLink(condition.seed, { baseMs: condition.baseMs, jitterMs: condition.jitterMs, loss: condition.loss });
  const first = trace.snapshots[0]!.sent;
  return trace.snapshots.map((s) => {
    const delay = link();
    return delay === null ? null : lead + (s.sent - first) + delay;
  });
}
