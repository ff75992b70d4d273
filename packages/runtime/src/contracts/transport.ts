/**
 * A transport: how states reach the page and how frame times and input reach the worker. A plug-in with two
 * halves, one per side, named by one object; the registry (transports/registry.ts) chooses among them, and an
 * app may add its own (`createRuntime({ transports })`, `exposeSimulation(definition, { transports })`).
 * One contract suite (test/node/transport-contract.test.ts) runs against every transport the library ships.
 * Types only.
 *
 * | transport | states                                   | frame times, input                          |
 * |-----------|------------------------------------------|---------------------------------------------|
 * | shared    | the front slot of one SharedArrayBuffer, | NEXT_FRAME under its sequence lock; the     |
 * |           | read under LOCK (`SlotReader`)           | input ring in a SharedArrayBuffer of its own|
 * | message   | transferred ArrayBuffers, the last two   | messages; the input ring stays on the page  |
 * |           | kept as the pair (no isolation needed)   | until the worker has taken its events       |
 *
 * Game events (worker to page) go with the states: the shared transport's event ring is a SharedArrayBuffer of its
 * own, committed under LOCK; the message transport's travel in each state's message into a ring of the page's.
 */
import type { EventReader } from '../core/event-reader.ts';
import type { EventWriter } from '../core/event-writer.ts';
import type { InputWriter } from '../core/input-writer.ts';
import type { InputReader } from '../core/input-reader.ts';
import type { Layout, SharedViews } from '../core/layout.ts';
import type { FieldViews, Schema } from '../core/schema.ts';
import type { BlendBackend, BlendKernels } from '../core/simd-kernel.ts';
import type { StateSource } from '../core/slot-reader.ts';
import type { StateWriter } from '../core/slot-writer.ts';
import type { PageHost, WorkerHost } from './host.ts';
import type { AttachConfig, TransportKind } from './remote.ts';

/** The input ring's size: a power-of-two capacity and the numbers each event carries. */
export interface InputRingSize {
  readonly capacity: number;
  readonly payloadWidth: number;
}

/** The event ring's size: a power-of-two capacity and the numbers each event carries. */
export type EventRingSize = InputRingSize;

/** What the page's half is made with. */
export interface PageTransportContext<S extends Schema> {
  readonly schema: S;
  readonly layout: Layout;
  /** The clock anchor the state buffer carries (core/clock.ts). */
  readonly anchor: number;
  /** compareExchange attempts before a frame's acquire gives up. */
  readonly maxSpins: number;
  /** The input ring, or null for none. */
  readonly input: InputRingSize | null;
  /** The event ring (worker to page), or null for none. */
  readonly events: EventRingSize | null;
  /** The blend kernels the app asked for: a transport that can lay its states in a WebAssembly memory makes them. */
  readonly kernels: BlendBackend;
  readonly host: PageHost;
}

/** The wasm SIMD kernels over the transport's memory, and the scratch block the sampler blends through. */
export interface TransportKernels<S extends Schema> {
  readonly kernels: BlendKernels;
  readonly scratch: FieldViews<S>;
}

/** The page's half. The runtime talks to this interface only; it never asks which transport it has. */
export interface PageTransport<S extends Schema, C extends AttachConfig = AttachConfig> {
  readonly kind: TransportKind;
  /** What the worker's `attach` gets (the runtime adds `setup` and the clock), and the objects transferred with it. */
  readonly attach: C;
  readonly transfer: Transferable[];
  /** Where frames read states from. */
  readonly source: StateSource<S>;
  /**
   * The worker's Int32 header words as this thread sees them (STATUS, OVERLOADS, HEARTBEAT, READER_STALLS,
   * FRAME_SEQ): the shared buffer's own, or a mirror of the words the worker last sent. Read them with Atomics.load.
   */
  readonly header: Int32Array;
  /** The shared buffer's views; null where states arrive otherwise. */
  readonly views: SharedViews<S> | null;
  /** The wasm SIMD kernels over the state memory, or null (the JS kernels then). */
  readonly simd: TransportKernels<S> | null;
  /**
   * The input ring's writer (null without input). A push returns false when the event cannot be delivered: the
   * ring is full, or the worker has not yet taken enough of the events sent before; never dropped later. Both
   * count the refusal in `rejected`.
   */
  readonly input: InputWriter | null;
  /**
   * The event ring's reader (null without events): frames present its events. A tick's events are in it by the
   * time a state of that tick can be read from `source` (the shared transport commits them under LOCK; the
   * message transport delivers them in the state's message, before the state).
   */
  readonly events: EventReader | null;
  /** Tells the worker when the next frame will be presented. Returns whether it rang the worker's doorbell (woke it). */
  expectFrame(time: number): boolean;
  /**
   * COVERED, the newest state's time while the worker sleeps (-Infinity while it is awake, NaN while it is
   * being rewritten; core/doorbell.ts), where this thread can read it at any moment (shared memory). Absent where
   * states arrive as messages to this thread, which a wait would never let in.
   */
  readonly covered?: () => number;
  /** After pushes to `input`: a transport that sends them does so at the end of the task. */
  inputPushed(): void;
  /**
   * Resolves once the first state (tick 0, which the worker publishes at attach) can be read from `source`. Absent
   * where it can be as soon as the attach has answered (shared memory); the message transport's comes on a channel
   * of its own, in no order with the attach's answer.
   */
  readonly firstState?: () => Promise<void>;
  /** Stops listening; the worker is being terminated. */
  close(): void;
}

/**
 * The worker's half: the memory map the simulation publishes into, where its ticks take input from, and what
 * tells the page about publishes and header words. The simulation talks to this interface only.
 */
export interface WorkerTransport<S extends Schema> {
  readonly kind: TransportKind;
  /** The memory map the writer publishes into: the shared buffer, or a plain one of the worker's own. */
  readonly views: SharedViews<S>;
  /** Where ticks take their input events (null without input). */
  readonly input: InputReader | null;
  /**
   * Where steps emit events (null without events). The writer this transport makes commits them inside each
   * publish's flip, so the page never reads a tick without its events.
   */
  readonly events: EventWriter | null;
  /** The writer that publishes `world` (laid out like a block, in `views`' world region) into the slots. */
  writer(world: Float32Array, now: () => number): StateWriter<S>;
  /** The host the loop runs on, from the environment's: a transport may change how it sleeps. */
  host(environment: WorkerHost): WorkerHost;
  /** Input events this side refused (0 where the page's flow control refuses them first). */
  inputRejected(): number;
  /** State buffers in circulation (0 for shared memory). */
  stateBuffers(): number;
  /** After every publish (the front slot changed) and every restamp (its times changed). */
  published(front: 0 | 1): void;
  restamped(front: 0 | 1): void;
  /** After STATUS, OVERLOADS or HEARTBEAT changed outside a publish. */
  headerChanged(): void;
  /** Cuts the host's sleep short when it is not an Atomics wait on the doorbell. */
  wake(): void;
}

/**
 * A transport's page half, as the page's registry lists the library's (transports/registry.ts): `page` may load
 * the half's code on demand and resolve to it (the message transport's, which an isolated page never runs). A
 * `Transport` is one.
 */
export interface PageHalf<C extends AttachConfig = AttachConfig> {
  readonly kind: C['kind'];
  available(host: PageHost): string | null;
  page<S extends Schema>(context: PageTransportContext<S>): PageTransport<S, C> | Promise<PageTransport<S, C>>;
  join?<S extends Schema>(context: Pick<PageTransportContext<S>, 'schema' | 'layout' | 'maxSpins'>, config: C): PageTransport<S, C>;
}

/**
 * A transport's worker half, as the worker's registry lists the library's. A `Transport` is one. `load`, where
 * there is one, loads the half's code, and `worker` may be called once it has resolved (the simulation's
 * `prepare` awaits it before the synchronous attach).
 */
export interface WorkerHalf<C extends AttachConfig = AttachConfig> {
  readonly kind: C['kind'];
  load?(): Promise<void>;
  worker<S extends Schema>(schema: S, config: C): WorkerTransport<S>;
}

/** A transport: its kind and its two halves. */
export interface Transport<C extends AttachConfig = AttachConfig> {
  readonly kind: C['kind'];
  /** Null where the page's half can run on `host`, else why not (said when the app asked for this transport). */
  available(host: PageHost): string | null;
  /** The page's half, made once per runtime before the worker attaches. */
  page<S extends Schema>(context: PageTransportContext<S>): PageTransport<S, C>;
  /** The worker's half, from the config the page's half made (its `kind` is this transport's). */
  worker<S extends Schema>(schema: S, config: C): WorkerTransport<S>;
  /**
   * Optional: a page half over a worker another thread attached, from that attach's config (a render worker reads
   * the buffer the page made): frames, the header and the doorbell, no input and nothing to attach. A transport
   * without it cannot feed a render worker.
   */
  join?<S extends Schema>(context: Pick<PageTransportContext<S>, 'schema' | 'layout' | 'maxSpins'>, config: C): PageTransport<S, C>;
}
