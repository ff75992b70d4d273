/**
 * The worker's side of a transport (see main/transport.ts for the page's): the memory map the simulation
 * publishes into, where its ticks take input from, and what tells the page about publishes and header words.
 * The simulation talks to this interface only.
 */
import type { InputReader } from '../core/input-ring.ts';
import type { SharedViews } from '../core/layout.ts';
import type { AttachConfig, TransportKind } from '../core/protocol.ts';
import type { Schema } from '../core/schema.ts';
import type { SimulationHost } from './host.ts';
import { connectMessageTransport } from './message-transport.ts';
import { connectSharedTransport } from './shared-transport.ts';

export interface WorkerTransport<S extends Schema> {
  readonly kind: TransportKind;
  /** The memory map the `SlotWriter` publishes into: the shared buffer, or a plain one of the worker's own. */
  readonly views: SharedViews<S>;
  /** The WebAssembly.Memory `views` lay out (shared transport with the SIMD kernels): publishes use memory.copy. */
  readonly memory: WebAssembly.Memory | null;
  /** Where ticks take their input events (null without input). */
  readonly input: InputReader | null;
  /** Input events this side refused (message transport: its own ring was full; never, with flow control). */
  inputRejected(): number;
  /** State buffers in circulation (message transport; 0 for shared memory). */
  stateBuffers(): number;
  /** The host the loop runs on when the game passed none. */
  defaultHost(): SimulationHost;
  /** After every publish (the front slot changed) and every restamp (its times changed). */
  published(front: 0 | 1): void;
  restamped(front: 0 | 1): void;
  /** After STATUS, OVERLOADS or HEARTBEAT changed outside a publish. */
  headerChanged(): void;
  /** Cuts the host's sleep short when it is not an Atomics wait on the doorbell. */
  wake(): void;
}

/** The transport `config` asks for: a shared buffer, or a message port. */
export function connectWorkerTransport<S extends Schema>(schema: S, config: AttachConfig): WorkerTransport<S> {
  if (config.buffer !== undefined) return connectSharedTransport(schema, config.buffer, config.capacity, config.input, config.memory);
  if (config.port !== undefined) return connectMessageTransport(schema, config.port, config.capacity, config.clockAnchor ?? 0, config.inputRing ?? null);
  throw new TypeError('steadyframe: attach() needs a shared buffer or a message port; createRuntime() passes one');
}
